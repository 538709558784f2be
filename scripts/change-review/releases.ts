import { classifyReleaseChange, minorText, upgradePath } from "../../config/release-change";
import { StackDiff } from "./diff";

/** A finding of dangers.ts (not imported: dangers.ts imports this file). */
interface Finding {
  readonly severity: "danger" | "review";
  readonly stack: string;
  readonly address?: string;
  readonly message: string;
}

const imageOf = (body: any): string | undefined => body?.manifest?.spec?.release?.image;

/**
 * When the NodePools follow a HostedCluster's release change: once its control plane completed it,
 * unless its wait is a condition only (`Available`: an azurerm or cloud backend whose operator or
 * release cannot report status.controlPlaneVersion, help/upgrades.md#which-wait). With the local
 * backend the deploy's synth reads the state and waits for the completed release, whatever the
 * review's synth shows (review mode reads no state, so there it is `Available`).
 */
const followsCompletion = (stack: any, hostedCluster: any): boolean =>
  stack?.terraform?.backend?.local !== undefined || !(hostedCluster?.wait?.condition && !hostedCluster?.wait?.fields);

/**
 * Every release change of a cluster stack, classified (help/upgrades.md): the HostedCluster's
 * patch, minor (acknowledged by the `upgrade_acknowledged_minor` local, or not), skipped minor or
 * downgrade; a NodePool's release change while the HostedCluster's stays is a pool-only upgrade.
 */
export function releaseFindings(diff: StackDiff): Finding[] {
  const { stack } = diff;
  const acknowledged: unknown = diff.after?.locals?.upgrade_acknowledged_minor;
  const findings: Finding[] = [];
  const moved = diff.resources.filter((change) => {
    const [was, now] = [imageOf(change.before), imageOf(change.after)];
    const kind = change.after?.manifest?.kind;
    return (
      change.type === "kubernetes_manifest" && change.action === "update" && was && now && was !== now && (kind === "HostedCluster" || kind === "NodePool")
    );
  });
  const controlPlaneChange = moved.find((change) => change.after.manifest.kind === "HostedCluster");
  const controlPlaneMoved = controlPlaneChange !== undefined;
  const completes = followsCompletion(diff.after, controlPlaneChange?.after);
  for (const change of moved) {
    const kind: string = change.after.manifest.kind;
    const [was, now] = [imageOf(change.before) as string, imageOf(change.after) as string];
    const at = (severity: Finding["severity"], message: string) => findings.push({ severity, stack, address: change.address, message });
    const what = `${kind} ${change.after.manifest.metadata?.namespace}/${change.after.manifest.metadata?.name}`;
    const c = classifyReleaseChange(was, now);
    const after =
      kind === "NodePool" && controlPlaneMoved
        ? completes
          ? ", once the control plane has completed its release (it waits on the HostedCluster)"
          : ", as soon as the HostedCluster's patch returns (its wait is Available only: help/upgrades.md#which-wait)"
        : "";
    const from = c.from?.text ?? was;
    const to = c.to?.text ?? now;
    if (c.kind === "downgrade") at("danger", `downgrade of ${what}: ${from} → ${to}; HyperShift supports no downgrade`);
    else if (c.kind === "skippedMinor")
      at(
        "danger",
        `skipped minor on ${what}: ${from} → ${to}; upgrade one minor at a time (${[minorText(c.from!), ...upgradePath(c.from!, c.to!)].join(" → ")})`,
      );
    else if (c.kind === "minor" && kind === "HostedCluster")
      at(
        acknowledged === minorText(c.to!) ? "review" : "danger",
        acknowledged === minorText(c.to!)
          ? `minor upgrade of ${what}: ${from} → ${to}, acknowledged (upgrade.acknowledgeMinor "${String(acknowledged)}"); the NodePools follow ${completes ? "once the control plane completed it" : "as soon as its patch returns (its wait is Available only)"}`
          : `minor upgrade of ${what}: ${from} → ${to}, not acknowledged (set upgrade.acknowledgeMinor: "${minorText(c.to!)}")`,
      );
    else if (c.kind === "minor") at("review", `minor upgrade of ${what}: ${from} → ${to}${after}`);
    else if (c.kind === "patch") at("review", `patch upgrade of ${what}: ${from} → ${to}${kind === "NodePool" ? after : ""}`);
    else at("review", `release change of ${what} that the tags cannot classify (a digest): ${was} → ${now}`);
  }
  if (!controlPlaneMoved)
    return findings.map((f) =>
      f.message.includes("NodePool ") && f.severity === "review" ? { ...f, message: `pool-only ${f.message} (the control plane stays)` } : f,
    );
  return findings;
}
