/**
 * Day-1 cluster configuration of the HostedCluster (issue 25 items 2 and 4): the `proxy`, `image`,
 * `apiServer`, `scheduler`, `operatorhub` and `ingress` pieces of `spec.configuration`, the API
 * server allow-list of `spec.networking.apiServer`, `spec.autoscaling` and
 * `spec.platform.azure.containerRegistry`, each written only when set (nothing set writes nothing,
 * so existing clusters' objects do not change). Field shapes: hostedclusters-Hypershift-Default.crd.yaml.
 * Other `spec.configuration` keys (featureGate, oauth, authentication) come from their own
 * functions; `mergeConfiguration` joins them.
 */

/** The CRD's TLS profile types. */
export type TlsProfileType = "Old" | "Intermediate" | "Modern" | "Custom";

/** `spec.configuration.proxy`. */
export interface ClusterProxy {
  /** @default - none */
  readonly httpProxy?: string;
  /** @default - none */
  readonly httpsProxy?: string;
  /** The user's noProxy entries (HyperShift adds its own; see `NO_PROXY_ADDED_BY_HYPERSHIFT`). @default [] */
  readonly noProxy?: readonly string[];
  /** @default - none */
  readonly readinessEndpoints?: readonly string[];
  /** Name the trust-bundle ConfigMap as `trustedCA`. @default false */
  readonly trustAdditionalTrustBundle?: boolean;
}

/** The HostedCluster's day-1 configuration: the `hostedCluster` config block, typed here. Every key @default - unset */
export interface ClusterConfigurationProps {
  readonly proxy?: ClusterProxy;
  readonly apiServer?: {
    readonly allowedCIDRBlocks?: readonly string[];
    readonly auditProfile?: string;
    readonly tlsSecurityProfile?: { readonly type: TlsProfileType; readonly minTLSVersion?: string; readonly ciphers?: readonly string[] };
  };
  readonly imagePolicy?: {
    readonly allowedRegistries?: readonly string[];
    readonly blockedRegistries?: readonly string[];
    readonly insecureRegistries?: readonly string[];
    readonly allowedRegistriesForImport?: readonly { readonly domainName: string; readonly insecure?: boolean }[];
  };
  readonly scheduler?: { readonly profile: string };
  readonly operatorHub?: { readonly disabledSources: readonly string[] };
  readonly ingress?: { readonly domain?: string; readonly appsDomain?: string };
  readonly autoscaling?: Readonly<Record<string, unknown>> & {
    readonly expanders?: readonly string[];
    readonly scaleDown?: Readonly<Record<string, number | undefined>>;
  };
  readonly containerRegistry?: { readonly managedIdentityId: string };
  /** Address space of the workers' VNet when this config creates it: added to noProxy. @default - none (an existing VNet: set machineNetwork) */
  readonly workerVnetCidr?: string;
}

/** The manifest props this file reads (structurally: the manifest imports this file). */
export interface ClusterConfigurationInput {
  /** @default - nothing configured */
  readonly clusterConfiguration?: ClusterConfigurationProps;
  /** The networks HyperShift already lists in noProxy (cluster, service, machine): not repeated. */
  readonly networking: { readonly clusterNetwork: string; readonly serviceNetwork: string; readonly machineNetwork?: string };
  /** ConfigMap of the additional trust bundle, in the HostedCluster's namespace (proxy.trustedCA). @default - none */
  readonly trustBundleConfigMap?: string;
}

/**
 * What HyperShift puts in the Proxy status' noProxy itself whenever a proxy is set
 * (openshift/hypershift `support/globalconfig/proxy.go` `defaultProxyStatus`, Azure), besides the
 * cluster, service and machine networks: never repeated by us.
 */
export const NO_PROXY_ADDED_BY_HYPERSHIFT = ["127.0.0.1", "localhost", ".svc", ".cluster.local", ".local", "169.254.169.254"] as const;

const when = <T>(value: T | undefined, render: (value: T) => Record<string, unknown>): Record<string, unknown> => (value === undefined ? {} : render(value));
const nonEmpty = (object: Record<string, unknown>) => Object.keys(object).length > 0;

/** `spec.configuration.proxy`: the user's entries, then the VNet unless HyperShift lists it already. */
export function proxyConfiguration(proxy: ClusterProxy, context: ClusterConfigurationInput): Record<string, unknown> {
  if (proxy.trustAdditionalTrustBundle && !context.trustBundleConfigMap) {
    throw new Error("proxy.trustAdditionalTrustBundle needs the trust-bundle ConfigMap (config rules)");
  }
  const hyperShiftLists = new Set<string>([...NO_PROXY_ADDED_BY_HYPERSHIFT, context.networking.clusterNetwork, context.networking.serviceNetwork]);
  if (context.networking.machineNetwork) hyperShiftLists.add(context.networking.machineNetwork);
  const entries = [...(proxy.noProxy ?? [])];
  const vnet = context.clusterConfiguration?.workerVnetCidr;
  if (vnet && !hyperShiftLists.has(vnet) && !entries.includes(vnet)) entries.push(vnet);
  return {
    ...when(proxy.httpProxy, (httpProxy) => ({ httpProxy })),
    ...when(proxy.httpsProxy, (httpsProxy) => ({ httpsProxy })),
    ...(entries.length > 0 ? { noProxy: entries.join(",") } : {}),
    ...(proxy.readinessEndpoints?.length ? { readinessEndpoints: proxy.readinessEndpoints } : {}),
    ...(proxy.trustAdditionalTrustBundle ? { trustedCA: { name: context.trustBundleConfigMap } } : {}),
  };
}

/** `spec.configuration.apiServer`: audit profile and TLS profile (`{type, <type in lowercase>: {...}}`, as OpenShift writes it). */
function apiServerConfiguration(apiServer: NonNullable<ClusterConfigurationProps["apiServer"]>): Record<string, unknown> {
  const tls = apiServer.tlsSecurityProfile;
  const custom = tls && { ...when(tls.ciphers, (ciphers) => ({ ciphers })), ...when(tls.minTLSVersion, (minTLSVersion) => ({ minTLSVersion })) };
  return {
    ...when(apiServer.auditProfile, (profile) => ({ audit: { profile } })),
    ...when(tls, (t) => ({ tlsSecurityProfile: { type: t.type, [t.type.toLowerCase()]: t.type === "Custom" ? custom : {} } })),
  };
}

function imageConfiguration(image: NonNullable<ClusterConfigurationProps["imagePolicy"]>): Record<string, unknown> {
  const registrySources = {
    ...when(image.allowedRegistries, (allowedRegistries) => ({ allowedRegistries })),
    ...when(image.blockedRegistries, (blockedRegistries) => ({ blockedRegistries })),
    ...when(image.insecureRegistries, (insecureRegistries) => ({ insecureRegistries })),
  };
  return {
    ...when(image.allowedRegistriesForImport, (list) => ({
      allowedRegistriesForImport: list.map((r) => ({ domainName: r.domainName, ...when(r.insecure, (insecure) => ({ insecure })) })),
    })),
    ...(nonEmpty(registrySources) ? { registrySources } : {}),
  };
}

/**
 * The pieces of `spec.configuration` this file owns (proxy, image, apiServer, scheduler,
 * operatorhub, ingress), in the CRD's key order; an empty object when none is set.
 */
export function clusterConfiguration(context: ClusterConfigurationInput): Record<string, unknown> {
  const props = context.clusterConfiguration ?? {};
  const apiServer = props.apiServer && apiServerConfiguration(props.apiServer);
  const image = props.imagePolicy && imageConfiguration(props.imagePolicy);
  const ingress = props.ingress && {
    ...when(props.ingress.domain, (domain) => ({ domain })),
    ...when(props.ingress.appsDomain, (appsDomain) => ({ appsDomain })),
  };
  return {
    ...(apiServer && nonEmpty(apiServer) ? { apiServer } : {}),
    ...(image && nonEmpty(image) ? { image } : {}),
    ...(ingress && nonEmpty(ingress) ? { ingress } : {}),
    ...when(props.operatorHub, (hub) => ({ operatorhub: { sources: hub.disabledSources.map((name) => ({ name, disabled: true })) } })),
    ...when(props.proxy, (proxy) => ({ proxy: proxyConfiguration(proxy, context) })),
    ...when(props.scheduler, (scheduler) => ({ scheduler: { profile: scheduler.profile } })),
  };
}

/** `fields` (spec fields with an optional `configuration`) with the configuration pieces merged in; no `configuration` when all are empty. */
export function withConfiguration(fields: Record<string, unknown>, ...pieces: readonly Record<string, unknown>[]): Record<string, unknown> {
  const configuration = mergeConfiguration(fields.configuration as Record<string, unknown> | undefined, ...pieces);
  const { configuration: _replaced, ...rest } = fields;
  return nonEmpty(configuration) ? { ...rest, configuration } : rest;
}

/**
 * Joins `spec.configuration` pieces from their functions (options, this file, sign-in): disjoint
 * keys, except a section two pieces both fill (operatorhub: all default sources off, and single
 * sources off), whose fields are joined. Empty pieces add nothing.
 */
export function mergeConfiguration(...pieces: readonly (Record<string, unknown> | undefined)[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const piece of pieces) {
    for (const [key, value] of Object.entries(piece ?? {})) {
      const existing = merged[key];
      if (existing === undefined) merged[key] = value;
      else if (isPlainObject(existing) && isPlainObject(value) && Object.keys(value).every((k) => !(k in existing))) merged[key] = { ...existing, ...value };
      else throw new Error(`internal: spec.configuration.${key} is written by two functions with the same field`);
    }
  }
  return merged;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `spec.networking.apiServer` (the allow-list), or nothing. */
export function apiServerNetworking(props: ClusterConfigurationProps | undefined): Record<string, unknown> {
  const blocks = props?.apiServer?.allowedCIDRBlocks;
  return blocks?.length ? { apiServer: { allowedCIDRBlocks: blocks } } : {};
}

/** `spec.platform.azure.containerRegistry`: ACR pulls by the workers' managed identity, or nothing. */
export function containerRegistry(props: ClusterConfigurationProps | undefined): Record<string, unknown> {
  const id = props?.containerRegistry?.managedIdentityId;
  return id ? { containerRegistry: { credentials: { type: "ManagedIdentity", managedIdentity: { resourceID: id } } } } : {};
}

/** `spec.autoscaling`, keys in the CRD's order, unset keys omitted; nothing when unset. */
export function clusterAutoscaling(props: ClusterConfigurationProps | undefined): Record<string, unknown> {
  const autoscaling = props?.autoscaling;
  if (!autoscaling) return {};
  const order = [
    "balancingIgnoredLabels",
    "expanders",
    "maxFreeDifferenceRatioPercent",
    "maxNodeProvisionTime",
    "maxNodesTotal",
    "maxPodGracePeriod",
    "podPriorityThreshold",
  ];
  const scaleDownOrder = [
    "delayAfterAddSeconds",
    "delayAfterDeleteSeconds",
    "delayAfterFailureSeconds",
    "unneededDurationSeconds",
    "utilizationThresholdPercent",
  ];
  const pick = (source: Readonly<Record<string, unknown>>, keys: readonly string[]) =>
    Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
  const scaleDown = autoscaling.scaleDown && pick(autoscaling.scaleDown, scaleDownOrder);
  const rendered = {
    ...pick(autoscaling, order),
    ...(scaleDown && nonEmpty(scaleDown) ? { scaleDown } : {}),
    ...when(autoscaling.scaling as string | undefined, (scaling) => ({ scaling })),
  };
  return nonEmpty(rendered) ? { autoscaling: rendered } : {};
}
