import * as path from "node:path";
import { componentRoles, CONTROL_PLANE_COMPONENTS, DATA_PLANE_ROLES, RoleScope, RoleSet, WorkloadIdentityKey } from "../components";
import { ClusterConfig, Config, HostedClusterConfig } from "../schema";
import type { IdentityNames } from "./cluster";
import { guideNamePrefix } from "./adoption";
import { KmsNames, kmsNames } from "./kms";
import { defaultInfraId, dnsZoneId, parseArmId, rgId, stableSuffix } from "./naming";
import { NodePoolNames, nodePoolNames } from "./node-pools";
import { EndpointAccessNames, endpointAccessNames } from "./private-link";
import { HostedRoleAssignmentNames, roleAssignmentNames } from "./role-assignments";
import { clusterStackName, infraStackName } from "./stacks";

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

/** Phase 3 names of one hosted cluster (present when the cluster has `hostedCluster`). */
export interface HostedClusterNames {
  /** The validated `hostedCluster` block these names derive from: with them, one resolved object per hosted cluster. */
  readonly config: HostedClusterConfig;
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
  /**
   * ConfigMap of the additional trust bundle: `<name>-user-ca-bundle`. The CLI names it
   * `user-ca-bundle` in every cluster; per cluster here, so two clusters in one namespace do not
   * overwrite each other's (HyperShift reads whichever ConfigMap spec.additionalTrustBundle names).
   */
  readonly trustBundleConfigMap: string;
  readonly files: { readonly pullSecretFile: string; readonly sshPublicKeyFile?: string; readonly additionalTrustBundleFile?: string };
  /** The ExternalDNS zone the Routes are named in, when this cluster uses ExternalDNS. */
  readonly externalDnsDomain?: string;
  /** Which roles the identities get (`hostedCluster.roles`, resolved). */
  readonly roleSet: RoleSet;
  /** Role assignments of the cluster's identities, by topology, each list deduplicated (same name = same assignment). */
  readonly roleAssignments: HostedRoleAssignmentNames;
  /** Public, or private endpoint access over Private Link with its NAT subnet. */
  readonly endpointAccess: EndpointAccessNames;
  /** The NodePool objects, in config order: a pool with availabilityZones gives one per zone. */
  readonly nodePools: readonly NodePoolNames[];
  /** The etcd encryption key (`kms`); undefined for AES-CBC. */
  readonly kms?: KmsNames;
}

/** A resource the config brings by ARM ID: nothing to create, names come from the ID. */
function existingResource(id: string, origin: string): NetworkResourceNames {
  const parsed = parseArmId(id);
  return { name: parsed.name, id, resourceGroup: parsed.resourceGroup, create: false, origin };
}

/** Phase 3 names of one hosted cluster: groups, network, DNS zones, secrets and role assignments. */
export function hostedClusterNames(
  config: Config,
  configDir: string,
  cluster: ClusterConfig,
  hosted: HostedClusterConfig,
  index: number,
  identities: readonly IdentityNames[],
  deploymentZone: string | undefined,
  persistentGroup: { readonly name: string; readonly id: string },
): HostedClusterNames {
  const at = `clusters[${index}].hostedCluster`;
  const name = cluster.name;
  const sub = config.subscriptionId;
  const infraId = hosted.infraId ?? defaultInfraId(config, name);
  const network = hosted.network;
  const existing = network.existing ?? {};

  const group = (key: "managed" | "vnet" | "nsg", fallback: string, create: boolean): ResourceGroupNames => {
    const groupName = network.resourceGroups[key] ?? fallback;
    return {
      name: groupName,
      id: rgId(sub, groupName),
      create,
      origin: network.resourceGroups[key] ? `${at}.network.resourceGroups.${key}` : baseOrigin,
    };
  };
  // Seed 004 names Phase 3's groups and network after its PREFIX; we after the cluster, unless adopted.
  const base = guideNamePrefix(config, cluster) ?? name;
  const baseOrigin = base === name ? `clusters[${index}].name` : `clusters[${index}].adopt.guidePrefix`;
  const managed = group("managed", `${base}-managed-rg`, true);
  const ownGroup = (key: "vnet" | "nsg", existingId: string | undefined, fallback: string): ResourceGroupNames => {
    if (existingId) {
      const parsed = parseArmId(existingId);
      return { name: parsed.resourceGroup, id: rgId(parsed.subscription, parsed.resourceGroup), create: false, origin: `${at}.network.existing.${key}Id` };
    }
    return network.singleResourceGroup ? { ...managed, create: false } : group(key, fallback, true);
  };
  const vnetGroup = ownGroup("vnet", existing.vnetId, `${base}-customer-vnet-rg`);
  const nsgGroup = ownGroup("nsg", existing.nsgId, `${base}-customer-nsg-rg`);

  const resource = (
    existingId: string | undefined,
    configured: string | undefined,
    fallback: string,
    rg: ResourceGroupNames,
    type: string,
    key: string,
  ): NetworkResourceNames =>
    existingId
      ? existingResource(existingId, `${at}.network.existing.${key}Id`)
      : {
          name: configured ?? fallback,
          id: `${rg.id}/providers/${type}/${configured ?? fallback}`,
          resourceGroup: rg.name,
          create: true,
          origin: configured ? `${at}.network.${key}Name` : baseOrigin,
        };
  const vnet = resource(existing.vnetId, network.vnetName, `${base}-customer-vnet`, vnetGroup, "Microsoft.Network/virtualNetworks", "vnet");
  const subnetName = network.subnetName ?? `${base}-customer-subnet-1`;
  const subnet: NetworkResourceNames = existing.subnetId
    ? existingResource(existing.subnetId, `${at}.network.existing.subnetId`)
    : {
        name: subnetName,
        id: `${vnet.id}/subnets/${subnetName}`,
        resourceGroup: vnet.resourceGroup,
        create: true,
        origin: network.subnetName ? `${at}.network.subnetName` : baseOrigin,
      };
  const nsg = resource(existing.nsgId, network.nsgName, `${base}-customer-nsg`, nsgGroup, "Microsoft.Network/networkSecurityGroups", "nsg");

  // The baseDomain zone: given; or this deployment's own zone (persistent group); or its parent.
  const parent = config.dns?.parent;
  const known =
    deploymentZone === hosted.baseDomain
      ? { group: persistentGroup.name, subscription: sub }
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

  const privateZoneId = `${managed.id}/providers/Microsoft.Network/privateDnsZones/${privateZoneName}`;
  const scopes: Record<RoleScope, string> = {
    managed: managed.id,
    vnet: vnetGroup.id,
    nsg: nsgGroup.id,
    dnsZone: publicZone.resourceGroupId,
    subnet: subnet.id,
    virtualNetwork: vnet.id,
    securityGroup: nsg.id,
    publicZone: publicZone.id,
    privateZone: privateZoneId,
  };
  // Adopted infrastructure keeps the roles the CLI granted (those are the assignments imported).
  const roleSet: RoleSet = hosted.roles ?? (cluster.adopt?.infrastructure ? "hypershiftDefaults" : "leastPrivilege");
  const COMPONENT_ROLES = componentRoles(roleSet, { privateLink: hosted.endpointAccess !== "Public" && config.topology !== "aroHcp" });
  // aroHcp (HyperShift's AssignControlPlaneRoles / AssignDataPlaneRoles): the control-plane table
  // with the control-plane operator always, and the data-plane identities on the managed group.
  const aroHcp = config.topology === "aroHcp";
  const identityKeys = identities.map((identity) => identity.key);
  // Disabled ImageRegistry: no Image Registry role, as `create infra azure --disable-cluster-capabilities
  // ImageRegistry` (cmd/infra/azure/rbac.go). The identity stays: the CRD requires its client ID.
  const registryDisabled = hosted.capabilities?.disabled?.includes("ImageRegistry") ?? false;
  const withRole = (key: WorkloadIdentityKey) => !(registryDisabled && key === "imageRegistry");

  const useExternalDns = hosted.externalDns ?? config.externalDns !== undefined;
  return {
    config: hosted,
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
      id: privateZoneId,
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
    trustBundleConfigMap: `${name}-user-ca-bundle`,
    files: {
      pullSecretFile: path.resolve(configDir, hosted.pullSecretFile),
      sshPublicKeyFile: hosted.sshPublicKeyFile && path.resolve(configDir, hosted.sshPublicKeyFile),
      additionalTrustBundleFile: hosted.additionalTrustBundleFile && path.resolve(configDir, hosted.additionalTrustBundleFile),
    },
    externalDnsDomain: useExternalDns ? deploymentZone : undefined,
    endpointAccess: endpointAccessNames(hosted, at, infraId),
    nodePools: nodePoolNames(hosted.nodePools, at),
    kms:
      hosted.kms &&
      kmsNames(hosted.kms, at, { name, origin: `clusters[${index}].name` }, persistentGroup, stableSuffix(sub, persistentGroup.id, config.prefix, name)),
    roleSet,
    roleAssignments: aroHcp
      ? {
          kind: "aroHcp",
          dataPlaneIdentities: roleAssignmentNames(infraId, scopes, identityKeys, DATA_PLANE_ROLES),
          controlPlanePrincipals: roleAssignmentNames(infraId, scopes, CONTROL_PLANE_COMPONENTS.map((c) => c.key).filter(withRole), COMPONENT_ROLES),
        }
      : { kind: "selfManaged", workloadIdentities: roleAssignmentNames(infraId, scopes, identityKeys.filter(withRole), COMPONENT_ROLES) },
  };
}
