import { reportsControlPlaneVersion } from "./hypershift-release";
import { compareVersions, onV4, ReleaseVersion, releaseVersion } from "./release-version";

/**
 * How a release change moves a cluster, from the versions in the image tags (config/rules/upgrades.ts
 * refuses, the review classifies: help/upgrades.md). 5.x counts as 4.(23+x), as HyperShift's
 * `normalizeToV4`, so 4.23 → 5.0 is a patch-free minor step and 4.22 → 5.0 skips one.
 */
export type ReleaseChangeKind = "same" | "patch" | "minor" | "skippedMinor" | "downgrade" | "unknown";

export interface ReleaseChange {
  readonly kind: ReleaseChangeKind;
  readonly from?: ReleaseVersion;
  readonly to?: ReleaseVersion;
}

/** `4.22` for 4.22.3, `5.0` for 5.0.1. */
export const minorText = (v: Pick<ReleaseVersion, "major" | "minor">) => `${v.major}.${v.minor}`;

/** The kind of change from the deployed image to the configured one; `unknown` when either tag holds no version (a digest). */
export function classifyReleaseChange(deployedImage: string, configuredImage: string): ReleaseChange {
  if (deployedImage === configuredImage) return { kind: "same" };
  const from = releaseVersion(deployedImage);
  const to = releaseVersion(configuredImage);
  if (!from || !to) return { kind: "unknown", from, to };
  const [a, b] = [onV4(from), onV4(to)];
  const order = compareVersions(b, a);
  if (order < 0) return { kind: "downgrade", from, to };
  if (order === 0 || (a.major === b.major && a.minor === b.minor)) return { kind: "patch", from, to };
  return { kind: b.minor - a.minor === 1 && a.major === b.major ? "minor" : "skippedMinor", from, to };
}

/** The minors to go through, one apply each: 4.21 → 4.23 gives ["4.22", "4.23"]. */
export function upgradePath(from: ReleaseVersion, to: ReleaseVersion): string[] {
  const [a, b] = [onV4(from), onV4(to)];
  const out: string[] = [];
  // Named as the target names them: on the way to 5.x, 4.23 and above are 5.(minor - 23).
  for (let minor = a.minor + 1; minor <= b.minor; minor++) out.push(to.major === 5 && minor >= 23 ? `5.${minor - 23}` : `4.${minor}`);
  return out;
}

/**
 * What the HostedCluster's apply waits for (help/upgrades.md "Which wait"), decided here once for
 * the cluster stack (stacks/cluster-upgrade.ts) and for the check that the NodePools roll after the
 * control plane (config/deployed-clusters/control-plane-first.ts):
 * - `version`: local backend with the deployed release in state: `status.version.history[0]`;
 * - `controlPlaneVersion`: azurerm or cloud where operator and release report it (`reportsControlPlaneVersion`);
 * - `available`: anything else, and any release that names neither a version nor a digest (nothing
 *   to match: constructs/hosted-cluster/upgrade-waits.ts falls back to `Available` too).
 * `Available` stays True through an upgrade: with it the NodePools are patched at once.
 */
export type ControlPlaneWaitKind = "version" | "controlPlaneVersion" | "available";

export function controlPlaneWaitKind(input: {
  readonly local: boolean;
  readonly deployedRelease?: string;
  readonly operatorRelease?: string;
  readonly releaseImage: string;
}): ControlPlaneWaitKind {
  const matchable = releaseVersion(input.releaseImage) !== undefined || /@sha256:[0-9a-f]{64}$/.test(input.releaseImage);
  if (!matchable) return "available";
  if (input.local) return input.deployedRelease !== undefined ? "version" : "available";
  return reportsControlPlaneVersion(input.operatorRelease, input.releaseImage) ? "controlPlaneVersion" : "available";
}
