import * as fc from "fast-check";

/** Code points 0xD800-0xDFFF: lone surrogates, which fast-check's "binary" unit leaves out. */
const FIRST_SURROGATE = 0xd800;
const SURROGATES = 0x800;

/**
 * One code point, as `fc.string({ unit: "binary" })` draws them: any except a lone surrogate, by
 * the same index (`nat` over 0..0x10FFFF minus the surrogates, so the same distribution and
 * shrinking towards U+0000). fast-check's own unit maps an index to a constant and back through a
 * table of all 1.1 million code points, which it builds on first use in every worker (~1.1 CPU-s;
 * `string` needs the way back to tokenize its well-known strings); here the way back is arithmetic.
 */
export const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (index) => String.fromCodePoint(index < FIRST_SURROGATE ? index : index + SURROGATES),
  (value) => {
    const codePoint = typeof value === "string" ? value.codePointAt(0) : undefined;
    if (codePoint === undefined || String.fromCodePoint(codePoint) !== value || (codePoint >= FIRST_SURROGATE && codePoint < FIRST_SURROGATE + SURROGATES)) {
      throw new Error("not one code point outside the surrogates");
    }
    return codePoint < FIRST_SURROGATE ? codePoint : codePoint - SURROGATES;
  },
);

/** `fc.string({ ...constraints, unit: "binary" })`, with binaryUnit. */
export function binaryString(constraints: Omit<fc.StringConstraints, "unit"> = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: binaryUnit });
}
