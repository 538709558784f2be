/**
 * Built-in Azure role definitions this project assigns. GUIDs are the same in every tenant
 * (shared/reference/notes/azure-rules.md §3b, from the Microsoft Learn built-in roles table).
 */
export const BUILT_IN_ROLES = {
  contributor: { name: "Contributor", guid: "b24988ac-6180-42a0-ab88-20f7382dd24c" },
  reader: { name: "Reader", guid: "acdd72a7-3385-48ef-bd42-f606fba81ae7" },
  dnsZoneContributor: { name: "DNS Zone Contributor", guid: "befefa01-2a29-4197-83a8-272ff33ce314" },
  storageBlobDataContributor: { name: "Storage Blob Data Contributor", guid: "ba92f5b4-2d11-453d-a403-e96b0029c9fe" },
} as const;

export type BuiltInRole = (typeof BUILT_IN_ROLES)[keyof typeof BUILT_IN_ROLES];

/** The subscription-scoped role definition ID azurerm_role_assignment takes. */
export function roleDefinitionId(subscriptionId: string, role: BuiltInRole): string {
  return `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${role.guid}`;
}
