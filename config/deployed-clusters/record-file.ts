import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "../load";
import { RECORD_SUFFIX } from "../names/state";
import { readLimitedFile } from "../read-file";
import { shown, sh } from "./messages";
import { parseClusterRecord, ParsedClusterRecord, ProtectedRecord, renderClusterRecord } from "./record-format";
import { clusterRecordFile, legacyClusterRecordFile } from "./record-location";

/** The record files of remote backends on disk: read (read-file.ts, `record`), found beside the config, written. */

export type ReadRecord = (ParsedClusterRecord & { readonly text: string }) | { readonly ok: false; readonly problems: string[]; readonly text: string };

/** What synth wrote to the record: lines to print, and warnings. */
export interface RecordReport {
  readonly lines: readonly string[];
  readonly warnings: readonly string[];
}

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

/** A record file, parsed; undefined when there is none. One that cannot be read (a directory, too large) is a problem, as a malformed line is. */
export function readRecord(file: string): ReadRecord | undefined {
  const read = readLimitedFile(file, "record");
  if (!read.ok) return read.code === "ENOENT" ? undefined : { ok: false, problems: [read.message], text: "" };
  return { ...parseClusterRecord(read.text), text: read.text };
}

/** A record from before records were named after the backend: it has no `backend:` line (or could not be parsed). */
export function oldStyle(record: ReadRecord | undefined): ReadRecord | undefined {
  return record && (!record.ok || record.backend === undefined) ? record : undefined;
}

/** The other records in a folder that parse, by file. */
export function otherRecords(dir: string, except: readonly string[]): Array<{ file: string; record: ParsedClusterRecord }> {
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

/**
 * Writes the record of a config with a remote backend (call after a successful synth, and only
 * when `removedClusterIssues` found nothing): only when its content changes. A record from before
 * records were named after the backend (`<config name>.clusters.lock`) is moved to the new name.
 * `protectedResources`: the protected lines to write (config/protected-resources/); without
 * it, the record's own are kept.
 */
export function writeClusterRecord(loaded: LoadedConfig, protectedResources?: ProtectedRecord): RecordReport {
  const file = clusterRecordFile(loaded);
  if (!file) return { lines: [], warnings: [] };
  const existing = readRecord(file);
  const legacyFile = legacyClusterRecordFile(loaded.file);
  const legacy = !existing && legacyFile !== file ? oldStyle(readRecord(legacyFile)) : undefined;
  const previous = existing ?? legacy;
  const text = renderClusterRecord(
    loaded,
    previous?.ok ? previous.configs : [],
    protectedResources ?? (previous?.ok ? previous.protected : undefined),
    previous?.ok ? previous.releases : undefined,
  );
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
