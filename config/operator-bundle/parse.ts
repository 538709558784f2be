import { LineCounter, parseAllDocuments } from "yaml";
import { boundaryIssues } from "../boundary";
import { toJsProblem, unresolvedAliasMessage } from "../yaml-aliases";
import { RENDER_HINT } from "./hypershift-install";
import { KubernetesObject, RenderedObject } from "./types";

export type ParsedDocuments = { readonly ok: true; readonly objects: readonly RenderedObject[] } | { readonly ok: false; readonly problems: readonly string[] };

/**
 * The bundle's YAML documents as Kubernetes objects, in bundle order; or every document that is
 * not one, at once. Limits, each a problem rather than a guess: one YAML error per document (the
 * first), duplicate keys, undefined aliases and alias bombs (`toJS` refuses them), integers a
 * JavaScript number cannot hold exactly, cdktf token markers and prototype keys
 * (config/boundary.ts: bundle text is data too), and values that are not objects with
 * apiVersion, kind and metadata.name. Empty documents are skipped; a v1 List (`--format json`,
 * kubectl) gives its items. The file's size limit is read-file.ts's (`operatorBundle`).
 */
export function parseBundleDocuments(text: string): ParsedDocuments {
  const lineCounter = new LineCounter();
  // Integers as BigInt, so one that a JavaScript number cannot hold is reported, not rounded.
  const documents = parseAllDocuments(text, { lineCounter, prettyErrors: true, uniqueKeys: true, intAsBigInt: true });
  const problems: string[] = [];
  const objects: RenderedObject[] = [];

  for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
    // Where the object starts (after a `---` marker and comments), else where the document does.
    const line = lineCounter.linePos((document.contents ?? document).range[0]).line;
    if (document.errors.length > 0) {
      const error = document.errors[0];
      const at = error.linePos?.[0];
      problems.push(
        `is not valid YAML at line ${at?.line ?? line}, column ${at?.col ?? 1}: ${error.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")}`,
      );
      continue;
    }
    let value: unknown;
    try {
      value = document.toJS(); // throws for an undefined alias or an alias bomb
    } catch (error) {
      const problem = toJsProblem(error, document, lineCounter);
      problems.push(
        problem.kind === "unresolved alias"
          ? `is not valid YAML at line ${problem.line}, column ${problem.col}: it ${unresolvedAliasMessage(problem.name)}`
          : `is not valid YAML in document ${index + 1} (line ${line}): ${problem.kind === "alias bomb" ? "its aliases (*name) expand to too much data (an alias bomb)" : problem.message}`,
      );
      continue;
    }
    const inexact: string[] = [];
    const typed: string[] = [];
    value = toNumbers(value, inexact, typed);
    if (inexact.length > 0) {
      problems.push(`document ${index + 1} (line ${line}) has integers beyond what JSON numbers here hold exactly (±2^53): ${inexact.join(", ")}`);
      continue;
    }
    if (typed.length > 0) {
      problems.push(
        `document ${index + 1} (line ${line}) has ${typed.join(", ")}: a Kubernetes object holds only JSON (text, numbers, true/false, null, lists, maps)`,
      );
      continue;
    }
    if (value === null || value === undefined) continue; // empty document (e.g. a trailing ---)
    // `--format json` (and kubectl) print a v1 List: accept its items too.
    const items = isObject(value) && value.kind === "List" && Array.isArray(value.items) ? value.items : [value];
    for (const item of items) {
      // Bundle text is data too (config/boundary.ts): no cdktf token marker, no prototype key.
      const boundary = boundaryIssues(item);
      const problem = boundary.length > 0 ? `at ${boundary[0].path}: ${boundary[0].message}` : objectProblem(item);
      if (problem) problems.push(`document ${index + 1} (line ${line}) ${problem}`);
      else objects.push({ object: item as KubernetesObject, line });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  if (objects.length === 0) return { ok: false, problems: [`contains no Kubernetes objects; ${RENDER_HINT}`] };
  return { ok: true, objects };
}

/**
 * BigInt (intAsBigInt parsing) back to number where exact; collects the others, and the YAML 1.1
 * types JSON has no form for (`!!binary`, `!!set`, `!!timestamp`, `!!omap`/`!!pairs`), which would
 * otherwise become an empty or numbered map silently.
 */
function toNumbers(value: unknown, inexact: string[], typed: string[], at = ""): unknown {
  if (typeof value === "bigint") {
    const number = Number(value);
    if (BigInt(number) !== value) inexact.push(value.toString());
    return number;
  }
  if (Array.isArray(value)) return value.map((v, i) => toNumbers(v, inexact, typed, `${at}[${i}]`));
  if (value instanceof Uint8Array || value instanceof Set || value instanceof Map || value instanceof Date) {
    const kind = value instanceof Uint8Array ? "!!binary" : value instanceof Set ? "!!set" : value instanceof Date ? "!!timestamp" : "!!omap";
    typed.push(`${kind} data at ${at.replace(/^\./, "") || "the top"}`);
    return value;
  }
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toNumbers(v, inexact, typed, `${at}.${k}`)]));
}

function objectProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `is not a Kubernetes object (got ${Array.isArray(value) ? "a list" : typeof value})`;
  const missing = ["apiVersion", "kind"].filter((k) => typeof value[k] !== "string" || value[k] === "");
  const metadata = value.metadata;
  if (!isObject(metadata) || typeof metadata.name !== "string" || metadata.name === "") missing.push("metadata.name");
  if (missing.length > 0) return `is not a Kubernetes object: missing ${missing.join(", ")}`;
  if (isObject(metadata) && metadata.namespace !== undefined && typeof metadata.namespace !== "string") return "has a metadata.namespace that is not a string";
  return undefined;
}

/** A YAML mapping (JSON object): not null, not a list. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
