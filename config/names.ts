import { createHash } from "node:crypto";
import * as path from "node:path";
import { COMPONENT_ROLES, ComponentRole, CONTROL_PLANE_COMPONENTS, DATA_PLANE_COMPONENTS, DATA_PLANE_ROLES, RoleScope, WORKLOAD_IDENTITY_COMPONENTS, WorkloadIdentityKey } from "./components";
import { AksNames, aksNames, ControlPlaneIdentityNames, controlPlaneIdentityNames, KeyVaultNames, keyVaultNames } from "./names-aro-hcp";
import { BackendConfig, ClusterConfig, Config, HostedClusterConfig, SigningKeyConfig } from "./schema";
import { uuidv5 } from "./uuid";

/**
 * Every name this project gives to a stack, an Azure resource, a URL or a file, derived from the
 * validated config in this one place, deterministically (no clock, no randomness). Stacks and
 * rules ask for names here; constructs receive them as props.
 */

export interface FederatedCredentialName {
  /** `<identity>-fed-id[-<suffix>]`, as seed 004's `az identity federated-credential create`. */
  readonly name: string;
  /** `system:serviceaccount:<namespace>:<name>`. */
  readonly subject: string;
}

export interface IdentityNames {
  /** HyperShift's workloadIdentities key. */
  readonly key: WorkloadIdentityKey;
  /** `<namePrefix>-<component suffix>`. */
  readonly name: string;
  /** ARM ID of the user-assigned identity (known before it exists). */
  readonly id: string;
  readonly credentials: readonly FederatedCredentialName[];
}

export interface IssuerNames {
  /** Blob container serving the documents; the last segment of the issuer URL. */
  readonly containerName: string;
  /** Config path the container name comes from (for error messages). */
  readonly containerOrigin: string;
  /** `https://<account>.blob.core.windows.net/<container>`, no trailing slash. */
  readonly url: string;
  /** Absolute paths of the signing key pair. */
  readonly publicKeyFile: string;
  readonly privateKeyFile: string;
  /** The private key path as the config writes it (or derives it): absolute paths stay absolute in Terraform. */
  readonly privateKeyFileAsWritten: string;
  /** Config path of the key pair (for error messages). */
  readonly keyOrigin: string;
}

/** A resource group of a hosted cluster: created by its infra stack, or not (`create: false`). */
export interface ResourceGroupNames {
  readonly name: string;
  readonly id: string;
  /** Whether the infra stack creates it (false for groups of existing resources). */
  readonly create: boolean;
  /** Config path of the name (for error messages). */
  readonly origin: string;
}

/** A network resource of a hosted cluster: created in `resourceGroup`, or existing (`create: false`). */
export interface NetworkResourceNames {
  readonly name: string;
  readonly id: string;
  readonly resourceGroup: string;
  readonly create: boolean;
  readonly origin: string;
}

export interface RoleAssignmentNames {
  /** HyperShift component (`capz`, `ingress`, ...). */
  readonly component: string;
  readonly identity: WorkloadIdentityKey;
  readonly roleGuid: string;
  readonly roleName: string;
  readonly scopeKind: RoleScope;
  /** `/subscriptions/<sub>/resourceGroups/<rg>`. */
  readonly scope: string;
  /** HyperShift's name: UUIDv5 (DNS namespace) of `<infraID>-<component>-<scope>`. */
  readonly name: string;
}

/** Phase 3 names of one hosted cluster (present when the cluster has `hostedCluster`). */
export interface HostedClusterNames {
  /** Azure infrastructure stack: `infra-<cluster>`. */
  readonly infraStack: string;
  /** HostedCluster stack on the management cluster: `cluster-<cluster>`. */
  readonly clusterStack: string;
  readonly infraId: string;
  readonly infraIdOrigin: string;
  /** Namespace of the HostedCluster and its secrets. */
  readonly namespace: string;
  /** Where HyperShift runs the control plane: `<namespace>-<name>`. */
  readonly controlPlaneNamespace: string;
  readonly resourceGroups: {
    readonly managed: ResourceGroupNames;
    readonly vnet: ResourceGroupNames;
    readonly nsg: ResourceGroupNames;
  };
  readonly vnet: NetworkResourceNames;
  readonly subnet: NetworkResourceNames;
  readonly nsg: NetworkResourceNames;
  /** `<name>.<baseDomain>` in the managed group, linked to the VNet. */
  readonly privateZone: { readonly name: string; readonly id: string; readonly linkName: string };
  /** The existing public zone named baseDomain. */
  readonly publicZone: { readonly name: string; readonly id: string; readonly resourceGroupName: string; readonly resourceGroupId: string };
  /** Egress public IP and load balancer (and its frontend, pool, probe, outbound rule): all `<infraID>`. */
  readonly loadBalancer: { readonly name: string };
  /** Secret names as `hypershift create cluster azure --render` writes them. */
  readonly secrets: {
    readonly pullSecret: string;
    readonly sshKey: string;
    readonly signingKey: string;
    readonly etcdEncryptionKey: string;
    readonly cloudCredentials: string;
    /** Written by HyperShift (key `kubeconfig`) once the API server is up; status.kubeconfig names it. */
    readonly adminKubeconfig: string;
  };
  readonly files: { readonly pullSecretFile: string; readonly sshPublicKeyFile?: string };
  /** The ExternalDNS zone the Routes are named in, when this cluster uses ExternalDNS. */
  readonly externalDnsDomain?: string;
  /**
   * Role assignments of the cluster's managed identities (`ClusterNames.identities`: workload
   * identities, or with aroHcp the data-plane ones), deduplicated (same name = same assignment).
   */
  readonly roleAssignments: readonly RoleAssignmentNames[];
  /** aroHcp: role assignments of the control-plane service principals. Empty otherwise. */
  readonly controlPlaneRoleAssignments: readonly RoleAssignmentNames[];
}

export interface ClusterNames {
  readonly name: string;
  /** Index in `clusters` (for error messages). */
  readonly index: number;
  /** Stack holding this cluster's managed identities (and, per-cluster mode, its issuer). */
  readonly identitiesStack: string;
  /** Prefix of identity names and the config path it comes from. */
  readonly identityPrefix: string;
  readonly identityPrefixOrigin: string;
  readonly issuer: IssuerNames;
  /** Whether the issuer belongs to this cluster alone (oidc.issuer: perCluster). */
  readonly ownsIssuer: boolean;
  /** Managed identities with federated credentials: the workload identities, or with aroHcp the data-plane identities. */
  readonly identities: readonly IdentityNames[];
  /** aroHcp: the control-plane service principals (in the shared stack). Empty otherwise. */
  readonly controlPlaneIdentities: readonly ControlPlaneIdentityNames[];
  /** Phase 3 names, when the cluster has `hostedCluster`. */
  readonly hosted?: HostedClusterNames;
  /**
   * `clusters[].retired`: its stacks are synthesized only to be destroyed. Constructs that protect
   * what outlives a cluster (prevent_destroy) lift the protection for a retired cluster.
   */
  readonly retired: boolean;
  /** This cluster's stacks, in destroy order: `cluster-` and `infra-` (with hosted), `identities-`. */
  readonly stacks: readonly string[];
}

export interface DnsNames {
  /** The public zone in the persistent resource group. */
  readonly zoneName: string;
  /** Config path the zone name comes from (for error messages). */
  readonly zoneOrigin: string;
  /** The delegating parent zone, when configured. */
  readonly parent?: {
    readonly zoneName: string;
    readonly resourceGroupName: string;
    readonly subscriptionId: string;
  };
}

/** Files of the management-cluster stack: absolute, or starting with `~/` (expanded by the provider). */
export interface ManagementClusterFiles {
  readonly kubeconfig?: string;
  readonly bundleFile: string;
  readonly pullSecretFile?: string;
  readonly externalDnsCredentialsFile?: string;
}

export interface DeploymentNames {
  readonly sharedStack: string;
  /** Phase 2 stack: the HyperShift operator and ExternalDNS credentials on the management cluster. */
  readonly managementStack: string;
  readonly dns?: DnsNames;
  /** Files the management stack uses, when managementCluster is configured. */
  readonly managementCluster?: ManagementClusterFiles;
  /** The AKS management cluster, when managementCluster.aks is configured. */
  readonly aks?: AksNames;
  /** aroHcp: the Key Vault of the control-plane credentials (persistent group). */
  readonly keyVault?: KeyVaultNames;
  /** Entra display name of the ExternalDNS application, when ExternalDNS is on. */
  readonly externalDnsApplication?: string;
  readonly resourceGroup: { readonly name: string; readonly id: string };
  readonly storageAccount: {
    readonly name: string;
    readonly origin: string;
    readonly id: string;
    readonly blobEndpoint: string;
  };
  /** The shared issuer (oidc.issuer: shared), else undefined. */
  readonly sharedIssuer?: IssuerNames;
  readonly clusters: readonly ClusterNames[];
  /**
   * Where a stack's state lives, in the configured backend's terms: the absolute state file
   * (local), the blob key (azurerm) or the workspace name (cloud).
   */
  stateLocation(stack: string): string;
}

export const SHARED_STACK = "shared";
export const MANAGEMENT_STACK = "management";
/** Prefixes of the per-cluster stacks: `<prefix><cluster name>`. */
const CLUSTER_STACK_PREFIXES = { identities: "identities-", infra: "infra-", cluster: "cluster-" } as const;
export const identitiesStackName = (cluster: string) => `${CLUSTER_STACK_PREFIXES.identities}${cluster}`;
export const infraStackName = (cluster: string) => `${CLUSTER_STACK_PREFIXES.infra}${cluster}`;
export const clusterStackName = (cluster: string) => `${CLUSTER_STACK_PREFIXES.cluster}${cluster}`;

/** Every stack a cluster of this name can have, in destroy order: `cluster-`, `infra-`, `identities-<name>`. */
export const clusterStackNames = (cluster: string): string[] => [clusterStackName(cluster), infraStackName(cluster), identitiesStackName(cluster)];

/** The cluster a per-cluster stack belongs to (`infra-hc1` → `hc1`), or undefined for a shared stack. */
export function clusterOfStack(stack: string): string | undefined {
  const prefix = Object.values(CLUSTER_STACK_PREFIXES).find((p) => stack.startsWith(p) && stack.length > p.length);
  return prefix && stack.slice(prefix.length);
}

/** Blob paths of the OIDC documents inside the issuer container (ccoctl and Kubernetes layout). */
export const OIDC_DISCOVERY_PATH = ".well-known/openid-configuration";
export const OIDC_JWKS_PATH = "openid/v1/jwks";

/** Stable 6-hex suffix making the storage account name globally unique per deployment. */
export function stableSuffix(...parts: string[]): string {
  return createHash("sha256").update(parts.join("/").toLowerCase()).digest("hex").slice(0, 6);
}

export function defaultStorageAccountName(prefix: string, subscriptionId: string, resourceGroup: string): string {
  return `${prefix.replace(/-/g, "").slice(0, 14)}oidc${stableSuffix(subscriptionId, resourceGroup, prefix)}`;
}

export function issuerUrl(storageAccount: string, container: string): string {
  return `https://${storageAccount}.blob.core.windows.net/${container}`;
}

/**
 * The record set name that delegates `zone` from `parent` (`a.b` for `a.b.example.com` in
 * `example.com`), or undefined when `parent` is not a proper suffix of `zone`.
 */
export function delegationRecordName(zone: string, parent: string): string | undefined {
  return zone.endsWith(`.${parent}`) && zone.length > parent.length + 1 ? zone.slice(0, -(parent.length + 1)) : undefined;
}

/** ccoctl's pair convention: `x.public` goes with `x.private`. */
export function defaultPrivateKeyFile(publicKeyFile: string): string {
  return publicKeyFile.endsWith(".public") ? publicKeyFile.replace(/\.public$/, ".private") : `${publicKeyFile}.private`;
}

function keyFiles(key: SigningKeyConfig, configDir: string) {
  return {
    publicKeyFile: path.resolve(configDir, key.publicKeyFile),
    privateKeyFile: path.resolve(configDir, key.privateKeyFile ?? defaultPrivateKeyFile(key.publicKeyFile)),
    privateKeyFileAsWritten: key.privateKeyFile ?? defaultPrivateKeyFile(key.publicKeyFile),
  };
}

function stateLocator(config: Config, configDir: string): (stack: string) => string {
  const backend: BackendConfig = config.backend;
  switch (backend.type) {
    case "local":
      return (stack) => path.resolve(configDir, backend.directory, `${stack}.tfstate`);
    case "azurerm":
      return (stack) => `${backend.keyPrefix ?? `hcp-azure/${config.prefix}/`}${stack}.tfstate`;
    case "cloud":
      return (stack) => `${backend.workspacePrefix ?? `${config.prefix}-`}${stack}`;
  }
}

function requireIssuer(issuer: IssuerNames | undefined, index: number): IssuerNames {
  // rules/structure.ts guarantees a key for every issuer before names are derived.
  if (!issuer) throw new Error(`internal: clusters[${index}] has no OIDC issuer signing key`);
  return issuer;
}

/**
 * Derives every name. `configDir` is the absolute folder of the config file (relative paths in
 * the config are relative to it). Assumes a schema-valid config; `rules/` checks the results.
 */
export function deriveNames(config: Config, configDir: string): DeploymentNames {
  const resourceGroupName = config.resourceGroup.name ?? `${config.prefix}-hcp-persistent`;
  const resourceGroupId = `/subscriptions/${config.subscriptionId}/resourceGroups/${resourceGroupName}`;
  const accountName =
    config.oidc.storageAccountName ?? defaultStorageAccountName(config.prefix, config.subscriptionId, resourceGroupName);

  const sharedIssuer: IssuerNames | undefined =
    config.oidc.issuer === "shared" && config.serviceAccountSigningKey
      ? {
          containerName: config.oidc.containerName ?? accountName,
          containerOrigin: config.oidc.containerName ? "oidc.containerName" : "oidc.storageAccountName",
          url: issuerUrl(accountName, config.oidc.containerName ?? accountName),
          ...keyFiles(config.serviceAccountSigningKey, configDir),
          keyOrigin: "serviceAccountSigningKey",
        }
      : undefined;

  const dns = config.dns && dnsNames(config);
  const clusters = config.clusters.map((cluster, index): ClusterNames => {
    const identityPrefix = cluster.identities.namePrefix ?? cluster.name;
    const ownsIssuer = config.oidc.issuer === "perCluster";
    const ownKey = cluster.serviceAccountSigningKey;
    const issuer: IssuerNames =
      ownsIssuer && ownKey
        ? {
            containerName: cluster.name,
            containerOrigin: `clusters[${index}].name`,
            url: issuerUrl(accountName, cluster.name),
            ...keyFiles(ownKey, configDir),
            keyOrigin: `clusters[${index}].serviceAccountSigningKey`,
          }
        : requireIssuer(sharedIssuer, index);
    const enabled = (key: WorkloadIdentityKey) =>
      key === "controlPlaneOperator" ? cluster.identities.controlPlaneOperator : key === "kms" ? cluster.identities.kms : true;
    const aroHcp = config.topology === "aroHcp";
    const components = aroHcp ? DATA_PLANE_COMPONENTS : WORKLOAD_IDENTITY_COMPONENTS.filter((c) => !c.optional || enabled(c.key));
    const identities = components.map((component) => {
      const name = `${identityPrefix}-${component.suffix}`;
      return {
        key: component.key,
        name,
        id: `${resourceGroupId}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}`,
        credentials: component.credentials.map((credential) => ({
          name: credential.suffix ? `${name}-fed-id-${credential.suffix}` : `${name}-fed-id`,
          subject: credential.subject,
        })),
      };
    });
    return {
      hosted: cluster.hostedCluster && hostedClusterNames(config, configDir, cluster, cluster.hostedCluster, index, identities, dns?.zoneName, resourceGroupName),
      name: cluster.name,
      index,
      identitiesStack: identitiesStackName(cluster.name),
      identityPrefix,
      identityPrefixOrigin: cluster.identities.namePrefix ? `clusters[${index}].identities.namePrefix` : `clusters[${index}].name`,
      issuer,
      ownsIssuer,
      identities,
      controlPlaneIdentities: aroHcp ? controlPlaneIdentityNames(config.prefix, identityPrefix) : [],
      retired: cluster.retired,
      stacks: cluster.hostedCluster ? clusterStackNames(cluster.name) : [identitiesStackName(cluster.name)],
    };
  });

  return {
    sharedStack: SHARED_STACK,
    managementStack: MANAGEMENT_STACK,
    dns,
    aks: aksNames(config, stableSuffix),
    keyVault: keyVaultNames(config, resourceGroupId, stableSuffix),
    externalDnsApplication: config.externalDns && (config.externalDns.applicationName ?? `${config.prefix}-external-dns`),
    managementCluster: config.managementCluster && {
      kubeconfig: config.managementCluster.kubeconfig && userPath(configDir, config.managementCluster.kubeconfig.path),
      bundleFile: path.resolve(configDir, config.managementCluster.operator.bundleFile),
      pullSecretFile: config.managementCluster.pullSecretFile && path.resolve(configDir, config.managementCluster.pullSecretFile),
      externalDnsCredentialsFile:
        config.managementCluster.externalDnsCredentialsFile && path.resolve(configDir, config.managementCluster.externalDnsCredentialsFile),
    },
    resourceGroup: { name: resourceGroupName, id: resourceGroupId },
    storageAccount: {
      name: accountName,
      origin: config.oidc.storageAccountName ? "oidc.storageAccountName" : "prefix",
      id: `${resourceGroupId}/providers/Microsoft.Storage/storageAccounts/${accountName}`,
      blobEndpoint: `https://${accountName}.blob.core.windows.net`,
    },
    sharedIssuer,
    clusters,
    stateLocation: stateLocator(config, configDir),
  };
}

/** `~/...` stays as written (the Kubernetes provider expands it where Terraform runs); anything else is resolved. */
function userPath(configDir: string, file: string): string {
  return file === "~" || file.startsWith("~/") ? file : path.resolve(configDir, file);
}

function dnsNames(config: Config): DnsNames | undefined {
  const dns = config.dns;
  if (!dns) return undefined;
  const parent = dns.parent;
  // rules/structure.ts guarantees a zone name or a parent to derive it from.
  const zoneName = dns.zoneName ?? (parent ? `${config.prefix}.${parent.zoneName}` : "");
  return {
    zoneName,
    zoneOrigin: dns.zoneName ? "dns.zoneName" : "prefix",
    parent: parent && {
      zoneName: parent.zoneName,
      resourceGroupName: parent.resourceGroupName,
      subscriptionId: parent.subscriptionId ?? config.subscriptionId,
    },
  };
}

/** Default infrastructure ID: HyperShift's shape (`<name, 21 chars>-<5 chars>`), stable instead of random. */
export function defaultInfraId(config: Config, cluster: string): string {
  return `${cluster.slice(0, 21).replace(/-+$/, "")}-${stableSuffix(config.subscriptionId, config.prefix, cluster).slice(0, 5)}`;
}

/** Lowercase `dnszones`, as ARM returns it (and so HyperShift's create infra writes publicZoneID). */
const dnsZoneId = (resourceGroupId: string, zone: string) => `${resourceGroupId}/providers/Microsoft.Network/dnszones/${zone}`;

const rgId = (subscription: string, group: string) => `/subscriptions/${subscription}/resourceGroups/${group}`;

/** A resource the config brings by ARM ID: nothing to create, names come from the ID. */
function existingResource(id: string, origin: string): NetworkResourceNames {
  const parsed = parseArmId(id);
  return { name: parsed.name, id, resourceGroup: parsed.resourceGroup, create: false, origin };
}

/** `/subscriptions/<s>/resourceGroups/<rg>/...` → subscription, group and last segment. */
export function parseArmId(id: string): { subscription: string; resourceGroup: string; name: string } {
  const parts = id.split("/");
  return { subscription: parts[2], resourceGroup: parts[4], name: parts[parts.length - 1] };
}

function hostedClusterNames(
  config: Config,
  configDir: string,
  cluster: ClusterConfig,
  hosted: HostedClusterConfig,
  index: number,
  identities: readonly IdentityNames[],
  deploymentZone: string | undefined,
  persistentGroup: string,
): HostedClusterNames {
  const at = `clusters[${index}].hostedCluster`;
  const name = cluster.name;
  const sub = config.subscriptionId;
  const infraId = hosted.infraId ?? defaultInfraId(config, name);
  const network = hosted.network;
  const existing = network.existing ?? {};

  const group = (key: "managed" | "vnet" | "nsg", fallback: string, create: boolean): ResourceGroupNames => {
    const groupName = network.resourceGroups[key] ?? fallback;
    return { name: groupName, id: rgId(sub, groupName), create, origin: network.resourceGroups[key] ? `${at}.network.resourceGroups.${key}` : `clusters[${index}].name` };
  };
  const managed = group("managed", `${name}-managed-rg`, true);
  const ownGroup = (key: "vnet" | "nsg", existingId: string | undefined, fallback: string): ResourceGroupNames => {
    if (existingId) {
      const parsed = parseArmId(existingId);
      return { name: parsed.resourceGroup, id: rgId(parsed.subscription, parsed.resourceGroup), create: false, origin: `${at}.network.existing.${key}Id` };
    }
    return network.singleResourceGroup ? { ...managed, create: false } : group(key, fallback, true);
  };
  const vnetGroup = ownGroup("vnet", existing.vnetId, `${name}-customer-vnet-rg`);
  const nsgGroup = ownGroup("nsg", existing.nsgId, `${name}-customer-nsg-rg`);

  const resource = (existingId: string | undefined, configured: string | undefined, fallback: string, rg: ResourceGroupNames, type: string, key: string): NetworkResourceNames =>
    existingId
      ? existingResource(existingId, `${at}.network.existing.${key}Id`)
      : {
          name: configured ?? fallback,
          id: `${rg.id}/providers/${type}/${configured ?? fallback}`,
          resourceGroup: rg.name,
          create: true,
          origin: configured ? `${at}.network.${key}Name` : `clusters[${index}].name`,
        };
  const vnet = resource(existing.vnetId, network.vnetName, `${name}-customer-vnet`, vnetGroup, "Microsoft.Network/virtualNetworks", "vnet");
  const subnetName = network.subnetName ?? `${name}-customer-subnet-1`;
  const subnet: NetworkResourceNames = existing.subnetId
    ? existingResource(existing.subnetId, `${at}.network.existing.subnetId`)
    : { name: subnetName, id: `${vnet.id}/subnets/${subnetName}`, resourceGroup: vnet.resourceGroup, create: true, origin: network.subnetName ? `${at}.network.subnetName` : `clusters[${index}].name` };
  const nsg = resource(existing.nsgId, network.nsgName, `${name}-customer-nsg`, nsgGroup, "Microsoft.Network/networkSecurityGroups", "nsg");

  // The baseDomain zone: given, or the delegating parent of dns when it has that name.
  // The baseDomain zone: given; or this deployment's own zone (persistent group); or its parent.
  const parent = config.dns?.parent;
  const known =
    deploymentZone === hosted.baseDomain
      ? { group: persistentGroup, subscription: sub }
      : parent && parent.zoneName === hosted.baseDomain
        ? { group: parent.resourceGroupName, subscription: parent.subscriptionId ?? sub }
        : undefined;
  const zoneGroup = hosted.publicZone?.resourceGroupName ?? known?.group ?? "";
  const zoneSubscription = hosted.publicZone ? (hosted.publicZone.subscriptionId ?? sub) : (known?.subscription ?? sub);
  const publicZone = {
    name: hosted.baseDomain,
    resourceGroupName: zoneGroup, // rules/hosted-cluster.ts reports a zone it cannot locate
    resourceGroupId: rgId(zoneSubscription, zoneGroup),
    id: dnsZoneId(rgId(zoneSubscription, zoneGroup), hosted.baseDomain),
  };
  const privateZoneName = `${name}.${hosted.baseDomain}`;

  const scopes: Record<RoleScope, string> = { managed: managed.id, vnet: vnetGroup.id, nsg: nsgGroup.id, dnsZone: publicZone.resourceGroupId };
  const roleAssignments = (keys: readonly WorkloadIdentityKey[], roles: Readonly<Partial<Record<WorkloadIdentityKey, ComponentRole>>>) => {
    const assignments = new Map<string, RoleAssignmentNames>();
    for (const key of keys) {
      const role = roles[key];
      if (!role) continue;
      for (const scopeKind of role.scopes) {
        const scope = scopes[scopeKind];
        const assignmentName = uuidv5(`${infraId}-${role.component}-${scope}`);
        // Groups that coincide give the same name: HyperShift skips the duplicate, so do we.
        if (!assignments.has(assignmentName)) {
          assignments.set(assignmentName, { component: role.component, identity: key, roleGuid: role.roleGuid, roleName: role.roleName, scopeKind, scope, name: assignmentName });
        }
      }
    }
    return [...assignments.values()];
  };
  // aroHcp (HyperShift's AssignControlPlaneRoles / AssignDataPlaneRoles): the control-plane table
  // with the control-plane operator always, and the data-plane identities on the managed group.
  const aroHcp = config.topology === "aroHcp";
  const identityKeys = identities.map((identity) => identity.key);

  const useExternalDns = hosted.externalDns ?? config.externalDns !== undefined;
  return {
    infraStack: infraStackName(name),
    clusterStack: clusterStackName(name),
    infraId,
    infraIdOrigin: hosted.infraId ? `${at}.infraId` : `clusters[${index}].name`,
    namespace: hosted.namespace,
    controlPlaneNamespace: `${hosted.namespace}-${name}`.replace(/\./g, "-"),
    resourceGroups: { managed, vnet: vnetGroup, nsg: nsgGroup },
    vnet,
    subnet,
    nsg,
    privateZone: {
      name: privateZoneName,
      id: `${managed.id}/providers/Microsoft.Network/privateDnsZones/${privateZoneName}`,
      linkName: `${name}-${infraId}`,
    },
    publicZone,
    loadBalancer: { name: infraId },
    secrets: {
      pullSecret: `${name}-pull-secret`,
      sshKey: `${name}-ssh-key`,
      // No hyphen on Azure (AWS and GCP use <name>-sa-token-issuer-key): notes §6.
      signingKey: `${name}sa-token-issuer-key`,
      etcdEncryptionKey: `${name}-etcd-encryption-key`,
      cloudCredentials: `${name}-cloud-credentials`,
      adminKubeconfig: `${name}-admin-kubeconfig`,
    },
    files: {
      pullSecretFile: path.resolve(configDir, hosted.pullSecretFile),
      sshPublicKeyFile: hosted.sshPublicKeyFile && path.resolve(configDir, hosted.sshPublicKeyFile),
    },
    externalDnsDomain: useExternalDns ? deploymentZone : undefined,
    roleAssignments: roleAssignments(identityKeys, aroHcp ? DATA_PLANE_ROLES : COMPONENT_ROLES),
    controlPlaneRoleAssignments: aroHcp ? roleAssignments(CONTROL_PLANE_COMPONENTS.map((c) => c.key), COMPONENT_ROLES) : [],
  };
}
