import { BUILT_IN_ROLES } from "../azure-roles";
import { WORKLOAD_IDENTITY_COMPONENTS, WorkloadIdentityKey } from "../components";
import { Config } from "../schema";
import type { ClusterNames } from "./cluster";
import type { DnsNames } from "./deployment";
import { delegationRecordName, dnsZoneId, OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH, rgId } from "./naming";
import { managedIdentitiesOf } from "./topology";

/**
 * Adoption (config `adopt`, `clusters[].adopt`): the Terraform import ID of every resource seed
 * 004's commands made, by the stack and construct path that manage it here (help/adopt.md). Import
 * ID formats are the providers' documented ones (azurerm 4.x, azuread 3.x "Import" sections).
 */

/** One resource to import: where it is in a stack, and which existing object it takes over. */
export interface AdoptedResource {
  /** Construct path inside its stack, e.g. `WorkloadIdentities/disk/Identity`. */
  readonly path: string;
  /** The Terraform resource type that path must hold. */
  readonly type: string;
  /** Import ID, in the provider's documented format. */
  readonly id: string;
  /** The guide's command that made it (help/adopt.md's table). */
  readonly madeBy: string;
}

export interface AdoptionNames {
  /** Resources to import, by stack name; a stack without adoption has no entry. */
  readonly imports: ReadonlyMap<string, readonly AdoptedResource[]>;
  /**
   * ccoctl's issuer is adopted: its storage account keeps the settings that would force a
   * replacement (infrastructure encryption off), and its documents are kept until their content changes.
   */
  readonly ccoctlIssuer: boolean;
  /** The adopted ExternalDNS principal's role assignments, as `az role assignment create` made them. */
  readonly externalDns?: {
    /** Their names (az's random GUIDs), by role definition GUID. */
    readonly roleAssignmentNames: Readonly<Record<string, string>>;
    /**
     * Their scope, exactly as az passed it: the zone ID `az network dns zone show` printed, with
     * ARM's lowercase `dnszones`. azurerm keeps a resource scope as ARM returns it and a
     * different one forces a replacement, so the zone resource's own ID (`dnsZones`) will not do.
     */
    readonly zoneScope: string;
  };
}

/** Seed 004's PERSISTENT_RG_NAME. */
export const GUIDE_RESOURCE_GROUP = "os4-common";

/** The display name `az ad sp create-for-rbac --name` got in seed 004 (EXTERNAL_DNS_NEW_SP_NAME). */
export const GUIDE_EXTERNAL_DNS_APPLICATION = "ExternalDnsServicePrincipal";

/**
 * The identities seed 004 Phase 1 step 1 creates: the components every cluster has (HyperShift's
 * create iam adds the control-plane operator's; KMS is opt-in).
 */
const GUIDE_IDENTITIES: ReadonlySet<WorkloadIdentityKey> = new Set(WORKLOAD_IDENTITY_COMPONENTS.filter((c) => !c.optional).map((c) => c.key));

const roleAssignmentId = (scope: string, name: string) => `${scope}/providers/Microsoft.Authorization/roleAssignments/${name}`;

/** Phase 3 names use the guide's PREFIX (not the cluster name) when the cluster's infrastructure is adopted. */
export function guideNamePrefix(config: Config, cluster: Config["clusters"][number]): string | undefined {
  return cluster.adopt?.infrastructure ? (cluster.adopt.guidePrefix ?? config.prefix) : undefined;
}

export interface AdoptionBasis {
  readonly resourceGroup: { readonly name: string; readonly id: string };
  readonly storageAccount: { readonly name: string; readonly id: string; readonly blobEndpoint: string };
  readonly sharedContainer?: string;
  readonly sharedStack: string;
  readonly dns?: DnsNames;
  readonly clusters: readonly ClusterNames[];
}

/** Every import of the deployment: the shared stack's (config `adopt`) and each adopted cluster's. */
export function adoptionNames(config: Config, basis: AdoptionBasis): AdoptionNames {
  const imports = new Map<string, AdoptedResource[]>();
  const adopt = config.adopt;
  let externalDns: AdoptionNames["externalDns"];
  if (adopt) {
    imports.set(basis.sharedStack, sharedImports(config, basis));
    if (adopt.externalDns && basis.dns) {
      externalDns = {
        roleAssignmentNames: {
          [BUILT_IN_ROLES.reader.guid]: adopt.externalDns.roleAssignments.reader,
          [BUILT_IN_ROLES.contributor.guid]: adopt.externalDns.roleAssignments.contributor,
        },
        zoneScope: guideZoneScope(basis.resourceGroup.id, basis.dns.zoneName),
      };
    }
  }
  for (const cluster of basis.clusters) {
    const spec = config.clusters[cluster.index];
    if (!spec.adopt || cluster.retired) continue;
    imports.set(cluster.identitiesStack, identityImports(cluster));
    if (spec.adopt.infrastructure && cluster.hosted) imports.set(cluster.hosted.infraStack, infraImports(cluster, basis.resourceGroup.name));
  }
  return { imports, ccoctlIssuer: adopt !== undefined && basis.sharedContainer !== undefined, externalDns };
}

/** The zone ID as `az network dns zone show --query id` prints it (seed 004's EXTRN_DNS_ZONE_ID). */
const guideZoneScope = (resourceGroupId: string, zone: string) => dnsZoneId(resourceGroupId, zone);

function sharedImports(config: Config, basis: AdoptionBasis): AdoptedResource[] {
  const { resourceGroup, storageAccount, dns } = basis;
  const result: AdoptedResource[] = [];
  if (config.resourceGroup.create) {
    result.push({ path: "PersistentResourceGroup/Resource", type: "azurerm_resource_group", id: resourceGroup.id, madeBy: "az group create (Phase 1 step 1)" });
  }
  result.push({ path: "OidcStorage/Resource", type: "azurerm_storage_account", id: storageAccount.id, madeBy: "ccoctl azure create-oidc-issuer" });
  const container = basis.sharedContainer;
  if (container) {
    result.push(
      {
        path: "OidcIssuer/Container",
        type: "azurerm_storage_container",
        id: `${storageAccount.id}/blobServices/default/containers/${container}`,
        madeBy: "ccoctl azure create-oidc-issuer",
      },
      {
        path: "OidcIssuer/DiscoveryDocument",
        type: "azurerm_storage_blob",
        id: `${storageAccount.blobEndpoint}/${container}/${OIDC_DISCOVERY_PATH}`,
        madeBy: "ccoctl azure create-oidc-issuer",
      },
      {
        path: "OidcIssuer/Jwks",
        type: "azurerm_storage_blob",
        id: `${storageAccount.blobEndpoint}/${container}/${OIDC_JWKS_PATH}`,
        madeBy: "ccoctl azure create-oidc-issuer",
      },
    );
  }
  if (dns) {
    const zoneId = `${resourceGroup.id}/providers/Microsoft.Network/dnsZones/${dns.zoneName}`;
    result.push({ path: "DnsZone/Zone", type: "azurerm_dns_zone", id: zoneId, madeBy: "az network dns zone create (Phase 1 step 5)" });
    const parent = dns.parent;
    const record = parent && delegationRecordName(dns.zoneName, parent.zoneName);
    if (parent && record) {
      result.push({
        path: "DnsZone/Delegation",
        type: "azurerm_dns_ns_record",
        id: `${rgId(parent.subscriptionId, parent.resourceGroupName)}/providers/Microsoft.Network/dnsZones/${parent.zoneName}/NS/${record}`,
        madeBy: "az network dns record-set ns add-record (Phase 1 step 5)",
      });
    }
    const principal = config.adopt?.externalDns;
    if (principal && config.externalDns) {
      result.push(
        {
          path: "ExternalDns/Application",
          type: "azuread_application",
          id: `/applications/${principal.applicationObjectId}`,
          madeBy: "az ad sp create-for-rbac (Phase 1 step 6)",
        },
        {
          path: "ExternalDns/ServicePrincipal",
          type: "azuread_service_principal",
          id: `/servicePrincipals/${principal.servicePrincipalObjectId}`,
          madeBy: "az ad sp create-for-rbac (Phase 1 step 6)",
        },
        {
          path: "ExternalDns/Reader-Zone",
          type: "azurerm_role_assignment",
          id: roleAssignmentId(guideZoneScope(resourceGroup.id, dns.zoneName), principal.roleAssignments.reader),
          madeBy: 'az role assignment create --role "Reader" (Phase 1 step 6)',
        },
        {
          path: "ExternalDns/Contributor-Zone",
          type: "azurerm_role_assignment",
          id: roleAssignmentId(guideZoneScope(resourceGroup.id, dns.zoneName), principal.roleAssignments.contributor),
          madeBy: 'az role assignment create --role "Contributor" (Phase 1 step 6)',
        },
      );
    }
  }
  return result;
}

/** The guide's identities and federated credentials (Phase 1 steps 1 and 4), at the WorkloadIdentities construct's paths. */
function identityImports(cluster: ClusterNames): AdoptedResource[] {
  return managedIdentitiesOf(cluster.identities)
    .filter((identity) => GUIDE_IDENTITIES.has(identity.key))
    .flatMap((identity) => [
      {
        path: `WorkloadIdentities/${identity.key}/Identity`,
        type: "azurerm_user_assigned_identity",
        id: identity.id,
        madeBy: "az identity create (Phase 1 step 1)",
      },
      ...identity.credentials.map((credential) => ({
        // The construct ID drops the identity name: `fed-id` or `fed-id-<suffix>`.
        path: `WorkloadIdentities/${identity.key}/${credential.name.slice(identity.name.length + 1)}`,
        type: "azurerm_federated_identity_credential",
        id: `${identity.id}/federatedIdentityCredentials/${credential.name}`,
        madeBy: "az identity federated-credential create (Phase 1 step 4)",
      })),
    ]);
}

/**
 * Phase 3: the groups and network of `az group create` / `az network nsg|vnet create`, and what
 * `hypershift create cluster azure` made through its inline create infra (private zone and link,
 * egress public IP and load balancer) and `--assign-service-principal-roles` (HyperShift's UUIDv5
 * role assignment names, derived in role-assignments.ts).
 */
function infraImports(cluster: ClusterNames, persistentGroup: string): AdoptedResource[] {
  const hosted = cluster.hosted;
  if (!hosted) return [];
  const result: AdoptedResource[] = [];
  const groups = hosted.resourceGroups;
  for (const key of ["managed", "vnet", "nsg"] as const) {
    if (groups[key].create)
      result.push({ path: `ResourceGroups/${key}`, type: "azurerm_resource_group", id: groups[key].id, madeBy: "az group create (Phase 3 step 1)" });
  }
  if (hosted.nsg.create) {
    result.push({ path: "Network/SecurityGroup", type: "azurerm_network_security_group", id: hosted.nsg.id, madeBy: "az network nsg create (Phase 3 step 1)" });
  }
  if (hosted.vnet.create) {
    result.push(
      { path: "Network/VirtualNetwork", type: "azurerm_virtual_network", id: hosted.vnet.id, madeBy: "az network vnet create (Phase 3 step 1)" },
      { path: "Network/Subnet", type: "azurerm_subnet", id: hosted.subnet.id, madeBy: "az network vnet create --subnet-name (Phase 3 step 1)" },
      {
        path: "Network/SubnetSecurityGroup",
        type: "azurerm_subnet_network_security_group_association",
        id: hosted.subnet.id,
        madeBy: "az network vnet create --nsg (Phase 3 step 1)",
      },
    );
  }
  const createCluster = "hypershift create cluster azure (Phase 3 step 2)";
  result.push(
    { path: "PrivateDnsZone/Zone", type: "azurerm_private_dns_zone", id: hosted.privateZone.id, madeBy: createCluster },
    {
      path: "PrivateDnsZone/VnetLink",
      type: "azurerm_private_dns_zone_virtual_network_link",
      id: `${hosted.privateZone.id}/virtualNetworkLinks/${hosted.privateZone.linkName}`,
      madeBy: createCluster,
    },
  );
  const managed = groups.managed.id;
  const lb = `${managed}/providers/Microsoft.Network/loadBalancers/${hosted.loadBalancer.name}`;
  const name = hosted.loadBalancer.name;
  result.push(
    {
      path: "EgressLoadBalancer/PublicIp",
      type: "azurerm_public_ip",
      id: `${managed}/providers/Microsoft.Network/publicIPAddresses/${name}`,
      madeBy: createCluster,
    },
    { path: "EgressLoadBalancer/LoadBalancer", type: "azurerm_lb", id: lb, madeBy: createCluster },
    { path: "EgressLoadBalancer/BackendPool", type: "azurerm_lb_backend_address_pool", id: `${lb}/backendAddressPools/${name}`, madeBy: createCluster },
    { path: "EgressLoadBalancer/HealthProbe", type: "azurerm_lb_probe", id: `${lb}/probes/${name}`, madeBy: createCluster },
    { path: "EgressLoadBalancer/OutboundRule", type: "azurerm_lb_outbound_rule", id: `${lb}/outboundRules/${name}`, madeBy: createCluster },
  );
  if (hosted.roleAssignments.kind === "selfManaged") {
    // The guide's --dns-zone-rg-name is the persistent group: the ingress role on the base
    // domain's group is HyperShift's only when that is the same group (help/adopt.md).
    const dnsZoneScopeIsGuides = hosted.publicZone.resourceGroupName.toLowerCase() === persistentGroup.toLowerCase();
    for (const assignment of hosted.roleAssignments.workloadIdentities) {
      if (!GUIDE_IDENTITIES.has(assignment.identity)) continue;
      if (assignment.scopeKind === "dnsZone" && !dnsZoneScopeIsGuides) continue;
      result.push({
        path: `WorkloadIdentityRoles/${assignment.identity}/${assignment.scopeKind}`,
        type: "azurerm_role_assignment",
        id: roleAssignmentId(assignment.scope, assignment.name),
        madeBy: "hypershift create cluster azure --assign-service-principal-roles (Phase 3 step 2)",
      });
    }
  }
  return result;
}
