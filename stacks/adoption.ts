import { TerraformStack } from "cdktf";
import { IConstruct } from "constructs";
import type { ClusterStackImports, InfraStackImports, SharedStackImports, StackImports } from "../config/names";
import { ImportTarget } from "../constructs/adoption/import-existing";
import {
  externalDnsPrincipalImportTargets,
  hostedClusterImportTargets,
  oidcIssuerImportTargets,
  oidcStorageAccountImportTargets,
  workloadIdentityRolesImportTargets,
} from "../constructs/adoption/import-targets";
import { ClusterNetwork } from "../constructs/cluster-infra/network";
import { EgressLoadBalancer } from "../constructs/cluster-infra/egress-load-balancer";
import { HostedCluster } from "../constructs/hosted-cluster/hosted-cluster";
import { HostedClusterSecrets } from "../constructs/hosted-cluster/hosted-cluster-secrets";
import { PrivateDnsZone } from "../constructs/cluster-infra/private-dns-zone";
import { ClusterResourceGroups } from "../constructs/cluster-infra/resource-groups";
import { WorkloadIdentityRoles } from "../constructs/cluster-infra/workload-identity-roles";
import { DelegatedDnsZone } from "../constructs/dns/delegated-dns-zone";
import { ExternalDnsPrincipal } from "../constructs/external-dns/external-dns-principal";
import { OidcIssuer } from "../constructs/oidc/oidc-issuer";
import { OidcStorageAccount } from "../constructs/oidc/oidc-storage-account";
import { PersistentResourceGroup } from "../constructs/resource-group/persistent-resource-group";
import { WorkloadIdentities } from "../constructs/workload-identities/workload-identities";

/**
 * Adoption's join (help/adopt.md): the import IDs config/names derives for a stack (what each
 * existing object is) go to the constructs that hold the resources taking them over, and each
 * construct says where those are in its own tree. Every construct is found by its class, so no
 * construct ID or path is written here or in config/.
 */
export function stackImportTargets(stack: TerraformStack, imports: StackImports): ImportTarget[] {
  switch (imports.kind) {
    case "shared":
      return sharedTargets(stack, imports);
    case "identities":
      return only(stack, WorkloadIdentities).importTargets(imports.identities);
    case "infra":
      return infraTargets(stack, imports);
    case "cluster":
      return clusterTargets(stack, imports);
  }
}

function sharedTargets(stack: TerraformStack, imports: SharedStackImports): ImportTarget[] {
  const { persistentResourceGroup, oidcIssuer, dnsZone, externalDns } = imports;
  return [
    ...(persistentResourceGroup ? only(stack, PersistentResourceGroup).importTargets({ group: persistentResourceGroup }) : []),
    ...oidcStorageAccountImportTargets(only(stack, OidcStorageAccount), { account: imports.oidcStorageAccount }),
    ...(oidcIssuer ? oidcIssuerImportTargets(only(stack, OidcIssuer), oidcIssuer) : []),
    ...(dnsZone ? only(stack, DelegatedDnsZone).importTargets(dnsZone) : []),
    ...(externalDns ? externalDnsPrincipalImportTargets(only(stack, ExternalDnsPrincipal), externalDns) : []),
  ];
}

function infraTargets(stack: TerraformStack, imports: InfraStackImports): ImportTarget[] {
  return [
    ...only(stack, ClusterResourceGroups).importTargets(imports.resourceGroups),
    ...only(stack, ClusterNetwork).importTargets(imports.network),
    ...only(stack, PrivateDnsZone).importTargets(imports.privateDnsZone),
    ...only(stack, EgressLoadBalancer).importTargets(imports.egressLoadBalancer),
    ...workloadIdentityRolesImportTargets(only(stack, WorkloadIdentityRoles), imports.roleAssignments),
  ];
}

/** What `hypershift create cluster azure` applied: the Secrets, the HostedCluster and its NodePool. */
function clusterTargets(stack: TerraformStack, imports: ClusterStackImports): ImportTarget[] {
  return [
    ...only(stack, HostedClusterSecrets).importTargets(imports.secrets),
    ...hostedClusterImportTargets(only(stack, HostedCluster), { hostedCluster: imports.hostedCluster, nodePools: imports.nodePools }),
  ];
}

/** The one construct of `type` in the stack: adoption targets a resource only where it is unambiguous. */
function only<T extends IConstruct>(stack: TerraformStack, type: abstract new (...args: never[]) => T): T {
  const found = stack.node.findAll().filter((construct): construct is T => construct instanceof type);
  if (found.length !== 1) throw new Error(`internal: adoption needs exactly one ${type.name} in stack ${stack.node.id}, found ${found.length}`);
  return found[0];
}
