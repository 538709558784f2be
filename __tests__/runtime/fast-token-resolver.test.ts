import { Fn, Lazy, TerraformIterator, TerraformLocal, TerraformStack, TerraformVariable, Testing, Token } from "cdktf";
import { DefaultTokenResolver, StringConcat } from "cdktf/lib/tokens/resolvable";
import fc from "fast-check";

/**
 * runtime/fast-token-resolver.js replaces cdktf's token resolver in every synth (and in every test:
 * __tests__/setup-token-stacks.ts). The proof that it changes nothing: random trees of plain data
 * and tokens resolved by both, results and errors compared, here; every example and a
 * many-cluster config synthesized with it (the bundle) and with cdktf's own resolver, every output
 * byte compared, in run-bundle.test.ts.
 */
const resolveModule: {
  resolve: ((obj: unknown, options: object) => unknown) & { original?: (obj: unknown, options: object) => unknown };
} = require("cdktf/lib/tokens/private/resolve");
const fastResolve: { CDKTF_VERSION: string; installFastResolve(env: NodeJS.ProcessEnv): boolean } = require("../../runtime/fast-token-resolver.js");

const fast = resolveModule.resolve;
const original = fast.original!;

/** Runs `fn` with cdktf's resolve replaced by `resolve`. */
function using<T>(resolve: typeof fast, fn: () => T): T {
  const saved = resolveModule.resolve;
  resolveModule.resolve = resolve;
  try {
    return fn();
  } finally {
    resolveModule.resolve = saved;
  }
}

describe("runtime/fast-token-resolver.js", () => {
  it("is installed in tests, for the cdktf version it mirrors", () => {
    expect(require("cdktf/package.json").version).toBe(fastResolve.CDKTF_VERSION);
    expect(typeof original).toBe("function");
    expect(fastResolve.installFastResolve({})).toBe(true); // idempotent
    expect(resolveModule.resolve).toBe(fast);
  });

  it("HCP_AZURE_FAST_RESOLVE=0 keeps cdktf's resolver", () => {
    using(original, () => {
      expect(fastResolve.installFastResolve({ HCP_AZURE_FAST_RESOLVE: "0" })).toBe(false);
      expect(resolveModule.resolve).toBe(original);
    });
  });

  describe("random trees of data and tokens", () => {
    const stack = new TerraformStack(Testing.app(), "resolve");
    const variable = new TerraformVariable(stack, "v", {});
    const local = new TerraformLocal(stack, "l", { a: variable.stringValue });
    const iterator = TerraformIterator.fromList(variable.listValue);
    const options = () => ({ scope: stack, preparing: false, resolver: new DefaultTokenResolver(new StringConcat()) });
    /** The outcome of a resolve: its JSON, or its error message. */
    const outcome = (resolve: typeof fast, value: unknown): { json?: string; error?: string } => {
      try {
        return { json: JSON.stringify(resolve(value, options())) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };

    // Strings the encoded-number, escape and marker checks look at.
    const text = fc.string({ unit: fc.constantFrom("a", "e", "E", "1", "9", "-", "+", ".", "|", "$", "{", "}", "[", "]", " ", "TfToken["), maxLength: 12 });
    const tokenString = fc.constantFrom(
      variable.stringValue,
      local.asString,
      Fn.upper(variable.stringValue),
      Fn.join(",", variable.listValue),
      Lazy.stringValue({ produce: () => "lazy-1e5" }),
      // Escapes and contexts: a format string with a literal ${, a raw string, an iterator's value.
      Fn.format("%s-$${x}-${1}", [variable.stringValue]),
      Fn.rawString("${not.a.reference}"),
      Fn.upper(`${variable.stringValue}-\${x}-}`),
      `a-\${${variable.stringValue}}-b`,
      Fn.upper(`a-\${${variable.stringValue}}-b`),
      iterator.getString("name"),
      Token.asString(iterator.dynamic({ name: iterator.getString("name"), n: 1 })),
      Token.asString(Lazy.anyValue({ produce: () => ({ nested: [variable.stringValue, 1, "x"] }) })),
      `\${TfToken[TOKEN.999999]}`, // a marker that names no token
      // Number tokens inside strings (no TfToken[ marker: only the encoded-number check finds them).
      `n ${variable.numberValue} m`,
      `x${Token.asNumber(Lazy.numberValue({ produce: () => 42 }))}`,
      `${Token.asNumber(Lazy.numberValue({ produce: () => 7 }))}e${variable.numberValue}`,
    );
    const leaf = fc.oneof(
      text,
      fc.tuple(text, tokenString, text).map(([a, t, b]) => `${a}${t}${b}`),
      fc.constantFrom(variable.numberValue, Token.asNumber(Lazy.numberValue({ produce: () => 42 })), -1.8881545897087626e289, 1e21, NaN, 0, -0),
      fc.double(),
      fc.constantFrom(variable.listValue, Token.asNumberList(variable.value), [variable.listValue[0], "x"], local.asList),
      fc.constantFrom(true, false, null, undefined, new Date(0)),
      fc.constantFrom(Lazy.anyValue({ produce: () => ({ a: [1, undefined, "b"], c: undefined }) }), Fn.lookup(local.asAnyMap, "k", "d")),
      fc.constantFrom(
        Token.STRING_MAP_TOKEN_VALUE,
        Token.NUMBER_MAP_TOKEN_VALUE,
        Token.asAnyMap(variable.value),
        { ...Token.asStringMap(variable.value), extra: "x" },
        () => 1,
      ),
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leaf, tie("array"), tie("object")),
      array: fc.array(tie("node"), { maxLength: 4 }),
      object: fc.dictionary(fc.oneof(text, tokenString), tie("node"), { maxKeys: 4 }),
    })).node;

    it("resolve to the same JSON, or fail with the same message", () => {
      fc.assert(
        fc.property(tree, (value) => {
          const [mine, cdktfs] = [outcome(fast, value), outcome(original, value)];
          // toEqual only where the two differ (an expect per run was a quarter of this test's time):
          // where both fields are the same strings, toEqual holds.
          if (mine.json !== cdktfs.json || mine.error !== cdktfs.error) expect(mine).toEqual(cdktfs);
        }),
        { numRuns: 2000 },
      );
    });

    it("finds a number token inside a string, which carries no TfToken[ marker", () => {
      const value = `x${Token.asNumber(Lazy.numberValue({ produce: () => 42 }))}`;
      expect(value).not.toContain("TfToken[");
      expect(outcome(fast, value)).toEqual({ json: '"x42"' });
      expect(outcome(original, value)).toEqual({ json: '"x42"' });
    });

    it.each([
      [
        "a cycle deeper than 200",
        (() => {
          const cyclic: Record<string, unknown> = {};
          cyclic.self = cyclic;
          return cyclic;
        })(),
      ],
      ["a construct", { inner: stack }],
      ["a key that resolves to a non-string", { [Token.asString(Lazy.anyValue({ produce: () => 1 }))]: "v" }],
      ["a list token in a string", `x${variable.listValue[0]}`],
    ])("fails like cdktf's on %s", (_name, value) => {
      const expected = outcome(original, value);
      expect(expected.error).toBeDefined();
      expect(outcome(fast, value)).toEqual(expected);
    });
  });
});
