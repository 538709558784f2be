/**
 * Azure role definitions this project assigns: the one table of role GUIDs (every other file
 * refers to these entries, never to a GUID). GUIDs are the same in every tenant.
 *
 * Sources: standard roles, Microsoft Learn built-in roles (shared/reference/notes/azure-rules.md
 * §3b); Azure Red Hat OpenShift roles, azure-rules.md §3a and Azure/ARO-HCP
 * `cluster-service/deploy/values.yaml` (`azureOperatorsMI`, the role of each operator identity).
 * `actions` are what a role allows on the control plane, for the least-privilege check
 * (`__tests__/config/roles.test.ts`): the standard roles' from Microsoft Learn, the ARO roles' from
 * ARO-HCP's development copies of them (`dev-infrastructure/configurations/dev-operator-roles.tmpl.bicepparam`,
 * same names with " - Dev"); a role without `actions` is not compared.
 */
export interface RoleDefinition {
  readonly name: string;
  readonly guid: string;
  /** Control-plane actions the role allows (`*` matches anything). */
  readonly actions?: readonly string[];
}

const ARO_NETWORK_READ = ["Microsoft.Network/virtualNetworks/subnets/read", "Microsoft.Network/virtualNetworks/subnets/join/action"] as const;

export const BUILT_IN_ROLES = {
  contributor: { name: "Contributor", guid: "b24988ac-6180-42a0-ab88-20f7382dd24c", actions: ["*"] },
  reader: { name: "Reader", guid: "acdd72a7-3385-48ef-bd42-f606fba81ae7", actions: ["*/read"] },
  networkContributor: {
    name: "Network Contributor",
    guid: "4d97b98b-1d4f-4787-a291-c67834d212e7",
    actions: [
      "Microsoft.Authorization/*/read",
      "Microsoft.Insights/alertRules/*",
      "Microsoft.Network/*",
      "Microsoft.ResourceHealth/availabilityStatuses/read",
      "Microsoft.Resources/deployments/*",
      "Microsoft.Resources/subscriptions/resourceGroups/read",
      "Microsoft.Support/*",
    ],
  },
  dnsZoneContributor: { name: "DNS Zone Contributor", guid: "befefa01-2a29-4197-83a8-272ff33ce314" },
  storageBlobDataContributor: { name: "Storage Blob Data Contributor", guid: "ba92f5b4-2d11-453d-a403-e96b0029c9fe" },
  keyVaultSecretsUser: { name: "Key Vault Secrets User", guid: "4633458b-17de-408a-b874-0445c86b69e6" },
  keyVaultSecretsOfficer: { name: "Key Vault Secrets Officer", guid: "b86a8fe4-44ce-4948-aee5-eccb2c155cd7" },
  keyVaultCryptoUser: { name: "Key Vault Crypto User", guid: "12338af0-0e69-4776-bea7-57ae8d297424" },
  keyVaultCryptoOfficer: { name: "Key Vault Crypto Officer", guid: "14b46e9e-c2b7-41b4-b07b-48a6ebf60603" },
  managedIdentityOperator: { name: "Managed Identity Operator", guid: "f1a07417-d97a-45cb-824c-7a7467783830" },
  aksRbacClusterAdmin: { name: "Azure Kubernetes Service RBAC Cluster Admin", guid: "b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b" },

  // Azure Red Hat OpenShift roles (HyperShift's support/config/constants.go; ARO-HCP's operator role sets).
  aroCloudControllerManager: {
    name: "Azure Red Hat OpenShift Cloud Controller Manager",
    guid: "a1f96423-95ce-4224-ab27-4e3dc72facd4",
    actions: [
      "Microsoft.Compute/virtualMachines/read",
      "Microsoft.Network/loadBalancers/backendAddressPools/join/action",
      "Microsoft.Network/loadBalancers/read",
      "Microsoft.Network/loadBalancers/write",
      "Microsoft.Network/loadBalancers/inboundNatRules/join/action",
      "Microsoft.Network/networkInterfaces/read",
      "Microsoft.Network/networkInterfaces/write",
      "Microsoft.Network/networkSecurityGroups/read",
      "Microsoft.Network/networkSecurityGroups/write",
      "Microsoft.Network/networkSecurityGroups/join/action",
      "Microsoft.Network/publicIPAddresses/join/action",
      "Microsoft.Network/publicIPAddresses/read",
      "Microsoft.Network/publicIPAddresses/write",
      "Microsoft.Network/publicIPAddresses/delete",
      ...ARO_NETWORK_READ,
      "Microsoft.Network/publicIPPrefixes/join/action",
      "Microsoft.Network/applicationSecurityGroups/joinNetworkSecurityRule/action",
    ],
  },
  aroIngressOperator: {
    name: "Azure Red Hat OpenShift Cluster Ingress Operator",
    guid: "0336e1d3-7a87-462b-b6db-342b63f7802c",
    actions: [
      "Microsoft.Network/dnsZones/A/delete",
      "Microsoft.Network/dnsZones/A/write",
      "Microsoft.Network/privateDnsZones/A/delete",
      "Microsoft.Network/privateDnsZones/A/write",
      ...ARO_NETWORK_READ,
    ],
  },
  aroDiskStorageOperator: {
    name: "Azure Red Hat OpenShift Disk Storage Operator",
    guid: "5b7237c5-45e1-49d6-bc18-a1f62f400748",
    actions: [
      "Microsoft.Compute/virtualMachines/write",
      "Microsoft.Compute/virtualMachines/read",
      "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/write",
      "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/read",
      "Microsoft.Compute/virtualMachineScaleSets/read",
      "Microsoft.Compute/snapshots/write",
      "Microsoft.Compute/snapshots/read",
      "Microsoft.Compute/snapshots/delete",
      "Microsoft.Compute/locations/operations/read",
      "Microsoft.Compute/locations/DiskOperations/read",
      "Microsoft.Compute/disks/write",
      "Microsoft.Compute/disks/read",
      "Microsoft.Compute/disks/delete",
      "Microsoft.Compute/disks/beginGetAccess/action",
      "Microsoft.Resources/subscriptions/resourceGroups/read",
    ],
  },
  aroFileStorageOperator: {
    name: "Azure Red Hat OpenShift File Storage Operator",
    guid: "0d7aedc0-15fd-4a67-a412-efad370c947e",
    actions: [
      "Microsoft.Compute/diskEncryptionSets/read",
      "Microsoft.Storage/storageAccounts/delete",
      "Microsoft.Storage/storageAccounts/fileServices/read",
      "Microsoft.Storage/storageAccounts/fileServices/shares/delete",
      "Microsoft.Storage/storageAccounts/fileServices/shares/read",
      "Microsoft.Storage/storageAccounts/fileServices/shares/write",
      "Microsoft.Storage/storageAccounts/listKeys/action",
      "Microsoft.Storage/storageAccounts/read",
      "Microsoft.Storage/storageAccounts/write",
      "Microsoft.Network/networkSecurityGroups/join/action",
      "Microsoft.Network/virtualNetworks/subnets/read",
      "Microsoft.Network/virtualNetworks/subnets/write",
      "Microsoft.Network/routeTables/join/action",
    ],
  },
  aroNetworkOperator: {
    name: "Azure Red Hat OpenShift Network Operator",
    guid: "be7a6435-15ae-4171-8f30-4a343eff9e8f",
    actions: [
      "Microsoft.Network/networkInterfaces/read",
      "Microsoft.Network/networkInterfaces/write",
      "Microsoft.Network/virtualNetworks/read",
      "Microsoft.Network/virtualNetworks/subnets/join/action",
      "Microsoft.Network/loadBalancers/backendAddressPools/read",
      "Microsoft.Network/loadBalancers/backendAddressPools/join/action",
      "Microsoft.Compute/virtualMachines/read",
    ],
  },
  aroImageRegistryOperator: {
    name: "Azure Red Hat OpenShift Image Registry Operator",
    guid: "8b32b316-c2f5-4ddf-b05b-83dacd2d08b5",
    actions: [
      "Microsoft.Storage/storageAccounts/blobServices/read",
      "Microsoft.Storage/storageAccounts/blobServices/containers/delete",
      "Microsoft.Storage/storageAccounts/blobServices/containers/read",
      "Microsoft.Storage/storageAccounts/blobServices/containers/write",
      "Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action",
      "Microsoft.Storage/storageAccounts/read",
      "Microsoft.Storage/storageAccounts/write",
      "Microsoft.Storage/storageAccounts/delete",
      "Microsoft.Storage/storageAccounts/listKeys/action",
      "Microsoft.Resources/tags/write",
      "Microsoft.Network/privateEndpoints/write",
      "Microsoft.Network/privateEndpoints/read",
      "Microsoft.Network/privateEndpoints/privateDnsZoneGroups/write",
      "Microsoft.Network/privateEndpoints/privateDnsZoneGroups/read",
      "Microsoft.Network/privateDnsZones/read",
      "Microsoft.Network/privateDnsZones/write",
      "Microsoft.Network/privateDnsZones/join/action",
      "Microsoft.Network/privateDnsZones/A/write",
      "Microsoft.Network/privateDnsZones/virtualNetworkLinks/write",
      "Microsoft.Network/privateDnsZones/virtualNetworkLinks/read",
      "Microsoft.Network/networkInterfaces/read",
      "Microsoft.Storage/storageAccounts/PrivateEndpointConnectionsApproval/action",
      ...ARO_NETWORK_READ,
      "Microsoft.Network/virtualNetworks/join/action",
    ],
  },
  aroHcpClusterApiProvider: {
    // Not in the Microsoft Learn tables; ARO-HCP's role set and azure-rules.md §3a (third-party catalogues).
    name: "Azure Red Hat OpenShift Hosted Control Planes Cluster API Provider",
    guid: "88366f10-ed47-4cc0-9fab-c8a06148393e",
    actions: [
      "Microsoft.Compute/availabilitySets/delete",
      "Microsoft.Compute/availabilitySets/read",
      "Microsoft.Compute/availabilitySets/write",
      "Microsoft.Compute/disks/delete",
      "Microsoft.Compute/disks/read",
      "Microsoft.Compute/disks/write",
      "Microsoft.Compute/virtualMachines/delete",
      "Microsoft.Compute/virtualMachines/read",
      "Microsoft.Compute/virtualMachines/write",
      "Microsoft.Network/loadBalancers/backendAddressPools/join/action",
      "Microsoft.Network/networkInterfaces/delete",
      "Microsoft.Network/networkInterfaces/join/action",
      "Microsoft.Network/networkInterfaces/read",
      "Microsoft.Network/networkInterfaces/write",
      "Microsoft.Network/virtualNetworks/subnets/join/action",
      "Microsoft.Compute/diskEncryptionSets/read",
    ],
  },
  aroHcpControlPlaneOperator: {
    // Not in the Microsoft Learn tables; ARO-HCP's role set and azure-rules.md §3a: read-only.
    name: "Azure Red Hat OpenShift Hosted Control Planes Control Plane Operator",
    guid: "fc0c873f-45e9-4d0d-a7d1-585aab30c6ed",
    actions: [
      "Microsoft.Resources/subscriptions/resourceGroups/read",
      "Microsoft.Network/virtualNetworks/read",
      "Microsoft.Network/networkSecurityGroups/read",
    ],
  },
} as const satisfies Record<string, RoleDefinition>;

export type BuiltInRole = (typeof BUILT_IN_ROLES)[keyof typeof BUILT_IN_ROLES];

/** The subscription-scoped role definition ID azurerm_role_assignment takes. */
export function roleDefinitionId(subscriptionId: string, role: RoleDefinition): string {
  return `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${role.guid}`;
}

/** The role of a GUID, when this table has it. */
export function roleByGuid(guid: string): RoleDefinition | undefined {
  return Object.values(BUILT_IN_ROLES).find((role) => role.guid === guid.toLowerCase());
}
