import { Config } from "../schema";
import type { AdoptionBasis, ClusterStackImports, IdentitiesStackImports, InfraStackImports, SharedStackImports } from "./adoption-types";
import { GUIDE_IDENTITIES } from "./guide";
import { delegationRecordName, dnsZoneId, OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH, rgId } from "./naming";
import { managedIdentitiesOf } from "./topology";
import type { ClusterNames } from "./types";

/**
 * The import IDs of what seed 004's commands made, stack by stack (config/names/adoption.ts has
 * the shapes): derived from the same names the stacks create them with.
 */

const roleAssignmentId = (scope: string, name: string) => `${scope}/providers/Microsoft.Authorization/roleAssignments/${name}`;

/** Phase 1 in the shared stack (config `adopt`). Long because it lists every object the guide's Phase 1 made, one entry each. */
export function sharedImports(config: Config, basis: AdoptionBasis): SharedStackImports {
  const { resourceGroup, storageAccount, dns } = basis;
  const ccoctl = "ccoctl azure create-oidc-issuer";
  const container = basis.sharedContainer;
  const principal = config.adopt?.externalDns;
  const zoneScope = dns && dnsZoneId(resourceGroup.id, dns.zoneName);
  const record = dns?.parent && delegationRecordName(dns.zoneName, dns.parent.zoneName);
  return {
    kind: "shared",
    persistentResourceGroup: config.resourceGroup.create
      ? { type: "azurerm_resource_group", id: resourceGroup.id, madeBy: "az group create (Phase 1 step 1)" }
      : undefined,
    oidcStorageAccount: { type: "azurerm_storage_account", id: storageAccount.id, madeBy: ccoctl },
    oidcIssuer: container
      ? {
          container: { type: "azurerm_storage_container", id: `${storageAccount.id}/blobServices/default/containers/${container}`, madeBy: ccoctl },
          documents: [OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH].map((name) => ({
            name,
            resource: { type: "azurerm_storage_blob", id: `${storageAccount.blobEndpoint}/${container}/${name}`, madeBy: ccoctl },
          })),
        }
      : undefined,
    dnsZone: dns && {
      zone: {
        type: "azurerm_dns_zone",
        id: `${resourceGroup.id}/providers/Microsoft.Network/dnsZones/${dns.zoneName}`,
        madeBy: "az network dns zone create (Phase 1 step 5)",
      },
      delegation:
        dns.parent && record
          ? {
              type: "azurerm_dns_ns_record",
              id: `${rgId(dns.parent.subscriptionId, dns.parent.resourceGroupName)}/providers/Microsoft.Network/dnsZones/${dns.parent.zoneName}/NS/${record}`,
              madeBy: "az network dns record-set ns add-record (Phase 1 step 5)",
            }
          : undefined,
    },
    externalDns:
      zoneScope && principal && config.externalDns
        ? {
            application: {
              type: "azuread_application",
              id: `/applications/${principal.applicationObjectId}`,
              madeBy: "az ad sp create-for-rbac (Phase 1 step 6)",
            },
            servicePrincipal: {
              type: "azuread_service_principal",
              id: `/servicePrincipals/${principal.servicePrincipalObjectId}`,
              madeBy: "az ad sp create-for-rbac (Phase 1 step 6)",
            },
            roleAssignments: (["Reader", "Contributor"] as const).map((role) => {
              const name = principal.roleAssignments[role === "Reader" ? "reader" : "contributor"];
              return {
                name,
                resource: {
                  type: "azurerm_role_assignment",
                  id: roleAssignmentId(zoneScope, name),
                  madeBy: `az role assignment create --role "${role}" (Phase 1 step 6)`,
                },
              };
            }),
          }
        : undefined,
  };
}

/** The guide's identities and federated credentials (Phase 1 steps 1 and 4). */
export function identitiesImports(cluster: ClusterNames): IdentitiesStackImports {
  return {
    kind: "identities",
    identities: managedIdentitiesOf(cluster.identities)
      .filter((identity) => GUIDE_IDENTITIES.has(identity.key))
      .map((identity) => ({
        key: identity.key,
        identity: { type: "azurerm_user_assigned_identity", id: identity.id, madeBy: "az identity create (Phase 1 step 1)" },
        federatedCredentials: identity.credentials.map((credential) => ({
          name: credential.name,
          resource: {
            type: "azurerm_federated_identity_credential",
            id: `${identity.id}/federatedIdentityCredentials/${credential.name}`,
            madeBy: "az identity federated-credential create (Phase 1 step 4)",
          },
        })),
      })),
  };
}

/**
 * Phase 3: the groups and network of `az group create` / `az network nsg|vnet create`, and what
 * `hypershift create cluster azure` made through its inline create infra (private zone and link,
 * egress public IP and load balancer) and `--assign-service-principal-roles` (HyperShift's UUIDv5
 * role assignment names, derived in role-assignments.ts).
 */
export function infraImports(cluster: ClusterNames, persistentGroup: string): InfraStackImports | undefined {
  const hosted = cluster.hosted;
  if (!hosted) return undefined;
  const groups = hosted.resourceGroups;
  const createGroup = (key: "managed" | "vnet" | "nsg") =>
    groups[key].create ? { type: "azurerm_resource_group", id: groups[key].id, madeBy: "az group create (Phase 3 step 1)" } : undefined;
  const vnet = hosted.vnet.create;
  const createCluster = "hypershift create cluster azure (Phase 3 step 2)";
  const managed = groups.managed.id;
  const name = hosted.loadBalancer.name;
  const lb = `${managed}/providers/Microsoft.Network/loadBalancers/${name}`;
  return {
    kind: "infra",
    resourceGroups: { managed: createGroup("managed"), vnet: createGroup("vnet"), nsg: createGroup("nsg") },
    network: {
      securityGroup: hosted.nsg.create
        ? { type: "azurerm_network_security_group", id: hosted.nsg.id, madeBy: "az network nsg create (Phase 3 step 1)" }
        : undefined,
      virtualNetwork: vnet ? { type: "azurerm_virtual_network", id: hosted.vnet.id, madeBy: "az network vnet create (Phase 3 step 1)" } : undefined,
      subnet: vnet ? { type: "azurerm_subnet", id: hosted.subnet.id, madeBy: "az network vnet create --subnet-name (Phase 3 step 1)" } : undefined,
      subnetSecurityGroup: vnet
        ? { type: "azurerm_subnet_network_security_group_association", id: hosted.subnet.id, madeBy: "az network vnet create --nsg (Phase 3 step 1)" }
        : undefined,
    },
    privateDnsZone: {
      zone: { type: "azurerm_private_dns_zone", id: hosted.privateZone.id, madeBy: createCluster },
      vnetLink: {
        type: "azurerm_private_dns_zone_virtual_network_link",
        id: `${hosted.privateZone.id}/virtualNetworkLinks/${hosted.privateZone.linkName}`,
        madeBy: createCluster,
      },
    },
    egressLoadBalancer: {
      publicIp: { type: "azurerm_public_ip", id: `${managed}/providers/Microsoft.Network/publicIPAddresses/${name}`, madeBy: createCluster },
      loadBalancer: { type: "azurerm_lb", id: lb, madeBy: createCluster },
      backendAddressPool: { type: "azurerm_lb_backend_address_pool", id: `${lb}/backendAddressPools/${name}`, madeBy: createCluster },
      probe: { type: "azurerm_lb_probe", id: `${lb}/probes/${name}`, madeBy: createCluster },
      outboundRule: { type: "azurerm_lb_outbound_rule", id: `${lb}/outboundRules/${name}`, madeBy: createCluster },
    },
    roleAssignments: hypershiftRoleAssignments(cluster, persistentGroup),
  };
}

/** HyperShift's `--assign-service-principal-roles` assignments of the guide's identities. */
function hypershiftRoleAssignments(cluster: ClusterNames, persistentGroup: string): InfraStackImports["roleAssignments"] {
  const hosted = cluster.hosted;
  if (!hosted || hosted.roleAssignments.kind !== "selfManaged") return [];
  // The guide's --dns-zone-rg-name is the persistent group: the ingress role on the base
  // domain's group is HyperShift's only when that is the same group (help/adopt.md).
  const dnsZoneScopeIsGuides = hosted.publicZone.resourceGroupName.toLowerCase() === persistentGroup.toLowerCase();
  return hosted.roleAssignments.workloadIdentities
    .filter((assignment) => GUIDE_IDENTITIES.has(assignment.identity) && (assignment.scopeKind !== "dnsZone" || dnsZoneScopeIsGuides))
    .map((assignment) => ({
      identity: assignment.identity,
      scopeKind: assignment.scopeKind,
      grant: assignment.grant,
      resource: {
        type: "azurerm_role_assignment",
        id: roleAssignmentId(assignment.scope, assignment.name),
        madeBy: "hypershift create cluster azure --assign-service-principal-roles (Phase 3 step 2)",
      },
    }));
}

/**
 * Phase 3 step 2's Kubernetes objects, as the HyperShift CLI named them (release-4.21 and main
 * alike): the HostedCluster `<name>`; its one NodePool, also `<name>` (cmd/cluster/core/create.go
 * `defaultNodePool`, called with no suffix without --availability-zones), imported only into a
 * configured pool of that name; and the Secrets `<name>-pull-secret`, `<name>-ssh-key`
 * (`--generate-ssh`) and `<name>-etcd-encryption-key` (cmd/cluster/core/create.go),
 * `<name>-cloud-credentials` and `<name>sa-token-issuer-key` (cmd/cluster/azure/create.go
 * `GenerateResources`, manifests.go), all in `--namespace`. These are the names hosted-cluster.ts
 * gives the stack's own objects. Import IDs: the kubernetes provider's `kubernetes_manifest`
 * (`apiVersion=...,kind=...,namespace=...,name=...`, util.ParseResourceID) and
 * `kubernetes_secret_v1` (`<namespace>/<name>`).
 */
export function clusterImports(cluster: ClusterNames): ClusterStackImports | undefined {
  const hosted = cluster.hosted;
  if (!hosted) return undefined;
  const { namespace, secrets } = hosted;
  const madeBy = "hypershift create cluster azure (Phase 3 step 2)";
  const manifest = (kind: string, name: string) => ({
    type: "kubernetes_manifest",
    id: `apiVersion=${HYPERSHIFT_API_VERSION},kind=${kind},namespace=${namespace},name=${name}`,
    madeBy,
  });
  const secret = (name: string) => ({ type: "kubernetes_secret_v1", id: `${namespace}/${name}`, madeBy });
  return {
    kind: "cluster",
    hostedCluster: manifest("HostedCluster", cluster.name),
    nodePools: hosted.nodePools
      .filter((pool) => pool.config.name === cluster.name)
      .map((pool) => ({ name: pool.config.name, resource: manifest("NodePool", pool.config.name) })),
    secrets: {
      pullSecret: secret(secrets.pullSecret),
      sshKey: secret(secrets.sshKey),
      signingKey: secret(secrets.signingKey),
      etcdEncryptionKey: secret(secrets.etcdEncryptionKey),
      cloudCredentials: secret(secrets.cloudCredentials),
    },
  };
}

/** The HostedCluster and NodePool API version. */
const HYPERSHIFT_API_VERSION = "hypershift.openshift.io/v1beta1";
