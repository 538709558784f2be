/** API version of the HostedCluster and NodePool objects (`hypershift create cluster azure --render`). */
export const HYPERSHIFT_API_VERSION = "hypershift.openshift.io/v1beta1";

/**
 * A HostedCluster or NodePool as a plain Kubernetes object: what the renderers return
 * (`hostedClusterManifest`, `nodePoolManifest`), the creation guard reads and the change review
 * compares. Values the caller passes in (client IDs as Terraform references) are placed as given;
 * escaping for Terraform is the construct's job.
 */
export interface HyperShiftObject {
  readonly apiVersion: string;
  readonly kind: "HostedCluster" | "NodePool";
  readonly metadata: {
    readonly name: string;
    readonly namespace: string;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly labels?: Readonly<Record<string, string>>;
  };
  readonly spec: Record<string, unknown>;
}
