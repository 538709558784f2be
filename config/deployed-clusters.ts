import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "./load";
import { clusterOfStack, clusterStackNames } from "./names";
import { ConfigIssue } from "./rules";

/**
 * Clusters that left the config while their stacks may still hold state. cdktf only knows the
 * stacks the config synthesizes: a cluster removed from the config can no longer be destroyed,
 * and (aroHcp) the next `shared` deploy deletes its control-plane principals. So synth refuses
 * such a config until the cluster has been retired and its stacks destroyed
 * (help/retire-cluster.md).
 *
 * Where the state is:
 * - local backend: the state files, `<backend.directory>/<stack>.tfstate`, read directly;
 * - azurerm and cloud backends: not reachable offline, so synth keeps a record of the clusters
 *   it synthesized, `<config name>.clusters.lock` beside the config, committed with it. A line
 *   leaves the record only by hand, after `npm run destroy` has emptied the cluster's stacks.
 */

const RECORD_SUFFIX = ".clusters.lock";
const RETIRED = "retired";

/** The record of a config file: `<dir>/<name without .yaml/.yml>.clusters.lock`. */
export function clusterRecordFile(configFile: string): string {
  const absolute = path.resolve(configFile);
  return path.join(path.dirname(absolute), `${path.basename(absolute).replace(/\.ya?ml$/i, "")}${RECORD_SUFFIX}`);
}

/** Clusters of the record by name, with whether the last synth saw them retired. */
export type ClusterRecord = ReadonlyMap<string, { readonly retired: boolean }>;

/** Parses a record: `<cluster>` or `<cluster> retired` per line, `#` comments, blank lines. */
export function parseClusterRecord(text: string): { ok: true; record: ClusterRecord } | { ok: false; problems: string[] } {
  const record = new Map<string, { retired: boolean }>();
  const problems: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const match = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)(\s+(\S+))?$/.exec(line);
    if (!match || (match[4] !== undefined && match[4] !== RETIRED)) {
      problems.push(`line ${index + 1}: "${line}" must be a cluster name, optionally followed by "${RETIRED}"`);
    } else if (record.has(match[1])) {
      problems.push(`line ${index + 1}: cluster ${match[1]} appears twice`);
    } else {
      record.set(match[1], { retired: match[4] === RETIRED });
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, record };
}

/** The record synth writes for a config: its clusters, sorted by name. */
export function renderClusterRecord(loaded: LoadedConfig): string {
  const backend = loaded.config.backend.type;
  const lines = [...loaded.names.clusters]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((cluster) => (cluster.retired ? `${cluster.name} ${RETIRED}` : cluster.name));
  return [
    `# Clusters of ${path.basename(loaded.file)} whose stacks may hold state in the ${backend} backend.`,
    "# Written by `npm run synth`; commit it with the config. Synth refuses a config that drops a",
    "# cluster listed here: retire it first (help/retire-cluster.md). Delete a cluster's line only",
    "# after `npm run destroy` has emptied all of its stacks.",
    ...lines,
    "",
  ].join("\n");
}

/** Every cluster that left the config while its stacks may still hold state, as config issues. */
export function removedClusterIssues(loaded: LoadedConfig): ConfigIssue[] {
  return loaded.config.backend.type === "local" ? removedWithLocalState(loaded) : removedFromRecord(loaded);
}

/**
 * Writes the record of a config with a remote backend (call after a successful synth, and only
 * when `removedClusterIssues` found nothing). Returns the file when it changed, else undefined.
 */
export function writeClusterRecord(loaded: LoadedConfig): string | undefined {
  if (loaded.config.backend.type === "local") return undefined;
  const file = clusterRecordFile(loaded.file);
  const text = renderClusterRecord(loaded);
  if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) return undefined;
  // Written beside, then renamed: the record is never half-written.
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

/** Synth's warnings for retired clusters: what to do next. */
export function retiredClusterWarnings(loaded: LoadedConfig): string[] {
  return loaded.names.clusters
    .filter((cluster) => cluster.retired)
    .map(
      (cluster) =>
        `clusters[${cluster.index}] (${cluster.name}) is retired: its stacks plan only to be destroyed. Run npm run destroy -- ${cluster.stacks.join(" ")}, then remove the cluster from the config (help/retire-cluster.md).`,
    );
}

const recovery = (cluster: string) =>
  `Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- ${clusterStackNames(cluster).join(" ")}); then remove it (help/retire-cluster.md).`;

function removedWithLocalState(loaded: LoadedConfig): ConfigIssue[] {
  const directory = path.dirname(loaded.names.stateLocation(loaded.names.sharedStack));
  if (!fs.existsSync(directory)) return [];
  const configured = new Set(loaded.names.clusters.map((cluster) => cluster.name));
  const held = new Map<string, string[]>();
  for (const entry of fs.readdirSync(directory).sort()) {
    const stack = /^(.+)\.tfstate$/.exec(entry)?.[1];
    const cluster = stack && clusterOfStack(stack);
    if (!cluster || configured.has(cluster)) continue;
    const count = managedResources(path.join(directory, entry));
    if (count === 0) continue;
    const what = `${path.relative(process.cwd(), path.join(directory, entry)) || entry}: ${count === undefined ? "unreadable" : `${count} resource${count === 1 ? "" : "s"}`}`;
    held.set(cluster, [...(held.get(cluster) ?? []), what]);
  }
  return [...held].map(([cluster, files]) => ({
    path: "clusters",
    value: cluster,
    message: `was removed from the config, but its stacks still hold state (${files.join(", ")}). ${recovery(cluster)} If those resources are gone already, move the state files away.`,
  }));
}

/** Managed resource instances in a state file; undefined when it cannot be read as state. */
function managedResources(file: string): number | undefined {
  try {
    const state = JSON.parse(fs.readFileSync(file, "utf8")) as { resources?: Array<{ mode?: string; instances?: unknown[] }> };
    if (!Array.isArray(state.resources)) return undefined;
    return state.resources.filter((r) => r.mode === "managed").reduce((sum, r) => sum + (r.instances?.length ?? 0), 0);
  } catch {
    return undefined;
  }
}

function removedFromRecord(loaded: LoadedConfig): ConfigIssue[] {
  const file = clusterRecordFile(loaded.file);
  if (!fs.existsSync(file)) return [];
  const shown = path.relative(process.cwd(), file) || file;
  const parsed = parseClusterRecord(fs.readFileSync(file, "utf8"));
  if (!parsed.ok) return parsed.problems.map((problem) => ({ path: shown, message: `${problem} (the record of deployed clusters; help/retire-cluster.md)` }));
  const configured = new Set(loaded.names.clusters.map((cluster) => cluster.name));
  return [...parsed.record]
    .filter(([cluster]) => !configured.has(cluster))
    .map(([cluster, { retired }]) => ({
      path: "clusters",
      value: cluster,
      message:
        `was removed from the config, but ${shown} lists it as deployed (${loaded.config.backend.type} backend): its stacks may still hold state. ` +
        (retired
          ? `It was retired: once npm run destroy -- ${clusterStackNames(cluster).join(" ")} has completed, delete its line from ${shown} and synth again.`
          : `${recovery(cluster)} Once they are destroyed, delete its line from ${shown}.`),
    }));
}
