import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "./load";
import { AKS_STACK, clusterOfStack, clusterStackNames, MANAGEMENT_STACK, SHARED_STACK } from "./names";
import { clusterRecordName, identityText, legacyStateDirectory, RECORD_SUFFIX, RemoteBackendIdentity, remoteBackendIdentity } from "./names/state";
import { ConfigIssue } from "./rules";

/**
 * What synth knows of the deployed state before it writes anything (help/retire-cluster.md):
 *
 * - Cluster stacks that left the config while they may still hold state. cdktf only knows the
 *   stacks the config synthesizes: a cluster removed from the config (or its hostedCluster) can
 *   no longer be destroyed, and (aroHcp) the next `shared` deploy deletes its control-plane
 *   principals. So synth refuses such a config until the cluster has been retired and its stacks
 *   destroyed.
 * - State that would be missed. Every location is keyed by what identifies the environment
 *   (config/names/state.ts), never by the config's file name:
 *   - local backend: the state files, `<backend.directory>/<subscriptionId>/<prefix>/<stack>.tfstate`,
 *     read directly. State still in the folder every config beside it used before,
 *     `<backend.directory>/<stack>.tfstate`, refuses the config with the exact `mv` command: synth
 *     does not move it itself, since those files may be another environment's.
 *   - azurerm and cloud backends: not reachable offline, so synth keeps a record of the cluster
 *     stacks it synthesized beside the config, named after the backend's identity
 *     (`azurerm+<account>+<container>+<key prefix>.clusters.lock`, `cloud+<host>+<organization>+<workspace prefix>.clusters.lock`)
 *     and committed with it. A line leaves the record only by hand, after `npm run destroy` has
 *     emptied that stack. A missing record is refused where there is evidence of one (an older
 *     record naming this config) and under the cdktf CLI (deploy, diff, destroy act on the
 *     backend); a plain synth creates it and says so.
 */

const RETIRED = "retired";
const BACKEND_LINE = "backend:";
const CONFIGS_LINE = "configs:";
const PROTECTED_LINE = "protected:";
const RELEASED = "released";

/**
 * Protected resources of the record (`protected: <stack>/<address>`, optionally followed by
 * `released`), by ID: what the deployment may hold with `prevent_destroy` (config/protected-resources.ts).
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
}

export interface StateCheckOptions {
  /**
   * The app runs under the cdktf CLI (deploy, diff, destroy act on the backend): a remote
   * backend's record must exist.
   */
  readonly underCdktfCli?: boolean;
}

/** What synth wrote to the record: lines to print, and warnings. */
export interface RecordReport {
  readonly lines: readonly string[];
  readonly warnings: readonly string[];
}

/** The record of a config with a remote backend: `<config dir>/<clusterRecordName>`; undefined for the local backend. */
export function clusterRecordFile(loaded: LoadedConfig): string | undefined {
  const identity = remoteBackendIdentity(loaded.config);
  return identity && path.join(configDir(loaded), clusterRecordName(identity));
}

/** Where a config's record was before records were named after the backend: `<dir>/<config name without .yaml/.yml>.clusters.lock`. */
export function legacyClusterRecordFile(configFile: string): string {
  const absolute = path.resolve(configFile);
  return path.join(path.dirname(absolute), `${configBase(absolute)}${RECORD_SUFFIX}`);
}

/**
 * Parses a record: `<stack>` or `<stack> retired` per line (cluster stacks only), at most one
 * `backend: <JSON>` and one `configs: <JSON list>` line, `protected: <stack>/<address>` lines
 * (optionally followed by `released`), `#` comments, blank lines.
 */
export function parseClusterRecord(text: string): ParsedClusterRecord | { ok: false; problems: string[] } {
  const record = new Map<string, { retired: boolean }>();
  const problems: string[] = [];
  let backend: string | undefined;
  let configs: string[] | undefined;
  const protectedResources = new Map<string, { released: boolean }>();
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
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
  return problems.length > 0 ? { ok: false, problems } : { ok: true, backend, configs: configs ?? [], record, protected: protectedResources };
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
 * The record synth writes for a config: the backend it describes, the configs that wrote it
 * (`configs`, plus this one), every stack of the config's clusters, sorted, and the protected
 * resources the deployment may hold (`protectedResources`, config/protected-resources.ts).
 */
export function renderClusterRecord(loaded: LoadedConfig, configs: readonly string[] = [], protectedResources: ProtectedRecord = new Map()): string {
  const identity = remoteBackendIdentity(loaded.config);
  if (!identity) throw new Error("internal: a record is kept only for a remote backend");
  const lines = loaded.names.clusters.flatMap((cluster) => cluster.stacks.map((stack) => (cluster.retired ? `${stack} ${RETIRED}` : stack))).sort();
  return [
    `# Cluster stacks that may hold state in the ${identity.type} backend below, written by \`npm run synth\`;`,
    "# commit it with the config. Synth refuses a config that drops a stack listed here: retire the",
    "# cluster first (help/retire-cluster.md). Delete a stack's line only after `npm run destroy` has",
    "# emptied it. Every config with this backend in this folder reads and writes this record.",
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
    ...renderProtectedLines(protectedResources),
    "",
  ].join("\n");
}

/**
 * Everything in the deployed state that forbids synthesizing the config, as config issues: state
 * in the old local layout, a missing or mismatched record, and clusters that left the config
 * while their stacks may hold state.
 */
export function removedClusterIssues(loaded: LoadedConfig, options: StateCheckOptions = {}): ConfigIssue[] {
  return loaded.config.backend.type === "local" ? localStateIssues(loaded) : recordIssues(loaded, options);
}

/**
 * Writes the record of a config with a remote backend (call after a successful synth, and only
 * when `removedClusterIssues` found nothing): only when its content changes. A record from before
 * records were named after the backend (`<config name>.clusters.lock`) is moved to the new name.
 * `protectedResources`: the protected lines to write (config/protected-resources.ts); without
 * it, the record's own are kept.
 */
export function writeClusterRecord(loaded: LoadedConfig, protectedResources?: ProtectedRecord): RecordReport {
  const file = clusterRecordFile(loaded);
  if (!file) return { lines: [], warnings: [] };
  const existing = readRecord(file);
  const legacyFile = legacyClusterRecordFile(loaded.file);
  const legacy = !existing && legacyFile !== file ? oldStyle(readRecord(legacyFile)) : undefined;
  const previous = existing ?? legacy;
  const text = renderClusterRecord(loaded, previous?.ok ? previous.configs : [], protectedResources ?? (previous?.ok ? previous.protected : undefined));
  const lines: string[] = [];
  const warnings: string[] = [];
  if (!existing || existing.text !== text) {
    // Written beside, then renamed: the record is never half-written.
    fs.writeFileSync(`${file}.tmp`, text);
    fs.renameSync(`${file}.tmp`, file);
  }
  if (legacy) {
    fs.rmSync(legacyFile);
    lines.push(
      `moved the record ${shown(legacyFile)} to ${shown(file)}: records are named after the backend they describe, not the config file (commit both: git add -A -- ${sh(shown(legacyFile))} ${sh(shown(file))}; help/retire-cluster.md)`,
    );
  } else if (!existing) {
    lines.push(`recorded the cluster stacks in ${shown(file)} (commit it; help/retire-cluster.md)`);
    const others = otherRecords(path.dirname(file), [file]).map((other) => shown(other.file));
    warnings.push(
      `${shown(file)} is new: there was no record of this backend's cluster stacks beside the config. If the backend already holds cluster stacks of this environment (deployed from another checkout, or the record was never committed), write their stack names into it before you deploy, or a cluster missing from the config goes unnoticed (help/retire-cluster.md#a-missing-record).` +
        (others.length > 0 ? ` Other records beside it: ${others.join(", ")}.` : ""),
    );
  } else if (existing.text !== text) {
    lines.push(`recorded the cluster stacks in ${shown(file)} (commit it; help/retire-cluster.md)`);
  }
  return { lines, warnings };
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

// ---------------------------------------------------------------------------------------------
// Local backend

function localStateIssues(loaded: LoadedConfig): ConfigIssue[] {
  const directory = path.dirname(loaded.names.stateLocation(SHARED_STACK));
  const legacy = legacyStateIssues(loaded, directory);
  return legacy.length > 0 ? legacy : removedWithLocalState(loaded, directory);
}

/** A stack this project can synthesize: shared, management, aks or a cluster's. */
function isStackName(name: string): boolean {
  return /^[a-z0-9][-a-z0-9]*$/.test(name) && ([SHARED_STACK, MANAGEMENT_STACK, AKS_STACK].includes(name) || clusterOfStack(name) !== undefined);
}

/**
 * State files in the folder every config beside it used before state was keyed by environment
 * (`<backend.directory>/<stack>.tfstate`): while one holds resources, the config would plan from
 * empty state, so synth refuses with the command that moves them.
 */
function legacyStateIssues(loaded: LoadedConfig, directory: string): ConfigIssue[] {
  const legacy = legacyStateDirectory(directory);
  if (!fs.existsSync(legacy)) return [];
  const files = fs
    .readdirSync(legacy)
    .sort()
    .filter((entry) => isStackName(entry.replace(/\.tfstate$/, "")) && entry.endsWith(".tfstate") && fs.statSync(path.join(legacy, entry)).isFile());
  const counts = files.map((entry) => managedResources(path.join(legacy, entry)));
  if (counts.every((count) => count === 0)) return [];

  const { config, names } = loaded;
  const described = files.map((entry, i) => {
    const count = counts[i];
    let text = `${shown(path.join(legacy, entry))}: ${count === undefined ? "unreadable" : plural(count, "resource")}`;
    if (entry === `${SHARED_STACK}.tfstate`) {
      // The persistent resource group says whose `shared` state it is.
      const groups = resourceGroupIds(path.join(legacy, entry));
      const ours = groups.find((id) => id.toLowerCase() === names.resourceGroup.id.toLowerCase());
      if (ours) text += ` (resource group ${ours}: this config's)`;
      else if (groups.length > 0)
        text += ` (resource group ${groups.join(", ")}: not this config's ${names.resourceGroup.id}, so probably another config's state)`;
    }
    return text;
  });
  const moves = files.flatMap((entry) => [entry, `${entry}.backup`]).filter((entry) => fs.existsSync(path.join(legacy, entry)));
  const clashes = moves.filter((entry) => fs.existsSync(path.join(directory, entry)));
  const movable = moves.filter((entry) => !clashes.includes(entry));
  const target = shown(directory);
  const command =
    movable.length > 0
      ? `mkdir -p ${sh(target)} && mv ${movable.map((entry) => sh(shown(path.join(legacy, entry)))).join(" ")} ${sh(`${target}/`)}`
      : undefined;
  return [
    {
      path: "backend.directory",
      value: config.backend.type === "local" ? config.backend.directory : undefined,
      message:
        `holds state files where every config beside it kept its state before each environment got its own folder: ${described.join(", ")}. ` +
        `This config's state (prefix ${config.prefix}, subscriptionId ${config.subscriptionId}) is now ${target}/, so a config of another environment beside it never shares it; with those files left where they are, it would plan as if nothing were deployed. ` +
        "Synth does not move them itself: that folder was shared by every config beside it, and a state file does not say which environment wrote it. " +
        (command ? `If they are this environment's state, move them:\n      ${command}\n    ` : "") +
        (clashes.length > 0
          ? `${clashes.map((entry) => shown(path.join(directory, entry))).join(", ")} exist${clashes.length === 1 ? "s" : ""} in both places: keep the one that is this environment's state and move the other away. `
          : "") +
        "Then add --migrate-state to the next deploy, diff or destroy (npm run deploy -- '*' --migrate-state): each stack's folder in the output remembers the old path. " +
        "If they are another config's, synth that config and move them where it says; files of a destroyed environment can go (help/retire-cluster.md#state-from-before-environments-had-their-own-folder).",
    },
  ];
}

function removedWithLocalState(loaded: LoadedConfig, directory: string): ConfigIssue[] {
  if (!fs.existsSync(directory)) return [];
  const configured = configuredStacks(loaded);
  const held = new Map<string, string>();
  for (const entry of fs.readdirSync(directory).sort()) {
    const stack = /^(.+)\.tfstate$/.exec(entry)?.[1];
    if (!stack || !clusterOfStack(stack) || configured.has(stack)) continue;
    const count = managedResources(path.join(directory, entry));
    if (count === 0) continue;
    held.set(stack, `${shown(path.join(directory, entry))}: ${count === undefined ? "unreadable" : plural(count, "resource")}`);
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
  const state = readState(file);
  if (!state || !Array.isArray(state.resources)) return undefined;
  return state.resources.filter((r) => r.mode === "managed").reduce((sum, r) => sum + (r.instances?.length ?? 0), 0);
}

/** The IDs of the resource groups (created or looked up) a state file holds. */
function resourceGroupIds(file: string): string[] {
  const resources = readState(file)?.resources;
  if (!Array.isArray(resources)) return [];
  return resources
    .filter((r) => r.type === "azurerm_resource_group")
    .flatMap((r) => r.instances ?? [])
    .map((instance) => instance?.attributes?.id)
    .filter((id): id is string => typeof id === "string");
}

interface StateFile {
  resources?: Array<{ mode?: string; type?: string; instances?: Array<{ attributes?: { id?: unknown } }> }>;
}

function readState(file: string): StateFile | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as StateFile;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Remote backends: the record

export type ReadRecord = (ParsedClusterRecord & { readonly text: string }) | { readonly ok: false; readonly problems: string[]; readonly text: string };

/** The record of a config with a remote backend, parsed; undefined when it is missing (or the backend is local). */
export function readClusterRecord(loaded: LoadedConfig): { file: string; record: ReadRecord } | undefined {
  const file = clusterRecordFile(loaded);
  if (!file) return undefined;
  const legacyFile = legacyClusterRecordFile(loaded.file);
  const current = readRecord(file);
  if (current) return { file, record: current };
  const legacy = legacyFile !== file ? readRecord(legacyFile) : undefined;
  return legacy && { file: legacyFile, record: legacy };
}

function readRecord(file: string): ReadRecord | undefined {
  if (!fs.existsSync(file)) return undefined;
  const text = fs.readFileSync(file, "utf8");
  return { ...parseClusterRecord(text), text };
}

/** A record from before records were named after the backend: it has no `backend:` line (or could not be parsed). */
function oldStyle(record: ReadRecord | undefined): ReadRecord | undefined {
  return record && (!record.ok || record.backend === undefined) ? record : undefined;
}

function recordIssues(loaded: LoadedConfig, options: StateCheckOptions): ConfigIssue[] {
  const identity = remoteBackendIdentity(loaded.config) as RemoteBackendIdentity;
  const ours = canonical(identity);
  const file = clusterRecordFile(loaded) as string;
  const legacyFile = legacyClusterRecordFile(loaded.file);
  const legacy = legacyFile !== file ? oldStyle(readRecord(legacyFile)) : undefined;
  const existing = readRecord(file);

  if (existing) {
    if (!existing.ok) return malformed(file, existing.problems);
    const issues: ConfigIssue[] = [];
    if (existing.backend !== undefined && existing.backend !== ours)
      issues.push({
        path: "backend",
        message: `${shown(file)} is named after this config's backend (${describe(identity)}), but its ${BACKEND_LINE} line names another: ${existing.backend}. A record describes one backend: restore it from version control, or correct that line (help/retire-cluster.md#the-record-file).`,
      });
    if (legacy)
      issues.push({
        path: "backend",
        message: `both ${shown(file)} and ${shown(legacyFile)} (a record from before records were named after the backend) exist. Synth reads only ${shown(file)}: copy any stack line of ${shown(legacyFile)} that it lacks into it, then delete ${shown(legacyFile)} (help/retire-cluster.md#the-record-file).`,
      });
    return [...issues, ...removedFromRecord(loaded, existing.record, file)];
  }
  // The record from before, named after this config: still this config's record (synth moves it).
  if (legacy) return legacy.ok ? removedFromRecord(loaded, legacy.record, legacyFile) : malformed(legacyFile, legacy.problems);

  // No record: evidence that one existed.
  const base = path.basename(loaded.file);
  const evidence: ConfigIssue[] = [];
  for (const other of otherRecords(path.dirname(file), [file])) {
    const record = other.record;
    if (record.backend === ours) {
      evidence.push({
        path: "backend",
        message: `has no record of its cluster stacks under the name synth gives it (${shown(file)}), but ${shown(other.file)} records this backend: rename it (git mv ${sh(shown(other.file))} ${sh(shown(file))}), then synth (help/retire-cluster.md#the-record-file).`,
      });
    } else if (record.backend !== undefined && record.configs.includes(base)) {
      evidence.push({
        path: "backend",
        message:
          `has no record of its cluster stacks (${shown(file)}, for ${describe(identity)}), but ${shown(other.file)}, the record of ${record.backend}, says ${base} wrote it: this config's backend changed (or the prefix its default keyPrefix/workspacePrefix derive from). ` +
          "State does not move with the config: every stack of this environment would plan from empty state in the new place, and the clusters recorded there would go unnoticed. " +
          `Put the backend settings back; or, if you moved the state to the new place yourself, rename the record (git mv ${sh(shown(other.file))} ${sh(shown(file))}) and delete its ${BACKEND_LINE} line: synth writes the new one. ` +
          `If ${base} now describes another environment on purpose, remove "${base}" from the ${CONFIGS_LINE} line of ${shown(other.file)} (help/retire-cluster.md#a-missing-record).`,
      });
    } else if (record.backend === undefined && !configBeside(other.file)) {
      const owner = configBase(other.file);
      evidence.push({
        path: "backend",
        message:
          `has no record of its cluster stacks (${shown(file)}), but ${shown(other.file)} is a record from before records were named after the backend, and its config ${owner}.yaml is not beside it. ` +
          `If this config was ${owner}.yaml (renamed), that record is this config's: git mv ${sh(shown(other.file))} ${sh(shown(file))}, then synth. ` +
          `If ${owner}.yaml's environment is destroyed, delete the record (help/retire-cluster.md#a-missing-record).`,
      });
    }
  }
  if (evidence.length > 0 || !options.underCdktfCli) return evidence;
  return [
    {
      path: "backend",
      message:
        `has no record of the cluster stacks in this backend (${describe(identity)}): ${shown(file)} is missing. cdktf acts on the backend, and without the record a cluster removed from the config would go unnoticed. ` +
        `If the backend holds no cluster stacks of this environment but this config's (a new environment; check with ${backendListing(identity)}), create the record with npm run synth -- ${shown(path.resolve(loaded.file))} and commit it. ` +
        "Otherwise restore it from version control, or write those stacks' names into it, one per line (help/retire-cluster.md#a-missing-record).",
    },
  ];
}

function malformed(file: string, problems: readonly string[]): ConfigIssue[] {
  return problems.map((problem) => ({ path: shown(file), message: `${problem} (the record of deployed cluster stacks; help/retire-cluster.md)` }));
}

/** The other records in a folder that parse, by file. */
function otherRecords(dir: string, except: readonly string[]): Array<{ file: string; record: ParsedClusterRecord }> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((entry) => entry.endsWith(RECORD_SUFFIX))
    .sort()
    .map((entry) => path.join(dir, entry))
    .filter((file) => !except.includes(file))
    .flatMap((file) => {
      const record = readRecord(file);
      return record?.ok ? [{ file, record }] : [];
    });
}

/** A backend's identity in words. */
function describe(identity: RemoteBackendIdentity): string {
  return identity.type === "azurerm"
    ? `azurerm: storage account ${identity.storageAccountName}, container ${identity.containerName}, blobs ${identity.keyPrefix}<stack>.tfstate`
    : `cloud: organization ${identity.organization} on ${identity.hostname}, workspaces ${identity.workspacePrefix}<stack>`;
}

/** How to list what a backend holds: the state blobs or the workspaces. */
function backendListing(identity: RemoteBackendIdentity): string {
  return identity.type === "azurerm"
    ? `az storage blob list --auth-mode login --account-name ${identity.storageAccountName} --container-name ${identity.containerName} --prefix ${sh(identity.keyPrefix)} --query '[].name' -o tsv`
    : `the workspaces named ${identity.workspacePrefix}* in organization ${identity.organization} on ${identity.hostname}`;
}

function removedFromRecord(loaded: LoadedConfig, record: ClusterRecord, file: string): ConfigIssue[] {
  const configured = configuredStacks(loaded);
  const held = new Map<string, string>();
  for (const [stack, { retired }] of record) {
    if (!configured.has(stack)) held.set(stack, retired ? `${stack} ${RETIRED}` : stack);
  }
  return issuesFor(
    loaded,
    held,
    (items) => `${items.join(", ")}: listed in ${shown(file)}, ${loaded.config.backend.type} backend`,
    (stacks) => `Once the destroy has completed, delete their lines (${stacks.join(", ")}) from ${shown(file)} and synth again.`,
  );
}

// ---------------------------------------------------------------------------------------------
// Both

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
    const shownEvidence = evidence(ordered.map((stack) => held.get(stack) as string));
    const configured = loaded.names.clusters.find((cluster) => cluster.name === name);
    if (configured) {
      // Only the hostedCluster left: its two stacks, destroyed together (cdktf refuses infra- alone).
      const destroy = clusterStackNames(name).filter((stack) => !configured.stacks.includes(stack));
      return {
        path: `clusters[${configured.index}].hostedCluster`,
        message:
          `was removed from the config, but ${ordered.join(" and ")} may still hold state (${shownEvidence}). ` +
          `Put hostedCluster back, synth, and destroy them (npm run destroy -- ${destroy.join(" ")}); then remove it (help/phase3.md#delete-a-cluster). ${afterDestroy(ordered)}`,
      };
    }
    return {
      path: "clusters",
      value: name,
      message:
        `was removed from the config, but its stacks may still hold state (${shownEvidence}). ` +
        `Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- ${clusterStackNames(name).join(" ")}); then remove it (help/retire-cluster.md). ${afterDestroy(ordered)}`,
    };
  });
}

function configDir(loaded: LoadedConfig): string {
  return path.dirname(path.resolve(loaded.file));
}

/** A config file's or record's name without `.yaml`/`.yml`/`.clusters.lock`. */
function configBase(file: string): string {
  return path
    .basename(file)
    .replace(RECORD_SUFFIX, "")
    .replace(/\.ya?ml$/i, "");
}

/** Whether the config an old-style record was named after is beside it. */
function configBeside(record: string): boolean {
  const base = path.join(path.dirname(record), configBase(record));
  return [".yaml", ".yml"].some((ext) => fs.existsSync(`${base}${ext}`));
}

/** A file as the user typed it would be: relative to the working folder. */
function shown(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

/** A word for a POSIX shell, quoted only when it needs to be. */
function sh(word: string): string {
  return /^[A-Za-z0-9_./%+@:=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
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
function canonical(value: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))));
}
