import * as path from "node:path";
import { LoadedConfig } from "../load";
import { RemoteBackendIdentity, remoteBackendIdentity } from "../names/state";
import { ConfigIssue } from "../rules";
import { localStateLeftBehind } from "./backend-switch";
import { configuredStacks, issuesFor } from "./cluster-issues";
import { sh, shown } from "./messages";
import { BACKEND_LINE, canonical, ClusterRecord, CONFIGS_LINE, RETIRED } from "./record-format";
import { oldStyle, otherRecords, readRecord } from "./record-file";
import { recordedReleaseIssues } from "./recorded-release";
import { backendListing, clusterRecordFile, configBase, configBeside, describeBackend, legacyClusterRecordFile } from "./record-location";

/** azurerm and cloud backends: what the record says (stacks, releases), or that it is missing or wrong. */

export interface StateCheckOptions {
  /**
   * The app runs under the cdktf CLI (deploy, diff, destroy act on the backend): a remote
   * backend's record must exist.
   */
  readonly underCdktfCli?: boolean;
}

export function recordIssues(loaded: LoadedConfig, options: StateCheckOptions): ConfigIssue[] {
  const identity = remoteBackendIdentity(loaded.config) as RemoteBackendIdentity;
  const file = clusterRecordFile(loaded) as string;
  const legacyFile = legacyClusterRecordFile(loaded.file);
  const legacy = legacyFile !== file ? oldStyle(readRecord(legacyFile)) : undefined;
  const existing = readRecord(file);

  if (existing) {
    if (!existing.ok) return malformed(file, existing.problems);
    const issues: ConfigIssue[] = [];
    if (existing.backend !== undefined && existing.backend !== canonical(identity))
      issues.push({
        path: "backend",
        message: `${shown(file)} is named after this config's backend (${describeBackend(identity)}), but its ${BACKEND_LINE} line names another: ${existing.backend}. A record describes one backend: restore it from version control, or correct that line (help/retire-cluster.md#the-record-file).`,
      });
    if (legacy)
      issues.push({
        path: "backend",
        message: `both ${shown(file)} and ${shown(legacyFile)} (a record from before records were named after the backend) exist. Synth reads only ${shown(file)}: copy any stack line of ${shown(legacyFile)} that it lacks into it, then delete ${shown(legacyFile)} (help/retire-cluster.md#the-record-file).`,
      });
    return [...issues, ...removedFromRecord(loaded, existing.record, file), ...recordedReleaseIssues(loaded, existing, file)];
  }
  // The record from before, named after this config: still this config's record (synth moves it).
  if (legacy) return legacy.ok ? removedFromRecord(loaded, legacy.record, legacyFile) : malformed(legacyFile, legacy.problems);
  return missingRecordIssues(loaded, identity, file, options);
}

/** No record: evidence that one existed (another record beside it, or local state: backend-switch.ts), else, under the cdktf CLI, the missing record itself. */
function missingRecordIssues(loaded: LoadedConfig, identity: RemoteBackendIdentity, file: string, options: StateCheckOptions): ConfigIssue[] {
  const base = path.basename(loaded.file);
  const evidence: ConfigIssue[] = [];
  for (const other of otherRecords(path.dirname(file), [file])) {
    const record = other.record;
    if (record.backend === canonical(identity)) {
      evidence.push({
        path: "backend",
        message: `has no record of its cluster stacks under the name synth gives it (${shown(file)}), but ${shown(other.file)} records this backend: rename it (git mv ${sh(shown(other.file))} ${sh(shown(file))}), then synth (help/retire-cluster.md#the-record-file).`,
      });
    } else if (record.backend !== undefined && record.configs.includes(base)) {
      evidence.push({
        path: "backend",
        message:
          `has no record of its cluster stacks (${shown(file)}, for ${describeBackend(identity)}), but ${shown(other.file)}, the record of ${record.backend}, says ${base} wrote it: this config's backend changed (or the prefix its default keyPrefix/workspacePrefix derive from). ` +
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
  evidence.push(...localStateLeftBehind(loaded, identity, file));
  if (evidence.length > 0 || !options.underCdktfCli) return evidence;
  return [
    {
      path: "backend",
      message:
        `has no record of the cluster stacks in this backend (${describeBackend(identity)}): ${shown(file)} is missing. cdktf acts on the backend, and without the record a cluster removed from the config would go unnoticed. ` +
        `If the backend holds no cluster stacks of this environment but this config's (a new environment; check with ${backendListing(identity)}), create the record with npm run synth -- ${shown(path.resolve(loaded.file))} and commit it. ` +
        "Otherwise restore it from version control, or write those stacks' names into it, one per line (help/retire-cluster.md#a-missing-record).",
    },
  ];
}

function malformed(file: string, problems: readonly string[]): ConfigIssue[] {
  return problems.map((problem) => ({ path: shown(file), message: `${problem} (the record of deployed cluster stacks; help/retire-cluster.md)` }));
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
