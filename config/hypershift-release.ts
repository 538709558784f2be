import { atLeast, onV4, releaseVersion } from "./release-version";

/**
 * The HyperShift release the user runs (operator and CLI): `managementCluster.operator.hypershiftRelease`,
 * or read from the rendered bundle (config/operator-bundle/facts.ts). What depends on it: adoption
 * names (help/adopt.md) and the features an older operator lacks (config/rules/hypershift-release.ts).
 * Unknown (neither set nor in the bundle): the code follows HyperShift `main`.
 */

/**
 * How a release is written: `4.21`, `4.22`, `4.23`, `5.0`..., a HyperShift release branch's minor
 * (release-4.23 and release-5.0 are one branch), no leading zeros.
 */
export const HYPERSHIFT_RELEASE_SHAPE = /^([1-9]\d*)\.(0|[1-9]\d*)$/;
export const HYPERSHIFT_RELEASE_SHAPE_MESSAGE = 'must be a HyperShift release minor such as "4.21" (the branch release-4.21 of the CLI and operator you run)';

/** First release with the control-plane operator's workload identity (release-4.22's AzureWorkloadIdentities adds controlPlaneOperator). */
export const CONTROL_PLANE_OPERATOR_IDENTITY_SINCE = "4.22";

/** The oldest release this tool renders for: release-4.21's CLI is the first with --workload-identities-file (seed 004's). */
const OLDEST_HYPERSHIFT_RELEASE = "4.21";
/** The last 4.y minor: 5.0 is the same release as 4.23. */
const LAST_V4_MINOR = 23;

/** What is wrong with a release such as "4.21" (undefined when it is one this tool knows: 4.21 to 4.23, or 5.y). */
export function hypershiftReleaseProblem(release: string): string | undefined {
  const match = HYPERSHIFT_RELEASE_SHAPE.exec(release);
  if (!match) return HYPERSHIFT_RELEASE_SHAPE_MESSAGE;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const known = `${OLDEST_HYPERSHIFT_RELEASE} to 4.${LAST_V4_MINOR}, or 5.y`;
  if (major !== 4 && major !== 5) return `is not a release this tool knows: ${known}`;
  if (major === 4 && minor > LAST_V4_MINOR)
    return `is not a release: 4.${LAST_V4_MINOR} is the last 4.y minor (5.0 is the same release); write 5.y for later ones`;
  if (ordinal(release) < ordinal(OLDEST_HYPERSHIFT_RELEASE))
    return `is older than ${OLDEST_HYPERSHIFT_RELEASE}, the first release whose CLI takes --workload-identities-file (self-managed Azure as seed 004 builds it); use a ${OLDEST_HYPERSHIFT_RELEASE} or later operator`;
  return undefined;
}

/** A release as one comparable number: OCP 5.y is 4.(23+y) (5.0 is the same release as 4.23; notes operations-facts.md §1.3). */
function ordinal(release: string): number {
  const match = HYPERSHIFT_RELEASE_SHAPE.exec(release);
  if (!match) return Number.POSITIVE_INFINITY;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major >= 5 ? 4000 + LAST_V4_MINOR + (major - 5) * 100 + minor : major * 1000 + minor;
}

/** Whether `release` is `since` or later; an unknown release (undefined: HyperShift main) is. */
export function releaseAtLeast(release: string | undefined, since: string): boolean {
  return release === undefined || ordinal(release) >= ordinal(since);
}

/** `4.21.0` or `v4.21` → `4.21`; anything else → undefined. */
export function releaseMinorOf(version: string): string | undefined {
  const match = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+.].*)?$/.exec(version.trim());
  return match ? `${Number(match[1])}.${Number(match[2])}` : undefined;
}

/**
 * The private DNS zone `hypershift create cluster|infra azure` makes in the managed group:
 * `<name>-azurecluster.<baseDomain>` up to release-4.22, `<name>.<baseDomain>` from release-4.23
 * (`cmd/infra/azure/networking.go` `CreatePrivateDNSZone` on each branch; help/adopt.md).
 */
export function cliPrivateZoneName(release: string | undefined, name: string, baseDomain: string): string {
  return releaseAtLeast(release, "4.23") ? `${name}.${baseDomain}` : `${name}-azurecluster.${baseDomain}`;
}

/**
 * The HostedCluster fields whose presence in the CRD depends on the operator release, where the
 * rendering follows it: the CRD is the one the operator's `hypershift install` applied (Default
 * feature set), not the cluster's release image's. A field the CRD lacks fails the plan
 * (help/management-cluster.md#the-hypershift-release); the fixtures are in
 * __tests__/fixtures/hypershift-crds/.
 */
export interface HostedClusterApi {
  /**
   * `spec.platform.azure.topology` (and `private`): from release-4.22. release-4.21's
   * `AzurePlatformSpec` (api/hypershift/v1beta1/azure.go) has neither, and its CLI writes no
   * topology (cmd/cluster/azure/create.go); release-4.22's writes `Public` for self-managed clusters.
   */
  readonly azureTopology: boolean;
  /**
   * `spec.secretEncryption.kms.azure.keyVaultType`: from release-5.1 (main: added 2026-08-20 by
   * "feat(api): add Azure Managed HSM support", after release-4.23/5.0 branched on 2026-08-14).
   */
  readonly kmsKeyVaultType: boolean;
}

/** First release of `spec.platform.azure.topology` and `private` (see HostedClusterApi). */
export const AZURE_TOPOLOGY_SINCE = "4.22";
/** First release of `spec.secretEncryption.kms.azure.keyVaultType` (see HostedClusterApi). */
export const KMS_KEY_VAULT_TYPE_SINCE = "5.1";

/** The HostedCluster fields the operator release's CRD has; an unknown release is HyperShift main (every field). */
export function hostedClusterApi(release: string | undefined): HostedClusterApi {
  return { azureTopology: releaseAtLeast(release, AZURE_TOPOLOGY_SINCE), kmsKeyVaultType: releaseAtLeast(release, KMS_KEY_VAULT_TYPE_SINCE) };
}

/**
 * The first release whose every build reports HostedCluster `status.controlPlaneVersion`:
 * the operator copies it from the HostedControlPlane (`propagateControlPlaneVersion`) and its CRD
 * has the field; the control-plane operator of the release payload fills it
 * (`controlplaneversion.go`). Both arrived on main on 2026-03-25 (#7887), before release-4.22
 * branched (2026-04-10); release-4.20 and release-4.21 have them only from backports merged on
 * 2026-07-31 (#9055, #9054), so a 4.20 or 4.21 build may lack them. HyperShift's own e2e waits
 * on it only from 4.22 (`test/e2e/util/util.go` WaitForControlPlaneRollout). help/upgrades.md.
 */
export const CONTROL_PLANE_VERSION_SINCE = "4.22";

/**
 * Whether the HostedCluster will report `status.controlPlaneVersion`: the operator release is
 * known and 4.22 or later, and the release image's tag is 4.22 or later. A 4.22.0 pre-release
 * may be an early build from main and a digest names no version: neither is counted; nor is an
 * unknown operator release (a wait on a field that never comes times out, and a creation that
 * times out leaves the HostedCluster tainted).
 */
export function reportsControlPlaneVersion(operatorRelease: string | undefined, releaseImage: string): boolean {
  const version = releaseVersion(releaseImage);
  if (operatorRelease === undefined || !version || !releaseAtLeast(operatorRelease, CONTROL_PLANE_VERSION_SINCE)) return false;
  const [major, minor] = CONTROL_PLANE_VERSION_SINCE.split(".").map(Number);
  const v4 = onV4(version);
  if (v4.major === major && v4.minor === minor && v4.patch === 0 && v4.pre.length > 0) return false;
  return atLeast(v4, major, minor);
}

/** What a bundle says about its release, and where it says it. */
export interface BundleRelease {
  readonly release: string;
  /** e.g. `annotation hypershift.openshift.io/install-cli-version` or `image quay.io/...:4.21`. */
  readonly from: string;
}
