import { CONTROL_PLANE_OPERATOR_IDENTITY_SINCE, hypershiftReleaseProblem, releaseAtLeast } from "../hypershift-release";
import { onV4, releaseVersion } from "../release-version";
import type { DeploymentNames } from "../names";
import type { BundleResult, OperatorBundle } from "../operator-bundle";
import { Config } from "../schema";
import { ConfigIssue } from "./rule";

/**
 * The HyperShift release the user runs (help/management-cluster.md#the-hypershift-release): set, or
 * read from the bundle; both must agree. Each option an older operator or CLI lacks is refused
 * with the release that adds it (verified on openshift/hypershift's release branches).
 */

const RELEASE_PATH = "managementCluster.operator.hypershiftRelease";

/**
 * The release set in the config, else the bundle's (`bundle`: the config's operator bundle, read
 * before names are derived; one that failed to read is reported with the bundle's issues).
 */
export function configuredHypershiftRelease(config: Config, bundle: BundleResult | undefined): string | undefined {
  const operator = config.managementCluster?.operator;
  if (!operator) return undefined;
  if (operator.hypershiftRelease) return operator.hypershiftRelease;
  return bundle?.ok ? bundle.bundle.release?.release : undefined;
}

/** One option that needs a release, with the source that shows it. */
interface ReleaseGate {
  readonly since: string;
  readonly what: string;
  readonly source: string;
  /** The config paths that use it, with their values. */
  readonly uses: (config: Config) => ReadonlyArray<{ readonly path: string; readonly value: unknown }>;
  /** The fix that keeps the release. @default "remove it" */
  readonly otherwise?: string;
}

const hostedClusters = (config: Config) =>
  config.clusters.flatMap((cluster, index) => (cluster.hostedCluster ? [{ hosted: cluster.hostedCluster, at: `clusters[${index}].hostedCluster` }] : []));

/** The gates of values the release's HostedCluster and NodePool CRDs refuse or lack (__tests__/fixtures/hypershift-crds/, help/management-cluster.md). */
const CRD_GATES: readonly ReleaseGate[] = [
  {
    since: "4.22",
    what: "ACR pulls by a managed identity (HostedCluster spec.platform.azure.containerRegistry)",
    source: "api/hypershift/v1beta1/azure.go: release-4.21's AzurePlatformSpec has no containerRegistry; release-4.22 adds it",
    uses: (config) =>
      hostedClusters(config).flatMap(({ hosted, at }) => (hosted.containerRegistry ? [{ path: `${at}.containerRegistry`, value: undefined }] : [])),
  },
  {
    since: "4.22",
    what: "publishing the OAuth server through a LoadBalancer (--oauth-publishing-strategy)",
    source:
      "api/hypershift/v1beta1/hostedcluster_types.go: release-4.21's CRD requires OAuthServer to be a Route on Azure, and its CLI has no --oauth-publishing-strategy; release-4.22 allows LoadBalancer for self-managed clusters",
    uses: (config) =>
      hostedClusters(config).flatMap(({ hosted, at }) =>
        hosted.oauthPublishing === "LoadBalancer" ? [{ path: `${at}.oauthPublishing`, value: hosted.oauthPublishing }] : [],
      ),
    otherwise: "use Route (the default)",
  },
  {
    since: "4.23",
    what: "etcd encryption with Key Vault on a self-managed cluster (the KMS workload identity, secretEncryption.kms.azure.workloadIdentity)",
    source:
      "api/hypershift/v1beta1/azure.go: AzureKMSSpec on release-4.21 and release-4.22 requires kms (a managed identity's credentials secret, the ARO HCP form) and has no workloadIdentity; release-4.23 adds workloadIdentity",
    uses: (config) =>
      config.topology === "aroHcp" ? [] : hostedClusters(config).flatMap(({ hosted, at }) => (hosted.kms ? [{ path: `${at}.kms`, value: undefined }] : [])),
  },
  {
    since: "4.23",
    what: "autoscaling an Azure NodePool from zero (autoScaling.min 0)",
    source:
      "NodePool CRD: release-4.21 has autoScaling.min minimum 1, release-4.22 the rule `!has(self.autoScaling) || self.autoScaling.min > 0 || self.platform.type == 'AWS'`; release-4.23 allows Azure",
    uses: (config) =>
      hostedClusters(config).flatMap(({ hosted, at }) =>
        hosted.nodePools.flatMap((pool, index) => (pool.autoscaling?.min === 0 ? [{ path: `${at}.nodePools[${index}].autoscaling.min`, value: 0 }] : [])),
      ),
    otherwise: "set it to 1 or more",
  },
];

export const RELEASE_GATES: readonly ReleaseGate[] = [
  {
    since: "4.22",
    what: "private endpoint access on Azure (hypershift install --private-platform Azure and the control-plane operator's Private Link controller)",
    source: "cmd/install/install.go: release-4.21 accepts --private-platform AWS, GCP or None only; release-4.22 adds Azure",
    uses: (config) =>
      hostedClusters(config)
        .filter(({ hosted }) => hosted.endpointAccess !== "Public")
        .map(({ hosted, at }) => ({ path: `${at}.endpointAccess`, value: hosted.endpointAccess })),
  },
  {
    since: "4.22",
    what: "HostedCluster spec.monitoring (metrics set and forwarding per cluster)",
    source: "api/hypershift/v1beta1/hostedcluster_types.go: MonitoringSpec appears on release-4.22",
    uses: (config) => hostedClusters(config).flatMap(({ hosted, at }) => (hosted.monitoring ? [{ path: `${at}.monitoring`, value: undefined }] : [])),
  },
  {
    since: CONTROL_PLANE_OPERATOR_IDENTITY_SINCE,
    what: "the control-plane operator's workload identity (HostedCluster workloadIdentities.controlPlaneOperator; the default follows the release)",
    source: "api/hypershift/v1beta1/azure.go: release-4.21's AzureWorkloadIdentities has 7 identities, release-4.22 adds controlPlaneOperator",
    uses: (config) =>
      config.topology === "aroHcp"
        ? []
        : config.clusters.flatMap((cluster, index) =>
            cluster.identities.controlPlaneOperator === true ? [{ path: `clusters[${index}].identities.controlPlaneOperator`, value: true }] : [],
          ),
  },
  {
    since: "4.22",
    what: "etcd backup (the HCPEtcdBackup CRD)",
    source: "cmd/install/assets/crds/hypershift-operator/zz_generated.crd-manifests/hcpetcdbackups-*.crd.yaml: first on release-4.22",
    uses: (config) => (config.managementCluster?.etcdBackup ? [{ path: "managementCluster.etcdBackup", value: undefined }] : []),
  },
  ...CRD_GATES,
];

/**
 * `spec.dns.publicZoneID` and `privateZoneID` fit the release's HostedCluster CRD: maxLength 253
 * each on release-4.21, 258 and 265 from release-4.22 (and main); __tests__/fixtures/hypershift-crds/.
 */
function zoneIdIssues(names: DeploymentNames, release: string | undefined, origin: string): ConfigIssue[] {
  const [publicMax, privateMax] = releaseAtLeast(release, "4.22") ? [258, 265] : [253, 253];
  const running = release ? `HyperShift ${release}'s (${origin})` : "HyperShift main's";
  return names.clusters.flatMap((cluster) => {
    const hosted = cluster.hosted;
    if (!hosted) return [];
    const at = `clusters[${cluster.index}].hostedCluster.baseDomain`;
    const zones = [
      { field: "publicZoneID", id: hosted.publicZone.id, max: publicMax, fix: "a shorter baseDomain, or the zone in a resource group with a shorter name" },
      {
        field: "privateZoneID",
        id: hosted.privateZone.id,
        max: privateMax,
        fix: "a shorter baseDomain or cluster name, or a shorter network.resourceGroups.managed",
      },
    ];
    return zones
      .filter((zone) => zone.id.length > zone.max)
      .map((zone) => ({
        path: at,
        value: hosted.publicZone.name,
        message: `gives spec.dns.${zone.field} "${zone.id}" (${zone.id.length} characters); ${running} HostedCluster CRD takes at most ${zone.max}: use ${zone.fix}`,
      }));
  });
}

/**
 * The newest OpenShift minor each HyperShift release's operator accepts in a release image:
 * `LatestSupportedVersion` in support/supportedversion/version.go, 4.21.0 on release-4.21, 4.22.0 on
 * release-4.22, 5.1.0 on release-4.23 (the same branch as 5.0). The operator refuses a newer image
 * (`IsValidReleaseVersion`: "the latest version supported is ...", condition ValidReleaseImage False)
 * and never reconciles the cluster. Later releases (and main) are not listed: not checked here; the
 * plan reads the operator's own list (supported-versions ConfigMap, stacks/cluster-upgrade.ts).
 */
const LATEST_SUPPORTED_OPENSHIFT: Readonly<Record<string, readonly [number, number]>> = { "4.21": [4, 21], "4.22": [4, 22], "4.23": [5, 1], "5.0": [5, 1] };

/** Release images (HostedCluster and NodePool tags) newer than the operator release accepts. */
function releaseImageIssues(config: Config, release: string | undefined, origin: string): ConfigIssue[] {
  const latest = release === undefined ? undefined : LATEST_SUPPORTED_OPENSHIFT[release];
  if (!latest) return [];
  const [major, minor] = latest;
  const latestOnV4 = onV4({ major, minor, patch: 0, pre: [], text: `${major}.${minor}.0` }).minor;
  return hostedClusters(config).flatMap(({ hosted, at }) =>
    [
      { path: `${at}.releaseImage`, image: hosted.releaseImage },
      ...hosted.nodePools.flatMap((pool, index) => (pool.releaseImage ? [{ path: `${at}.nodePools[${index}].releaseImage`, image: pool.releaseImage }] : [])),
    ].flatMap(({ path, image }) => {
      const version = releaseVersion(image);
      const v4 = version && onV4(version);
      if (!v4 || (v4.major === 4 && v4.minor <= latestOnV4)) return [];
      return [
        {
          path,
          value: image,
          message:
            `is OpenShift ${version.text}, newer than HyperShift ${release}'s operator accepts (${origin}): at most ${major}.${minor} ` +
            `(support/supportedversion/version.go LatestSupportedVersion on release-${release}); the operator would refuse the release ` +
            `(condition ValidReleaseImage False) and never reconcile the cluster. Upgrade the operator first (render the bundle with a newer ` +
            `CLI and update hypershiftRelease), or use a ${major}.${minor} or older release image`,
        },
      ];
    }),
  );
}

/** The set release must agree with the bundle's, every option used must be in the release, and the DNS zone IDs must fit its CRD. */
export function hypershiftReleaseIssues(config: Config, names: DeploymentNames, bundle: OperatorBundle): ConfigIssue[] {
  const set = config.managementCluster?.operator.hypershiftRelease;
  const rendered = bundle.release;
  if (set && rendered && set !== rendered.release) {
    return [
      {
        path: RELEASE_PATH,
        value: set,
        message: `disagrees with the bundle, rendered by HyperShift ${rendered.release} (${rendered.from}): set it to "${rendered.release}", or render the bundle with the ${set} CLI`,
      },
    ];
  }
  const release = set ?? rendered?.release;
  const origin = set ? RELEASE_PATH : `the bundle's ${rendered?.from}`;
  // A set release was checked by the schema; the bundle's is checked here.
  const unknown = !set && rendered ? hypershiftReleaseProblem(rendered.release) : undefined;
  if (unknown && rendered)
    return [
      {
        path: "managementCluster.operator.bundleFile",
        value: rendered.release,
        message: `was rendered by HyperShift ${rendered.release} (${origin}), which ${unknown}`,
      },
    ];
  const gates = RELEASE_GATES.flatMap((gate) =>
    releaseAtLeast(release, gate.since)
      ? []
      : gate.uses(config).map((use) => ({
          path: use.path,
          value: use.value,
          message: `needs HyperShift ${gate.since} or later for ${gate.what}; you run ${release} (${origin}). Install the ${gate.since}+ operator (render the bundle with its CLI and update hypershiftRelease), or ${gate.otherwise ?? "remove it"}. Source: ${gate.source}`,
        })),
  );
  return [...gates, ...zoneIdIssues(names, release, origin), ...releaseImageIssues(config, release, origin)];
}
