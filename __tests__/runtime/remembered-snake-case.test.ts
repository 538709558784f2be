import fc from "fast-check";

/**
 * runtime/remembered-snake-case.js replaces cdktf's `keysToSnakeCase` in every synth and test
 * (runtime/patch-cdktf.js). The proof that it changes nothing: random objects (repeated keys, so
 * remembered ones are reused; tokens; the keys cdktf leaves as they are) converted both ways.
 */
const util: {
  keysToSnakeCase: ((object: unknown) => unknown) & { original?: (object: unknown) => unknown; remembering?: boolean };
} = require("cdktf/lib/util");
const remembered: { rememberSnakeCase(env: NodeJS.ProcessEnv): boolean } = require("../../runtime/remembered-snake-case.js");
const { Lazy } = require("cdktf") as typeof import("cdktf");

describe("runtime/remembered-snake-case.js", () => {
  it("is installed in tests, idempotently, and HCP_AZURE_FAST_RESOLVE=0 leaves cdktf's own", () => {
    expect(util.keysToSnakeCase.remembering).toBe(true);
    const installed = util.keysToSnakeCase;
    expect(remembered.rememberSnakeCase({})).toBe(true);
    expect(util.keysToSnakeCase).toBe(installed);
    expect(remembered.rememberSnakeCase({ HCP_AZURE_FAST_RESOLVE: "0" })).toBe(false);
  });

  it("converts random objects as cdktf's own does", () => {
    const original = util.keysToSnakeCase.original!;
    const key = fc.constantFrom("resourceGroupName", "tags", "environment", "dnsPrefix", "IPv4Address", "aB_cD", "x", "kubeConfig0", "already_snake");
    const token = fc.constant(null).map(() => Lazy.stringValue({ produce: () => "v" }));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), token),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(key, tie("node"), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, tree, { maxKeys: 5 }), (object) => {
        expect(util.keysToSnakeCase(object)).toEqual(original(object));
      }),
      { numRuns: 300 },
    );
  });
});
