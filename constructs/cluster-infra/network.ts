import { NetworkSecurityGroup } from "@cdktf/provider-azurerm/lib/network-security-group";
import { Subnet } from "@cdktf/provider-azurerm/lib/subnet";
import { SubnetNetworkSecurityGroupAssociation } from "@cdktf/provider-azurerm/lib/subnet-network-security-group-association";
import { VirtualNetwork } from "@cdktf/provider-azurerm/lib/virtual-network";
import { Construct } from "constructs";
import { ExistingObject, ImportTarget, importTargetsOf } from "../adoption/import-existing";
import { literal, literalTags } from "../terraform-literal";

/** Names and IDs come from the config: written as literals, never templates. */

/** The workers' network as its dependents use it: ARM IDs, references where created here. */
export interface IClusterNetwork {
  /** VNet ARM ID: a reference when created (dependents wait for it), else the existing ID. */
  readonly vnetId: string;
  /** Subnet ARM ID: a reference when created, else the existing ID. */
  readonly subnetId: string;
  /** NSG ARM ID: a reference when created, else the existing ID. */
  readonly nsgId: string;
}

/** A VNet to create, with one subnet in it. */
export interface NewClusterVnet {
  /** VNet name (2-64 letters, digits, '-', '_' or '.'). */
  readonly name: string;
  /** Subnet name (1-80 letters, digits, '-', '_' or '.'). */
  readonly subnetName: string;
  /** Resource group of the VNet and subnet; pass the reference of a group created in the same stack so they wait for it. */
  readonly resourceGroupName: string;
}

/** An existing VNet and subnet, from `ClusterNetwork.fromExistingVnet`: used as they are. */
export interface ExistingClusterVnet {
  readonly existing: { readonly vnetId: string; readonly subnetId: string };
}

/** A network security group to create. */
export interface NewClusterNsg {
  /** NSG name (1-80 letters, digits, '-', '_' or '.'). */
  readonly name: string;
  /** Resource group of the NSG; pass the reference of a group created in the same stack so it waits for it. */
  readonly resourceGroupName: string;
}

/** An existing network security group, from `ClusterNetwork.fromExistingNsg`. */
export interface ExistingClusterNsg {
  readonly existing: { readonly nsgId: string };
}

export interface ClusterNetworkProps {
  /** Azure region of the created VNet and NSG. */
  readonly location: string;
  /** The workers' VNet and subnet: to create, or existing ones (`ClusterNetwork.fromExistingVnet`). */
  readonly vnet: NewClusterVnet | ExistingClusterVnet;
  /** The subnet's network security group: to create, or an existing one (`ClusterNetwork.fromExistingNsg`). */
  readonly nsg: NewClusterNsg | ExistingClusterNsg;
  /** IPv4 address space of a created VNet. @default "10.0.0.0/16" (HyperShift's) */
  readonly vnetCidr?: string;
  /** IPv4 prefix of a created subnet, inside `vnetCidr`. @default "10.0.0.0/24" (HyperShift's) */
  readonly subnetCidr?: string;
  /** Tags of the VNet and NSG. @default {} */
  readonly tags?: Record<string, string>;
}

/**
 * The workers' network (`create infra azure`, networking.go): an NSG without rules (the cloud
 * provider adds the rules for Services), and a VNet with one subnet associated with that NSG (or
 * with the existing one). An existing VNet is used as it is: its subnet is never re-associated.
 */
export class ClusterNetwork extends Construct implements IClusterNetwork {
  /** An existing VNet and its subnet, by ARM ID: neither is created, and the subnet is never re-associated. */
  public static fromExistingVnet(vnetId: string, subnetId: string): ExistingClusterVnet {
    return { existing: { vnetId, subnetId } };
  }

  /** An existing network security group, by ARM ID: a created subnet is associated with it. */
  public static fromExistingNsg(nsgId: string): ExistingClusterNsg {
    return { existing: { nsgId } };
  }

  public readonly vnetId: string;
  public readonly subnetId: string;
  public readonly nsgId: string;
  public readonly securityGroup?: NetworkSecurityGroup;
  public readonly virtualNetwork?: VirtualNetwork;
  public readonly subnet?: Subnet;
  public readonly association?: SubnetNetworkSecurityGroupAssociation;

  constructor(scope: Construct, id: string, props: ClusterNetworkProps) {
    super(scope, id);
    const tags = literalTags(props.tags);
    const { vnet, nsg } = props;

    if ("existing" in nsg) {
      this.nsgId = nsg.existing.nsgId;
    } else {
      // No security_rule: it is optional and computed, so the rules the cloud provider adds for
      // LoadBalancer Services are not removed by the next apply.
      this.securityGroup = new NetworkSecurityGroup(this, "SecurityGroup", {
        name: literal(nsg.name),
        resourceGroupName: literal(nsg.resourceGroupName),
        location: props.location,
        tags,
      });
      this.nsgId = this.securityGroup.id;
    }

    if ("existing" in vnet) {
      this.vnetId = vnet.existing.vnetId;
      this.subnetId = vnet.existing.subnetId;
    } else {
      this.virtualNetwork = new VirtualNetwork(this, "VirtualNetwork", {
        name: literal(vnet.name),
        resourceGroupName: literal(vnet.resourceGroupName),
        location: props.location,
        addressSpace: [props.vnetCidr ?? "10.0.0.0/16"],
        tags,
      });
      // A separate subnet resource (not the inline block) so the association can refer to it.
      this.subnet = new Subnet(this, "Subnet", {
        name: literal(vnet.subnetName),
        resourceGroupName: this.virtualNetwork.resourceGroupName,
        virtualNetworkName: this.virtualNetwork.name,
        addressPrefixes: [props.subnetCidr ?? "10.0.0.0/24"],
      });
      this.association = new SubnetNetworkSecurityGroupAssociation(this, "SubnetSecurityGroup", {
        subnetId: this.subnet.id,
        networkSecurityGroupId: literal(this.nsgId),
      });
      this.vnetId = this.virtualNetwork.id;
      this.subnetId = this.subnet.id;
    }
  }

  /** Adoption: the import targets that make the resources created here take over existing ones. */
  public importTargets(existing: {
    readonly securityGroup?: ExistingObject;
    readonly virtualNetwork?: ExistingObject;
    readonly subnet?: ExistingObject;
    /** The subnet's NSG association (its import ID is the subnet's). */
    readonly subnetSecurityGroup?: ExistingObject;
  }): ImportTarget[] {
    const resources = { securityGroup: this.securityGroup, virtualNetwork: this.virtualNetwork, subnet: this.subnet, subnetSecurityGroup: this.association };
    return importTargetsOf(this, resources, existing);
  }
}
