import { z } from "zod";
import { formatPath } from "./boundary";
import type { ConfigIssue } from "./rules/rule";
import { configSchema } from "./schema";
import { expectsDuration, suggestKey } from "./suggest";

/**
 * zod's issues as config issues: the field, the value (unless a rule marks it possibly secret),
 * the rule in words a YAML author reads and the fix, never zod's own wording ("Invalid key in
 * record", "Too big: expected int to be <=9007199254740991").
 */

/** A config issue for one zod issue of configSchema. */
export function fromZodIssue(issue: z.core.$ZodIssue): ConfigIssue {
  const at = formatPath(issue.path);
  // A value a rule marks as possibly secret (file contents pasted into a path field) is never shown.
  const value = (issue as { params?: { secret?: boolean } }).params?.secret ? undefined : issue.input;
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? { path: at, message: `is required (${issue.expected})` }
        : issue.expected === "int" && typeof issue.input === "number"
          ? { path: at, value: issue.input, message: "must be a whole number" }
          : {
              path: at,
              // A map or list where text is expected may be a pasted secret (`pullSecretFile: {"auths": ...}`): named, not shown.
              value: typeof issue.input === "object" && issue.input !== null ? undefined : issue.input,
              message: `must be ${article(USER_TYPES[issue.expected] ?? issue.expected)}, got ${describeType(issue.input)}${coercionHint(issue)}`,
            };
    case "unrecognized_keys": {
      const hints = issue.keys.map((key) => suggestKey(configSchema, issue.path, key)).filter((hint) => hint !== undefined);
      return {
        path: issue.keys.length === 1 ? formatPath([...issue.path, issue.keys[0]]) : at,
        message: `unknown key${issue.keys.length > 1 ? `s ${issue.keys.join(", ")}` : ""}${hints.length > 0 ? `: ${hints.join("; ")}` : ""} (see help/configuration.md for the keys)`,
      };
    }
    case "invalid_value":
      return { path: at, value: issue.input, message: `must be one of ${issue.values.map((v) => String(v)).join(", ")}` };
    case "invalid_union": {
      const discriminator = (issue as { discriminator?: string }).discriminator;
      // zod 4 reports the path of the discriminator itself or of its object, depending on the case.
      const fieldPath = issue.path[issue.path.length - 1] === discriminator ? issue.path : [...issue.path, discriminator ?? ""];
      return discriminator
        ? {
            path: formatPath(fieldPath),
            value: (issue.input as Record<string, unknown> | undefined)?.[discriminator],
            message: "must be one of local, azurerm, cloud",
          }
        : { path: at, value: issue.input, message: issue.message };
    }
    case "too_small":
    case "too_big":
      // zod's own wording starts "Too small"/"Too big"; a schema's own message is kept.
      return { path: at, value: issue.input, message: /^Too (small|big)/.test(issue.message) ? boundMessage(issue) : issue.message };
    case "invalid_key":
      // A record's key schema failing: zod says only "Invalid key in record".
      return {
        path: at,
        value: issue.input,
        message: `is not a valid key here${issue.issues[0] ? `: it ${issue.issues[0].message}` : ""}; rename it (help/configuration.md)`,
      };
    default:
      return { path: at, value, message: issue.message };
  }
}

/**
 * The coercion rule's hint (scalarAsText, config/schema/primitives.ts): YAML read unquoted text as a number or
 * boolean where the field takes text. A Go duration also needs its unit.
 */
function coercionHint(issue: z.core.$ZodIssue & { code: "invalid_type" }): string {
  if (issue.expected === "string" && (typeof issue.input === "number" || typeof issue.input === "boolean")) {
    const duration = typeof issue.input === "number" && expectsDuration(configSchema, issue.path);
    return duration
      ? ` (YAML reads unquoted ${issue.input} as a number: write a Go duration with its unit, e.g. "${issue.input}s" or "${issue.input}m")`
      : ` (YAML reads unquoted ${String(issue.input)} as a ${typeof issue.input}: quote it, "${String(issue.input)}")`;
  }
  if ((issue.expected === "number" || issue.expected === "int") && typeof issue.input === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(issue.input)) {
    return ` (write it without quotes: ${issue.input.trim()})`;
  }
  if (issue.expected === "boolean" && typeof issue.input === "string" && /^(true|false)$/i.test(issue.input.trim())) {
    return ` (write it without quotes: ${issue.input.trim().toLowerCase()})`;
  }
  return "";
}

/** zod's type names as a YAML author reads them. */
const USER_TYPES: Readonly<Record<string, string>> = { object: "map", record: "map", array: "list", int: "whole number" };

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeType(value: unknown): string {
  return Array.isArray(value) ? "a list" : value === null ? "null" : typeof value === "object" ? "a map" : typeof value;
}

/** A size or range bound in words: "must be at most 100", "must have at least 1 character". */
function boundMessage(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === "too_small";
  const bound = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") {
    // A whole-number field without a bound of its own: zod's, the largest integer a JSON number holds exactly.
    const safe = Math.abs(Number(bound)) === Number.MAX_SAFE_INTEGER ? " (the largest whole number a config holds exactly)" : "";
    return `must be ${small ? (inclusive ? "at least" : "more than") : inclusive ? "at most" : "less than"} ${bound}${safe}`;
  }
  const unit = issue.origin === "string" ? "character" : "item";
  return `must have ${small ? "at least" : "at most"} ${bound} ${unit}${Number(bound) === 1 ? "" : "s"}`;
}
