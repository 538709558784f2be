import * as path from "node:path";
import { Config, HostedClusterConfig } from "../schema";
import { parseArmId, rgId } from "./naming";

/**
 * Names of private endpoint access (Private Link, notes `hypershift-azure-options.md` §1): per
 * hosted cluster its endpoint access and NAT subnet, and per deployment the operator's Private
 * Link Service management (resource group, subscription, credentials).
 */

/** The NAT subnet of a cluster's Private Link Service: in the management cluster's VNet. */
export interface NatSubnetNames {
  /** ARM ID (privateLink.natSubnetID). */
  readonly id: string;
  readonly name: string;
  /** The VNet it is in (the management cluster's). */
  readonly vnetId: string;
  readonly vnetName: string;
  readonly resourceGroup: string;
  readonly subscription: string;
  /** Created by the cluster's infra stack (`natSubnet`), or existing (`natSubnetId`). */
  readonly create: boolean;
  /** The address range when created. */
  readonly cidr?: string;
  /** Config path it comes from. */
  readonly origin: string;
}

/** How a hosted cluster's API server is reached: the CLI's --endpoint-access. */
export type EndpointAccessNames =
  | { readonly kind: "Public" }
  | {
      readonly kind: "PublicAndPrivate" | "Private";
      /** Absent only in a config the rules refuse (rules/private-link.ts). */
      readonly natSubnet?: NatSubnetNames;
      readonly additionalAllowedSubscriptions: readonly string[];
    };

/** The operator's Private Link Service management (managementCluster.privateLink). */
export interface PrivateLinkOperatorNames {
  /** --azure-pls-resource-group: where the management cluster's internal load balancer and the Private Link Services are. */
  readonly resourceGroupName: string;
  readonly resourceGroupId: string;
  /** Subscription of the management cluster. */
  readonly subscriptionId: string;
  /** Entra display name of the service principal the shared stack creates; absent with credentialsFile. */
  readonly applicationName?: string;
  /** Handed-over credentials file (absolute), read at plan time. */
  readonly credentialsFile?: string;
}

/** Derives a hosted cluster's endpoint access. */
export function endpointAccessNames(hosted: HostedClusterConfig, at: string, infraId: string): EndpointAccessNames {
  if (hosted.endpointAccess === "Public") return { kind: "Public" };
  const link = hosted.privateLink;
  return {
    kind: hosted.endpointAccess,
    natSubnet: link && natSubnetNames(link, `${at}.privateLink`, infraId),
    additionalAllowedSubscriptions: link?.additionalAllowedSubscriptions ?? [],
  };
}

function natSubnetNames(link: NonNullable<HostedClusterConfig["privateLink"]>, at: string, infraId: string): NatSubnetNames | undefined {
  if (link.natSubnetId) {
    const parsed = parseArmId(link.natSubnetId);
    const vnetId = link.natSubnetId.slice(0, link.natSubnetId.toLowerCase().lastIndexOf("/subnets/"));
    return {
      id: link.natSubnetId,
      name: parsed.name,
      vnetId,
      vnetName: parseArmId(vnetId).name,
      resourceGroup: parsed.resourceGroup,
      subscription: parsed.subscription,
      create: false,
      origin: `${at}.natSubnetId`,
    };
  }
  if (!link.natSubnet) return undefined;
  const vnet = parseArmId(link.natSubnet.vnetId);
  // HyperShift's own auto-created NAT subnet is <infraID>-pls-nat (ensureNATSubnet).
  const name = link.natSubnet.name ?? `${infraId}-pls-nat`;
  return {
    id: `${link.natSubnet.vnetId}/subnets/${name}`,
    name,
    vnetId: link.natSubnet.vnetId,
    vnetName: vnet.name,
    resourceGroup: vnet.resourceGroup,
    subscription: vnet.subscription,
    create: true,
    cidr: link.natSubnet.cidr,
    origin: `${at}.natSubnet`,
  };
}

/** Derives the operator's Private Link settings. */
export function privateLinkOperatorNames(config: Config, configDir: string): PrivateLinkOperatorNames | undefined {
  const settings = config.managementCluster?.privateLink;
  if (!settings) return undefined;
  const subscriptionId = settings.subscriptionId ?? config.subscriptionId;
  return {
    resourceGroupName: settings.resourceGroupName,
    resourceGroupId: rgId(subscriptionId, settings.resourceGroupName),
    subscriptionId,
    applicationName: settings.credentialsFile ? undefined : (settings.applicationName ?? `${config.prefix}-private-link`),
    credentialsFile: settings.credentialsFile && path.resolve(configDir, settings.credentialsFile),
  };
}
