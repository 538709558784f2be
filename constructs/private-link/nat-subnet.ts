import { DataAzurermSubnet } from "@cdktf/provider-azurerm/lib/data-azurerm-subnet";
import { DataAzurermVirtualNetwork } from "@cdktf/provider-azurerm/lib/data-azurerm-virtual-network";
import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { Subnet } from "@cdktf/provider-azurerm/lib/subnet";
import { Construct } from "constructs";
import { parseCidr } from "../../config/cidr";
import { literal } from "../terraform-literal";
import { ForgetWithoutDestroying } from "../terraform-removed";

/** Names and IDs come from the config: written as literals, never templates. */

export interface NatSubnetProps {
  /** Subnet name (1-80 letters, digits, '-', '_' or '.'). */
  readonly name: string;
  /** Name of the management cluster's VNet, which must exist. */
  readonly virtualNetworkName: string;
  /** Resource group of that VNet. */
  readonly resourceGroupName: string;
  /** IPv4 prefix of the subnet, e.g. `10.0.64.0/24` (aligned, /29 or larger). */
  readonly cidr: string;
  /** Region of the hosted cluster: the VNet must be there (the Private Link Service is created in the cluster's location). */
  readonly location: string;
  /** Provider of the VNet's subscription. @default - the stack's default azurerm provider */
  readonly provider?: AzurermProvider;
}

/**
 * Terraform condition: `cidr` lies inside one of the VNet's address spaces (IPv6 spaces never
 * contain it). The config does not know the management VNet's address space, so it is checked
 * at plan; Azure itself refuses a prefix that overlaps another subnet of the VNet.
 */
export function insideAddressSpaceCondition(cidr: string, addressSpace: string): string {
  const { prefix } = parseCidr(cidr);
  const network = cidr.split("/")[0];
  return `\${anytrue([for space in ${addressSpace} : try(tonumber(split("/", space)[1]) <= ${prefix} && cidrhost("${network}/\${split("/", space)[1]}", 0) == cidrhost(space, 0), false)])}`;
}

/**
 * The NAT subnet of a private cluster's Private Link Service, in the management cluster's VNet
 * (HyperShift's docs, Step 1: `az network vnet subnet create ... --disable-private-link-service-network-policies true`;
 * notes `hypershift-azure-options.md` §1.5). Azure refuses to create a Private Link Service on a
 * subnet with these policies enabled.
 */
export class NatSubnet extends Construct {
  public readonly subnet: Subnet;
  /** The subnet's ARM ID (a reference: dependents wait for it). */
  public readonly id: string;

  constructor(scope: Construct, id: string, props: NatSubnetProps) {
    super(scope, id);
    const cidr = parseCidr(props.cidr);
    if (!cidr.aligned || cidr.prefix > 29) throw new Error(`NatSubnet ${props.name}: cidr "${props.cidr}" must be an aligned IPv4 prefix of /29 or larger`);
    const [name, virtualNetworkName, resourceGroupName] = [props.name, props.virtualNetworkName, props.resourceGroupName].map(literal);
    const vnet = new DataAzurermVirtualNetwork(this, "VirtualNetwork", {
      name: virtualNetworkName,
      resourceGroupName,
      provider: props.provider,
      lifecycle: { postcondition: [sameRegion(props.location, virtualNetworkName)] },
    });
    this.subnet = new Subnet(this, "Subnet", {
      name,
      virtualNetworkName,
      resourceGroupName,
      addressPrefixes: [props.cidr],
      privateLinkServiceNetworkPoliciesEnabled: false,
      provider: props.provider,
      lifecycle: {
        precondition: [
          {
            condition: insideAddressSpaceCondition(props.cidr, `data.azurerm_virtual_network.${vnet.friendlyUniqueId}.address_space`),
            errorMessage: `The NAT subnet ${props.cidr} must lie inside the address space of the VNet ${virtualNetworkName} (the management cluster's); choose a free range there or extend the VNet's address space.`,
          },
        ],
      },
    });
    this.id = this.subnet.id;
  }
}

/** The VNet is in the cluster's region: Azure refuses a Private Link Service whose NAT subnet is elsewhere. `vnetName`: a literal already. */
function sameRegion(region: string, vnetName: string) {
  const location = literal(region);
  return {
    condition: `\${lower(replace(self.location, " ", "")) == "${location}"}`,
    errorMessage: `The VNet ${vnetName} of the NAT subnet must be in the hosted cluster's region ${location}: the Private Link Service, its NAT subnet and the management cluster's load balancer must share a region.`,
  };
}

export interface ExistingNatSubnetProps {
  /** Subnet name. */
  readonly name: string;
  readonly virtualNetworkName: string;
  readonly resourceGroupName: string;
  /** Region of the hosted cluster. */
  readonly location: string;
  /** Provider of the VNet's subscription. @default - the stack's default azurerm provider */
  readonly provider?: AzurermProvider;
}

/**
 * An existing NAT subnet (`natSubnetId`), read at plan and checked: Private Link Service network
 * policies disabled (HyperShift's guide: "If omitted, Azure will reject PLS creation ... This error
 * is not always obvious") and the VNet in the cluster's region. Nothing is created or changed.
 * A subnet this stack created before (NatSubnet at the same construct ID: the same address) is
 * forgotten, not destroyed: switching `natSubnet` to `natSubnetId` naming it keeps the running
 * cluster's Private Link Service on it.
 */
export class ExistingNatSubnet extends Construct {
  constructor(scope: Construct, id: string, props: ExistingNatSubnetProps) {
    super(scope, id);
    const [name, virtualNetworkName, resourceGroupName] = [props.name, props.virtualNetworkName, props.resourceGroupName].map(literal);
    new DataAzurermVirtualNetwork(this, "VirtualNetwork", {
      name: virtualNetworkName,
      resourceGroupName,
      provider: props.provider,
      lifecycle: { postcondition: [sameRegion(props.location, virtualNetworkName)] },
    });
    const subnet = new DataAzurermSubnet(this, "Subnet", {
      name,
      virtualNetworkName,
      resourceGroupName,
      provider: props.provider,
      lifecycle: {
        postcondition: [
          {
            condition: "${!self.private_link_service_network_policies_enabled}",
            errorMessage: `The NAT subnet ${name} must have Private Link Service network policies disabled (az network vnet subnet update -g ${resourceGroupName} --vnet-name ${virtualNetworkName} -n ${name} --disable-private-link-service-network-policies true): Azure refuses to create a Private Link Service on it otherwise.`,
          },
        ],
      },
    });
    new ForgetWithoutDestroying(this, "Created", `azurerm_subnet.${subnet.friendlyUniqueId}`);
  }
}
