import { ITerraformDependable, TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import {
  ClusterNames,
  diskEncryptionSetRoles,
  HostedClusterNames,
  managedIdentitiesOf,
  managedIdentityRoleAssignmentsOf,
  NatSubnetNames,
  ResourceGroupNames,
} from "../config/names";
import { ClusterNetwork } from "../constructs/cluster-infra/network";
import { ClusterResourceGroups } from "../constructs/cluster-infra/resource-groups";
import { EgressLoadBalancer } from "../constructs/cluster-infra/egress-load-balancer";
import { PrivateDnsZone } from "../constructs/cluster-infra/private-dns-zone";
import { WorkloadIdentityRoles } from "../constructs/cluster-infra/workload-identity-roles";
import { KmsCryptoUser } from "../constructs/kms/kms-key";
import { lookUpControlPlanePrincipals } from "./shared-stack";
import { InfraCreationGuard } from "../constructs/cluster-infra/infra-creation-guard";
import { ExistingNatSubnet, NatSubnet } from "../constructs/private-link/nat-subnet";
import { aliasedAzurermProvider, configureAzureStack } from "./azure-providers";
import { guardRetiredCluster, StackContext } from "./stack-setup";
import { escapeTemplates } from "../constructs/terraform-literal";

export interface InfraStackProps extends StackContext {
  /** The cluster; it must have `hosted` names (a `hostedCluster` in the config). */
  readonly cluster: ClusterNames;
}

/**
 * Phase 3 Azure infrastructure of one hosted cluster, what `hypershift create infra azure
 * --assign-identity-roles` makes: resource groups, VNet, subnet and NSG (unless existing), the
 * private DNS zone, the egress load balancer, and the workload identities' roles (aroHcp: the
 * data-plane identities' and the control-plane service principals' roles). Deleted with
 * the cluster. Finds the identities by derived name, never by cross-stack reference.
 */
export class InfraStack extends TerraformStack {
  constructor(scope: Construct, props: InfraStackProps) {
    const { config, names, cluster } = props;
    const hosted = cluster.hosted;
    if (!hosted) throw new Error(`internal: InfraStack for clusters[${cluster.index}] (${cluster.name}) without hostedCluster`);
    super(scope, hosted.infraStack);
    // Groups that still hold what HyperShift left (PV disks: user data) are deleted only on request.
    configureAzureStack(this, hosted.infraStack, props, { deleteNonEmptyResourceGroups: hosted.config.deleteResourceGroupsWithContents });
    guardRetiredCluster(this, cluster);
    // Renames that would replace Azure resources under a running cluster fail this plan first.
    new InfraCreationGuard(this, "CreationGuard", { cluster, hosted, location: config.location, storageAccountOrigin: names.storageAccount.origin });

    const scopeDependencies = this.addNetwork(props, hosted);
    this.addRoleAssignments(props, hosted, scopeDependencies);
    const natSubnet = this.addPrivateLinkNatSubnet(props, hosted);

    // IDs are derivable, so outputs are known at synth and match what HyperShift's infra JSON holds.
    // Existing ones come from the config: literals, never templates.
    const outputs: Record<string, string> = {
      infra_id: hosted.infraId,
      managed_resource_group: hosted.resourceGroups.managed.name,
      vnet_id: hosted.vnet.id,
      subnet_id: hosted.subnet.id,
      network_security_group_id: hosted.nsg.id,
      private_dns_zone_id: hosted.privateZone.id,
      public_dns_zone_id: hosted.publicZone.id,
      ...(natSubnet ? { private_link_nat_subnet_id: natSubnet.id } : {}),
    };
    for (const [name, value] of Object.entries(outputs)) new TerraformOutput(this, name, { value: escapeTemplates(value) });
  }

  /**
   * Resource groups, VNet, subnet and NSG (unless existing), the private DNS zone and the egress
   * load balancer. Returns what role assignments on them wait for: each created group or
   * resource, by ARM ID.
   */
  private addNetwork(props: InfraStackProps, hosted: HostedClusterNames): Map<string, ITerraformDependable> {
    const { location, tags } = props.config;
    const group = (g: ResourceGroupNames) => (g.create ? g : ClusterResourceGroups.fromExisting(g));
    const { managed, vnet: vnetGroup, nsg: nsgGroup } = hosted.resourceGroups;
    const groups = new ClusterResourceGroups(this, "ResourceGroups", {
      groups: { managed: group(managed), vnet: group(vnetGroup), nsg: group(nsgGroup) },
      location,
      tags,
    });
    const { vnet, subnet, nsg } = hosted;
    const network = new ClusterNetwork(this, "Network", {
      location,
      vnet: vnet.create
        ? { name: vnet.name, subnetName: subnet.name, resourceGroupName: groups.name("vnet") }
        : ClusterNetwork.fromExistingVnet(vnet.id, subnet.id),
      nsg: nsg.create ? { name: nsg.name, resourceGroupName: groups.name("nsg") } : ClusterNetwork.fromExistingNsg(nsg.id),
      vnetCidr: hosted.config.network.vnetCidr,
      subnetCidr: hosted.config.network.subnetCidr,
      tags,
    });
    const privateZone = new PrivateDnsZone(this, "PrivateDnsZone", {
      zoneName: hosted.privateZone.name,
      resourceGroupName: groups.name("managed"),
      linkName: hosted.privateZone.linkName,
      virtualNetworkId: network.vnetId,
      tags,
    });
    new EgressLoadBalancer(this, "EgressLoadBalancer", { name: hosted.loadBalancer.name, resourceGroupName: groups.name("managed"), location, tags });
    // A role on a resource created here waits for it, as one on a created group does.
    const created: Array<[string, ITerraformDependable | undefined]> = [
      [hosted.vnet.id, network.virtualNetwork],
      [hosted.subnet.id, network.subnet],
      [hosted.nsg.id, network.securityGroup],
      [hosted.privateZone.id, privateZone.zone],
    ];
    return new Map<string, ITerraformDependable>([
      ...groups.createdByArmId,
      ...created.flatMap(([id, resource]): Array<[string, ITerraformDependable]> => (resource ? [[id, resource]] : [])),
    ]);
  }

  /** The workload (aroHcp: data-plane) identities' roles and, aroHcp, the control-plane service principals' and the KMS principal's. */
  private addRoleAssignments(props: InfraStackProps, hosted: HostedClusterNames, scopeDependencies: ReadonlyMap<string, ITerraformDependable>): void {
    const { names, cluster } = props;
    const roles = hosted.roleAssignments;
    // Reader on the NodePools' disk encryption sets, for whoever writes VMs (CAPZ) and attaches disks (disk CSI).
    const encryptionSetRoles = diskEncryptionSetRoles(hosted);
    new WorkloadIdentityRoles(this, "WorkloadIdentityRoles", {
      assignments: [...managedIdentityRoleAssignmentsOf(roles), ...(roles.kind === "selfManaged" ? encryptionSetRoles : [])],
      identities: managedIdentitiesOf(cluster.identities),
      identityResourceGroupName: names.resourceGroup.name,
      scopeDependencies,
    });
    if (roles.kind !== "aroHcp") return;
    // aroHcp: the control-plane service principals (shared stack), found by the object IDs the
    // shared stack recorded and checked at plan, never by display name.
    const principals = lookUpControlPlanePrincipals(this, hosted.infraStack, props, cluster);
    new WorkloadIdentityRoles(this, "ControlPlaneIdentityRoles", {
      assignments: [...roles.controlPlanePrincipals, ...encryptionSetRoles],
      identities: [...principals.objectIds].map(([key, principalId]) => ({ key, principalId })),
      identityResourceGroupName: names.resourceGroup.name,
      scopeDependencies,
    });
    // hostedCluster.kms: Key Vault Crypto User on the key(s) only, for the KMS service principal
    // (the vault and key are made by identities-<name>, which deploys before this stack).
    const kmsPrincipal = principals.objectIds.get("kms");
    if (hosted.kms && kmsPrincipal) new KmsCryptoUser(this, "KmsCryptoUser", { principalId: kmsPrincipal, keyArmIds: hosted.kms.cryptoUserScopes });
  }

  /**
   * Private endpoint access: the NAT subnet of the cluster's Private Link Service, in the
   * management cluster's VNet. Owned here, so it is deleted with the cluster and only after the
   * HostedCluster (cluster stack) is gone: the Private Link Service using it is deleted by
   * HyperShift's finalizers first (help/private-clusters.md).
   */
  private addPrivateLinkNatSubnet(props: InfraStackProps, hosted: HostedClusterNames): NatSubnetNames | undefined {
    const { config } = props;
    const access = hosted.endpointAccess;
    const natSubnet = access.kind === "Public" ? undefined : access.natSubnet;
    if (!natSubnet) return undefined;
    // The management cluster's subscription may differ: a second, aliased provider touches only the subnet.
    const provider = aliasedAzurermProvider(this, "azurerm-management", { alias: "management", subscriptionId: natSubnet.subscription }, config);
    const subnet = {
      name: natSubnet.name,
      virtualNetworkName: natSubnet.vnetName,
      resourceGroupName: natSubnet.resourceGroup,
      location: config.location,
      provider,
    };
    if (natSubnet.create && natSubnet.cidr) new NatSubnet(this, "PrivateLinkNatSubnet", { ...subnet, cidr: natSubnet.cidr });
    // An existing one is read and checked at plan (policies disabled, region): never changed.
    else new ExistingNatSubnet(this, "PrivateLinkNatSubnet", subnet);
    return natSubnet;
  }
}
