import { clean } from "./clean";
import { BundleObject, BundleTier, KubernetesObject, RenderedObject } from "./types";

/** API groups every conformant cluster serves (kubernetes_manifest can plan them on any cluster). */
const BUILT_IN_GROUPS = new Set([
  "",
  "apps",
  "batch",
  "policy",
  "autoscaling",
  "rbac.authorization.k8s.io",
  "admissionregistration.k8s.io",
  "apiextensions.k8s.io",
  "apiregistration.k8s.io",
  "scheduling.k8s.io",
  "networking.k8s.io",
  "coordination.k8s.io",
  "storage.k8s.io",
  "node.k8s.io",
  "discovery.k8s.io",
  "certificates.k8s.io",
  "flowcontrol.apiserver.k8s.io",
]);

/** Built-in kinds without a namespace (kubernetes_manifest fails the plan if one carries a namespace). */
const CLUSTER_SCOPED_KINDS = new Set([
  "Namespace",
  "CustomResourceDefinition",
  "ClusterRole",
  "ClusterRoleBinding",
  "PriorityClass",
  "MutatingWebhookConfiguration",
  "ValidatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
  "APIService",
  "StorageClass",
  "IngressClass",
  "RuntimeClass",
  "PersistentVolume",
  "CSIDriver",
  "FlowSchema",
  "PriorityLevelConfiguration",
]);

/** Kinds that run pods. */
export const WORKLOAD_KINDS = new Set(["Deployment", "DaemonSet", "StatefulSet", "Job"]);
const ADMISSION_KINDS = new Set([
  "MutatingWebhookConfiguration",
  "ValidatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
]);
const DEFINITION_KINDS = new Set(["CustomResourceDefinition", "Namespace", "PriorityClass"]);

/** The apply tier of an object. */
export function tierOf(object: { kind: string }): BundleTier {
  if (DEFINITION_KINDS.has(object.kind)) return "definitions";
  if (WORKLOAD_KINDS.has(object.kind)) return "workloads";
  if (ADMISSION_KINDS.has(object.kind)) return "admission";
  return "configuration";
}

/** `<group>/<Kind>` of every kind a CRD of the bundle serves. */
export function crdsInBundle(objects: readonly RenderedObject[]): Set<string> {
  const crds = new Set<string>();
  for (const { object } of objects) {
    if (object.kind === "CustomResourceDefinition") {
      const spec = object.spec as { group?: string; names?: { kind?: string } } | undefined;
      crds.add(`${spec?.group}/${spec?.names?.kind}`);
    }
  }
  return crds;
}

/** Whether a CRD of the bundle (`crdsInBundle`) serves the object. */
export function servedByBundle(object: KubernetesObject, crds: ReadonlySet<string>): boolean {
  return crds.has(`${apiGroup(object.apiVersion)}/${object.kind}`);
}

/** A rendered object as the bundle applies it: cleaned (clean.ts), in its tier, labelled. */
export function bundleObjectOf({ object, line }: RenderedObject, crds: ReadonlySet<string>): BundleObject {
  const group = apiGroup(object.apiVersion);
  const manifest = clean(object, CLUSTER_SCOPED_KINDS.has(object.kind) && BUILT_IN_GROUPS.has(group));
  return {
    manifest,
    tier: tierOf(object),
    // From the cleaned object: a namespace on a cluster-scoped object names nothing on the cluster.
    label: objectLabel(manifest),
    line,
    needsExistingCrd: !BUILT_IN_GROUPS.has(group) && !servedByBundle(object, crds),
  };
}

export function apiGroup(apiVersion: string): string {
  return apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.lastIndexOf("/")) : "";
}

/** `<Kind> <namespace>/<name>` or `<Kind> <name>`, for messages. */
export function objectLabel(object: KubernetesObject): string {
  return `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ""}${object.metadata.name}`;
}
