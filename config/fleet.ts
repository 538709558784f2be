import { AZURE_LIMITS } from "./azure-limits";
import { LoadedConfig } from "./load";
import { dnsZoneId, managedIdentitiesOf, managementAksOf } from "./names";
import { identityText, remoteBackendIdentity } from "./names/state";
import { CapacityCount, capacityCounts, capacityLevel, capacityMessage } from "./rules/capacity";

/**
 * A fleet is a list of stamps; a stamp is one config. What two stamps must not share, checked on
 * their derived names (config/names): the prefix, the state (every stack's state location and the
 * backend identity the cluster record is named after), the management cluster, and the Azure
 * resources they create (compared by ARM ID, so per subscription). Limits that span stamps (a
 * subscription's role assignments and resource groups, a management cluster's hosted clusters)
 * are summed over them. scripts/fleet.ts runs it; help/fleet.md explains it.
 */

export interface Stamp {
  /** The config file's name without `.yaml`: the output folder `<outdir>/<name>/`. */
  readonly name: string;
  readonly loaded: LoadedConfig;
}

export interface FleetCollision {
  /** What two stamps share, in words: `prefix`, `state`, `resource group`... */
  readonly what: string;
  readonly value: string;
  /** Every stamp that has it, in fleet order. */
  readonly stamps: readonly string[];
}

/** Every collision between stamps, in check order (prefix, backend, state, management cluster, Azure resources). */
export function fleetCollisions(stamps: readonly Stamp[]): FleetCollision[] {
  const claims: Array<{ what: string; key: string; value: string; stamp: string }> = [];
  for (const stamp of stamps) {
    const claim = (what: string, value: string, key = value.toLowerCase()) => claims.push({ what, key: `${what}\u0000${key}`, value, stamp: stamp.name });
    const { config, names } = stamp.loaded;
    claim("prefix", config.prefix);
    const identity = remoteBackendIdentity(config);
    if (identity) claim("backend (the same state and cluster record)", identityText(identity));
    const where = identity
      ? identity.type === "azurerm"
        ? `${identity.storageAccountName}/${identity.containerName}`
        : `${identity.hostname}/${identity.organization}`
      : "local";
    for (const stack of stacksOf(stamp)) claim(`state of a stack (${identity?.type ?? "local"})`, `${where}: ${names.stateLocation(stack)}`);
    const management = managementClusterOf(stamp.loaded);
    if (management) claim("management cluster", management);
    for (const resource of azureResourcesOf(stamp.loaded)) claim(resource.what, resource.id);
  }
  const byKey = new Map<string, { what: string; value: string; stamps: string[] }>();
  for (const c of claims) {
    const entry = byKey.get(c.key) ?? { what: c.what, value: c.value, stamps: [] };
    if (!entry.stamps.includes(c.stamp)) entry.stamps.push(c.stamp);
    byKey.set(c.key, entry);
  }
  return [...byKey.values()].filter((e) => e.stamps.length > 1);
}

/**
 * The management cluster a stamp deploys its operator and HostedClusters to, when synth knows it:
 * the kubeconfig file and context, or the AKS cluster's ARM ID. Undefined when it is reached
 * through KUBE_* or Terraform variables (only the deployment environment knows which cluster).
 */
export function managementClusterOf(loaded: LoadedConfig): string | undefined {
  const aks = managementAksOf(loaded.names.topology);
  if (aks) return `AKS ${aks.id.toLowerCase()}`;
  const kubeconfig = loaded.config.managementCluster?.kubeconfig;
  const file = loaded.names.managementCluster?.kubeconfig;
  return kubeconfig && file ? `kubeconfig ${file}, context ${kubeconfig.context ?? "(its current context)"}` : undefined;
}

/** Every stack of a stamp: shared, management, the AKS stack, each cluster's. */
function stacksOf(stamp: Stamp): string[] {
  const names = stamp.loaded.names;
  const aks = managementAksOf(names.topology);
  return [names.sharedStack, names.managementStack, ...(aks ? [aks.stack] : []), ...names.clusters.flatMap((c) => c.stacks)];
}

/**
 * The Azure resources a stamp creates, by ARM ID (an ID holds the subscription, so equal IDs are a
 * collision in one subscription) or, for names Azure makes global, by name. Adopted and existing
 * resources are left out: stamps may share what neither creates.
 */
function azureResourcesOf(loaded: LoadedConfig): Array<{ what: string; id: string }> {
  const { config, names } = loaded;
  const out: Array<{ what: string; id: string }> = [];
  if (config.resourceGroup.create) out.push({ what: "resource group", id: names.resourceGroup.id });
  out.push({ what: "storage account (a global name)", id: names.storageAccount.name });
  if (names.dns) out.push({ what: "DNS zone", id: dnsZoneId(names.resourceGroup.id, names.dns.zoneName) });
  const aks = managementAksOf(names.topology);
  if (aks && !aks.existing) out.push({ what: "AKS cluster", id: aks.id }, { what: "resource group", id: aks.resourceGroup.id });
  if (names.topology.kind === "aroHcp") out.push({ what: "Key Vault (a global name)", id: names.topology.keyVault.name });
  for (const cluster of names.clusters) {
    for (const identity of managedIdentitiesOf(cluster.identities)) out.push({ what: "user-assigned identity", id: identity.id });
    const hosted = cluster.hosted;
    if (!hosted) continue;
    for (const group of Object.values(hosted.resourceGroups)) if (group.create) out.push({ what: "resource group", id: group.id });
    for (const [what, resource] of [
      ["VNet", hosted.vnet],
      ["subnet", hosted.subnet],
      ["network security group", hosted.nsg],
    ] as const) {
      if (resource.create) out.push({ what, id: resource.id });
    }
    out.push({ what: "private DNS zone", id: hosted.privateZone.id });
    if (hosted.kms?.vault.create) out.push({ what: "Key Vault (a global name)", id: hosted.kms.vault.name });
  }
  return out;
}

export interface FleetCapacity {
  /** Counts over a certain limit once the stamps are summed: the fleet is refused. */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * The limits that span stamps, summed over the stamps that share a scope (a subscription, a
 * resource group, a management cluster). A scope one stamp has alone was checked by its own synth.
 */
export function fleetCapacity(stamps: readonly Stamp[]): FleetCapacity {
  const sums = new Map<string, { count: CapacityCount; members: Set<string>; stamps: string[] }>();
  for (const stamp of stamps) {
    const management = managementClusterOf(stamp.loaded);
    for (const count of capacityCounts(stamp.loaded.names)) {
      // Who deploys, and which cluster KUBE_* reaches, is not known at synth: not summed.
      if (count.limit === "entraObjectsPerUser" || (count.key === "managementCluster" && !management)) continue;
      const key = `${count.limit}\u0000${count.key === "managementCluster" ? management : count.key}`;
      const sum = sums.get(key) ?? { count: { ...count, count: 0, detail: "" }, members: new Set<string>(), stamps: [] };
      sum.stamps.push(stamp.name);
      count.members?.forEach((m) => sum.members.add(m));
      const total = count.members ? sum.members.size : sum.count.count + count.count;
      const detail = [sum.count.detail, `${stamp.name} ${count.count}`].filter(Boolean).join(", ");
      sum.count = { ...sum.count, count: total, detail, scope: count.key === "managementCluster" ? (management as string) : count.scope };
      sums.set(key, sum);
    }
  }
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const { count, stamps: sharing } of sums.values()) {
    if (sharing.length < 2) continue;
    const level = capacityLevel(count.count, count.limit);
    const message = `capacity: stamps ${capacityMessage(count, listed(sharing))}`;
    if (level === "error" && AZURE_LIMITS[count.limit].certain) errors.push(message);
    else if (level) warnings.push(message);
  }
  return { errors, warnings };
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
