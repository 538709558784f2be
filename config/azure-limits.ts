/**
 * The Azure, Entra and ARO HCP limits that size a stamp (one config) and a fleet (a list of
 * stamps), each stated once with its source. Sources: shared/reference/notes/terraform-cloud-facts.md
 * §5 "Limits" and azure-rules.md §2. config/rules/capacity.ts counts what a config creates against
 * them; scripts/fleet.ts sums the counts of several stamps. help/fleet.md explains them.
 */

/** Where a limit applies: the count is kept per resource group, subscription, identity, management cluster or deploying user. */
export type LimitScope = "resourceGroup" | "subscription" | "identity" | "managementCluster" | "user";

export interface AzureLimit {
  /** What is counted, plural ("user-assigned identities"). */
  readonly what: string;
  readonly scope: LimitScope;
  readonly limit: number;
  /** Where the number comes from. */
  readonly source: string;
  /**
   * Whether going over it fails for certain (an error at synth) or only perhaps (a warning):
   * the non-admin Entra quota applies only when the deployer is not an administrator.
   */
  readonly certain: boolean;
  /** How to stay under it. */
  readonly wayOut: string;
}

/**
 * The share of a limit from which synth warns: 80 %. ARO HCP's own capacity alerts warn at 60 % of
 * the hosted clusters a management cluster takes and page at 85 %; 80 % leaves room for one more
 * stamp's worth of clusters to be planned before the error.
 */
export const CAPACITY_WARNING_RATIO = 0.8;

const SECOND_STAMP = "split the clusters into a second stamp, a config with its own prefix and persistent resource group (help/fleet.md)";

export const AZURE_LIMITS = {
  /** 800 instances of one resource type per resource group; user-assigned identities are not exempt. */
  identitiesPerResourceGroup: {
    what: "user-assigned identities",
    scope: "resourceGroup",
    limit: 800,
    source:
      "Azure: 800 resources of one type per resource group; Microsoft.ManagedIdentity/userAssignedIdentities is not on the exempt list (learn.microsoft.com/azure/azure-resource-manager/management/resources-without-resource-group-limit)",
    certain: true,
    wayOut: SECOND_STAMP,
  },
  /** 4,000 role assignments per subscription, fixed ("cannot be increased"). */
  roleAssignmentsPerSubscription: {
    what: "role assignments",
    scope: "subscription",
    limit: 4000,
    source:
      "Azure RBAC: 4,000 role assignments per subscription, cannot be increased (learn.microsoft.com/azure/role-based-access-control/troubleshoot-limits)",
    certain: true,
    wayOut: "put the next clusters in a stamp on another subscription (help/fleet.md)",
  },
  /** 980 resource groups per subscription. */
  resourceGroupsPerSubscription: {
    what: "resource groups",
    scope: "subscription",
    limit: 980,
    source: "Azure: 980 resource groups per subscription (learn.microsoft.com/azure/azure-resource-manager/management/azure-subscription-service-limits)",
    certain: true,
    wayOut:
      "put the next clusters in a stamp on another subscription, or share groups (hostedCluster.network.resourceGroups: one vnet/nsg group for several clusters) (help/fleet.md)",
  },
  /** 20 federated identity credentials per user-assigned identity (config/rules/names.ts refuses more). */
  federatedCredentialsPerIdentity: {
    what: "federated identity credentials",
    scope: "identity",
    limit: 20,
    source:
      "Entra: at most 20 federated identity credentials per application or user-assigned managed identity (learn.microsoft.com/entra/workload-id/workload-identity-federation-considerations)",
    certain: true,
    wayOut: "drop extra service accounts from the identity's credentials, or use a second identity",
  },
  /** ARO HCP's placement cap: 100 hosted clusters per management cluster. */
  hostedClustersPerManagementCluster: {
    what: "hosted clusters",
    scope: "managementCluster",
    limit: 100,
    source: "ARO HCP: provisionShardClusterLimit 100 hosted clusters per management cluster (github.com/Azure/ARO-HCP config/config.yaml)",
    certain: true,
    wayOut: "put the next clusters in a stamp with its own management cluster (help/fleet.md)",
  },
  /** 250 Entra objects (applications and service principals count) a non-admin user may create. */
  entraObjectsPerUser: {
    what: "Entra applications and service principals",
    scope: "user",
    limit: 250,
    source:
      "Entra: a non-admin user may create at most 250 directory objects, deleted-but-restorable ones included (learn.microsoft.com/entra/identity-platform/test-throttle-service-limits)",
    certain: false,
    wayOut: "deploy as an administrator (Application Administrator or Cloud Application Administrator), or split the stamps between deploying identities",
  },
} as const satisfies Record<string, AzureLimit>;

export type LimitKey = keyof typeof AZURE_LIMITS;
