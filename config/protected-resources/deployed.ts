import * as fs from "node:fs";
import * as path from "node:path";
import { stateAddresses } from "../deployed-clusters/local-state";
import { shown } from "../deployed-clusters/messages";
import { readClusterRecord } from "../deployed-clusters/record-file";
import { PROTECTED_ID, ProtectedRecord } from "../deployed-clusters/record-format";
import { LoadedConfig } from "../load";
import { ConfigIssue } from "../rules";
import { localProtectedRecordFile, localStateFolder, parseLocalProtectedRecord, readLocalProtectedRecord } from "./local-record";

/** What synth knows of the protected resources the deployment may hold. */
export interface DeployedProtection {
  /** Protected resources the deployment may hold, by ID, with whether an earlier synth saw them released. */
  readonly held: ProtectedRecord;
  /** Where that knowledge comes from, for messages. */
  readonly source: string;
  /** No record existed: nothing could be checked (a deployment from before protected resources were recorded). */
  readonly unrecorded: boolean;
}

/**
 * The protected resources the deployment may hold: local, recorded and still in their stack's
 * state file; remote, the record's `protected:` lines. A malformed record is a config issue.
 */
export function deployedProtection(loaded: LoadedConfig): DeployedProtection | { issues: ConfigIssue[] } {
  const localFile = localProtectedRecordFile(loaded);
  if (localFile) return localDeployedProtection(loaded, localFile);
  const read = readClusterRecord(loaded);
  // A missing or malformed record is config/deployed-clusters/'s to report.
  if (!read?.record.ok) return { held: new Map(), source: "the record", unrecorded: true };
  return { held: read.record.protected, source: shown(read.file), unrecorded: read.record.protected.size === 0 };
}

function localDeployedProtection(loaded: LoadedConfig, localFile: string): DeployedProtection | { issues: ConfigIssue[] } {
  const read = readLocalProtectedRecord(localFile);
  if (!read.ok && read.code === "ENOENT") return { held: new Map(), source: shown(localFile), unrecorded: true };
  const parsed = read.ok ? parseLocalProtectedRecord(read.text) : { ok: false as const, problems: [read.message] };
  if (!parsed.ok)
    return {
      issues: parsed.problems.map((problem) => ({ path: shown(localFile), message: `${problem} (synth's record of protected resources; help/destroy.md)` })),
    };
  const folder = localStateFolder(loaded);
  // Per stack: the addresses its state file holds; "unreadable" may hold anything (counted as holding what was recorded).
  const states = new Map<string, Set<string> | "unreadable">();
  const held = new Map<string, { released: boolean }>();
  for (const [id, entry] of parsed.protected) {
    const [, stack, address] = PROTECTED_ID.exec(id) as RegExpExecArray;
    if (!states.has(stack)) {
      const file = path.join(folder, `${stack}.tfstate`);
      states.set(stack, fs.existsSync(file) ? (stateAddresses(file) ?? "unreadable") : new Set());
    }
    const state = states.get(stack) as Set<string> | "unreadable";
    if (state === "unreadable" || state.has(address)) held.set(id, entry);
  }
  return { held, source: `${shown(folder)}/<stack>.tfstate`, unrecorded: false };
}

/** Keeps released entries the local state still holds, drops the rest (they are gone). */
export function localNext(deployed: DeployedProtection, next: ProtectedRecord): ProtectedRecord {
  return new Map([...next].filter(([id, { released }]) => !released || deployed.held.has(id)));
}
