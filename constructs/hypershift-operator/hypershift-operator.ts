import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import { dependable, ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { BUNDLE_TIERS, BundleObject, BundleTier } from "../../config/operator-bundle";
import { FIELD_MANAGER } from "../kubernetes-constants";
import { escapeTemplates } from "../terraform-literal";

export interface HypershiftOperatorProps {
  /** The bundle's objects in apply order (config/operator-bundle/ reads and checks them). */
  readonly objects: readonly BundleObject[];
  /**
   * How long apply waits for each Deployment, DaemonSet or StatefulSet to roll out (also the
   * create/update timeout of every object).
   * @default "10m"
   */
  readonly rolloutTimeout?: string;
  /**
   * Make Terraform refuse to delete the CustomResourceDefinitions and Namespaces: deleting the
   * HostedCluster CRD deletes every hosted cluster on the management cluster.
   * @default true
   */
  readonly preventDestroy?: boolean;
  /**
   * Take over fields another field manager owns (e.g. objects an earlier `hypershift install`
   * created, after importing them) instead of failing the apply with a conflict.
   * @default false
   */
  readonly forceConflicts?: boolean;
}

/**
 * The HyperShift operator on the management cluster (seed 004 Phase 2 step 3), one
 * kubernetes_manifest per object of the rendered bundle. Objects go in tiers, each depending on
 * the one before (and destroyed before it): CRDs, namespaces and priority classes; then RBAC,
 * config and services; then workloads, waited for until rolled out; then admission webhooks, so
 * no webhook is registered before its server runs.
 */
export class HypershiftOperator extends Construct {
  /** Every manifest, in apply order. */
  public readonly manifests: readonly Manifest[];
  private readonly tiers = new Map<BundleTier, Manifest[]>();

  constructor(scope: Construct, id: string, props: HypershiftOperatorProps) {
    super(scope, id);
    validate(props);
    const timeout = props.rolloutTimeout ?? "10m";
    const manifests: Manifest[] = [];
    let previous: Manifest[] = [];
    for (const tier of BUNDLE_TIERS) {
      const members = props.objects.filter((o) => o.tier === tier);
      if (members.length === 0) continue;
      const created = members.map(
        (object) =>
          new Manifest(this, manifestId(object), {
            manifest: escapeTemplates(object.manifest) as Record<string, unknown>,
            dependsOn: previous.length > 0 ? previous : undefined,
            fieldManager: { name: FIELD_MANAGER, forceConflicts: props.forceConflicts },
            wait: tier === "workloads" && object.manifest.kind !== "Job" ? { rollout: true } : undefined,
            timeouts: { create: timeout, update: timeout },
            lifecycle: tier === "definitions" && object.manifest.kind !== "PriorityClass" ? { preventDestroy: props.preventDestroy ?? true } : undefined,
          }),
      );
      this.tiers.set(tier, created);
      manifests.push(...created);
      previous = created;
    }
    this.manifests = manifests;
  }

  /** CRDs, namespaces and priority classes: what other resources in the namespace must wait for. */
  public get definitions(): ITerraformDependable[] {
    return [...(this.tiers.get("definitions") ?? [])];
  }

  /** Makes every workload (and so everything after it) wait for `dependency`, e.g. a Secret it mounts. */
  public addWorkloadDependency(dependency: ITerraformDependable): void {
    for (const workload of this.tiers.get("workloads") ?? []) {
      // `dependable()` is what cdktf applies to the dependsOn config: a reference that
      // synthesizes as the bare address Terraform's depends_on takes.
      workload.dependsOn = [...(workload.dependsOn ?? []), dependable(dependency)];
    }
  }
}

/** `<Kind>_<namespace>_<name>`: stable while the object keeps its identity (a contract: changing it recreates the object). */
export function manifestId(object: BundleObject): string {
  const { kind, metadata } = object.manifest;
  return [kind, metadata.namespace ?? "", metadata.name].join("_");
}

/** Moved to ../terraform-literal (one escape for every construct); kept here for existing imports. */
export { escapeTemplates } from "../terraform-literal";

function validate(props: HypershiftOperatorProps): void {
  // rolloutTimeout is a config rule (schema.ts); the construct IDs are this construct's.
  const problems: string[] = [];
  if (props.objects.length === 0) problems.push("objects is empty (a rendered bundle has CRDs, a namespace and the operator)");
  const ids = new Set<string>();
  for (const object of props.objects) {
    const id = manifestId(object);
    if (ids.has(id)) problems.push(`${object.label} appears twice`);
    ids.add(id);
  }
  if (problems.length > 0) throw new Error(`HypershiftOperator: ${problems.join("; ")}`);
}
