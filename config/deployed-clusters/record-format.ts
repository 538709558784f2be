import * as path from "node:path";
import { LoadedConfig } from "../load";
import { clusterOfStack } from "../names";
import { identityText, remoteBackendIdentity } from "../names/state";
import { releaseVersion } from "../release-version";

/**
 * The text of the record of deployed cluster stacks (`*.clusters.lock`, a remote backend's,
 * committed beside the config) and of its `protected:` lines, which protected-resources.lock
 * shares: parsed and rendered here, read and written by record-file.ts.
 */

export const RETIRED = "retired";
export const BACKEND_LINE = "backend:";
export const CONFIGS_LINE = "configs:";
const PROTECTED_LINE = "protected:";
const RELEASE_LINE = "release:";
const RELEASED = "released";

/**
 * Protected resources of the record (`protected: <stack>/<address>`, optionally followed by
 * `released`), by ID: what the deployment may hold with `prevent_destroy` (config/protected-resources/).
 */
export type ProtectedRecord = ReadonlyMap<string, { readonly released: boolean }>;

/** Per-cluster stacks of the record by name, with whether the last synth saw their cluster retired. */
export type ClusterRecord = ReadonlyMap<string, { readonly retired: boolean }>;

/** A parsed record: the backend it describes (canonical JSON, when it says), the configs that wrote it, its stacks. */
export interface ParsedClusterRecord {
  readonly ok: true;
  readonly backend?: string;
  readonly configs: readonly string[];
  readonly record: ClusterRecord;
  /** Protected resources the record lists (a record from before they were recorded lists none). */
  readonly protected: ProtectedRecord;
  /**
   * The release image of each cluster stack (`cluster-<name>`) as the last accepted synth configured
   * it (recorded-release.ts; a record from before they were recorded lists none).
   */
  readonly releases: ReadonlyMap<string, string>;
}

/**
 * Parses a record: `<stack>` or `<stack> retired` per line (cluster stacks only), at most one
 * `backend: <JSON>` and one `configs: <JSON list>` line, `protected: <stack>/<address>` lines
 * (optionally followed by `released`), `release: cluster-<name> <image>` lines, `#` comments, blank lines.
 */
export function parseClusterRecord(text: string): ParsedClusterRecord | { ok: false; problems: string[] } {
  const record = new Map<string, { retired: boolean }>();
  const problems: string[] = [];
  let backend: string | undefined;
  let configs: string[] | undefined;
  const protectedResources = new Map<string, { released: boolean }>();
  const releases = new Map<string, string>();
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    if (line.startsWith(RELEASE_LINE)) {
      const parsed = parseReleaseLine(line.slice(RELEASE_LINE.length));
      if (typeof parsed === "string") problems.push(`line ${index + 1}: "${line}" ${parsed}`);
      else if (releases.has(parsed.stack)) problems.push(`line ${index + 1}: a second ${RELEASE_LINE} line for ${parsed.stack}`);
      else releases.set(parsed.stack, parsed.image);
      return;
    }
    if (line.startsWith(PROTECTED_LINE)) {
      const parsed = parseProtectedLine(line.slice(PROTECTED_LINE.length));
      if (typeof parsed === "string") problems.push(`line ${index + 1}: "${line}" ${parsed}`);
      else if (protectedResources.has(parsed.id)) problems.push(`line ${index + 1}: ${parsed.id} appears twice`);
      else protectedResources.set(parsed.id, { released: parsed.released });
      return;
    }
    if (line.startsWith(BACKEND_LINE)) {
      const identity = parseJson(line.slice(BACKEND_LINE.length));
      if (backend !== undefined) problems.push(`line ${index + 1}: a second "${BACKEND_LINE}" line`);
      else if (!isStringMap(identity))
        problems.push(`line ${index + 1}: "${line}" must be ${BACKEND_LINE} followed by the backend's identity in JSON, as synth writes it`);
      else backend = canonical(identity);
      return;
    }
    if (line.startsWith(CONFIGS_LINE)) {
      const names = parseJson(line.slice(CONFIGS_LINE.length));
      if (configs !== undefined) problems.push(`line ${index + 1}: a second "${CONFIGS_LINE}" line`);
      else if (!Array.isArray(names) || !names.every((n) => typeof n === "string"))
        problems.push(`line ${index + 1}: "${line}" must be ${CONFIGS_LINE} followed by a JSON list of config file names`);
      else configs = names;
      return;
    }
    const match = /^([a-z0-9][-a-z0-9]*[a-z0-9])(\s+(\S+))?$/.exec(line);
    if (!match || !clusterOfStack(match[1]) || (match[3] !== undefined && match[3] !== RETIRED)) {
      problems.push(`line ${index + 1}: "${line}" must be a cluster's stack (identities-, infra- or cluster-<name>), optionally followed by "${RETIRED}"`);
    } else if (record.has(match[1])) {
      problems.push(`line ${index + 1}: stack ${match[1]} appears twice`);
    } else {
      record.set(match[1], { retired: match[3] === RETIRED });
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, backend, configs: configs ?? [], record, protected: protectedResources, releases };
}

/** One release line's text after `release:`: the cluster stack and its image, or what is wrong. */
function parseReleaseLine(text: string): { stack: string; image: string } | string {
  const [stack, image, ...rest] = text.trim().split(/\s+/);
  if (!stack || !stack.startsWith("cluster-") || clusterOfStack(stack) === undefined || !image || rest.length > 0)
    return `must be ${RELEASE_LINE} cluster-<name> <release image>, as synth writes it`;
  return { stack, image };
}

/** `<stack>/<type>.<name>`: a protected resource's ID in records, `protection.release` and messages. */
export const PROTECTED_ID = /^([a-z0-9][-a-z0-9]*)\/([a-z][a-z0-9_]*\.[A-Za-z0-9_-]+)$/;

/** One protected line's text after `protected:`: the ID and whether it is released, or what is wrong. */
export function parseProtectedLine(text: string): { id: string; released: boolean } | string {
  const [id, mark, ...rest] = text.trim().split(/\s+/);
  if (!id || !PROTECTED_ID.test(id) || (mark !== undefined && mark !== RELEASED) || rest.length > 0)
    return `must be ${PROTECTED_LINE} <stack>/<resource address>, optionally followed by "${RELEASED}"`;
  return { id, released: mark === RELEASED };
}

/** The `protected:` lines of a record or local record, sorted. */
export function renderProtectedLines(protectedResources: ProtectedRecord): string[] {
  return [...protectedResources]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, { released }]) => `${PROTECTED_LINE} ${id}${released ? ` ${RELEASED}` : ""}`);
}

/**
 * The release a cluster's line records: the configured one, except that a retired cluster (never
 * judged) and a release given by digest alone (no version to judge) keep the previous line's release
 * when it has a version, so neither can carry a downgrade past the rules.
 */
function recordedRelease(configured: string, retired: boolean, previous: string | undefined): string {
  const keepPrevious = previous !== undefined && releaseVersion(previous) !== undefined && (retired || releaseVersion(configured) === undefined);
  return keepPrevious ? previous : configured;
}

/**
 * The record synth writes for a config: the backend it describes, the configs that wrote it
 * (`configs`, plus this one), every stack of the config's clusters, sorted, each hosted cluster's
 * release (recordedRelease, from `previousReleases` by cluster stack), and the protected resources
 * the deployment may hold (`protectedResources`, config/protected-resources/).
 */
export function renderClusterRecord(
  loaded: LoadedConfig,
  configs: readonly string[] = [],
  protectedResources: ProtectedRecord = new Map(),
  previousReleases: ReadonlyMap<string, string> = new Map(),
): string {
  const identity = remoteBackendIdentity(loaded.config);
  if (!identity) throw new Error("internal: a record is kept only for a remote backend");
  const lines = loaded.names.clusters.flatMap((cluster) => cluster.stacks.map((stack) => (cluster.retired ? `${stack} ${RETIRED}` : stack))).sort();
  const releases = loaded.names.clusters
    .flatMap(({ hosted, retired }) =>
      hosted
        ? [`${RELEASE_LINE} ${hosted.clusterStack} ${recordedRelease(hosted.config.releaseImage, retired, previousReleases.get(hosted.clusterStack))}`]
        : [],
    )
    .sort();
  return [
    `# Cluster stacks that may hold state in the ${identity.type} backend below, written by \`npm run synth\`;`,
    "# commit it with the config. Synth refuses a config that drops a stack listed here: retire the",
    "# cluster first (help/retire-cluster.md). Delete a stack's line only after `npm run destroy` has",
    "# emptied it. Every config with this backend in this folder reads and writes this record.",
    ...(releases.length > 0
      ? [
          "# release: each cluster's releaseImage as the last synth that accepted the config set it, not",
          "# necessarily what was applied; synth refuses a downgrade, a skipped minor or an unacknowledged",
          "# minor against it (help/upgrades.md#remote-backends-the-recorded-release).",
        ]
      : []),
    ...(protectedResources.size > 0
      ? [
          "# protected: resources with prevent_destroy the backend may hold. Synth refuses a config that",
          "# drops one unless protection.release names it; delete a line marked released only after the",
          "# deploy that destroys the resource (help/destroy.md#releasing-a-protected-resource).",
        ]
      : []),
    `${BACKEND_LINE} ${identityText(identity)}`,
    `${CONFIGS_LINE} ${JSON.stringify([...new Set([...configs, path.basename(loaded.file)])].sort())}`,
    ...lines,
    ...releases,
    ...renderProtectedLines(protectedResources),
    "",
  ].join("\n");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
}

/** JSON with sorted keys: equal identities compare equal however a hand-edited line orders them. */
export function canonical(value: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))));
}
