import { z } from "zod";

/**
 * The one coercion of the config: YAML reads an unquoted `1` as a number and `true` as a
 * boolean. Where the field's text can only be such a word (an availability zone "1"-"3",
 * pausedUntil "true"), the value is taken as its text; everywhere else a number or boolean where
 * text is expected is refused with a "quote it" hint (config/load.ts), since YAML may already
 * have changed the text (`4.10` reads as 4.1, `0800` as 800).
 */
export function scalarAsText<T extends z.ZodType>(inner: T) {
  return z.preprocess((value) => (typeof value === "number" || typeof value === "boolean" ? String(value) : value), inner);
}
