import * as path from "node:path";
import { componentRoles, CONTROL_PLANE_COMPONENTS, DATA_PLANE_ROLES, RoleScope, RoleSet, WorkloadIdentityKey } from "../components";
import { cliPrivateZoneName } from "../hypershift-release";
import { cliReleaseRoleAssignments } from "./adoption-roles";
import { ClusterConfig, Config, HostedClusterConfig } from "../schema";
import { hostedNetworkNames, HostedNetworkNames } from "./hosted-network";
import { kmsNames } from "./kms";
import { defaultInfraId, dnsZoneId, rgId, stableSuffix } from "./naming";
import { nodePoolNames } from "./node-pools";
import { endpointAccessNames } from "./private-link";
import { roleAssignmentNames } from "./role-assignments";
import { clusterStackName, infraStackName } from "./stacks";
import type { HostedClusterNames, IdentityNames } from "./types";

/** What one hosted cluster's names derive from. */
export interface HostedClusterNamesParams {
  readonly config: Config;
  /** Absolute folder of the config file: the cluster's files resolve against it. */
  readonly configDir: string;
  readonly cluster: ClusterConfig;
  /** The cluster's `hostedCluster` block. */
  readonly hosted: HostedClusterConfig;
  /** Index of the cluster in `clusters` (for config paths in error messages). */
  readonly index: number;
  /** The cluster's managed identities (the role assignments are theirs). */
  readonly identities: readonly IdentityNames[];
  /** The deployment's own DNS zone, when dns is configured. */
  readonly deploymentZone?: string;
  /** The deployment's persistent resource group. */
  readonly persistentGroup: { readonly name: string; readonly id: string };
  /** The HyperShift release the user runs (config/hypershift-release.ts); undefined: main. */
  readonly hypershiftRelease?: string;
}

/** Phase 3 names of one hosted cluster: groups, network, DNS zones, secrets and role assignments. */
export function hostedClusterNames(params: HostedClusterNamesParams): HostedClusterNames {
  const { config, configDir, cluster, hosted, index, deploymentZone, persistentGroup } = params;
  const at = `clusters[${index}].hostedCluster`;
  const name = cluster.name;
  const sub = config.subscriptionId;
  const infraId = hosted.infraId ?? defaultInfraId(config, name);
  const network = hostedNetworkNames(config, cluster, hosted, index);
  const publicZone = publicZoneNames(params);
  // Adopted infrastructure: the zone the user's CLI made (its name changed in release-4.23); a zone
  // made here keeps one name whatever the release (the HostedCluster refers to it by ID).
  const privateZoneName = cluster.adopt?.infrastructure
    ? cliPrivateZoneName(params.hypershiftRelease, name, hosted.baseDomain)
    : `${name}.${hosted.baseDomain}`;
  const privateZoneId = `${network.resourceGroups.managed.id}/providers/Microsoft.Network/privateDnsZones/${privateZoneName}`;
  // Adopted infrastructure keeps the roles the CLI granted (those are the assignments imported).
  const roleSet: RoleSet = hosted.roles ?? (cluster.adopt?.infrastructure ? "hypershiftDefaults" : "leastPrivilege");
  const useExternalDns = hosted.externalDns ?? config.externalDns !== undefined;
  return {
    config: hosted,
    infraStack: infraStackName(name),
    clusterStack: clusterStackName(name),
    infraId,
    infraIdOrigin: hosted.infraId ? `${at}.infraId` : `clusters[${index}].name`,
    namespace: hosted.namespace,
    controlPlaneNamespace: `${hosted.namespace}-${name}`.replace(/\./g, "-"),
    ...network,
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
    roleAssignments: roleAssignmentsOf(params, { infraId, roleSet, scopes: roleScopes(network, publicZone, privateZoneId) }),
  };
}

/** The baseDomain zone: given; or this deployment's own zone (persistent group); or its parent. */
function publicZoneNames({ config, hosted, deploymentZone, persistentGroup }: HostedClusterNamesParams): HostedClusterNames["publicZone"] {
  const sub = config.subscriptionId;
  const parent = config.dns?.parent;
  const known =
    deploymentZone === hosted.baseDomain
      ? { group: persistentGroup.name, subscription: sub }
      : parent && parent.zoneName === hosted.baseDomain
        ? { group: parent.resourceGroupName, subscription: parent.subscriptionId ?? sub }
        : undefined;
  const zoneGroup = hosted.publicZone?.resourceGroupName ?? known?.group ?? "";
  const zoneSubscription = hosted.publicZone ? (hosted.publicZone.subscriptionId ?? sub) : (known?.subscription ?? sub);
  return {
    name: hosted.baseDomain,
    resourceGroupName: zoneGroup, // rules/hosted-cluster.ts reports a zone it cannot locate
    resourceGroupId: rgId(zoneSubscription, zoneGroup),
    id: dnsZoneId(rgId(zoneSubscription, zoneGroup), hosted.baseDomain),
  };
}

/** The ARM ID of each scope a role is granted on. */
function roleScopes(network: HostedNetworkNames, publicZone: HostedClusterNames["publicZone"], privateZoneId: string): Record<RoleScope, string> {
  return {
    managed: network.resourceGroups.managed.id,
    vnet: network.resourceGroups.vnet.id,
    nsg: network.resourceGroups.nsg.id,
    dnsZone: publicZone.resourceGroupId,
    subnet: network.subnet.id,
    virtualNetwork: network.vnet.id,
    securityGroup: network.nsg.id,
    publicZone: publicZone.id,
    privateZone: privateZoneId,
  };
}

/** The role assignments of the cluster's identities (selfManaged) or of its data-plane identities and control-plane principals (aroHcp). */
function roleAssignmentsOf(
  { config, cluster, hosted, identities, hypershiftRelease }: HostedClusterNamesParams,
  { infraId, roleSet, scopes }: { readonly infraId: string; readonly roleSet: RoleSet; readonly scopes: Record<RoleScope, string> },
): HostedClusterNames["roleAssignments"] {
  const COMPONENT_ROLES = componentRoles(roleSet, { privateLink: hosted.endpointAccess !== "Public" && config.topology !== "aroHcp" });
  const identityKeys = identities.map((identity) => identity.key);
  // Disabled ImageRegistry: no Image Registry role, as `create infra azure --disable-cluster-capabilities
  // ImageRegistry` (cmd/infra/azure/rbac.go). The identity stays: the CRD requires its client ID.
  const registryDisabled = hosted.capabilities?.disabled?.includes("ImageRegistry") ?? false;
  const withRole = (key: WorkloadIdentityKey) => !(registryDisabled && key === "imageRegistry");
  // aroHcp (HyperShift's AssignControlPlaneRoles / AssignDataPlaneRoles): the control-plane table
  // with the control-plane operator always, and the data-plane identities on the managed group.
  return config.topology === "aroHcp"
    ? {
        kind: "aroHcp",
        dataPlaneIdentities: roleAssignmentNames(infraId, scopes, identityKeys, DATA_PLANE_ROLES),
        controlPlanePrincipals: roleAssignmentNames(infraId, scopes, CONTROL_PLANE_COMPONENTS.map((c) => c.key).filter(withRole), COMPONENT_ROLES),
      }
    : {
        kind: "selfManaged",
        // Adopted: as the user's CLI release granted them (adoption-roles.ts).
        workloadIdentities:
          cluster.adopt?.infrastructure && roleSet === "hypershiftDefaults"
            ? cliReleaseRoleAssignments(hypershiftRelease, infraId, scopes, identityKeys.filter(withRole), COMPONENT_ROLES, identityKeys)
            : roleAssignmentNames(infraId, scopes, identityKeys.filter(withRole), COMPONENT_ROLES),
      };
}
