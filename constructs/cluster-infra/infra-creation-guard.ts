import { DataResource } from "cdktf";
import { Construct } from "constructs";
import { HostedClusterNames } from "../../config/names";
import { guardValues } from "../hosted-cluster/creation-guard";
import { endpointAccessProps, endpointTopology } from "../hosted-cluster/endpoint-access";
import { HYPERSHIFT_API_VERSION, HyperShiftObject } from "../hosted-cluster/hypershift-object";
import { ConfigKeyContext, HOSTED_CLUSTER_IMMUTABLE_FIELDS, ImmutableField } from "../hosted-cluster/immutable-fields";
import { literal } from "../terraform-literal";

export interface InfraCreationGuardProps extends ConfigKeyContext {
  /** The cluster's derived Azure names (the values the HostedCluster also carries), and its endpoint access. */
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
 * HostedCluster fields of endpoint access, by path, with what `infra-<name>` would do on an edit:
 * it creates the Private Link NAT subnet (`privateLink.natSubnet`, named by natSubnetID) and, with
 * a private topology and the least-privilege role set, grants the control-plane operator Network
 * Contributor instead of its read-only role (config/components.ts `CONTROL_PLANE_OPERATOR_PRIVATE_LINK`).
 */
const PRIVATE_OR_NOT =
  "Terraform would create or delete the Private Link NAT subnet (when this config makes it) and change the control-plane operator's roles on the managed resource group and VNet (Private Link needs Network Contributor there) under the running cluster";
const ENDPOINT_ACCESS_CONSEQUENCES: Readonly<Record<string, string>> = {
  "spec.platform.azure.topology": PRIVATE_OR_NOT,
  "spec.platform.azure.private": PRIVATE_OR_NOT,
  "spec.platform.azure.private.privateLink.natSubnetID":
    "Terraform would replace or delete the NAT subnet of the running cluster's Private Link Service (when this config makes it)",
};

/**
 * The creation guard of `infra-<name>`: `deploy '*'` applies the infra stack a wave before the
 * cluster stack, so a renamed VNet, subnet, NSG, resource group or private zone, or another NAT
 * subnet or endpoint access, would replace or delete the Azure resources under a running cluster
 * before the HostedCluster's own guard failed. This one fails the infra plan first, for the
 * HostedCluster fields those names decide (`guardValues`), with the same fields, readers and
 * messages as the HostedCluster's guard (`immutable-fields.ts`).
 *
 * Construct IDs are a contract: `CreationGuard` (in the stack), `Guard` (the Azure names) and
 * `EndpointAccess` below it. Endpoint access has a guard of its own because a guard compares only
 * the fields its state recorded when it was created (its input is ignored afterwards): added to
 * `Guard`, the fields would never be compared for a cluster deployed before, while a new resource
 * records them on its first apply (help/private-clusters.md, "Changing it later").
 */
export class InfraCreationGuard extends Construct {
  public readonly resource: DataResource;
  /** The guarded fields, with the consequence of an edit here. */
  public readonly fields: readonly ImmutableField[];
  /** The guard of the endpoint access fields (topology, private, natSubnetID). */
  public readonly endpointAccessResource: DataResource;
  public readonly endpointAccessFields: readonly ImmutableField[];

  constructor(scope: Construct, id: string, props: InfraCreationGuardProps) {
    super(scope, id);
    const what = `the Azure infrastructure of ${props.cluster.name}`;
    const wayForward = "create a new cluster with the new value (a new clusters[] entry)";
    this.fields = fieldsAt(Object.keys(INFRA_VALUES), (field) => ({
      ...field,
      consequence: `Terraform would replace the cluster's Azure resources named by it under the running cluster, and the HostedCluster refuses the change (${field.crdMessage}).`,
    }));
    this.resource = guardValues(this, "Guard", {
      what,
      fields: this.fields,
      value: (field) => literal(INFRA_VALUES[field.path](props)),
      context: props,
      wayForward,
    });

    const object = endpointAccessObject(props);
    this.endpointAccessFields = fieldsAt(Object.keys(ENDPOINT_ACCESS_CONSEQUENCES), (field) => ({
      ...field,
      consequence: `${ENDPOINT_ACCESS_CONSEQUENCES[field.path]}, and the HostedCluster refuses the change (${field.crdMessage}).`,
    }));
    this.endpointAccessResource = guardValues(this, "EndpointAccess", {
      what,
      fields: this.endpointAccessFields,
      value: (field) => literal(field.read(object)),
      context: props,
      wayForward,
    });
  }
}

/** The HostedCluster's fields at `paths`, in the list's order, each as `infra` makes it. */
function fieldsAt(paths: readonly string[], infra: (field: ImmutableField) => ImmutableField): ImmutableField[] {
  const fields = HOSTED_CLUSTER_IMMUTABLE_FIELDS.filter((field) => paths.includes(field.path));
  if (fields.length !== paths.length) throw new Error(`internal: the infra creation guard names fields immutable-fields.ts lacks: ${paths.join(", ")}`);
  return fields.map(infra);
}

/**
 * `topology` and `private` of a HostedCluster with this endpoint access, rendered as the
 * HostedCluster renders them (`endpointTopology`), so the fields' own readers give the values. Always
 * rendered, whether or not the operator release's CRD has `topology` (4.21 does not): the infra stack
 * follows the endpoint access, not the CRD.
 */
function endpointAccessObject(props: InfraCreationGuardProps): HyperShiftObject {
  const azure = endpointTopology(endpointAccessProps(props.cluster.name, props.hosted.endpointAccess));
  return {
    apiVersion: HYPERSHIFT_API_VERSION,
    kind: "HostedCluster",
    metadata: { name: props.cluster.name, namespace: props.hosted.namespace },
    spec: { platform: { azure } },
  };
}
