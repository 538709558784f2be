import { ClusterConfig, Config, HostedClusterConfig } from "../schema";
import { guideNamePrefix } from "./guide";
import { parseArmId, rgId } from "./naming";
import type { HostedClusterNames, NetworkResourceNames, ResourceGroupNames } from "./types";

/** A hosted cluster's resource groups, VNet, subnet and NSG: created (with derived or configured names), or existing. */
export type HostedNetworkNames = Pick<HostedClusterNames, "resourceGroups" | "vnet" | "subnet" | "nsg">;

/** A resource the config brings by ARM ID: nothing to create, names come from the ID. */
function existingResource(id: string, origin: string): NetworkResourceNames {
  const parsed = parseArmId(id);
  return { name: parsed.name, id, resourceGroup: parsed.resourceGroup, create: false, origin };
}

/** The groups and network of `config.clusters[index]` (`hosted` is its hostedCluster block). */
export function hostedNetworkNames(config: Config, cluster: ClusterConfig, hosted: HostedClusterConfig, index: number): HostedNetworkNames {
  const at = `clusters[${index}].hostedCluster`;
  const name = cluster.name;
  const sub = config.subscriptionId;
  const network = hosted.network;
  const existing = network.existing ?? {};

  const group = (key: "managed" | "vnet" | "nsg", fallback: string, create: boolean): ResourceGroupNames => {
    const groupName = network.resourceGroups[key] ?? fallback;
    return {
      name: groupName,
      id: rgId(sub, groupName),
      create,
      origin: network.resourceGroups[key] ? `${at}.network.resourceGroups.${key}` : baseOrigin,
    };
  };
  // Seed 004 names Phase 3's groups and network after its PREFIX; we after the cluster, unless adopted.
  const base = guideNamePrefix(config, cluster) ?? name;
  const baseOrigin = base === name ? `clusters[${index}].name` : `clusters[${index}].adopt.guidePrefix`;
  const managed = group("managed", `${base}-managed-rg`, true);
  const ownGroup = (key: "vnet" | "nsg", existingId: string | undefined, fallback: string): ResourceGroupNames => {
    if (existingId) {
      const parsed = parseArmId(existingId);
      return { name: parsed.resourceGroup, id: rgId(parsed.subscription, parsed.resourceGroup), create: false, origin: `${at}.network.existing.${key}Id` };
    }
    return network.singleResourceGroup ? { ...managed, create: false } : group(key, fallback, true);
  };
  const vnetGroup = ownGroup("vnet", existing.vnetId, `${base}-customer-vnet-rg`);
  const nsgGroup = ownGroup("nsg", existing.nsgId, `${base}-customer-nsg-rg`);

  const resource = (
    existingId: string | undefined,
    configured: string | undefined,
    fallback: string,
    rg: ResourceGroupNames,
    type: string,
    key: string,
  ): NetworkResourceNames =>
    existingId
      ? existingResource(existingId, `${at}.network.existing.${key}Id`)
      : {
          name: configured ?? fallback,
          id: `${rg.id}/providers/${type}/${configured ?? fallback}`,
          resourceGroup: rg.name,
          create: true,
          origin: configured ? `${at}.network.${key}Name` : baseOrigin,
        };
  const vnet = resource(existing.vnetId, network.vnetName, `${base}-customer-vnet`, vnetGroup, "Microsoft.Network/virtualNetworks", "vnet");
  const subnet = subnetNames(hosted, at, vnet, { name: network.subnetName ?? `${base}-customer-subnet-1`, baseOrigin });
  const nsg = resource(existing.nsgId, network.nsgName, `${base}-customer-nsg`, nsgGroup, "Microsoft.Network/networkSecurityGroups", "nsg");
  return { resourceGroups: { managed, vnet: vnetGroup, nsg: nsgGroup }, vnet, subnet, nsg };
}

/** The subnet: existing, or created in the VNet as `created.name` (configured, or derived from `baseOrigin`). */
function subnetNames(
  hosted: HostedClusterConfig,
  at: string,
  vnet: NetworkResourceNames,
  created: { readonly name: string; readonly baseOrigin: string },
): NetworkResourceNames {
  const network = hosted.network;
  const existingId = network.existing?.subnetId;
  if (existingId) return existingResource(existingId, `${at}.network.existing.subnetId`);
  return {
    name: created.name,
    id: `${vnet.id}/subnets/${created.name}`,
    resourceGroup: vnet.resourceGroup,
    create: true,
    origin: network.subnetName ? `${at}.network.subnetName` : created.baseOrigin,
  };
}
