import { AzureadProvider } from "@cdktf/provider-azuread/lib/provider";
import { ITerraformDependable, TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { ClusterNames, diskEncryptionSetRoles, managedIdentitiesOf, managedIdentityRoleAssignmentsOf, ResourceGroupNames } from "../config/names";
import { ClusterNetwork } from "../constructs/cluster-infra/network";
import { ClusterResourceGroups } from "../constructs/cluster-infra/resource-groups";
import { EgressLoadBalancer } from "../constructs/cluster-infra/egress-load-balancer";
import { PrivateDnsZone } from "../constructs/cluster-infra/private-dns-zone";
import { WorkloadIdentityRoles } from "../constructs/cluster-infra/workload-identity-roles";
import { ControlPlanePrincipals } from "../constructs/control-plane-identities/control-plane-principals";
import { KmsCryptoUser } from "../constructs/kms/kms-key";
import { recordedControlPlanePrincipals } from "./shared-stack";
import { InfraCreationGuard } from "../constructs/cluster-infra/infra-creation-guard";
import { ExistingNatSubnet, NatSubnet } from "../constructs/private-link/nat-subnet";
import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { azureadEnvironment, azurermEnvironment, configureAzureStack, guardRetiredCluster, StackContext } from "./stack-setup";

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
    const spec = hosted.config;
    super(scope, hosted.infraStack);
    // Groups that still hold what HyperShift left (PV disks: user data) are deleted only on request.
    configureAzureStack(this, hosted.infraStack, props, { deleteNonEmptyResourceGroups: spec.deleteResourceGroupsWithContents });
    guardRetiredCluster(this, cluster);
    // Renames that would replace Azure resources under a running cluster fail this plan first.
    new InfraCreationGuard(this, "CreationGuard", { cluster, hosted, location: config.location, storageAccountOrigin: names.storageAccount.origin });
    const { location, tags } = config;

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
      vnetCidr: spec.network.vnetCidr,
      subnetCidr: spec.network.subnetCidr,
      tags,
    });
    const privateZone = new PrivateDnsZone(this, "PrivateDnsZone", {
      zoneName: hosted.privateZone.name,
      resourceGroupName: groups.name("managed"),
      linkName: hosted.privateZone.linkName,
      virtualNetworkId: network.vnetId,
      tags,
    });
    new EgressLoadBalancer(this, "EgressLoadBalancer", {
      name: hosted.loadBalancer.name,
      resourceGroupName: groups.name("managed"),
      location,
      tags,
    });
    const roles = hosted.roleAssignments;
    // A role on a resource created here waits for it, as one on a created group does.
    const created: Array<[string, ITerraformDependable | undefined]> = [
      [hosted.vnet.id, network.virtualNetwork],
      [hosted.subnet.id, network.subnet],
      [hosted.nsg.id, network.securityGroup],
      [hosted.privateZone.id, privateZone.zone],
    ];
    const scopeDependencies = new Map<string, ITerraformDependable>([
      ...groups.createdByArmId,
      ...created.flatMap(([id, resource]): Array<[string, ITerraformDependable]> => (resource ? [[id, resource]] : [])),
    ]);
    // Reader on the NodePools' disk encryption sets, for whoever writes VMs (CAPZ) and attaches disks (disk CSI).
    const encryptionSetRoles = diskEncryptionSetRoles(hosted);
    new WorkloadIdentityRoles(this, "WorkloadIdentityRoles", {
      assignments: [...managedIdentityRoleAssignmentsOf(roles), ...(roles.kind === "selfManaged" ? encryptionSetRoles : [])],
      identities: managedIdentitiesOf(cluster.identities),
      identityResourceGroupName: names.resourceGroup.name,
      scopeDependencies,
    });
    if (roles.kind === "aroHcp") {
      // aroHcp: the control-plane service principals (shared stack), found by the object IDs the
      // shared stack recorded and checked at plan, never by display name.
      new AzureadProvider(this, "azuread", { tenantId: config.tenantId, ...azureadEnvironment(config) });
      const principals = new ControlPlanePrincipals(this, "ControlPlanePrincipals", {
        principals: recordedControlPlanePrincipals(this, hosted.infraStack, props, cluster),
        tenantId: config.tenantId,
      });
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

    // Private endpoint access: the NAT subnet of the cluster's Private Link Service, in the
    // management cluster's VNet. Owned here, so it is deleted with the cluster and only after the
    // HostedCluster (cluster stack) is gone: the Private Link Service using it is deleted by
    // HyperShift's finalizers first (help/private-clusters.md).
    const access = hosted.endpointAccess;
    const natSubnet = access.kind === "Public" ? undefined : access.natSubnet;
    if (natSubnet) {
      // The management cluster's subscription may differ: a second, aliased provider touches only the subnet.
      const provider =
        natSubnet.subscription.toLowerCase() === config.subscriptionId.toLowerCase()
          ? undefined
          : new AzurermProvider(this, "azurerm-management", {
              alias: "management",
              features: [{}],
              subscriptionId: natSubnet.subscription,
              tenantId: config.tenantId,
              ...azurermEnvironment(config),
              resourceProviderRegistrations: "none",
            });
      const subnet = { name: natSubnet.name, virtualNetworkName: natSubnet.vnetName, resourceGroupName: natSubnet.resourceGroup, location, provider };
      if (natSubnet.create && natSubnet.cidr) new NatSubnet(this, "PrivateLinkNatSubnet", { ...subnet, cidr: natSubnet.cidr });
      // An existing one is read and checked at plan (policies disabled, region): never changed.
      else new ExistingNatSubnet(this, "PrivateLinkNatSubnet", subnet);
    }

    // IDs are derivable, so outputs are known at synth and match what HyperShift's infra JSON holds.
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
    for (const [name, value] of Object.entries(outputs)) new TerraformOutput(this, name, { value });
  }
}
