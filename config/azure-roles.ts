/**
 * Built-in Azure role definitions this project assigns. GUIDs are the same in every tenant
 * (shared/reference/notes/azure-rules.md §3b, from the Microsoft Learn built-in roles table).
 */
export const BUILT_IN_ROLES = {
  contributor: { name: "Contributor", guid: "b24988ac-6180-42a0-ab88-20f7382dd24c" },
  reader: { name: "Reader", guid: "acdd72a7-3385-48ef-bd42-f606fba81ae7" },
  networkContributor: { name: "Network Contributor", guid: "4d97b98b-1d4f-4787-a291-c67834d212e7" },
  dnsZoneContributor: { name: "DNS Zone Contributor", guid: "befefa01-2a29-4197-83a8-272ff33ce314" },
  storageBlobDataContributor: { name: "Storage Blob Data Contributor", guid: "ba92f5b4-2d11-453d-a403-e96b0029c9fe" },
  keyVaultSecretsUser: { name: "Key Vault Secrets User", guid: "4633458b-17de-408a-b874-0445c86b69e6" },
  keyVaultSecretsOfficer: { name: "Key Vault Secrets Officer", guid: "b86a8fe4-44ce-4948-aee5-eccb2c155cd7" },
  keyVaultCryptoUser: { name: "Key Vault Crypto User", guid: "12338af0-0e69-4776-bea7-57ae8d297424" },
  keyVaultCryptoOfficer: { name: "Key Vault Crypto Officer", guid: "14b46e9e-c2b7-41b4-b07b-48a6ebf60603" },
  managedIdentityOperator: { name: "Managed Identity Operator", guid: "f1a07417-d97a-45cb-824c-7a7467783830" },
  aksRbacClusterAdmin: { name: "Azure Kubernetes Service RBAC Cluster Admin", guid: "b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b" },
} as const;

export type BuiltInRole = (typeof BUILT_IN_ROLES)[keyof typeof BUILT_IN_ROLES];

/** The subscription-scoped role definition ID azurerm_role_assignment takes. */
export function roleDefinitionId(subscriptionId: string, role: BuiltInRole): string {
  return `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${role.guid}`;
}
