import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import { Construct } from "constructs";
import { FIELD_MANAGER } from "../kubernetes-constants";

export interface HostedClusterNamespacesProps {
  /** Namespaces of the HostedClusters, each once (created in sorted order). */
  readonly namespaces: readonly string[];
  /** prevent_destroy on each: deleting a namespace deletes every HostedCluster in it. */
  readonly preventDestroy: boolean;
}

/**
 * The HostedClusters' namespaces on the management cluster. Shared by several clusters
 * (HyperShift's default is `clusters`), so they belong to the management stack, not to any one
 * cluster's stack.
 *
 * Adds `HostedClusterNamespace_<namespace>` manifests directly to `scope` (not under a construct
 * of its own): their Terraform addresses predate this function and are part of the contract.
 */
export function addHostedClusterNamespaces(scope: Construct, props: HostedClusterNamespacesProps): void {
  for (const namespace of [...new Set(props.namespaces)].sort()) {
    new Manifest(scope, `HostedClusterNamespace_${namespace}`, {
      manifest: { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } },
      fieldManager: { name: FIELD_MANAGER },
      lifecycle: { preventDestroy: props.preventDestroy },
    });
  }
}
