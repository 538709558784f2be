import { ClusterNames } from "../../config/names";
import { HyperShiftObject } from "./hypershift-object";

/**
 * The HostedCluster and NodePool fields the CRDs refuse to change once the object exists (their
 * CEL transition rules, notes `hypershift-azure-options.md` §7, CRDs at openshift/hypershift@3ee9615)
 * and that a config key decides. Fields we always render with the same constant (platform.type,
 * etcd.managementType, a NodePool's clusterName, ...) cannot be edited
 * through the config and are not listed; the cluster name is the stack's identity (a new name is a
 * new cluster) and is not listed either.
 */

/**
 * When a change is refused, as the CRD rule says:
 * - `always`: `self == oldSelf` on a field we always render;
 * - `whileSet`: `self == oldSelf` on an optional field: the rule runs only when both the old and the
 *   new object have it, so adding or removing it passes;
 * - `onceSet`: once set it may neither change nor go (`topology cannot be removed once set`).
 */
export type ImmutableRule = "always" | "whileSet" | "onceSet";

export interface ConfigKeyContext {
  /** The cluster's derived names (index and the config keys they come from). */
  readonly cluster: ClusterNames;
  /** Config key the OIDC storage account name comes from (`oidc.storageAccountName` or `prefix`). */
  readonly storageAccountOrigin: string;
  /** The guarded NodePool's name, when the object is a NodePool. @default - a HostedCluster */
  readonly nodePoolName?: string;
}

export interface ImmutableField {
  /** The field in the object, as the CRD message and `check-manifests` name it. */
  readonly path: string;
  readonly rule: ImmutableRule;
  /** The CRD's message. */
  readonly crdMessage: string;
  /** The rendered value as one string; "" when the field is absent. */
  readonly read: (object: HyperShiftObject) => string;
  /** The config key(s) that decide the value, for the error message. */
  readonly configKey: (context: ConfigKeyContext) => string;
  /**
   * What the change would do, when it is not the API server refusing it (the error message says it).
   * @default - the API server refuses the change (crdMessage), so the apply fails halfway
   */
  readonly consequence?: string;
}

/** Reads a field's value as one string from the object at `path`. */
type Reader = (path: string) => (object: HyperShiftObject) => string;

const at = (context: ConfigKeyContext) => `clusters[${context.cluster.index}].hostedCluster`;
/** The config key `clusters[<i>].hostedCluster.<suffix>`. */
const key = (suffix: string) => (context: ConfigKeyContext) => `${at(context)}.${suffix}`;
const hosted = (context: ConfigKeyContext) => {
  if (!context.cluster.hosted) throw new Error(`internal: clusters[${context.cluster.index}] has no hostedCluster`);
  return context.cluster.hosted;
};

/** Reads `spec.a.b.c`; "" when a step is missing. */
function get(object: HyperShiftObject, path: string): unknown {
  return path.split(".").reduce<unknown>((value, step) => (value && typeof value === "object" ? (value as Record<string, unknown>)[step] : undefined), object);
}
const text: Reader = (path) => (object) => {
  const value = get(object, path);
  return value === undefined ? "" : String(value);
};
/** String lists, comma-separated; "" when absent. */
const list: Reader = (path) => (object) => ((get(object, path) as string[] | undefined) ?? []).join(",");
/** `[{cidr}]` lists: the CIDRs, comma-separated. */
const cidrs: Reader = (path) => (object) => ((get(object, path) as { cidr: string }[] | undefined) ?? []).map((entry) => entry.cidr).join(",");

/** One row of a table: the field at `path`, read as text unless `as` (a reader of the path) or `read` says otherwise. */
function field(
  path: string,
  rule: ImmutableRule,
  crdMessage: string,
  configKey: (context: ConfigKeyContext) => string,
  options: { readonly as?: Reader; readonly read?: (object: HyperShiftObject) => string; readonly consequence?: string } = {},
): ImmutableField {
  const read = options.read ?? (options.as ?? text)(path);
  return { path, rule, crdMessage, read, configKey, ...(options.consequence !== undefined ? { consequence: options.consequence } : {}) };
}

/**
 * `metadata.namespace`: no CRD rule, but kubernetes_manifest replaces an object whose namespace
 * changes: Terraform would delete the running HostedCluster (HyperShift tears its cluster down) or
 * NodePool (its VMs) and create a new one.
 */
const NAMESPACE = field("metadata.namespace", "always", "the namespace of an existing object cannot change", key("namespace"), {
  consequence:
    "Terraform would delete the running object and create a new one in the new namespace (kubernetes_manifest replaces an object whose namespace changes): the cluster or its nodes would be torn down.",
});

/** The guarded value of both private topologies, which the CRD lets a cluster swap between. */
const PRIVATE_TOPOLOGY = "PublicAndPrivate or Private";

/** The network keys behind a VNet, subnet or NSG ID: the existing ID, or the name and its group. */
function networkKey(context: ConfigKeyContext, kind: "vnet" | "subnet" | "nsg"): string {
  const names = hosted(context);
  const existing = names[kind].origin.includes(".network.existing.");
  if (existing) return names[kind].origin;
  const group = kind === "subnet" ? "vnet" : kind;
  const keys = [`${at(context)}.network.${kind}Name`, `${at(context)}.network.resourceGroups.${group}`, `${at(context)}.network.singleResourceGroup`];
  return kind === "subnet" ? `${keys.join(", ")}, ${at(context)}.network.vnetName` : keys.join(", ");
}

/** The issuer's keys: perCluster, the container is the cluster's name, which is the stack's identity. */
function issuerKey(context: ConfigKeyContext): string {
  const keys = context.cluster.ownsIssuer ? "oidc.storageAccountName, oidc.issuer" : "oidc.storageAccountName, oidc.containerName, oidc.issuer";
  return context.storageAccountOrigin === "oidc.storageAccountName"
    ? keys
    : `${keys} (the account name defaults from prefix, subscriptionId and resourceGroup.name)`;
}

type Service = { service: string; servicePublishingStrategy: { type: string; route?: { hostname?: string }; loadBalancer?: { hostname?: string } } };

/** `APIServer=Route api-hc1.example.com, ...`: each service's strategy and hostname. */
function services(object: HyperShiftObject): string {
  return ((get(object, "spec.services") as Service[] | undefined) ?? [])
    .map(({ service, servicePublishingStrategy: s }) => {
      const hostname = s.route?.hostname ?? s.loadBalancer?.hostname;
      return `${service}=${s.type}${hostname ? ` ${hostname}` : ""}`;
    })
    .join(", ");
}

const DISRUPTIVE = "Changes might result in unpredictable and disruptive behavior.";

export const HOSTED_CLUSTER_IMMUTABLE_FIELDS: readonly ImmutableField[] = [
  field("spec.infraID", "always", "infraID is immutable", (c) =>
    hosted(c).infraIdOrigin.endsWith(".infraId")
      ? hosted(c).infraIdOrigin
      : `${at(c)}.infraId (default derived from prefix, subscriptionId and the cluster name)`,
  ),
  field("spec.issuerURL", "always", "issuerURL is immutable", issuerKey),
  field("spec.networking.clusterNetwork", "always", "clusterNetwork is immutable and cannot be modified once set.", key("network.clusterNetwork"), {
    as: cidrs,
  }),
  field("spec.networking.serviceNetwork", "always", "serviceNetwork is immutable and cannot be modified once set.", key("network.serviceNetwork"), {
    as: cidrs,
  }),
  field("spec.networking.machineNetwork", "whileSet", "machineNetwork is immutable and cannot be modified once set.", key("network.machineNetwork"), {
    as: cidrs,
  }),
  field("spec.etcd.managed.storage.persistentVolume.size", "always", "Etcd PV storage size is immutable", key("etcd.storageSize")),
  field("spec.etcd.managed.storage.persistentVolume.storageClassName", "whileSet", "storageClassName is immutable", key("etcd.storageClassName")),
  field("spec.controllerAvailabilityPolicy", "always", "ControllerAvailabilityPolicy is immutable", key("controllerAvailabilityPolicy")),
  field("spec.dns.baseDomain", "always", "baseDomain is immutable", key("baseDomain")),
  field("spec.dns.publicZoneID", "always", "publicZoneID is immutable", (c) => `${at(c)}.publicZone, ${at(c)}.baseDomain`),
  field("spec.dns.privateZoneID", "always", "privateZoneID is immutable", (c) => `${at(c)}.network.resourceGroups.managed, ${at(c)}.baseDomain`),
  field("spec.platform.azure.location", "always", "Location is immutable", () => "location"),
  field("spec.platform.azure.subscriptionID", "always", "SubscriptionID is immutable", () => "subscriptionId"),
  field("spec.platform.azure.resourceGroup", "always", "ResourceGroupName is immutable", key("network.resourceGroups.managed")),
  field("spec.platform.azure.vnetID", "always", "VnetID is immutable", (c) => networkKey(c, "vnet")),
  field("spec.platform.azure.subnetID", "always", "SubnetID is immutable", (c) => networkKey(c, "subnet")),
  field("spec.platform.azure.securityGroupID", "always", "SecurityGroupID is immutable", (c) => networkKey(c, "nsg")),
  // PublicAndPrivate and Private may be swapped on day 2; Public and the private two may not:
  // the guard compares the class ("Public", or "PublicAndPrivate or Private"). Not written before
  // HyperShift 4.22 (config/hypershift-release.ts hostedClusterApi): onceSet lets a cluster created
  // without it gain `Public` when the operator moves to 4.22, as the CRD does.
  field(
    "spec.platform.azure.topology",
    "onceSet",
    "topology cannot be removed once set; transitions between Public and non-Public topology are not supported",
    (c) => `topology, ${at(c)}.endpointAccess`,
    {
      read: (object) => {
        const topology = text("spec.platform.azure.topology")(object);
        return topology === "PublicAndPrivate" || topology === "Private" ? PRIVATE_TOPOLOGY : topology;
      },
    },
  ),
  // Presence is what the rule guards: "none", or the type of the private block.
  field("spec.platform.azure.private", "always", "private cannot be added or removed after cluster creation", key("endpointAccess"), {
    read: (object) => (get(object, "spec.platform.azure.private") === undefined ? "none" : text("spec.platform.azure.private.type")(object)),
  }),
  field("spec.platform.azure.private.type", "whileSet", "type is immutable", key("endpointAccess")),
  field(
    "spec.platform.azure.private.privateLink.natSubnetID",
    "whileSet",
    "natSubnetID is immutable once set",
    (c) => `${at(c)}.privateLink.natSubnetId, ${at(c)}.privateLink.natSubnet (vnetId and name; the default name comes from the infraID)`,
  ),
  field(
    "spec.services",
    "always",
    `Services is immutable. ${DISRUPTIVE}`,
    (c) => `${at(c)}.externalDns, ${at(c)}.oauthPublishing, externalDns, dns.zoneName, ${at(c)}.endpointAccess`,
    { read: services },
  ),
  // No CRD rule: the CRD only forbids removing secretEncryption. Reading of HyperShift's code.
  field("spec.secretEncryption.type", "always", "the etcd encryption type cannot change", key("kms"), {
    consequence:
      "HyperShift does not migrate between AES-CBC and KMS: the kube-apiserver's encryption config would lose the provider the existing Secrets were written with (control-plane-operator kas/kms/azure.go lists only KMS and identity), so they could no longer be read.",
  }),
  // The CRD compares it with KeyVault as the default; we write it with KMS where the operator
  // release's CRD has it (5.1 and main, config/hypershift-release.ts), as main's CLI does.
  field("spec.secretEncryption.kms.azure.keyVaultType", "whileSet", "keyVaultType is immutable", key("kms.keyId")),
  field("spec.fips", "always", "fips is immutable", key("fips")),
  field("spec.olmCatalogPlacement", "always", "OLMCatalogPlacement is immutable", key("olmCatalogPlacement")),
  field("spec.capabilities", "whileSet", `Capabilities is immutable. ${DISRUPTIVE}`, key("capabilities"), {
    read: (object) => {
      const capabilities = get(object, "spec.capabilities") as { enabled?: string[]; disabled?: string[] } | undefined;
      return capabilities ? `enabled=${(capabilities.enabled ?? []).join(",")}; disabled=${(capabilities.disabled ?? []).join(",")}` : "";
    },
  }),
  field("spec.capabilities.enabled", "whileSet", `Enabled is immutable. ${DISRUPTIVE}`, key("capabilities.enabled"), { as: list }),
  field("spec.capabilities.disabled", "whileSet", `Disabled is immutable. ${DISRUPTIVE}`, key("capabilities.disabled"), { as: list }),
  // The CRD's rules: TechPreviewNoUpgrade and DevPreviewNoUpgrade "may not be changed"; they run
  // only while the field is set, so setting it on a running cluster passes.
  field("spec.configuration.featureGate.featureSet", "whileSet", "TechPreviewNoUpgrade may not be changed (DevPreviewNoUpgrade likewise)", key("featureSet")),
  field("spec.configuration.ingress.domain", "whileSet", "domain is immutable once set", key("ingress.domain")),
  NAMESPACE,
];

/**
 * `clusters[<i>].hostedCluster.nodePools[name: <pool>].<key>`, naming the config entry: for one zone's
 * NodePool of a pool with `availabilityZones`, the pool (`workers`, not `workers-1`) and the zone.
 */
function poolKey(context: ConfigKeyContext, suffix: string): string {
  const pool = hosted(context).nodePools.find((p) => p.config.name === context.nodePoolName);
  if (!pool) throw new Error(`internal: ${at(context)} has no NodePool named "${context.nodePoolName}"`);
  const entry = `${at(context)}.nodePools[name: ${pool.configName}].${suffix}`;
  return pool.zone === undefined ? entry : `${entry} (for zone ${pool.zone} of its availabilityZones)`;
}

export const NODE_POOL_IMMUTABLE_FIELDS: readonly ImmutableField[] = [
  field(
    "spec.platform.azure.subnetID",
    "always",
    "SubnetID is immutable",
    (c) => `${poolKey(c, "subnetId")} (default: the cluster's subnet, ${networkKey(c, "subnet")})`,
  ),
  field("spec.arch", "always", "Arch is immutable", (c) => poolKey(c, "arch")),
  field("spec.management.upgradeType", "always", "UpgradeType is immutable", (c) => poolKey(c, "upgradeType")),
  NAMESPACE,
];
