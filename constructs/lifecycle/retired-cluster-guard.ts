import { DataResource, Op, TerraformLocal } from "cdktf";
import { Construct } from "constructs";

export interface RetiredClusterGuardProps {
  /** The retired cluster's name (clusters[].name). */
  readonly clusterName: string;
  /** Config path of its `retired` key, for the message, e.g. `clusters[0].retired`. */
  readonly origin: string;
  /** The cluster's stacks in destroy order, for the command the message gives. */
  readonly stacks: readonly string[];
}

/**
 * Makes every plan of a retired cluster's stack fail, except a destroy. Terraform evaluates a
 * precondition when it plans to create or update the resource, never when it plans destroy mode
 * (proven in __tests__/constructs/retired-cluster-guard.test.ts with Terraform itself), so
 * `cdktf deploy` cannot re-create a cluster that is being retired, while `cdktf destroy` runs.
 */
export class RetiredClusterGuard extends Construct {
  constructor(scope: Construct, id: string, props: RetiredClusterGuardProps) {
    super(scope, id);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.clusterName))
      throw new Error(`RetiredClusterGuard: clusterName "${props.clusterName}" must be a cluster name`);
    if (props.stacks.length === 0) throw new Error(`RetiredClusterGuard ${props.clusterName}: stacks must name at least one stack`);
    // Terraform refuses a constant condition (it would check nothing), hence the local.
    const retired = new TerraformLocal(this, "retired", true);
    new DataResource(this, "Guard", {
      lifecycle: {
        precondition: [
          {
            condition: Op.not(retired.asBoolean),
            errorMessage:
              `Cluster ${props.clusterName} is retired (${props.origin}: true): its stacks can only be destroyed. ` +
              `Destroy them with: npm run destroy -- ${props.stacks.join(" ")}; then remove the cluster from the config ` +
              `(help/retire-cluster.md). To keep the cluster, remove ${props.origin}.`,
          },
        ],
      },
    });
  }
}
