import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { FIELD_MANAGER } from "../kubernetes-constants";
import { escapeTemplates } from "../terraform-literal";
import { HostedClusterManifestProps, hostedClusterManifest } from "./hosted-cluster-manifest";
import { NodePoolConfigMaps, NodePoolNodeConfig, NodePoolTuning } from "./node-pool-config";
import { nodePoolManifest, NodePoolSettings } from "./node-pool-manifest";
import { controlPlaneWait, nodePoolWait, UpgradeWaitProps } from "./upgrade-waits";

/** A NodePool of the HostedCluster: its own settings; the cluster name and namespace are the HostedCluster's. */
export interface HostedClusterNodePool extends NodePoolSettings {
  /** The pool's own release image, to upgrade its workers after the control plane. @default - the HostedCluster's releaseImage */
  readonly releaseImage?: string;
  /** ARM ID of the workers' subnet, in the cluster's VNet. @default - the HostedCluster's subnet (azure.subnetId) */
  readonly subnetId?: string;
  /** Kubelet and CRI-O settings, made into the ConfigMap `configMaps.config` names. @default - none */
  readonly config?: NodePoolNodeConfig;
  /** A TuneD profile, made into the ConfigMap `configMaps.tuning` names. @default - none */
  readonly tuning?: NodePoolTuning;
}

export interface HostedClusterProps extends HostedClusterManifestProps {
  /** The NodePools, each `NodePool_<name>` (a pool with availabilityZones comes as one per zone). @default [] */
  readonly nodePools?: readonly HostedClusterNodePool[];
  /**
   * How long apply waits for the HostedCluster condition Available, and destroy for HyperShift's
   * finalizers (and a NodePool's delete for its machines): a Terraform duration such as `45m`.
   */
  readonly availableTimeout: string;
  /**
   * Secret with the admin kubeconfig that HyperShift writes into the namespace once the API server
   * is up: `<name>-admin-kubeconfig` (`hypershift-operator/controllers/manifests`).
   */
  readonly kubeconfigSecretName: string;
  /**
   * What the HostedCluster needs first: the Secrets it names. Destroy then deletes the
   * HostedCluster (and waits for HyperShift to clean up) before them.
   * @default - nothing
   */
  readonly dependsOn?: ITerraformDependable[];
  /** Ordered upgrades: what apply waits for (upgrade-waits.ts). @default - Available, pools unwaited (45m/90m/60m) */
  readonly upgrade?: UpgradeWaitProps;
  /** Preconditions of the HostedCluster, checked at plan (the supported-versions check). @default - none */
  readonly preconditions?: NonNullable<Manifest["lifecycle"]>["precondition"];
  /** Objects that exist already (adoption), from `HostedCluster.fromExisting`. @default - every object is created here */
  readonly existing?: ExistingHostedClusterObjects;
}

/**
 * A HostedCluster, and NodePools by name, that another tool made (`hypershift create cluster
 * azure`): they are applied with force_conflicts, taking over every field the config sets from the
 * CLI's field managers (which would otherwise conflict on each later change: a scale, an upgrade).
 */
export interface ExistingHostedClusterObjects {
  readonly existing: { readonly nodePools: readonly string[] };
}

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

  /** The HostedCluster exists, and so do the NodePools named (adoption): its import targets are in constructs/adoption/. */
  public static fromExisting(nodePools: readonly string[]): ExistingHostedClusterObjects {
    return { existing: { nodePools } };
  }

  constructor(scope: Construct, id: string, props: HostedClusterProps) {
    super(scope, id);
    validate(props);
    const timeout = props.availableTimeout;
    this.namespace = props.namespace;
    this.kubeconfigSecretName = props.kubeconfigSecretName;

    this.resource = new Manifest(this, "Resource", {
      manifest: escapeTemplates(hostedClusterManifest(props)) as Record<string, unknown>,
      fieldManager: { name: FIELD_MANAGER, ...(props.existing ? { forceConflicts: true } : {}) },
      // The release completed (or, creating with no way to tell, Available: upgrade-waits.ts), before any NodePool moves.
      wait: controlPlaneWait(props.releaseImage, props.upgrade),
      // Delete waits too: the provider (manifest/provider/apply.go) deletes the object, then polls
      // until the API server answers NotFound, i.e. until HyperShift's finalizers have removed the
      // control plane and the cluster's Azure resources, and fails when the delete timeout ends.
      // That timeout is read from state, so a changed value applies to destroys after an apply.
      timeouts: { create: timeout, update: props.upgrade?.controlPlaneTimeout ?? timeout, delete: timeout },
      dependsOn: props.dependsOn,
      ...(props.preconditions && props.preconditions.length > 0 ? { lifecycle: { precondition: props.preconditions } } : {}),
    });

    this.nodePools = (props.nodePools ?? []).map((nodePool) => {
      const releaseImage = nodePool.releaseImage ?? props.releaseImage;
      const poolTimeout = props.upgrade?.nodePoolTimeout;
      return new Manifest(this, `NodePool_${nodePool.name}`, {
        // Its ConfigMaps (`NodePoolConfig_<name>`) exist before it and go after it.
        manifest: escapeTemplates(
          nodePoolManifest({
            ...nodePool,
            clusterName: props.name,
            namespace: props.namespace,
            releaseImage,
            subnetId: nodePool.subnetId ?? props.azure.subnetId,
          }),
        ) as Record<string, unknown>,
        fieldManager: { name: FIELD_MANAGER, ...(props.existing?.existing.nodePools.includes(nodePool.name) ? { forceConflicts: true } : {}) },
        // Its release rolled out (upgrade-waits.ts); deleting it waits for its machines to go, within availableTimeout.
        ...(props.upgrade ? { wait: nodePoolWait(releaseImage) } : {}),
        timeouts: poolTimeout ? { create: poolTimeout, update: poolTimeout, delete: timeout } : { delete: timeout },
        // After the HostedCluster's wait: a release change reaches the pools once the control plane completed it.
        dependsOn: [this.resource, ...nodePoolConfigMaps(this, props.namespace, nodePool)],
      });
    });
  }
}

/** The ConfigMaps of one NodePool's config and tuning (`NodePoolConfig_<name>`), when it has any. */
function nodePoolConfigMaps(scope: Construct, namespace: string, pool: HostedClusterNodePool): ITerraformDependable[] {
  const names = pool.configMaps ?? {};
  const config = names.config && pool.config ? { name: names.config, settings: pool.config } : undefined;
  const tuning = names.tuning && pool.tuning ? { name: names.tuning, settings: pool.tuning } : undefined;
  if (!config && !tuning) return [];
  return [...new NodePoolConfigMaps(scope, `NodePoolConfig_${pool.name}`, { namespace, poolName: pool.name, config, tuning }).configMaps];
}

function validate(props: HostedClusterProps): void {
  // availableTimeout and NodePool names are config rules (schema.ts, rules/hosted-cluster.ts); a
  // repeated NodePool name still fails here, as a repeated construct ID.
  const problems: string[] = [];
  if (props.issuerUrl.endsWith("/")) problems.push(`issuerUrl "${props.issuerUrl}" must not end with '/' (tokens carry it verbatim as iss)`);
  if (problems.length > 0) throw new Error(`HostedCluster ${props.namespace}/${props.name}: ${problems.join("; ")}`);
}
