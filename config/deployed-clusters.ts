import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "./load";
import { clusterOfStack, clusterStackNames } from "./names";
import { ConfigIssue } from "./rules";

/**
 * Cluster stacks that left the config while they may still hold state. cdktf only knows the
 * stacks the config synthesizes: a cluster removed from the config (or its hostedCluster) can
 * no longer be destroyed, and (aroHcp) the next `shared` deploy deletes its control-plane
 * principals. So synth refuses such a config until the cluster has been retired and its stacks
 * destroyed (help/retire-cluster.md).
 *
 * Where the state is:
 * - local backend: the state files, `<backend.directory>/<stack>.tfstate`, read directly;
 * - azurerm and cloud backends: not reachable offline, so synth keeps a record of the cluster
 *   stacks it synthesized, `<config name>.clusters.lock` beside the config, committed with it. A
 *   line leaves the record only by hand, after `npm run destroy` has emptied that stack.
 */

const RECORD_SUFFIX = ".clusters.lock";
const RETIRED = "retired";

/** The record of a config file: `<dir>/<name without .yaml/.yml>.clusters.lock`. */
export function clusterRecordFile(configFile: string): string {
  const absolute = path.resolve(configFile);
  return path.join(path.dirname(absolute), `${path.basename(absolute).replace(/\.ya?ml$/i, "")}${RECORD_SUFFIX}`);
}

/** Per-cluster stacks of the record by name, with whether the last synth saw their cluster retired. */
export type ClusterRecord = ReadonlyMap<string, { readonly retired: boolean }>;

/** Parses a record: `<stack>` or `<stack> retired` per line (cluster stacks only), `#` comments, blank lines. */
export function parseClusterRecord(text: string): { ok: true; record: ClusterRecord } | { ok: false; problems: string[] } {
  const record = new Map<string, { retired: boolean }>();
  const problems: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const match = /^([a-z0-9][-a-z0-9]*[a-z0-9])(\s+(\S+))?$/.exec(line);
    if (!match || !clusterOfStack(match[1]) || (match[3] !== undefined && match[3] !== RETIRED)) {
      problems.push(`line ${index + 1}: "${line}" must be a cluster's stack (identities-, infra- or cluster-<name>), optionally followed by "${RETIRED}"`);
    } else if (record.has(match[1])) {
      problems.push(`line ${index + 1}: stack ${match[1]} appears twice`);
    } else {
      record.set(match[1], { retired: match[3] === RETIRED });
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, record };
}

/** The record synth writes for a config: every stack of its clusters, sorted. */
export function renderClusterRecord(loaded: LoadedConfig): string {
  const backend = loaded.config.backend.type;
  const lines = loaded.names.clusters.flatMap((cluster) => cluster.stacks.map((stack) => (cluster.retired ? `${stack} ${RETIRED}` : stack))).sort();
  return [
    `# Cluster stacks of ${path.basename(loaded.file)} that may hold state in the ${backend} backend.`,
    "# Written by `npm run synth`; commit it with the config. Synth refuses a config that drops a",
    "# stack listed here: retire the cluster first (help/retire-cluster.md). Delete a stack's line",
    "# only after `npm run destroy` has emptied it.",
    ...lines,
    "",
  ].join("\n");
}

/** Every cluster stack that left the config while it may still hold state, as config issues. */
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

/** Stacks the config synthesizes for its clusters. */
function configuredStacks(loaded: LoadedConfig): Set<string> {
  return new Set(loaded.names.clusters.flatMap((cluster) => cluster.stacks));
}

/**
 * One issue per cluster whose stacks left the config: the whole cluster (`clusters`), or only
 * its hostedCluster (cluster- and infra- stacks), each with its way forward. `held` gives, per
 * stack, what shows it may hold state; `evidence` phrases them, in destroy order.
 */
function issuesFor(
  loaded: LoadedConfig,
  held: ReadonlyMap<string, string>,
  evidence: (items: readonly string[]) => string,
  afterDestroy: (stacks: readonly string[]) => string,
): ConfigIssue[] {
  const byCluster = new Map<string, string[]>();
  for (const stack of held.keys()) {
    const cluster = clusterOfStack(stack) as string;
    byCluster.set(cluster, [...(byCluster.get(cluster) ?? []), stack]);
  }
  return [...byCluster].map(([name, stacks]) => {
    const ordered = clusterStackNames(name).filter((stack) => stacks.includes(stack));
    const shown = evidence(ordered.map((stack) => held.get(stack) as string));
    const configured = loaded.names.clusters.find((cluster) => cluster.name === name);
    if (configured) {
      // Only the hostedCluster left: its two stacks, destroyed together (cdktf refuses infra- alone).
      const destroy = clusterStackNames(name).filter((stack) => !configured.stacks.includes(stack));
      return {
        path: `clusters[${configured.index}].hostedCluster`,
        message:
          `was removed from the config, but ${ordered.join(" and ")} may still hold state (${shown}). ` +
          `Put hostedCluster back, synth, and destroy them (npm run destroy -- ${destroy.join(" ")}); then remove it (help/phase3.md#delete-a-cluster). ${afterDestroy(ordered)}`,
      };
    }
    return {
      path: "clusters",
      value: name,
      message:
        `was removed from the config, but its stacks may still hold state (${shown}). ` +
        `Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- ${clusterStackNames(name).join(" ")}); then remove it (help/retire-cluster.md). ${afterDestroy(ordered)}`,
    };
  });
}

function removedWithLocalState(loaded: LoadedConfig): ConfigIssue[] {
  const directory = path.dirname(loaded.names.stateLocation(loaded.names.sharedStack));
  if (!fs.existsSync(directory)) return [];
  const configured = configuredStacks(loaded);
  const held = new Map<string, string>();
  for (const entry of fs.readdirSync(directory).sort()) {
    const stack = /^(.+)\.tfstate$/.exec(entry)?.[1];
    if (!stack || !clusterOfStack(stack) || configured.has(stack)) continue;
    const count = managedResources(path.join(directory, entry));
    if (count === 0) continue;
    held.set(
      stack,
      `${path.relative(process.cwd(), path.join(directory, entry)) || entry}: ${count === undefined ? "unreadable" : `${count} resource${count === 1 ? "" : "s"}`}`,
    );
  }
  return issuesFor(
    loaded,
    held,
    (items) => items.join(", "),
    () => "If those resources are gone already, move the state files away.",
  );
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
  if (!parsed.ok)
    return parsed.problems.map((problem) => ({ path: shown, message: `${problem} (the record of deployed cluster stacks; help/retire-cluster.md)` }));
  const configured = configuredStacks(loaded);
  const held = new Map<string, string>();
  for (const [stack, { retired }] of parsed.record) {
    if (!configured.has(stack)) held.set(stack, retired ? `${stack} ${RETIRED}` : stack);
  }
  return issuesFor(
    loaded,
    held,
    (items) => `${items.join(", ")}: listed in ${shown}, ${loaded.config.backend.type} backend`,
    (stacks) => `Once the destroy has completed, delete their lines (${stacks.join(", ")}) from ${shown} and synth again.`,
  );
}
