import { CONTROL_PLANE_VERSION_SINCE, releaseAtLeast } from "../hypershift-release";
import type { LoadedConfig } from "../load";
import type { ClusterNames, HostedClusterNames } from "../names";
import { classifyReleaseChange, controlPlaneWaitKind, minorText } from "../release-change";
import { releaseVersion } from "../release-version";
import type { ConfigIssue } from "../rules/rule";
import { deployedHostedClusterRelease } from "./deployed-release";
import { shown } from "./messages";
import { readRecord } from "./record-file";
import { clusterRecordFile } from "./record-location";

/**
 * The control plane before the NodePools (help/upgrades.md#when-the-nodepools-roll-with-the-control-plane):
 * where the HostedCluster's apply waits only for `Available` (which stays True through an upgrade),
 * Terraform patches the NodePools as soon as the HostedCluster's patch returns, and HyperShift does
 * not hold them back (release-4.21's NodePool controller only reports `SupportedVersionSkew`,
 * nodepool/conditions.go). So, when the release changes from the one synth knows (local state, or
 * the record's `release:` line) and a NodePool follows the cluster's release:
 * - a patch (or a change synth cannot classify) is a warning: the Kubernetes minor stays, so the
 *   nodes stay within the Kubernetes version skew policy, but they are replaced while the control
 *   plane still rolls;
 * - a minor is refused: nodes of the new minor ahead of the control plane break the Kubernetes
 *   version skew policy, which HyperShift's upgrade guide requires "at any time"
 *   (docs/content/how-to/upgrades.md). The staged upgrade (pin the pools) is the way through.
 * Downgrades and skipped minors are refused by the release rules already (rules/upgrades.ts).
 */

interface RollingPools {
  readonly cluster: ClusterNames;
  readonly hosted: HostedClusterNames;
  readonly previous: string;
  /** Where the previous release comes from, in words. */
  readonly source: string;
  /** The previous release is the record's (a remote backend), which this synth then overwrites. */
  readonly recorded: boolean;
  readonly pools: readonly string[];
  /** `patch`, `minor`, or `unknown` (a release without a version on one side). */
  readonly change: "patch" | "minor" | "unknown";
  readonly reason: string;
}

/** The clusters whose following NodePools would roll with the control plane. */
function rollingPools(loaded: LoadedConfig): RollingPools[] {
  const local = loaded.config.backend.type === "local";
  const recordFile = clusterRecordFile(loaded);
  const record = recordFile ? readRecord(recordFile) : undefined;
  return loaded.names.clusters.flatMap((cluster) => {
    const hosted = cluster.hosted;
    if (!hosted || cluster.retired) return [];
    const spec = hosted.config;
    const stack = hosted.clusterStack;
    // With a deployed release, the wait is Available only for a release that names nothing to match: read no state otherwise.
    const kind = controlPlaneWaitKind({
      local,
      deployedRelease: local ? "deployed" : undefined,
      operatorRelease: loaded.hypershiftRelease,
      releaseImage: spec.releaseImage,
    });
    // A digest-only release keeps the record's versioned line (record-format.ts): no version, nothing to compare.
    if (kind !== "available" || (!local && !releaseVersion(spec.releaseImage))) return [];
    const previous = local
      ? deployedHostedClusterRelease(loaded.names.stateLocation(stack))
      : record?.ok && record.record.has(stack)
        ? record.releases.get(stack)
        : undefined;
    if (previous === undefined || previous === spec.releaseImage) return [];
    const change = classifyReleaseChange(previous, spec.releaseImage).kind;
    if (change !== "patch" && change !== "minor" && change !== "unknown") return [];
    const pools = spec.nodePools.filter((pool) => (pool.releaseImage ?? spec.releaseImage) === spec.releaseImage).map((pool) => pool.name);
    if (pools.length === 0) return [];
    const source = local
      ? `the deployed release, in ${shown(loaded.names.stateLocation(stack))}`
      : `the recorded release, the line "release: ${stack} ${previous}" of ${shown(recordFile as string)}`;
    const reason = availableReason(local, loaded.config.backend.type, loaded.hypershiftRelease, spec.releaseImage);
    return [{ cluster, hosted, previous, source, recorded: !local, pools, change, reason }];
  });
}

/** Why the HostedCluster waits only for Available (help/upgrades.md#which-wait). */
function availableReason(local: boolean, backend: string, operatorRelease: string | undefined, releaseImage: string): string {
  const version = releaseVersion(releaseImage);
  if (local || !version) return "its releaseImage names no version to wait for";
  const since = CONTROL_PLANE_VERSION_SINCE;
  if (!releaseAtLeast(minorText(version), since))
    return `on the ${backend} backend it cannot wait for status.controlPlaneVersion: a ${minorText(version)} release may not report it, only ${since} and later do`;
  if (operatorRelease === undefined)
    return `on the ${backend} backend it waits for status.controlPlaneVersion only when the HyperShift operator's release is known to be ${since} or later, and managementCluster.operator.hypershiftRelease is not set (nor given by the bundle)`;
  if (!releaseAtLeast(operatorRelease, since))
    return `on the ${backend} backend it cannot wait for status.controlPlaneVersion: the operator release ${operatorRelease} may not report it, only ${since} and later do`;
  return `on the ${backend} backend a ${version.text} pre-release may not report status.controlPlaneVersion`;
}

/** The pools, what happens and the staged upgrade, shared by the warning and the refusal. */
function explanation(found: RollingPools): string {
  const { cluster, hosted, previous, pools } = found;
  const to = releaseVersion(hosted.config.releaseImage)?.text ?? hosted.config.releaseImage;
  const from = releaseVersion(previous)?.text ?? previous;
  const indexes = hosted.config.nodePools.flatMap((pool, i) => (pools.includes(pool.name) ? [i] : []));
  const at = `clusters[${cluster.index}].hostedCluster`;
  return (
    `the release of cluster ${cluster.name} changes from ${from} (${found.source}) to ${to}, and the HostedCluster's apply waits only for its Available condition (${found.reason}), ` +
    `which stays True during an upgrade: Terraform patches the NodePools that follow the cluster's release (${pools.join(", ")}) as soon as the HostedCluster's patch returns, ` +
    "so they roll together with the control plane instead of after it, and HyperShift does not hold them back (its NodePool controller only reports SupportedVersionSkew). " +
    `Upgrade in stages: set ${indexes.map((i) => `${at}.nodePools[${i}].releaseImage`).join(", ")} to ${previous}, deploy (the control plane alone moves to ${to}), ` +
    `wait until the HostedCluster's status.version.history[0] is ${to} Completed, then remove those releaseImage lines and deploy again (help/upgrades.md#staged-pool-upgrades-nodepoolsreleaseimage)`
  );
}

/** A minor upgrade whose NodePools would run ahead of the control plane: refused (see the top). */
export function controlPlaneFirstIssues(loaded: LoadedConfig): ConfigIssue[] {
  return rollingPools(loaded)
    .filter((found) => found.change === "minor")
    .map((found) => ({
      path: `clusters[${found.cluster.index}].hostedCluster.nodePools`,
      value: found.pools.join(", "),
      message:
        `would upgrade to a new minor together with the control plane: ${explanation(found)}. ` +
        "A minor upgrade of nodes ahead of their control plane breaks the Kubernetes version skew policy (a kubelet must not be newer than the API server), which HyperShift's upgrade guide requires at any time" +
        (found.reason.includes("hypershiftRelease is not set")
          ? `. If the operator runs HyperShift ${CONTROL_PLANE_VERSION_SINCE} or later, set managementCluster.operator.hypershiftRelease instead: the HostedCluster then waits for its control plane's own release history`
          : ""),
    }));
}

/** A patch (or an unclassified change) whose NodePools roll with the control plane: synth's warning (see the top). */
export function controlPlaneFirstWarnings(loaded: LoadedConfig): string[] {
  return rollingPools(loaded)
    .filter((found) => found.change !== "minor")
    .map(
      (found) =>
        `${explanation(found)}. ` +
        (found.change === "patch"
          ? "A patch keeps the Kubernetes minor (within the Kubernetes version skew policy), but nodes are replaced while the control plane still rolls out, and HyperShift reports their SupportedVersionSkew False until it completes."
          : "Synth cannot tell how far this change goes (a release without a version): check it before you deploy.") +
        (found.recorded ? ` Synth says this once: the record now holds ${releaseVersion(found.hosted.config.releaseImage)?.text}.` : ""),
    );
}
