import * as fs from "node:fs";
import * as path from "node:path";
import { parseProtectedLine, ProtectedRecord, renderProtectedLines } from "../deployed-clusters/record-format";
import { LoadedConfig } from "../load";
import { SHARED_STACK } from "../names";
import { readLimitedFile, ReadResult } from "../read-file";

/**
 * The local backend's record of protected resources, `protected-resources.lock` in the
 * environment's state folder: the state does not say which resources were protected, so synth
 * writes it beside the state (`protected:` lines, as the remote record's; config/deployed-clusters/).
 */

/** What the local backend's record of protected resources is called, in the environment's state folder. */
export const LOCAL_PROTECTED_RECORD = "protected-resources.lock";

/** The environment's state folder (local backend). */
export function localStateFolder(loaded: LoadedConfig): string {
  return path.dirname(loaded.names.stateLocation(SHARED_STACK));
}

/** The local backend's record of protected resources, or undefined when the backend is remote. */
export function localProtectedRecordFile(loaded: LoadedConfig): string | undefined {
  return loaded.config.backend.type === "local" ? path.join(localStateFolder(loaded), LOCAL_PROTECTED_RECORD) : undefined;
}

/** The local record's text (read-file.ts, `record`). */
export function readLocalProtectedRecord(file: string): ReadResult {
  return readLimitedFile(file, "record");
}

/** Parses the local record: `protected:` lines, comments, blank lines. */
export function parseLocalProtectedRecord(text: string): { ok: true; protected: ProtectedRecord } | { ok: false; problems: string[] } {
  const held = new Map<string, { released: boolean }>();
  const problems: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const parsed = line.startsWith("protected:") ? parseProtectedLine(line.slice("protected:".length)) : "must be protected: <stack>/<resource address>";
    if (typeof parsed === "string") problems.push(`line ${index + 1}: "${line}" ${parsed}`);
    else held.set(parsed.id, { released: parsed.released });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, protected: held };
}

/**
 * Writes the local backend's record of protected resources (after a successful synth): when the
 * state folder exists, or `create` (under the cdktf CLI, which deploys into it). Records what
 * this synth protects, and what it released that the state still holds.
 */
export function writeLocalProtectedRecord(loaded: LoadedConfig, next: ProtectedRecord, create: boolean): void {
  const file = localProtectedRecordFile(loaded);
  if (!file) return;
  const folder = path.dirname(file);
  if (!fs.existsSync(folder)) {
    if (!create) return;
    fs.mkdirSync(folder, { recursive: true });
  }
  const text = [
    "# Resources with prevent_destroy this environment's stacks declared, written by `npm run synth`",
    "# beside their state. Synth refuses a config that drops one the state still holds, unless",
    "# protection.release names it (help/destroy.md#when-an-edit-drops-a-protected-resource).",
    ...renderProtectedLines(next),
    "",
  ].join("\n");
  const current = readLocalProtectedRecord(file);
  if (current.ok && current.text === text) return;
  // Written beside, then renamed: the record is never half-written.
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}
