/**
 * Every name this project gives to a stack, an Azure resource, a URL or a file, derived from the
 * validated config in this one folder (deployment.ts is the entry point), by concern: stack names,
 * naming helpers, path resolution, state location, role-assignment names, per-cluster and
 * hosted-cluster names, and the ARO HCP-style topology's names.
 */
export { GUIDE_EXTERNAL_DNS_APPLICATION } from "./guide";
export { adoptedClusterObjects } from "./adoption";
export type { AdoptionNames } from "./adoption";
export type {
  AdoptedNamedResource,
  AdoptedResource,
  AdoptedSecretKey,
  ClusterStackImports,
  IdentitiesStackImports,
  InfraStackImports,
  SharedStackImports,
  StackImports,
} from "./adoption-types";
export { AKS_STACK, aksNames, controlPlaneIdentityNames, keyVaultNames } from "./aro-hcp";
export type { AksNames, ControlPlaneIdentityNames, KeyVaultNames } from "./aro-hcp";
export { clusterNames } from "./cluster";
export type { DeploymentBasis } from "./cluster";
export type { ClusterNames, FederatedCredentialName, IdentityNames, IssuerNames } from "./types";
export { deriveNames } from "./deployment";
export { diskEncryptionSetRoles } from "./disk-encryption-sets";
export type { DiskEncryptionSetRole } from "./disk-encryption-sets";
export type { DeploymentNames, ManagementClusterFiles } from "./deployment";
export type { DnsNames } from "./types";
export { hostedClusterNames } from "./hosted-cluster";
export type { HostedClusterNamesParams } from "./hosted-cluster";
export { defaultKmsVaultName, kmsNames } from "./kms";
export type { KmsKeyNames, KmsNames } from "./kms";
export { nodePoolNames } from "./node-pools";
export type { NodePoolNames } from "./node-pools";
export type { HostedClusterNames, NetworkResourceNames, ResourceGroupNames } from "./types";
export {
  dnsZoneId,
  defaultInfraId,
  defaultStorageAccountName,
  delegationRecordName,
  issuerUrl,
  OIDC_DISCOVERY_PATH,
  OIDC_JWKS_PATH,
  parseArmId,
  rgId,
  stableSuffix,
} from "./naming";
export { defaultPrivateKeyFile, keyFiles, userPath } from "./paths";
export { endpointAccessNames, privateLinkOperatorNames } from "./private-link";
export type { EndpointAccessNames, NatSubnetNames, PrivateLinkOperatorNames } from "./private-link";
export { managedIdentityRoleAssignmentsOf, roleAssignmentNames } from "./role-assignments";
export type { HostedRoleAssignmentNames, RoleAssignmentNames } from "./role-assignments";
export { clusterOfStack, clusterStackName, clusterStackNames, identitiesStackName, infraStackName, MANAGEMENT_STACK, SHARED_STACK } from "./stacks";
export { stateLocator } from "./state";
export { controlPlanePrincipalsOf, managedIdentitiesOf, managementAksOf } from "./topology";
export type { ClusterIdentityNames, TopologyNames } from "./types";
