import { isObject } from "./parse";
import { KubernetesObject } from "./types";

/**
 * What kubernetes_manifest needs: no `status` (rejected), no `creationTimestamp: null` and no
 * other nulls (perpetual diffs, terraform-provider-kubernetes#1589), no namespace on a
 * cluster-scoped object (plan error). Everything else is kept as rendered.
 */
export function clean(object: KubernetesObject, clusterScoped: boolean): KubernetesObject {
  const { status: _status, ...rest } = object;
  const cleaned = (object.kind === "CustomResourceDefinition" ? dropNulls(rest) : dropEmpty(dropNulls(rest))) as KubernetesObject;
  if (clusterScoped && cleaned.metadata.namespace !== undefined) {
    const { namespace: _namespace, ...metadata } = cleaned.metadata;
    return { ...cleaned, metadata: metadata as KubernetesObject["metadata"] };
  }
  return cleaned;
}

function dropNulls(value: unknown, parentKey?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => dropNulls(v));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === null || child === undefined) continue;
    // Server-set (object and pod-template metadata). Only under a `metadata` key, so a CRD
    // schema property that happens to be named creationTimestamp is kept.
    if (key === "creationTimestamp" && parentKey === "metadata") continue;
    out[key] = dropNulls(child, key);
  }
  return out;
}

/** Empty maps that mean something (a volume source, "select everything"): kept as written. */
const MEANINGFUL_EMPTY = new Set(["emptyDir", "podSelector", "namespaceSelector", "objectSelector", "selector"]);

/**
 * Drops empty maps and lists (`strategy: {}`, `resources: {}`, a Namespace's `spec: {}`): the API
 * server omits them, and kubernetes_manifest then fails with "Provider produced inconsistent
 * result after apply". Not for CRDs, whose schema needs e.g. `subresources.status: {}`.
 */
function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => dropEmpty(v));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [childKey, child] of Object.entries(value)) {
    const cleaned = dropEmpty(child);
    const empty = Array.isArray(cleaned) ? cleaned.length === 0 : isObject(cleaned) && Object.keys(cleaned).length === 0;
    if (!empty || MEANINGFUL_EMPTY.has(childKey)) out[childKey] = cleaned;
  }
  return out;
}
