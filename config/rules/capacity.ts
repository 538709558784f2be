import { AZURE_LIMITS, CAPACITY_WARNING_RATIO, LimitKey } from "../azure-limits";
import { controlPlanePrincipalsOf, DeploymentNames, diskEncryptionSetRoles, managedIdentitiesOf, managementAksOf } from "../names";
import type { HostedClusterNames } from "../names";
import { ConfigIssue, Rule } from "./rule";

/**
 * Capacity known at synth: what one config (a stamp) creates, counted from its derived names
 * against the Azure, Entra and ARO HCP limits (config/azure-limits.ts). Over a certain limit is a
 * config error (apply would fail part-way, e.g. the 101st cluster's identities); from
 * CAPACITY_WARNING_RATIO of it, a warning. scripts/fleet.ts sums the counts of several stamps by
 * `key` (the same subscription, resource group or management cluster). help/fleet.md.
 */

export interface CapacityCount {
  readonly limit: LimitKey;
  /** Where the count is kept, in words: `resource group demo-hcp-persistent`, `subscription <id>`. */
  readonly scope: string;
  /** The scope compared across stamps (lower case): `subscription:<id>`, `resourceGroup:<sub>/<group>`. */
  readonly key: string;
  readonly count: number;
  /** What the count is made of: `8 per cluster × 100 clusters`. */
  readonly detail: string;
  /** What was counted, when stamps may share some (resource groups, by lower-case ARM ID): a fleet counts their union. */
  readonly members?: readonly string[];
}

/** Every count of a stamp, in limit order; scopes with nothing counted are left out. */
export function capacityCounts(names: DeploymentNames): CapacityCount[] {
  const sub = subscriptionOf(names).toLowerCase();
  const hosted = names.clusters.flatMap((c) => c.hosted ?? []);
  const aks = managementAksOf(names.topology);
  const created = aks && !aks.existing ? aks : undefined;
  const counts: CapacityCount[] = [];
  // User-assigned identities: the clusters' in the persistent group, the AKS cluster's in its group.
  const identities = names.clusters.map((c) => managedIdentitiesOf(c.identities).length);
  counts.push(groupCount(sub, names.resourceGroup.name, sum(identities), perCluster(identities)));
  if (created) counts.push(groupCount(sub, created.resourceGroup.name, 2, "the AKS cluster's and its kubelets'"));
  const assignments = hosted.map(roleAssignmentsOf);
  counts.push({ limit: "roleAssignmentsPerSubscription", ...subscription(sub), count: sum(assignments), detail: perCluster(assignments) });
  const groups = usedGroups(names, hosted);
  const own = new Set(hosted.flatMap((h) => Object.values(h.resourceGroups).map((g) => g.id.toLowerCase()))).size;
  const detail = `${groups.size - own} for the deployment, ${own} for ${hosted.length} hosted cluster${hosted.length === 1 ? "" : "s"}`;
  counts.push({ limit: "resourceGroupsPerSubscription", ...subscription(sub), count: groups.size, detail, members: [...groups.keys()] });
  for (const identity of names.clusters.flatMap((c) => managedIdentitiesOf(c.identities))) {
    const key = `identity:${identity.id.toLowerCase()}`;
    counts.push({ limit: "federatedCredentialsPerIdentity", scope: `identity ${identity.name}`, key, count: identity.credentials.length, detail: "" });
  }
  const management = aks ? `AKS cluster ${aks.name}` : "the management cluster";
  counts.push({ limit: "hostedClustersPerManagementCluster", scope: management, key: "managementCluster", count: hosted.length, detail: "" });
  const principals = names.clusters.map((c) => 2 * controlPlanePrincipalsOf(c.identities).length);
  const shared = (names.externalDnsApplication ? 2 : 0) + (names.privateLink?.applicationName ? 2 : 0);
  counts.push({ limit: "entraObjectsPerUser", scope: "the deploying user", key: "user", count: sum(principals) + shared, detail: perCluster(principals) });
  return counts.filter((c) => c.count > 0);
}

/**
 * The role assignments a hosted cluster's stacks create: its identities' roles, disk encryption
 * set readers, KMS key users and, with a Key Vault the cluster creates, the deployer's Crypto Officer.
 */
export function roleAssignmentsOf(hosted: HostedClusterNames): number {
  const roles = hosted.roleAssignments;
  const identities = roles.kind === "aroHcp" ? roles.dataPlaneIdentities.length + roles.controlPlanePrincipals.length : roles.workloadIdentities.length;
  const kms = hosted.kms;
  const deployer = kms?.vault.create && hosted.config.kms?.keyVault?.grantDeployerAccess !== false ? 1 : 0;
  return identities + diskEncryptionSetRoles(hosted).length + (kms?.cryptoUserScopes.length ?? 0) + deployer;
}

/** Over the limit: an error for a certain limit, a warning for one that may not apply; from the warning ratio: a warning. */
export function capacityLevel(count: number, limitKey: LimitKey): "error" | "warning" | undefined {
  const limit = AZURE_LIMITS[limitKey];
  if (count > limit.limit) return limit.certain ? "error" : "warning";
  return count >= Math.ceil(limit.limit * CAPACITY_WARNING_RATIO) ? "warning" : undefined;
}

/** A count in words: the limit, the count, what it is made of, the way out. */
export function capacityMessage(count: CapacityCount, stamps?: string): string {
  const limit = AZURE_LIMITS[count.limit];
  const over = count.count > limit.limit;
  const share = `${Math.round((100 * count.count) / limit.limit)} %`;
  const made = count.detail ? ` (${count.detail})` : "";
  const whose = stamps ? `${stamps} together create` : "creates";
  const state = over
    ? limit.certain
      ? `over the limit of ${limit.limit}: apply would fail part-way`
      : `over the limit of ${limit.limit} if the deployer is not an Entra administrator`
    : `${share} of the limit of ${limit.limit}`;
  return `${whose} ${count.count} ${limit.what} in ${count.scope}${made}, ${state}. ${limit.source}. Way out: ${limit.wayOut}.`;
}

/** The capacity rule: an error for every certain limit the stamp goes over. */
export const CAPACITY_RULES: ReadonlyArray<Rule<DeploymentNames>> = [
  {
    rule: "what the config creates fits the Azure, Entra and ARO HCP limits",
    check: (n) =>
      capacityCounts(n)
        // config/rules/names.ts already refuses an identity with more than 20 credentials.
        .filter((c) => c.limit !== "federatedCredentialsPerIdentity" && capacityLevel(c.count, c.limit) === "error")
        .map((c): ConfigIssue => ({ path: "clusters", value: `${n.clusters.length} clusters`, message: capacityMessage(c) })),
  },
];

/** Warnings for every count at or over the warning ratio that is not an error. */
export function capacityWarnings(names: DeploymentNames): string[] {
  return capacityCounts(names)
    .filter((c) => capacityLevel(c.count, c.limit) === "warning")
    .map((c) => `capacity: this config ${capacityMessage(c)}`);
}

/** The stamp's subscription, from the persistent group's ARM ID (every resource the counts cover lives there). */
function subscriptionOf(names: DeploymentNames): string {
  return names.resourceGroup.id.split("/")[2];
}

function groupCount(sub: string, group: string, count: number, detail: string): CapacityCount {
  return { limit: "identitiesPerResourceGroup", scope: `resource group ${group}`, key: `resourceGroup:${sub}/${group.toLowerCase()}`, count, detail };
}

function subscription(sub: string): { scope: string; key: string } {
  return { scope: `subscription ${sub}`, key: `subscription:${sub}` };
}

/**
 * The stamp's resource groups in its subscription, created or adopted (an existing group counts
 * toward the 980 too), by lower-case ARM ID: groups clusters share count once, and scripts/fleet.ts
 * counts a group two stamps share once.
 */
function usedGroups(names: DeploymentNames, hosted: readonly HostedClusterNames[]): Map<string, string> {
  const groups = new Map<string, string>();
  const add = (id: string, name: string) => groups.set(id.toLowerCase(), name);
  add(names.resourceGroup.id, names.resourceGroup.name);
  const aks = managementAksOf(names.topology);
  if (aks) add(aks.resourceGroup.id, aks.resourceGroup.name);
  for (const group of hosted.flatMap((h) => Object.values(h.resourceGroups))) add(group.id, group.name);
  return groups;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** `8 per cluster × 100 clusters`, or the distinct values when clusters differ. */
function perCluster(values: readonly number[]): string {
  const counted = values.filter((v) => v > 0);
  const distinct = [...new Set(counted)];
  if (distinct.length === 1) return `${distinct[0]} per cluster × ${counted.length} cluster${counted.length === 1 ? "" : "s"}`;
  return `${counted.length} clusters, ${Math.min(...counted)} to ${Math.max(...counted)} each`;
}
