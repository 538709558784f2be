import { DataResource } from "cdktf";
import { Construct } from "constructs";
import { HostedClusterNames } from "../../config/names";
import { guardValues } from "../hosted-cluster/creation-guard";
import { ConfigKeyContext, HOSTED_CLUSTER_IMMUTABLE_FIELDS, ImmutableField } from "../hosted-cluster/immutable-fields";
import { escapeTemplates } from "../terraform-literal";

export interface InfraCreationGuardProps extends ConfigKeyContext {
  /** The cluster's derived Azure names (the values the HostedCluster also carries). */
  readonly hosted: HostedClusterNames;
  /** Azure region. */
  readonly location: string;
}

/** HostedCluster fields whose values name what `infra-<name>` creates, by path. */
const INFRA_VALUES: Readonly<Record<string, (props: InfraCreationGuardProps) => string>> = {
  "spec.infraID": (p) => p.hosted.infraId,
  "spec.platform.azure.location": (p) => p.location,
  "spec.platform.azure.resourceGroup": (p) => p.hosted.resourceGroups.managed.name,
  "spec.dns.privateZoneID": (p) => p.hosted.privateZone.id,
  "spec.platform.azure.vnetID": (p) => p.hosted.vnet.id,
  "spec.platform.azure.subnetID": (p) => p.hosted.subnet.id,
  "spec.platform.azure.securityGroupID": (p) => p.hosted.nsg.id,
};

/**
 * The creation guard of `infra-<name>`: `deploy '*'` applies the infra stack a wave before the
 * cluster stack, so a renamed VNet, subnet, NSG, resource group or private zone would replace the
 * Azure resources under a running cluster before the HostedCluster's own guard failed. This one
 * fails the infra plan first, for the HostedCluster fields those names decide (`guardValues`).
 * Construct ID `CreationGuard` is a contract.
 */
export class InfraCreationGuard extends Construct {
  public readonly resource: DataResource;
  /** The guarded fields, with the consequence of an edit here. */
  public readonly fields: readonly ImmutableField[];

  constructor(scope: Construct, id: string, props: InfraCreationGuardProps) {
    super(scope, id);
    this.fields = HOSTED_CLUSTER_IMMUTABLE_FIELDS.filter((field) => field.path in INFRA_VALUES).map((field) => ({
      ...field,
      consequence: `Terraform would replace the cluster's Azure resources named by it under the running cluster, and the HostedCluster refuses the change (${field.crdMessage}).`,
    }));
    this.resource = guardValues(this, "Guard", {
      what: `the Azure infrastructure of ${props.cluster.name}`,
      fields: this.fields,
      value: (field) => escapeTemplates(INFRA_VALUES[field.path](props)) as string,
      context: props,
      wayForward: "create a new cluster with the new value (a new clusters[] entry)",
    });
  }
}
