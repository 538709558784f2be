import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { escapeTemplates } from "../terraform-literal";
import { HostedClusterManifestInput, hostedClusterManifest, nodePoolManifest } from "./manifests";

export interface HostedClusterProps extends HostedClusterManifestInput {
  /**
   * What the HostedCluster needs first: the Secrets it names. Destroy then deletes the
   * HostedCluster (and waits for HyperShift to clean up) before them.
   * @default - nothing
   */
  readonly dependsOn?: ITerraformDependable[];
}

const FIELD_MANAGER = "hcp-azure";

/**
 * A HostedCluster and its NodePools on the management cluster (seed 004 Phase 3), as
 * kubernetes_manifest resources. Apply waits until the HostedCluster is Available; the NodePools
 * follow it, so destroy removes them (and their VMs) before the control plane.
 *
 * Construct IDs are a contract: `HostedCluster` (this construct, in the stack), its manifest
 * `Resource`, and `NodePool_<name>` per NodePool.
 */
export class HostedCluster extends Construct {
  public readonly resource: Manifest;
  public readonly nodePools: readonly Manifest[];
  /** Namespace of the HostedCluster, its NodePools and Secrets. */
  public readonly namespace: string;
  /**
   * Secret with the admin kubeconfig (key `kubeconfig`) that HyperShift writes into the
   * HostedCluster's namespace once the API server is up: `<name>-admin-kubeconfig`
   * (`hypershift-operator/controllers/manifests`, referenced by status.kubeconfig).
   */
  public readonly kubeconfigSecretName: string;

  constructor(scope: Construct, id: string, props: HostedClusterProps) {
    super(scope, id);
    validate(props);
    const { hostedCluster, names } = props;
    const timeout = hostedCluster.availableTimeout;
    this.namespace = names.namespace;
    this.kubeconfigSecretName = names.secrets.adminKubeconfig;

    this.resource = new Manifest(this, "Resource", {
      manifest: escapeTemplates(hostedClusterManifest(props)) as Record<string, unknown>,
      fieldManager: { name: FIELD_MANAGER },
      wait: { condition: [{ type: "Available", status: "True" }] },
      // Delete waits too: the provider (manifest/provider/apply.go) deletes the object, then polls
      // until the API server answers NotFound, i.e. until HyperShift's finalizers have removed the
      // control plane and the cluster's Azure resources, and fails when the delete timeout ends.
      // That timeout is read from state, so a changed value applies to destroys after an apply.
      timeouts: { create: timeout, update: timeout, delete: timeout },
      dependsOn: props.dependsOn,
    });

    // A pool with availabilityZones is one NodePool per zone (<name>-<zone>), from names.
    this.nodePools = names.nodePools.map(
      ({ config: nodePool }) =>
        new Manifest(this, `NodePool_${nodePool.name}`, {
          manifest: escapeTemplates(
            nodePoolManifest({
              clusterName: props.name,
              namespace: names.namespace,
              releaseImage: hostedCluster.releaseImage,
              subnetId: names.subnet.id,
              nodePool,
            }),
          ) as Record<string, unknown>,
          fieldManager: { name: FIELD_MANAGER },
          // Deleting a NodePool waits for its machines to go, within the same budget.
          timeouts: { delete: timeout },
          dependsOn: [this.resource],
        }),
    );
  }
}

function validate(props: HostedClusterProps): void {
  // availableTimeout and NodePool names are config rules (schema.ts, rules/hosted-cluster.ts); a
  // repeated NodePool name still fails here, as a repeated construct ID.
  const problems: string[] = [];
  if (props.issuerUrl.endsWith("/")) problems.push(`issuerUrl "${props.issuerUrl}" must not end with '/' (tokens carry it verbatim as iss)`);
  if (problems.length > 0) throw new Error(`HostedCluster ${props.names.namespace}/${props.name}: ${problems.join("; ")}`);
}
