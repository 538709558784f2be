import { DataResource, Op, TerraformLocal } from "cdktf";
import { Construct } from "constructs";
import { escapeTemplates } from "../terraform-literal";

export interface ExampleBundleGuardProps {
  /** File name of the example bundle, for the error message (no directory: snapshots stay machine-independent). */
  readonly bundleFileName: string;
}

/**
 * Refuses at plan an abridged example operator bundle: the bundled examples synthesize, but
 * their abridged CRDs must never reach a cluster. Terraform refuses a constant condition, hence
 * the local.
 *
 * Adds `example_bundle` and `ExampleBundleGuard` directly to `scope` (not under a construct of
 * its own): their Terraform addresses predate this function and are part of the contract.
 */
export function addExampleBundleGuard(scope: Construct, props: ExampleBundleGuardProps): void {
  const isExample = new TerraformLocal(scope, "example_bundle", true);
  new DataResource(scope, "ExampleBundleGuard", {
    lifecycle: {
      precondition: [
        {
          condition: Op.not(isExample.asBoolean),
          errorMessage: `${escapeTemplates(props.bundleFileName)} is an abridged example bundle, not a hypershift install render: render your own and set managementCluster.operator.bundleFile (help/management-cluster.md).`,
        },
      ],
    },
  });
}
