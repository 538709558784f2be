import { NetworkSecurityGroup } from "@cdktf/provider-azurerm/lib/network-security-group";
import { Subnet } from "@cdktf/provider-azurerm/lib/subnet";
import { SubnetNetworkSecurityGroupAssociation } from "@cdktf/provider-azurerm/lib/subnet-network-security-group-association";
import { VirtualNetwork } from "@cdktf/provider-azurerm/lib/virtual-network";
import { Token } from "cdktf";
import { Construct } from "constructs";
import { AZURE_NAME_RULES } from "../../config/azure-rules";
import { contains, parseCidr } from "../../config/cidr";
import { literalTags } from "../terraform-literal";

/** A network resource to create, or an existing one to use by ID. */
export interface ClusterNetworkResource {
  /** Name (1-80 letters, digits, '-', '_' or '.'); used only when created. */
  readonly name: string;
  /** ARM ID: used as is when existing. */
  readonly id: string;
  /** Create it (true) or use the existing resource at `id` (false). */
  readonly create: boolean;
  /**
   * Resource group of a created resource; pass the reference of a group created in the same
   * stack so the resource waits for it.
   */
  readonly resourceGroupName: string;
}

export interface ClusterNetworkProps {
  /** Azure region of the created VNet and NSG. */
  readonly location: string;
  /** The workers' VNet. */
  readonly vnet: ClusterNetworkResource;
  /** The workers' subnet, in `vnet`: created exactly when the VNet is (resource group: the VNet's). */
  readonly subnet: Omit<ClusterNetworkResource, "resourceGroupName">;
  /** The subnet's network security group. */
  readonly nsg: ClusterNetworkResource;
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
export class ClusterNetwork extends Construct {
  /** VNet ARM ID: a reference when created (dependents wait for it), else the existing ID. */
  public readonly vnetId: string;
  /** Subnet ARM ID: a reference when created, else the existing ID. */
  public readonly subnetId: string;
  /** NSG ARM ID: a reference when created, else the existing ID. */
  public readonly nsgId: string;
  public readonly securityGroup?: NetworkSecurityGroup;
  public readonly virtualNetwork?: VirtualNetwork;
  public readonly subnet?: Subnet;
  public readonly association?: SubnetNetworkSecurityGroupAssociation;

  constructor(scope: Construct, id: string, props: ClusterNetworkProps) {
    super(scope, id);
    const vnetCidr = props.vnetCidr ?? "10.0.0.0/16";
    const subnetCidr = props.subnetCidr ?? "10.0.0.0/24";
    validate(props, vnetCidr, subnetCidr);
    const tags = literalTags(props.tags);

    if (props.nsg.create) {
      // No security_rule: it is optional and computed, so the rules the cloud provider adds for
      // LoadBalancer Services are not removed by the next apply.
      this.securityGroup = new NetworkSecurityGroup(this, "SecurityGroup", {
        name: props.nsg.name,
        resourceGroupName: props.nsg.resourceGroupName,
        location: props.location,
        tags,
      });
    }
    this.nsgId = this.securityGroup?.id ?? props.nsg.id;

    if (props.vnet.create) {
      this.virtualNetwork = new VirtualNetwork(this, "VirtualNetwork", {
        name: props.vnet.name,
        resourceGroupName: props.vnet.resourceGroupName,
        location: props.location,
        addressSpace: [vnetCidr],
        tags,
      });
      // A separate subnet resource (not the inline block) so the association can refer to it.
      this.subnet = new Subnet(this, "Subnet", {
        name: props.subnet.name,
        resourceGroupName: this.virtualNetwork.resourceGroupName,
        virtualNetworkName: this.virtualNetwork.name,
        addressPrefixes: [subnetCidr],
      });
      this.association = new SubnetNetworkSecurityGroupAssociation(this, "SubnetSecurityGroup", {
        subnetId: this.subnet.id,
        networkSecurityGroupId: this.nsgId,
      });
    }
    this.vnetId = this.virtualNetwork?.id ?? props.vnet.id;
    this.subnetId = this.subnet?.id ?? props.subnet.id;
  }
}

function validate(props: ClusterNetworkProps, vnetCidr: string, subnetCidr: string): void {
  const problems: string[] = [];
  if (props.subnet.create !== props.vnet.create) {
    problems.push(
      `subnet.create (${props.subnet.create}) must equal vnet.create (${props.vnet.create}): a created VNet gets a new subnet, an existing VNet brings its own`,
    );
  }
  // VNet names are shorter than the other network names (resource-name-rules: 2-64).
  for (const [key, resource, rule] of [
    ["vnet", props.vnet, AZURE_NAME_RULES.virtualNetwork],
    ["subnet", props.subnet, AZURE_NAME_RULES.networkName],
    ["nsg", props.nsg, AZURE_NAME_RULES.networkName],
  ] as const) {
    if (resource.create && !Token.isUnresolved(resource.name) && !rule.test(resource.name)) {
      problems.push(`${key}.name "${resource.name}" ${rule.rule}`);
    }
  }
  if (props.vnet.create) {
    const ipv4Cidr = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;
    const valid = (cidr: string) => {
      const m = ipv4Cidr.exec(cidr);
      return m !== null && m.slice(1, 5).every((octet) => Number(octet) <= 255) && Number(m[5]) <= 32;
    };
    if (!valid(vnetCidr)) problems.push(`vnetCidr "${vnetCidr}" must be an IPv4 CIDR such as 10.0.0.0/16`);
    if (!valid(subnetCidr)) problems.push(`subnetCidr "${subnetCidr}" must be an IPv4 CIDR such as 10.0.0.0/24`);
    if (valid(vnetCidr) && valid(subnetCidr) && !contains(parseCidr(vnetCidr), parseCidr(subnetCidr))) {
      problems.push(`subnetCidr "${subnetCidr}" must lie inside vnetCidr ${vnetCidr}`);
    }
  }
  if (problems.length > 0) throw new Error(`ClusterNetwork: ${problems.join("; ")}`);
}
