import { classifyReleaseChange, minorText, upgradePath } from "../release-change";
import { ConfigIssue } from "./rule";

/**
 * The release rules of an upgrade (help/upgrades.md), given the release a cluster last applied:
 * no downgrade (HyperShift refuses y-stream downgrades and supports none of the control plane,
 * docs/content/how-to/upgrades.md), no skipped minor (OpenShift upgrades one minor at a time),
 * and a minor upgrade only with `upgrade.acknowledgeMinor` naming the new minor. The NodePool
 * skew is rules/node-pools.ts's (against the configured control-plane release). `basis` names
 * what the previous release is: `deployed` (local state) or `recorded` (a remote backend's record).
 */
export function releaseChangeIssues(
  at: string,
  deployedImage: string,
  configuredImage: string,
  acknowledgeMinor: string | undefined,
  basis: "deployed" | "recorded" = "deployed",
): ConfigIssue[] {
  const change = classifyReleaseChange(deployedImage, configuredImage);
  const { from, to } = change;
  const path = `${at}.releaseImage`;
  if (!from || !to) return [];
  switch (change.kind) {
    case "downgrade":
      return [
        {
          path,
          value: configuredImage,
          message: `downgrades the control plane from the ${basis} ${from.text} to ${to.text}; HyperShift does not support downgrades. Keep releaseImage at ${from.text} or a later release`,
        },
      ];
    case "skippedMinor": {
      const steps = upgradePath(from, to);
      return [
        {
          path,
          value: configuredImage,
          message: `skips a minor: the ${basis} release is ${from.text}, and OpenShift upgrades one minor at a time. Take the path ${[minorText(from), ...steps].join(" → ")}: set releaseImage to the latest ${steps[0]}.z release with upgrade.acknowledgeMinor: "${steps[0]}", deploy, then the next`,
        },
      ];
    }
    case "minor":
      return acknowledgeMinor === minorText(to)
        ? []
        : [
            {
              path: `${at}.upgrade.acknowledgeMinor`,
              value: acknowledgeMinor,
              message: `must be "${minorText(to)}" to upgrade the ${basis} ${from.text} to ${to.text} (a minor upgrade): read the release notes and check the HostedCluster's ClusterVersionUpgradeable condition first (help/upgrades.md#minor-upgrades)`,
            },
          ];
    default:
      return [];
  }
}
