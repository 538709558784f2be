import { Token } from "cdktf";
import { Document, isMap, isPair, isSeq, LineCounter, Node, parseDocument } from "yaml";
import type { ConfigIssue } from "./rules/rule";
import { toJsProblem, unresolvedAliasMessage } from "./yaml-aliases";

/**
 * The boundary between what an operator writes and what synth works with: config text is data.
 *
 * - The YAML loader's own failures (syntax, duplicate keys, alias bombs, nesting) are config
 *   errors with line numbers, never exceptions.
 * - The result is plain JSON data (strings, finite numbers, booleans, null, lists, maps with
 *   string keys): no binary, timestamps, sets, complex keys or prototype keys (`__proto__` would
 *   be dropped silently by the objects built from it).
 * - No string or number holds a cdktf token marker (`${TfToken[...]}`, `#{TfToken[...]}`,
 *   `&{TfToken[...]}`, an encoded token number, a map token value): cdktf would take it for a
 *   reference of ours and substitute it, so text around it could reach Terraform as code.
 *   Refused here, once, before any construct sees a config value; constructs/terraform-literal.ts
 *   escapes everything else.
 */

/** Deepest nesting of lists and maps a config may have (the schema's deepest path is about 8). */
export const MAX_DEPTH = 32;

/** Most aliases (`*name`) a config may use: the YAML library's own bound against alias bombs. */
export const MAX_ALIASES = 100;

/** Keys JavaScript objects treat specially; a config never needs them. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export type ParsedYaml = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

/** Parses config YAML into plain JSON data, or the config issues that prevent it. */
export function parseConfigYaml(text: string): ParsedYaml {
  // The YAML parser recurses per nesting level: a hostile document overflows its stack before
  // any check on the parsed nodes could run.
  const nesting = nestingIssue(text);
  if (nesting) return { ok: false, issues: [nesting] };
  // Bytes that are not UTF-8 were decoded as U+FFFD (read-file.ts): they would reach Azure tags and names as such.
  const replaced = text.indexOf("\uFFFD");
  if (replaced >= 0) {
    const line = text.slice(0, replaced).split("\n").length;
    return {
      ok: false,
      issues: [{ path: `(yaml line ${line})`, message: "holds bytes that are not UTF-8 text (or the character U+FFFD); save the file as UTF-8" }],
    };
  }
  let document: Document.Parsed;
  const lineCounter = new LineCounter();
  try {
    document = parseDocument(text, { prettyErrors: true, uniqueKeys: true, merge: false, lineCounter });
  } catch (error) {
    return { ok: false, issues: [{ path: "(yaml)", message: `cannot be parsed (${firstLine(error)})` }] };
  }
  if (document.errors.length > 0) {
    return {
      ok: false,
      issues: document.errors.slice(0, MAX_YAML_ERRORS).map((e) => {
        const at = `(yaml line ${e.linePos?.[0].line ?? "?"}, column ${e.linePos?.[0].col ?? "?"})`;
        if (e.code === "DUPLICATE_KEY") {
          const key = text
            .slice(e.pos[0], e.pos[0] + 200)
            .split(/[\n:]/)[0]
            .trim();
          return { path: at, message: `the key ${JSON.stringify(key)} appears twice in the same map; keep one` };
        }
        if (e.code === "MULTIPLE_DOCS")
          return {
            path: at,
            message: "starts a second YAML document (a --- line); a config is one document: merge the documents into one, or remove the --- line",
          };
        return { path: at, message: firstLine(e) };
      }),
    };
  }
  const issues: ConfigIssue[] = [];
  const depthIssue = tooDeep(document.contents, 0);
  if (depthIssue) return { ok: false, issues: [depthIssue] };
  let raw: unknown;
  try {
    raw = document.toJS({ mapAsMap: true, maxAliasCount: MAX_ALIASES });
  } catch (error) {
    return { ok: false, issues: [unreadableIssue(error, document, lineCounter)] };
  }
  const value = toPlain(raw, [], issues, document);
  if (raw === null || raw === undefined) return { ok: false, issues: [{ path: "(top level)", message: "the file is empty; start from examples/basic.yaml" }] };
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}

/** Why toJS failed on a document without syntax errors: an alias no anchor defines (where), an alias bomb, or the library's words. */
function unreadableIssue(error: unknown, document: Document, lineCounter: LineCounter): ConfigIssue {
  const problem = toJsProblem(error, document, lineCounter);
  if (problem.kind === "unresolved alias") return { path: `(yaml line ${problem.line}, column ${problem.col})`, message: unresolvedAliasMessage(problem.name) };
  return {
    path: "(yaml)",
    message:
      problem.kind === "alias bomb"
        ? `uses aliases (*name) that expand to too much data (more than ${MAX_ALIASES} alias expansions); write the values out`
        : `cannot be read as data (${problem.message})`,
  };
}

/** Most YAML syntax errors listed (the first ones explain the rest). */
const MAX_YAML_ERRORS = 10;

/** Deepest indentation of a config line, in columns. */
const MAX_INDENT = 256;

/**
 * Flow collections (`[`, `{`) nested more than MAX_DEPTH deep, or lines indented more than
 * MAX_INDENT columns, found by a scan of the text (quoted text and comments skipped).
 */
function nestingIssue(text: string): ConfigIssue | undefined {
  let depth = 0;
  let line = 1;
  let column = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      line++;
      column = 0;
      lineStart = true;
      continue;
    }
    column++;
    if (lineStart && c !== " " && c !== "\t") {
      lineStart = false;
      if (column - 1 > MAX_INDENT) return { path: `(yaml line ${line})`, message: `is indented more than ${MAX_INDENT} columns; a config is never that deep` };
    }
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1]))) {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if (c === '"' || c === "'") {
      // Skip the quoted scalar ('' escapes a quote in single quotes, \ escapes in double).
      for (i++; i < text.length; i++) {
        if (text[i] === "\n") line++;
        if (c === '"' && text[i] === "\\") i++;
        else if (text[i] === c && !(c === "'" && text[i + 1] === "'")) break;
        else if (c === "'" && text[i] === "'") i++;
      }
    } else if (c === "[" || c === "{") {
      if (++depth > MAX_DEPTH)
        return {
          path: `(yaml line ${line}, column ${column})`,
          message: `nests lists and maps more than ${MAX_DEPTH} levels deep; a config is never that deep`,
        };
    } else if ((c === "]" || c === "}") && depth > 0) {
      depth--;
    }
  }
  return undefined;
}

/** A nesting deeper than MAX_DEPTH, found on the YAML nodes before anything recursive runs on the data. */
function tooDeep(node: unknown, depth: number): ConfigIssue | undefined {
  // Iterative: a hostile document may nest thousands of levels.
  const stack: Array<[unknown, number]> = [[node, depth]];
  while (stack.length > 0) {
    const [current, level] = stack.pop() as [unknown, number];
    if (isMap(current) || isSeq(current)) {
      if (level >= MAX_DEPTH) {
        const line = (current as Node).range ? ` (near offset ${(current as Node).range?.[0]})` : "";
        return { path: "(yaml)", message: `nests lists and maps more than ${MAX_DEPTH} levels deep${line}; a config is never that deep` };
      }
      for (const item of current.items as unknown[]) stack.push([item, level + 1]);
    } else if (isPair(current)) {
      stack.push([current.key, level]);
      stack.push([current.value, level]);
    }
  }
  return undefined;
}

/** `value` (from toJS with mapAsMap) as plain JSON data; what cannot be is reported in `issues`. */
function toPlain(value: unknown, at: readonly PropertyKey[], issues: ConfigIssue[], document: Document): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      issues.push({ path: formatPath(at), value: String(value), message: "must be a finite number (.inf and .nan are not values a config takes)" });
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => toPlain(item, [...at, i], issues, document));
  if (value instanceof Map) {
    const result: Record<string, unknown> = {};
    for (const [key, child] of value) {
      if (key !== null && typeof key === "object") {
        issues.push({ path: formatPath(at), message: "has a key that is a list or map (`? [a, b]: ...`); keys are plain text" });
        continue;
      }
      const name = String(key);
      if (PROTOTYPE_KEYS.has(name)) {
        issues.push({ path: formatPath([...at, name]), message: `is a name JavaScript objects reserve; no config key or tag may be called ${name}` });
        continue;
      }
      if (name === "<<") {
        issues.push({ path: formatPath([...at, name]), message: "is a YAML merge key, which the config does not support (YAML 1.2); write the keys out" });
        continue;
      }
      Object.defineProperty(result, name, { value: toPlain(child, [...at, name], issues, document), enumerable: true, writable: true, configurable: true });
    }
    return result;
  }
  const kind =
    value instanceof Uint8Array
      ? "binary data (!!binary)"
      : value instanceof Date
        ? "a timestamp (quote it to keep it as text)"
        : value instanceof Set
          ? "a set (!!set)"
          : typeof value;
  issues.push({ path: formatPath(at), message: `is ${kind}; a config holds only text, numbers, true/false, lists and maps` });
  return undefined;
}

/**
 * Config issues for every cdktf token marker and prototype key in `input` (keys and values, at
 * any depth): see the header. Input parsed from YAML has been through `parseConfigYaml`; this also
 * guards configs built in code (`validateConfig`).
 */
export function boundaryIssues(input: unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const stack: Array<[unknown, PropertyKey[]]> = [[input, []]];
  while (stack.length > 0) {
    const [value, at] = stack.pop() as [unknown, PropertyKey[]];
    if (at.length > MAX_DEPTH) {
      issues.push({ path: formatPath(at), message: `nests more than ${MAX_DEPTH} levels deep` });
      continue;
    }
    if (typeof value === "string" || typeof value === "number") {
      if (holdsTokenMarker(value)) issues.push(tokenIssue(at, value));
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, [...at, i]]));
    } else if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) {
        if (PROTOTYPE_KEYS.has(key))
          issues.push({ path: formatPath([...at, key]), message: `is a name JavaScript objects reserve; no config key or tag may be called ${key}` });
        else if (holdsTokenMarker(key)) issues.push(tokenIssue([...at, key], key));
        else stack.push([(value as Record<string, unknown>)[key], [...at, key]]);
      }
    }
  }
  return issues.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function tokenIssue(at: readonly PropertyKey[], value: string | number): ConfigIssue {
  return {
    path: formatPath(at),
    value,
    message:
      "holds text that CDK for Terraform reserves for references of the code (TfToken[...] or an encoded token number); config values are data and can never be references: remove it",
  };
}

/** cdktf's encoded-number pattern inside strings (`TokenString.forNumbers`). */
const NUMBER_IN_TEXT = /[-|\d|.+]+(e[-|\d|.|e|E|+]+)/g;

/** Whether cdktf would read `value` (or part of it) as one of its tokens. */
export function holdsTokenMarker(value: string | number): boolean {
  if (typeof value === "number") return isTokenNumber(value);
  if (value.includes("TfToken[")) return true;
  if (value === Token.STRING_MAP_TOKEN_VALUE || value === Token.ANY_MAP_TOKEN_VALUE) return true;
  for (const match of value.matchAll(NUMBER_IN_TEXT)) if (isTokenNumber(parseFloat(match[0]))) return true;
  return false;
}

function isTokenNumber(value: number): boolean {
  return Number.isFinite(value) && (Token.isUnresolved(value) || Token.isUnresolved([value]) || value === Token.NUMBER_MAP_TOKEN_VALUE);
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}

/** `a.b[0]["odd key"]`, as config issues name fields. */
export function formatPath(segments: readonly PropertyKey[]): string {
  if (segments.length === 0) return "(top level)";
  return segments
    .map((s, i) =>
      typeof s === "number" ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(String(s)) ? `${i === 0 ? "" : "."}${String(s)}` : `[${JSON.stringify(String(s))}]`,
    )
    .join("");
}
