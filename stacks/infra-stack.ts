import { AzureadProvider } from "@cdktf/provider-azuread/lib/provider";
import { TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { ClusterNames, diskEncryptionSetRoles, managedIdentitiesOf, managedIdentityRoleAssignmentsOf } from "../config/names";
import { ClusterNetwork } from "../constructs/cluster-infra/network";
import { ClusterResourceGroups } from "../constructs/cluster-infra/resource-groups";
import { EgressLoadBalancer } from "../constructs/cluster-infra/egress-load-balancer";
import { PrivateDnsZone } from "../constructs/cluster-infra/private-dns-zone";
import { WorkloadIdentityRoles } from "../constructs/cluster-infra/workload-identity-roles";
import { ControlPlanePrincipals } from "../constructs/control-plane-identities/control-plane-principals";
import { recordedControlPlanePrincipals } from "./shared-stack";
import { InfraCreationGuard } from "../constructs/cluster-infra/infra-creation-guard";
import { configureAzureStack, guardRetiredCluster, StackContext } from "./stack-setup";

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

    const groups = new ClusterResourceGroups(this, "ResourceGroups", { groups: hosted.resourceGroups, location, tags });
    const network = new ClusterNetwork(this, "Network", {
      location,
      vnet: { ...hosted.vnet, resourceGroupName: groups.name("vnet") },
      subnet: hosted.subnet,
      nsg: { ...hosted.nsg, resourceGroupName: groups.name("nsg") },
      vnetCidr: spec.network.vnetCidr,
      subnetCidr: spec.network.subnetCidr,
      tags,
    });
    new PrivateDnsZone(this, "PrivateDnsZone", {
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
    // Reader on the NodePools' disk encryption sets, for whoever writes VMs (CAPZ) and attaches disks (disk CSI).
    const encryptionSetRoles = diskEncryptionSetRoles(hosted);
    new WorkloadIdentityRoles(this, "WorkloadIdentityRoles", {
      assignments: [...managedIdentityRoleAssignmentsOf(roles), ...(roles.kind === "selfManaged" ? encryptionSetRoles : [])],
      identities: managedIdentitiesOf(cluster.identities),
      identityResourceGroupName: names.resourceGroup.name,
      scopeDependencies: groups.createdByArmId,
    });
    if (roles.kind === "aroHcp") {
      // aroHcp: the control-plane service principals (shared stack), found by the object IDs the
      // shared stack recorded and checked at plan, never by display name.
      new AzureadProvider(this, "azuread", { tenantId: config.tenantId });
      const principals = new ControlPlanePrincipals(this, "ControlPlanePrincipals", {
        principals: recordedControlPlanePrincipals(this, hosted.infraStack, props, cluster),
        tenantId: config.tenantId,
      });
      new WorkloadIdentityRoles(this, "ControlPlaneIdentityRoles", {
        assignments: [...roles.controlPlanePrincipals, ...encryptionSetRoles],
        identities: [...principals.objectIds].map(([key, principalId]) => ({ key, principalId })),
        identityResourceGroupName: names.resourceGroup.name,
        scopeDependencies: groups.createdByArmId,
      });
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
    };
    for (const [name, value] of Object.entries(outputs)) new TerraformOutput(this, name, { value });
  }
}
