import { spawnSync } from "node:child_process";
import * as fs from "node:fs";

/** One HostedCluster or NodePool edit the real CRDs refuse (schema or CEL rule, transition rules included). */
export interface CrdRejection {
  /** Stack and resource the tool names, e.g. `cluster-x/HostedCluster_27333B37`. */
  readonly source: string;
  readonly kind: string;
  readonly name: string;
  readonly path: string;
  readonly message: string;
}

export interface CrdCheck {
  /** checked: the tool ran; unavailable: it is not there (or failed), see note; nothing: no HostedCluster or NodePool on the new side. */
  readonly status: "checked" | "unavailable" | "nothing";
  /** One line for the report: the tool's summary, or why it did not run. */
  readonly note: string;
  readonly rejections: readonly CrdRejection[];
}

// `<stack>/<resource>: <Kind>/<name> <path>: <message>` (check-manifests.mjs checkOne).
const REJECTION = /^(\S+): (HostedCluster|NodePool)\/(\S+) (\S+): (.*)$/;

/**
 * `node <tool> --old <oldDir> <newDir>` (../shared/tools/check-manifests.mjs: the real CRDs'
 * schema and CEL rules, with the transition rules evaluated against the old objects). The project
 * must work without ../shared: then the review says the CRD check did not run, and only the
 * creation guard's list of immutable fields (dangers.ts) is checked.
 */
export function runCrdCheck(tool: string | undefined, oldDir: string, newDir: string): CrdCheck {
  if (!tool || !fs.existsSync(tool)) {
    return {
      status: "unavailable",
      note: `CRD check not run: ${tool ?? "check-manifests.mjs"} is not there (it ships in ../shared; set HCP_AZURE_CHECK_MANIFESTS to its path). Only the immutable fields the creation guard knows were checked.`,
      rejections: [],
    };
  }
  const run = spawnSync(process.execPath, [tool, "--old", oldDir, newDir], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const lines = (run.stdout ?? "").split("\n").filter(Boolean);
  if (run.status === 2) {
    const nothing = /no HostedCluster or NodePool manifest found/.test(run.stderr ?? "");
    return {
      status: nothing ? "nothing" : "unavailable",
      note: nothing ? "CRD check: no HostedCluster or NodePool on the new side." : `CRD check failed to run: ${(run.stderr ?? "").trim().split("\n")[0]}`,
      rejections: [],
    };
  }
  if (run.status !== 0 && run.status !== 1) {
    return {
      status: "unavailable",
      note: `CRD check failed to run (exit ${run.status ?? run.signal}): ${(run.stderr ?? "").trim().split("\n")[0]}`,
      rejections: [],
    };
  }
  const rejections = lines.flatMap((line) => {
    const match = REJECTION.exec(line);
    return match ? [{ source: match[1], kind: match[2], name: match[3], path: match[4], message: match[5] }] : [];
  });
  const summary = lines.filter((line) => line.startsWith("checked ") || line.startsWith("update: ")).join(" ");
  return { status: "checked", note: `CRD check (check-manifests.mjs --old): ${summary}`, rejections };
}
