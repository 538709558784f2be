import { Testing, TerraformStack } from "cdktf";
import * as fs from "node:fs";
import { addStacks } from "../stacks/app";
import { withoutMetadata } from "./fast-testing-synth";
import { EXAMPLES, loadExample } from "./helpers";

type Synth = (stack: TerraformStack, runValidations?: boolean) => string;
const fast = Testing.synth as Synth & { original?: Synth };

describe("Testing.synth in linear time (fast-testing-synth.ts, installed by setup.ts)", () => {
  it("is installed, with cdktf's own kept", () => {
    expect(typeof fast.original).toBe("function");
    expect(fast.original).not.toBe(fast);
  });

  it.each(fs.readdirSync(EXAMPLES).filter((file) => file.endsWith(".yaml")))("writes the same text as cdktf's for every stack of %s", (file) => {
    const stacks = addStacks(Testing.app(), loadExample(file), "/out");
    expect(stacks.length).toBeGreaterThan(0);
    for (const stack of stacks) expect([stack.node.id, fast(stack)]).toEqual([stack.node.id, fast.original!(stack)]);
  });

  it("drops `//` at every depth, keeps everything else (a `__proto__` key as a key), copies", () => {
    const input = JSON.parse('{"//":{"m":1},"b":[{"//":2,"x":null},3],"a":{"__proto__":{"y":1},"//":0},"u":"s"}');
    const output = withoutMetadata(input) as any;
    expect(JSON.stringify(output)).toBe('{"b":[{"x":null},3],"a":{"__proto__":{"y":1}},"u":"s"}');
    expect(Object.getPrototypeOf(output.a)).toBe(Object.prototype);
    expect(input["//"]).toEqual({ m: 1 });
  });
});
