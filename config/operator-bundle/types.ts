import type { BundleRelease } from "../hypershift-release";

/**
 * The HyperShift operator bundle: the multi-document YAML that `hypershift install render`
 * prints. Read at synth (it holds no secrets: render leaves Secrets out unless
 * --render-sensitive), parsed (parse.ts), checked (check.ts), cleaned for kubernetes_manifest
 * (clean.ts) and put in apply order (kinds.ts); facts the config rules need are read from it
 * (facts.ts), and synth changes it only as mutate.ts says. Facts:
 * shared/reference/notes/hypershift-azure-facts.md §7 and the install code
 * (cmd/install/install.go hyperShiftOperatorManifests, install_render.go).
 */

export interface KubernetesObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string } & Record<string, unknown>;
  readonly [field: string]: unknown;
}

/** Apply tiers: each tier waits for the one before it (and is destroyed before it). */
export const BUNDLE_TIERS = ["definitions", "configuration", "workloads", "admission"] as const;
export type BundleTier = (typeof BUNDLE_TIERS)[number];

export interface BundleObject {
  /** The object as kubernetes_manifest receives it (status, nulls and creationTimestamp removed). */
  readonly manifest: KubernetesObject;
  readonly tier: BundleTier;
  /** `<Kind> <namespace>/<name>` or `<Kind> <name>`, for messages. */
  readonly label: string;
  /** 1-based line of the document in the bundle file. */
  readonly line: number;
  /** Served by a CRD that must already be on the cluster when Terraform plans (not a built-in API, not in the bundle). */
  readonly needsExistingCrd: boolean;
}

/** What the external-dns Deployment in the bundle expects (present when rendered with --external-dns-*). */
export interface BundleExternalDns {
  readonly namespace: string;
  /** Values of `--domain-filter=` arguments. */
  readonly domainFilters: readonly string[];
  /** Value of `--provider=`. */
  readonly provider?: string;
  /** Secret mounted at /etc/provider: `external-dns-credentials` or the `--external-dns-secret` name. */
  readonly credentialsSecret?: string;
  /** `imagePullSecrets` of the pod (HyperShift: `pull-secret`, made from --pull-secret). */
  readonly imagePullSecrets: readonly string[];
  /** Value of `--txt-owner-id=` (render makes a random UUID unless --external-dns-txt-owner-id). */
  readonly txtOwnerId?: string;
}

/**
 * The operator's Private Link Service management, as `hypershift install --private-platform Azure`
 * renders it (cmd/install/assets/hypershift_operator.go addAzurePlatformResources).
 */
export interface BundlePrivateLink {
  /** Value of the operator's `--private-platform=` argument (`None` when rendered without it). */
  readonly platform?: string;
  /** `AZURE_RESOURCE_GROUP` (--azure-pls-resource-group). */
  readonly resourceGroup?: string;
  /** Secret mounted at /etc/azure-provider (--azure-private-secret, or hypershift-operator-azure-credentials with --azure-private-creds). */
  readonly credentialsSecret?: string;
  /** Key of that Secret the operator reads (`AZURE_CREDENTIALS_FILE=/etc/azure-provider/<key>`, --azure-private-secret-key). */
  readonly credentialsKey?: string;
  /** `AZURE_PLS_CLIENT_ID` (--azure-pls-managed-identity-client-id: workload identity instead of a secret). */
  readonly managedIdentityClientId?: string;
}

/**
 * What `hypershift install --platform-monitoring` and `--metrics-set` left in the render
 * (openshift/hypershift cmd/install/install.go, cmd/install/assets/hypershift_operator.go):
 * any value but None labels the operator namespace `openshift.io/cluster-monitoring=true` and
 * binds Role `prometheus` to openshift-monitoring/prometheus-k8s (None: to
 * openshift-user-workload-monitoring/prometheus-user-workload); All also passes
 * `--enable-ocp-cluster-monitoring=true`; --metrics-set sets METRICS_SET (support/metrics/sets.go).
 */
export interface BundleMonitoring {
  /** The --platform-monitoring the render shows; undefined when it holds neither the namespace nor the prometheus RoleBinding. */
  readonly platformMonitoring?: "None" | "OperatorOnly" | "All";
  /** METRICS_SET of the operator; undefined when unset (HyperShift's default, Telemetry). */
  readonly metricsSet?: string;
}

/** A Secret a workload of the bundle needs (mounted or pulled with) that the bundle does not hold. */
export interface SecretReference {
  /** `<Kind> <namespace>/<name>` of the workload. */
  readonly workload: string;
  readonly namespace: string;
  readonly secret: string;
  readonly use: "volume" | "imagePullSecret";
  /** A Service of the bundle asks OpenShift's service CA to create it (serving-cert-secret-name). */
  readonly servingCert: boolean;
}

export interface OperatorBundle {
  /** Objects in apply order (tier, then bundle order). */
  readonly objects: readonly BundleObject[];
  /** Namespace of the `operator` Deployment (install --namespace, default hypershift). */
  readonly operatorNamespace: string;
  readonly externalDns?: BundleExternalDns;
  /** Some object carries the annotation EXAMPLE_ONLY_ANNOTATION: an illustration, never to be applied. */
  readonly exampleOnly: boolean;
  /** Secrets the workloads need that are not in the bundle (render leaves Secrets out). */
  readonly secretReferences: readonly SecretReference[];
  /** Literal environment of the operator container (e.g. MANAGED_SERVICE from --managed-service). */
  readonly operatorEnv: Readonly<Record<string, string>>;
  /** The operator's Private Link settings (--private-platform and the --azure-pls-* flags). */
  readonly privateLink: BundlePrivateLink;
  /** --platform-monitoring and --metrics-set as rendered (monitoring.ts). */
  readonly monitoring: BundleMonitoring;
  /** The HyperShift release that rendered it (facts.ts `bundleReleaseOf`); undefined when the render does not say. */
  readonly release?: BundleRelease;
}

export type BundleResult = { readonly ok: true; readonly bundle: OperatorBundle } | { readonly ok: false; readonly problems: readonly string[] };

/** Options of reading a bundle: what the config asks synth to change in it (mutate.ts). */
export interface BundleOptions {
  /** Kinds left out of the bundle (managementCluster.operator.omitKinds). */
  readonly omitKinds?: readonly string[];
}

/** An object as rendered (before cleaning), with the 1-based line its document starts at. */
export interface RenderedObject {
  readonly object: KubernetesObject;
  readonly line: number;
}
