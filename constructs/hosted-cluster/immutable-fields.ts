import { ClusterNames } from "../../config/names";
import { HyperShiftObject } from "./manifests";

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

/**
 * `metadata.namespace`: no CRD rule, but kubernetes_manifest replaces an object whose namespace
 * changes: Terraform would delete the running HostedCluster (HyperShift tears its cluster down) or
 * NodePool (its VMs) and create a new one.
 */
const NAMESPACE: ImmutableField = {
  path: "metadata.namespace",
  rule: "always",
  crdMessage: "the namespace of an existing object cannot change",
  read: (object) => text("metadata.namespace")(object),
  configKey: (c) => `${at(c)}.namespace`,
  consequence:
    "Terraform would delete the running object and create a new one in the new namespace (kubernetes_manifest replaces an object whose namespace changes): the cluster or its nodes would be torn down.",
};

/** The guarded value of both private topologies, which the CRD lets a cluster swap between. */
const PRIVATE_TOPOLOGY = "PublicAndPrivate or Private";

const at = (context: ConfigKeyContext) => `clusters[${context.cluster.index}].hostedCluster`;
const hosted = (context: ConfigKeyContext) => {
  if (!context.cluster.hosted) throw new Error(`internal: clusters[${context.cluster.index}] has no hostedCluster`);
  return context.cluster.hosted;
};

/** Reads `spec.a.b.c`; "" when a step is missing. */
function get(object: HyperShiftObject, path: string): unknown {
  return path.split(".").reduce<unknown>((value, key) => (value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined), object);
}
const text = (path: string) => (object: HyperShiftObject) => {
  const value = get(object, path);
  return value === undefined ? "" : String(value);
};
/** String lists, comma-separated; "" when absent. */
const list = (path: string) => (object: HyperShiftObject) => ((get(object, path) as string[] | undefined) ?? []).join(",");
/** `[{cidr}]` lists: the CIDRs, comma-separated. */
const cidrs = (path: string) => (object: HyperShiftObject) =>
  ((get(object, path) as { cidr: string }[] | undefined) ?? []).map((entry) => entry.cidr).join(",");

/** The network keys behind a VNet, subnet or NSG ID: the existing ID, or the name and its group. */
function networkKey(context: ConfigKeyContext, kind: "vnet" | "subnet" | "nsg"): string {
  const names = hosted(context);
  const existing = names[kind].origin.includes(".network.existing.");
  if (existing) return names[kind].origin;
  const group = kind === "subnet" ? "vnet" : kind;
  const keys = [`${at(context)}.network.${kind}Name`, `${at(context)}.network.resourceGroups.${group}`, `${at(context)}.network.singleResourceGroup`];
  return kind === "subnet" ? `${keys.join(", ")}, ${at(context)}.network.vnetName` : keys.join(", ");
}

export const HOSTED_CLUSTER_IMMUTABLE_FIELDS: readonly ImmutableField[] = [
  {
    path: "spec.infraID",
    rule: "always",
    crdMessage: "infraID is immutable",
    read: text("spec.infraID"),
    configKey: (c) =>
      hosted(c).infraIdOrigin.endsWith(".infraId")
        ? hosted(c).infraIdOrigin
        : `${at(c)}.infraId (default derived from prefix, subscriptionId and the cluster name)`,
  },
  {
    path: "spec.issuerURL",
    rule: "always",
    crdMessage: "issuerURL is immutable",
    read: text("spec.issuerURL"),
    configKey: (c) => {
      // perCluster: the container is the cluster's name, which is the stack's identity.
      const keys = c.cluster.ownsIssuer ? "oidc.storageAccountName, oidc.issuer" : "oidc.storageAccountName, oidc.containerName, oidc.issuer";
      return c.storageAccountOrigin === "oidc.storageAccountName"
        ? keys
        : `${keys} (the account name defaults from prefix, subscriptionId and resourceGroup.name)`;
    },
  },
  {
    path: "spec.networking.clusterNetwork",
    rule: "always",
    crdMessage: "clusterNetwork is immutable and cannot be modified once set.",
    read: cidrs("spec.networking.clusterNetwork"),
    configKey: (c) => `${at(c)}.network.clusterNetwork`,
  },
  {
    path: "spec.networking.serviceNetwork",
    rule: "always",
    crdMessage: "serviceNetwork is immutable and cannot be modified once set.",
    read: cidrs("spec.networking.serviceNetwork"),
    configKey: (c) => `${at(c)}.network.serviceNetwork`,
  },
  {
    path: "spec.networking.machineNetwork",
    rule: "whileSet",
    crdMessage: "machineNetwork is immutable and cannot be modified once set.",
    read: cidrs("spec.networking.machineNetwork"),
    configKey: (c) => `${at(c)}.network.machineNetwork`,
  },
  {
    path: "spec.etcd.managed.storage.persistentVolume.size",
    rule: "always",
    crdMessage: "Etcd PV storage size is immutable",
    read: text("spec.etcd.managed.storage.persistentVolume.size"),
    configKey: (c) => `${at(c)}.etcd.storageSize`,
  },
  {
    path: "spec.etcd.managed.storage.persistentVolume.storageClassName",
    rule: "whileSet",
    crdMessage: "storageClassName is immutable",
    read: text("spec.etcd.managed.storage.persistentVolume.storageClassName"),
    configKey: (c) => `${at(c)}.etcd.storageClassName`,
  },
  {
    path: "spec.controllerAvailabilityPolicy",
    rule: "always",
    crdMessage: "ControllerAvailabilityPolicy is immutable",
    read: text("spec.controllerAvailabilityPolicy"),
    configKey: (c) => `${at(c)}.controllerAvailabilityPolicy`,
  },
  {
    path: "spec.dns.baseDomain",
    rule: "always",
    crdMessage: "baseDomain is immutable",
    read: text("spec.dns.baseDomain"),
    configKey: (c) => `${at(c)}.baseDomain`,
  },
  {
    path: "spec.dns.publicZoneID",
    rule: "always",
    crdMessage: "publicZoneID is immutable",
    read: text("spec.dns.publicZoneID"),
    configKey: (c) => `${at(c)}.publicZone, ${at(c)}.baseDomain`,
  },
  {
    path: "spec.dns.privateZoneID",
    rule: "always",
    crdMessage: "privateZoneID is immutable",
    read: text("spec.dns.privateZoneID"),
    configKey: (c) => `${at(c)}.network.resourceGroups.managed, ${at(c)}.baseDomain`,
  },
  {
    path: "spec.platform.azure.location",
    rule: "always",
    crdMessage: "Location is immutable",
    read: text("spec.platform.azure.location"),
    configKey: () => "location",
  },
  {
    path: "spec.platform.azure.subscriptionID",
    rule: "always",
    crdMessage: "SubscriptionID is immutable",
    read: text("spec.platform.azure.subscriptionID"),
    configKey: () => "subscriptionId",
  },
  {
    path: "spec.platform.azure.resourceGroup",
    rule: "always",
    crdMessage: "ResourceGroupName is immutable",
    read: text("spec.platform.azure.resourceGroup"),
    configKey: (c) => `${at(c)}.network.resourceGroups.managed`,
  },
  {
    path: "spec.platform.azure.vnetID",
    rule: "always",
    crdMessage: "VnetID is immutable",
    read: text("spec.platform.azure.vnetID"),
    configKey: (c) => networkKey(c, "vnet"),
  },
  {
    path: "spec.platform.azure.subnetID",
    rule: "always",
    crdMessage: "SubnetID is immutable",
    read: text("spec.platform.azure.subnetID"),
    configKey: (c) => networkKey(c, "subnet"),
  },
  {
    path: "spec.platform.azure.securityGroupID",
    rule: "always",
    crdMessage: "SecurityGroupID is immutable",
    read: text("spec.platform.azure.securityGroupID"),
    configKey: (c) => networkKey(c, "nsg"),
  },
  {
    // PublicAndPrivate and Private may be swapped on day 2; Public and the private two may not:
    // the guard compares the class ("Public", or "PublicAndPrivate or Private").
    path: "spec.platform.azure.topology",
    rule: "onceSet",
    crdMessage: "topology cannot be removed once set; transitions between Public and non-Public topology are not supported",
    read: (object) => {
      const topology = text("spec.platform.azure.topology")(object);
      return topology === "PublicAndPrivate" || topology === "Private" ? PRIVATE_TOPOLOGY : topology;
    },
    configKey: (c) => `topology, ${at(c)}.endpointAccess`,
  },
  {
    path: "spec.platform.azure.private",
    rule: "always",
    crdMessage: "private cannot be added or removed after cluster creation",
    // Presence is what the rule guards: "none", or the type of the private block.
    read: (object) => (get(object, "spec.platform.azure.private") === undefined ? "none" : text("spec.platform.azure.private.type")(object)),
    configKey: (c) => `${at(c)}.endpointAccess`,
  },
  {
    path: "spec.platform.azure.private.type",
    rule: "whileSet",
    crdMessage: "type is immutable",
    read: text("spec.platform.azure.private.type"),
    configKey: (c) => `${at(c)}.endpointAccess`,
  },
  {
    path: "spec.platform.azure.private.privateLink.natSubnetID",
    rule: "whileSet",
    crdMessage: "natSubnetID is immutable once set",
    read: text("spec.platform.azure.private.privateLink.natSubnetID"),
    configKey: (c) => `${at(c)}.privateLink.natSubnetId, ${at(c)}.privateLink.natSubnet (vnetId and name; the default name comes from the infraID)`,
  },
  {
    path: "spec.services",
    rule: "always",
    crdMessage: "Services is immutable. Changes might result in unpredictable and disruptive behavior.",
    read: (object) =>
      (
        (get(object, "spec.services") as
          | { service: string; servicePublishingStrategy: { type: string; route?: { hostname?: string }; loadBalancer?: { hostname?: string } } }[]
          | undefined) ?? []
      )
        .map(({ service, servicePublishingStrategy: s }) => {
          const hostname = s.route?.hostname ?? s.loadBalancer?.hostname;
          return `${service}=${s.type}${hostname ? ` ${hostname}` : ""}`;
        })
        .join(", "),
    configKey: (c) => `${at(c)}.externalDns, ${at(c)}.oauthPublishing, externalDns, dns.zoneName, ${at(c)}.endpointAccess`,
  },
  {
    path: "spec.secretEncryption.type",
    rule: "always",
    crdMessage: "the etcd encryption type cannot change",
    read: text("spec.secretEncryption.type"),
    configKey: (c) => `${at(c)}.kms`,
    // No CRD rule: the CRD only forbids removing secretEncryption. Reading of HyperShift's code.
    consequence:
      "HyperShift does not migrate between AES-CBC and KMS: the kube-apiserver's encryption config would lose the provider the existing Secrets were written with (control-plane-operator kas/kms/azure.go lists only KMS and identity), so they could no longer be read.",
  },
  {
    // The CRD compares it with KeyVault as the default; we always write it with KMS, as the CLI.
    path: "spec.secretEncryption.kms.azure.keyVaultType",
    rule: "whileSet",
    crdMessage: "keyVaultType is immutable",
    read: text("spec.secretEncryption.kms.azure.keyVaultType"),
    configKey: (c) => `${at(c)}.kms.keyId`,
  },
  {
    path: "spec.fips",
    rule: "always",
    crdMessage: "fips is immutable",
    read: text("spec.fips"),
    configKey: (c) => `${at(c)}.fips`,
  },
  {
    path: "spec.olmCatalogPlacement",
    rule: "always",
    crdMessage: "OLMCatalogPlacement is immutable",
    read: text("spec.olmCatalogPlacement"),
    configKey: (c) => `${at(c)}.olmCatalogPlacement`,
  },
  {
    path: "spec.capabilities",
    rule: "whileSet",
    crdMessage: "Capabilities is immutable. Changes might result in unpredictable and disruptive behavior.",
    read: (object) => {
      const capabilities = get(object, "spec.capabilities") as { enabled?: string[]; disabled?: string[] } | undefined;
      return capabilities ? `enabled=${(capabilities.enabled ?? []).join(",")}; disabled=${(capabilities.disabled ?? []).join(",")}` : "";
    },
    configKey: (c) => `${at(c)}.capabilities`,
  },
  {
    path: "spec.capabilities.enabled",
    rule: "whileSet",
    crdMessage: "Enabled is immutable. Changes might result in unpredictable and disruptive behavior.",
    read: list("spec.capabilities.enabled"),
    configKey: (c) => `${at(c)}.capabilities.enabled`,
  },
  {
    path: "spec.capabilities.disabled",
    rule: "whileSet",
    crdMessage: "Disabled is immutable. Changes might result in unpredictable and disruptive behavior.",
    read: list("spec.capabilities.disabled"),
    configKey: (c) => `${at(c)}.capabilities.disabled`,
  },
  {
    // The CRD's rules: TechPreviewNoUpgrade and DevPreviewNoUpgrade "may not be changed"; they run
    // only while the field is set, so setting it on a running cluster passes.
    path: "spec.configuration.featureGate.featureSet",
    rule: "whileSet",
    crdMessage: "TechPreviewNoUpgrade may not be changed (DevPreviewNoUpgrade likewise)",
    read: text("spec.configuration.featureGate.featureSet"),
    configKey: (c) => `${at(c)}.featureSet`,
  },
  NAMESPACE,
];

/**
 * `clusters[<i>].hostedCluster.nodePools[name: <pool>].<key>`, naming the config entry: for one zone's
 * NodePool of a pool with `availabilityZones`, the pool (`workers`, not `workers-1`) and the zone.
 */
function poolKey(context: ConfigKeyContext, key: string): string {
  const pool = hosted(context).nodePools.find((p) => p.config.name === context.nodePoolName);
  if (!pool) throw new Error(`internal: ${at(context)} has no NodePool named "${context.nodePoolName}"`);
  const entry = `${at(context)}.nodePools[name: ${pool.configName}].${key}`;
  return pool.zone === undefined ? entry : `${entry} (for zone ${pool.zone} of its availabilityZones)`;
}

export const NODE_POOL_IMMUTABLE_FIELDS: readonly ImmutableField[] = [
  {
    path: "spec.platform.azure.subnetID",
    rule: "always",
    crdMessage: "SubnetID is immutable",
    read: text("spec.platform.azure.subnetID"),
    configKey: (c) => `${poolKey(c, "subnetId")} (default: the cluster's subnet, ${networkKey(c, "subnet")})`,
  },
  {
    path: "spec.arch",
    rule: "always",
    crdMessage: "Arch is immutable",
    read: text("spec.arch"),
    configKey: (c) => poolKey(c, "arch"),
  },
  {
    path: "spec.management.upgradeType",
    rule: "always",
    crdMessage: "UpgradeType is immutable",
    read: text("spec.management.upgradeType"),
    configKey: (c) => poolKey(c, "upgradeType"),
  },
  NAMESPACE,
];
