import { CrdCheck, runCrdCheck } from "./crd-check";
import { Finding, stackFindings } from "./dangers";
import { StackDiff, diffSynths } from "./diff";
import { renderMarkdown } from "./markdown";
import { alignPaths } from "./paths";
import { Checkout, readOutputFolder } from "./sides";

export interface ReviewInput {
  /** Labels for the report (folder or ref as the user named it). */
  readonly oldLabel: string;
  readonly newLabel: string;
  /** Output folders (stacks/<name>/cdk.tf.json). */
  readonly oldDir: string;
  readonly newDir: string;
  /** When a side is a git ref's temporary worktree: which repository it stands in for. @default - none */
  readonly oldCheckout?: Checkout;
  readonly newCheckout?: Checkout;
  /** Path of check-manifests.mjs; undefined or missing: the CRD check is reported as not run. */
  readonly checkManifests?: string;
  /** Said by synth in review mode (placeholder keys), shown under the verdict. @default - none */
  readonly notes?: readonly string[];
}

export interface Review {
  readonly stacks: readonly StackDiff[];
  readonly findings: readonly Finding[];
  readonly crd: CrdCheck;
  /** The pull-request comment. */
  readonly markdown: string;
  readonly dangerous: boolean;
}

/** Compares two output folders: per-stack changes, what is dangerous, as Markdown. */
export function reviewChanges(input: ReviewInput): Review {
  // Paths relative to each stack folder (state files, file(), config_path) compared as the files they name (paths.ts).
  const [before, after] = alignPaths(
    { dir: input.oldDir, checkout: input.oldCheckout, stacks: readOutputFolder(input.oldDir) },
    { dir: input.newDir, checkout: input.newCheckout, stacks: readOutputFolder(input.newDir) },
  );
  const stacks = diffSynths(before, after);
  const findings: Finding[] = stacks.flatMap(stackFindings);
  const touchesManifests = stacks.some((s) => s.resources.some((r) => r.type === "kubernetes_manifest"));
  const crd: CrdCheck = touchesManifests
    ? runCrdCheck(input.checkManifests, input.oldDir, input.newDir)
    : { status: "nothing", note: "CRD check: no Kubernetes object changed.", rejections: [] };
  // The creation guard's list (dangers.ts) already reported some of these: one finding per object and field.
  const known = new Set(findings.map((f) => f.crdKey).filter(Boolean));
  for (const rejection of crd.rejections) {
    const stack = rejection.source.split("/")[0];
    if (known.has(`${rejection.kind}/${rejection.name} ${rejection.path}`)) continue;
    findings.push({
      severity: "danger",
      stack,
      message: `${rejection.kind} ${rejection.name}: the CRDs refuse \`${rejection.path}\`: ${rejection.message}`,
    });
  }
  const dangerous = findings.some((f) => f.severity === "danger");
  return { stacks, findings, crd, dangerous, markdown: renderMarkdown({ ...input, stacks, findings, crd }) };
}
