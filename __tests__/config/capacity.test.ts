import { AZURE_LIMITS } from "../../config/azure-limits";
import { validateConfig } from "../../config/load";
import { capacityCounts, capacityLevel, roleAssignmentsOf } from "../../config/rules/capacity";
import { EXAMPLES, hostedClusterSpec, loadExample, loadInline, minimalConfig, resources, synthStacks } from "../helpers";

/** A stamp of `n` hosted clusters hc1..hcN (selfManaged: 8 identities, 3 resource groups each). */
function stamp(n: number): Record<string, unknown> {
  return minimalConfig({
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
    clusters: Array.from({ length: n }, (_, i) => ({ name: `hc${i + 1}`, hostedCluster: hostedClusterSpec() })),
  });
}

describe("capacity at synth", () => {
  test("100 clusters fit: 800 identities in the persistent group, with warnings at the thresholds", () => {
    const loaded = loadInline(stamp(100));
    const counts = capacityCounts(loaded.names);
    const identities = counts.find((c) => c.limit === "identitiesPerResourceGroup");
    expect(identities).toMatchObject({ count: 800, scope: "resource group demo-hcp-persistent", detail: "8 per cluster × 100 clusters" });
    expect(counts.find((c) => c.limit === "hostedClustersPerManagementCluster")?.count).toBe(100);
    expect(counts.find((c) => c.limit === "roleAssignmentsPerSubscription")?.count).toBe(1800);
    expect(counts.find((c) => c.limit === "resourceGroupsPerSubscription")?.count).toBe(301);
    const capacity = loaded.warnings.filter((w) => w.startsWith("capacity:"));
    expect(capacity).toEqual([
      expect.stringContaining("800 user-assigned identities in resource group demo-hcp-persistent (8 per cluster × 100 clusters), 100 % of the limit of 800"),
      expect.stringContaining("100 hosted clusters in the management cluster, 100 % of the limit of 100"),
    ]);
  });

  test("the 101st cluster of a stamp is refused: 808 identities over the limit of 800, 101 hosted clusters over 100", () => {
    const result = validateConfig(stamp(101), EXAMPLES);
    expect(result.ok).toBe(false);
    const issues = result.ok ? [] : result.issues;
    expect(issues.map((i) => i.message)).toEqual([
      expect.stringMatching(
        /^creates 808 user-assigned identities in resource group demo-hcp-persistent \(8 per cluster × 101 clusters\), over the limit of 800: apply would fail part-way\. Azure: 800 resources of one type.*Way out: split the clusters into a second stamp/,
      ),
      expect.stringMatching(
        /^creates 101 hosted clusters in the management cluster, over the limit of 100.*provisionShardClusterLimit.*own management cluster/,
      ),
    ]);
    expect(issues[0]).toMatchObject({ path: "clusters", value: "101 clusters" });
  });

  test.each([
    ["identitiesPerResourceGroup", 639, undefined],
    ["identitiesPerResourceGroup", 640, "warning"],
    ["identitiesPerResourceGroup", 800, "warning"],
    ["identitiesPerResourceGroup", 801, "error"],
    ["roleAssignmentsPerSubscription", 3199, undefined],
    ["roleAssignmentsPerSubscription", 3200, "warning"],
    ["roleAssignmentsPerSubscription", 4001, "error"],
    ["resourceGroupsPerSubscription", 784, "warning"],
    ["resourceGroupsPerSubscription", 981, "error"],
    ["hostedClustersPerManagementCluster", 79, undefined],
    ["hostedClustersPerManagementCluster", 80, "warning"],
    ["entraObjectsPerUser", 200, "warning"],
    ["entraObjectsPerUser", 251, "warning"],
  ] as const)("%s: %i is %s (warning from 80 %%, error over the limit; the non-admin Entra quota only warns)", (limit, count, level) => {
    expect(capacityLevel(count, limit)).toBe(level);
  });

  test("each limit names its source and a way out", () => {
    for (const limit of Object.values(AZURE_LIMITS)) {
      expect(limit.source).toMatch(/learn\.microsoft\.com|github\.com/);
      expect(limit.wayOut.length).toBeGreaterThan(10);
    }
  });

  // The counts come from the names; the synthesized stacks must agree, or the numbers drift.
  test.each(["basic.yaml", "kms.yaml", "aro-hcp.yaml", "isolated-clusters.yaml"])("%s: the counts match the synthesized resources", (file) => {
    const loaded = loadExample(file);
    const stacks = synthStacks(loaded);
    for (const cluster of loaded.names.clusters) {
      const own = cluster.stacks.map((name) => stacks[name]);
      const identities = own.flatMap((s) => resources(s, "azurerm_user_assigned_identity")).length;
      expect(identities).toBe(loaded.names.clusters.find((c) => c === cluster) && capacityIdentities(loaded, cluster.index));
      if (cluster.hosted) {
        expect(own.flatMap((s) => resources(s, "azurerm_role_assignment")).length).toBe(roleAssignmentsOf(cluster.hosted));
      }
    }
  });
});

function capacityIdentities(loaded: ReturnType<typeof loadExample>, index: number): number {
  const cluster = loaded.names.clusters[index];
  return cluster.identities.kind === "aroHcp" ? cluster.identities.dataPlaneIdentities.length : cluster.identities.workloadIdentities.length;
}
