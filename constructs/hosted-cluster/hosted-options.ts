/**
 * The HostedCluster fields of the `create cluster azure` options (issue 13 item 1), written as
 * the CLI writes them (openshift/hypershift@3ee9615 `cmd/cluster/core/create.go`
 * `prototypeResources`, `applyOLMConfig`, `applySchedulingConfig`, `applyTrustBundleAndImageSources`,
 * `applyFeatureSet`, `applyClusterCapabilities`). An option left at its default writes what the
 * CLI writes without the flag (mostly nothing), so existing clusters' objects do not change.
 */

/** Annotation that overrides the control-plane-operator image (`hyperv1.ControlPlaneOperatorImageAnnotation`). */
export const CONTROL_PLANE_OPERATOR_IMAGE_ANNOTATION = "hypershift.openshift.io/control-plane-operator-image";

/** Key of the CA bundle in the trust-bundle ConfigMap (the CLI's `ca-bundle.crt`). */
export const TRUST_BUNDLE_KEY = "ca-bundle.crt";

/** A control-plane pod toleration (`corev1.Toleration`, `--toleration`). */
export interface ControlPlaneToleration {
  /** Taint key. @default - every key (with operator Exists) */
  readonly key?: string;
  /** `Exists` or `Equal`. @default - Equal (Kubernetes) */
  readonly operator?: "Exists" | "Equal";
  /** Taint value, with operator Equal. @default - none */
  readonly value?: string;
  /** `NoSchedule`, `PreferNoSchedule` or `NoExecute`. @default - every effect */
  readonly effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  /** With NoExecute: seconds the pod stays bound after the taint appears. @default - forever */
  readonly tolerationSeconds?: number;
}

/**
 * The `create cluster azure` options of a HostedCluster, each written only when set (the flag's
 * default writes nothing).
 */
export interface HostedClusterOptions {
  /** `--annotations`: annotations of the HostedCluster object. @default - none */
  readonly annotations?: Readonly<Record<string, string>>;
  /** `--labels`: labels of the HostedCluster object. @default - none */
  readonly labels?: Readonly<Record<string, string>>;
  /** `--control-plane-operator-image`: written as the override annotation. @default - the release's */
  readonly controlPlaneOperatorImage?: string;
  /** `--kas-dns-name` → `spec.kubeAPIServerDNSName`. @default - none */
  readonly apiServerDnsName?: string;
  /** `--image-content-sources` → `spec.imageContentSources`: a source repository and its mirrors. @default - none */
  readonly imageContentSources?: readonly { readonly source: string; readonly mirrors?: readonly string[] }[];
  /** `--infra-availability-policy`: `SingleReplica` or `HighlyAvailable`. @default - unset (HyperShift's SingleReplica) */
  readonly infrastructureAvailabilityPolicy?: string;
  /** `--enable/--disable-cluster-capabilities` → `spec.capabilities`. @default - the release's */
  readonly capabilities?: { readonly enabled?: readonly string[]; readonly disabled?: readonly string[] };
  /** `--feature-set` → `spec.configuration.featureGate.featureSet`. @default - the Default feature set */
  readonly featureSet?: string;
  /** `--olm-disable-default-sources` → `spec.configuration.operatorhub`. @default false */
  readonly olmDisableDefaultSources?: boolean;
  /** `--node-selector` → `spec.nodeSelector` of the control-plane pods. @default - none */
  readonly controlPlaneNodeSelector?: Readonly<Record<string, string>>;
  /** `--toleration` → `spec.tolerations` of the control-plane pods. @default - none */
  readonly controlPlaneTolerations?: readonly ControlPlaneToleration[];
}

/** `metadata.annotations` and `metadata.labels` of the HostedCluster from `--annotations`, `--labels` and `--control-plane-operator-image`. */
export function hostedClusterMetadata(hc: HostedClusterOptions, baseAnnotations: Readonly<Record<string, string>>): Record<string, unknown> {
  const annotations: Record<string, string> = { ...baseAnnotations, ...(hc.annotations ?? {}) };
  if (hc.controlPlaneOperatorImage) annotations[CONTROL_PLANE_OPERATOR_IMAGE_ANNOTATION] = hc.controlPlaneOperatorImage;
  return {
    ...(Object.keys(annotations).length > 0 ? { annotations: sorted(annotations) } : {}),
    ...(hc.labels && Object.keys(hc.labels).length > 0 ? { labels: sorted(hc.labels) } : {}),
  };
}

/**
 * The spec fields of the options. `trustBundleConfigMap` is the name of the ConfigMap holding
 * the additional trust bundle, when there is one.
 */
export function hostedClusterOptionFields(hc: HostedClusterOptions, trustBundleConfigMap: string | undefined): Record<string, unknown> {
  const configuration: Record<string, unknown> = {
    ...(hc.featureSet ? { featureGate: { featureSet: hc.featureSet } } : {}),
    ...(hc.olmDisableDefaultSources ? { operatorhub: { disableAllDefaultSources: true } } : {}),
  };
  const capabilities = hc.capabilities;
  return {
    ...(hc.apiServerDnsName ? { kubeAPIServerDNSName: hc.apiServerDnsName } : {}),
    ...(trustBundleConfigMap ? { additionalTrustBundle: { name: trustBundleConfigMap } } : {}),
    ...(hc.imageContentSources
      ? { imageContentSources: hc.imageContentSources.map((s) => ({ source: s.source, ...(s.mirrors ? { mirrors: s.mirrors } : {}) })) }
      : {}),
    ...(hc.infrastructureAvailabilityPolicy ? { infrastructureAvailabilityPolicy: hc.infrastructureAvailabilityPolicy } : {}),
    ...(capabilities && (capabilities.enabled?.length || capabilities.disabled?.length)
      ? {
          capabilities: {
            ...(capabilities.enabled?.length ? { enabled: capabilities.enabled } : {}),
            ...(capabilities.disabled?.length ? { disabled: capabilities.disabled } : {}),
          },
        }
      : {}),
    ...(Object.keys(configuration).length > 0 ? { configuration } : {}),
    ...(hc.controlPlaneNodeSelector && Object.keys(hc.controlPlaneNodeSelector).length > 0 ? { nodeSelector: sorted(hc.controlPlaneNodeSelector) } : {}),
    ...(hc.controlPlaneTolerations?.length ? { tolerations: hc.controlPlaneTolerations.map(toleration) } : {}),
  };
}

/** A toleration with the CLI's key order (`corev1.Toleration`), unset fields omitted. */
function toleration(t: ControlPlaneToleration): Record<string, unknown> {
  return {
    ...(t.key !== undefined ? { key: t.key } : {}),
    ...(t.operator !== undefined ? { operator: t.operator } : {}),
    ...(t.value !== undefined ? { value: t.value } : {}),
    ...(t.effect !== undefined ? { effect: t.effect } : {}),
    ...(t.tolerationSeconds !== undefined ? { tolerationSeconds: t.tolerationSeconds } : {}),
  };
}

/** Maps in key order, as Go's YAML encoder writes them: the output does not depend on the config's order. */
function sorted(map: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
