import { Fn, Token } from "cdktf";

/**
 * Values from the config are data, never Terraform code. Terraform reads `${` and `%{` in any
 * JSON string (keys too) as template syntax, so `owner: '${file("/etc/hostname")}'` in a tag
 * would be evaluated at plan time. Every construct writes literal strings through these helpers:
 * `escapeTemplates` for attribute values and keys, `fileContents` for paths Terraform reads with
 * file().
 */

/** A cdktf string token marker, exactly as cdktf encodes one (`BEGIN_STRING_TOKEN_MARKER`, `VALID_KEY_CHARS`). */
const STRING_TOKEN = /\$\{TfToken\[[a-zA-Z0-9:._-]+\]\}/g;

/** `${` → `$${`, `%{` → `%%{` (replacer functions: in a replacement string "$$" would mean one "$"). */
function escapeLiteral(text: string): string {
  return text.replace(/\$\{/g, () => "$${").replace(/%\{/g, () => "%%{");
}

/**
 * A literal as Terraform must see it to read it back byte for byte: `${` → `$${`, `%{` → `%%{`,
 * in strings, object keys and nested values. A cdktf reference of ours (a client ID looked up at
 * plan time) is kept, and only the marker itself: the text around it is escaped, so text that
 * merely contains a marker can never carry a live template along (config text cannot hold one at
 * all: config/boundary.ts refuses it). cdktf keeps `$${` in the literal parts of a string with a
 * token. Does not change its input.
 */
export function escapeTemplates(value: unknown): unknown {
  if (typeof value === "string") {
    if (!value.includes("TfToken[")) return escapeLiteral(value);
    let escaped = "";
    let last = 0;
    for (const match of value.matchAll(STRING_TOKEN)) {
      escaped += escapeLiteral(value.slice(last, match.index)) + match[0];
      last = match.index + match[0].length;
    }
    return escaped + escapeLiteral(value.slice(last));
  }
  if (Array.isArray(value)) return value.map(escapeTemplates);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [escapeTemplates(key) as string, escapeTemplates(child)]));
  }
  return value;
}

/** Tags as Terraform literals (names and values). @default {} when undefined. */
/** One string as a Terraform literal (escapeTemplates): config text in an attribute, output or message. */
export function literal(text: string): string {
  return escapeTemplates(text) as string;
}

export function literalTags(tags: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return escapeTemplates(tags ?? {}) as Record<string, string>;
}

/**
 * Config text inside a quoted argument of a cdktf function call, such as the scope in
 * `Fn.uuidv5("url", `${functionArgument(scope)}/${guid}/${objectId}`)`: cdktf writes the literal
 * parts of the argument into an HCL expression escaping only `${` and newlines (and refuses a
 * bare `"`), so `\`, `"`, `%{` and the other control characters are escaped here. Text without
 * them is returned as it is (a function argument of today's output is unchanged). Proven with
 * Terraform in __tests__/stacks/config-string-sweep.test.ts.
 */
export function functionArgument(text: string): string {
  return (
    text
      .replace(/\\/g, () => "\\\\")
      .replace(/"/g, () => '\\"')
      .replace(/%\{/g, () => "%%{")
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
  );
}

/**
 * `file("<path>")`, read by Terraform at plan time, for any path: the argument is an HCL quoted
 * string, where `\`, `"`, control characters, `${` and `%{` all mean something. cdktf's own
 * argument check throws on a `"` and leaves `%{` and `\` alone, so the literal is built here:
 * `\` and `%{` escaped first, then Fn.rawString escapes newlines, `${` and `"`. A cdktf
 * reference is passed through.
 */
export function fileContents(file: string): string {
  // A reference (a path computed at plan time) is an expression already.
  if (Token.isUnresolved(file)) return Fn.file(file);
  const hcl = file
    .replace(/\\/g, () => "\\\\")
    .replace(/%\{/g, () => "%%{")
    // Other control characters as \uNNNN (HCL's escape); newlines are left to Fn.rawString.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return Fn.file(Fn.rawString(hcl));
}
