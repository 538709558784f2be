import * as path from "node:path";

/**
 * cdktf's `Testing.synth(stack)` with its metadata removal in linear time. cdktf rebuilds every
 * object of the stack's JSON key by key (`reduce((acc, [k, v]) => ({ ...acc, [k]: ... }))`,
 * quadratic in the keys, after sorting them with localeCompare) to drop the `//` metadata, then
 * writes it with json-stable-stringify, which sorts the keys again: 15-20% of a test's synth time.
 * Here each object is copied once without `//`; the same json-stable-stringify (cdktf's own copy)
 * writes it, so the text is the same (__tests__/fast-testing-synth.test.ts compares every stack of
 * every example with cdktf's function, kept as `Testing.synth.original`). Installed by setup.ts.
 */
export function installFastTestingSynth(): void {
  const { Testing } = require("cdktf") as typeof import("cdktf");
  if ((Testing.synth as { original?: unknown }).original) return;
  const cdktf = path.dirname(require.resolve("cdktf/package.json"));
  const stringify = require(require.resolve("json-stable-stringify", { paths: [cdktf] })) as (value: unknown, options: { space: number }) => string;
  const { invokeAspects } = require("cdktf/lib/synthesize/synthesizer") as { invokeAspects(construct: unknown): void };
  const original = Testing.synth;
  const synth = (stack: import("cdktf").TerraformStack, runValidations = false): string => {
    invokeAspects(stack);
    if (runValidations) stack.runAllValidations();
    return stringify(withoutMetadata(stack.toTerraform()), { space: 2 });
  };
  Testing.synth = Object.assign(synth, { original });
}

/** `item` without the `//` key of any object in it (copies; a `__proto__` key stays a key). */
export function withoutMetadata(item: unknown): unknown {
  if (item === null || typeof item !== "object") return item;
  if (Array.isArray(item)) return item.map(withoutMetadata);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(item)) {
    if (key === "//") continue;
    const value = withoutMetadata((item as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    else copy[key] = value;
  }
  return copy;
}
