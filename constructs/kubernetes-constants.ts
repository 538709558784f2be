/**
 * What this project writes on every Kubernetes object it manages, stated once: the server-side
 * apply field manager (kubernetes_manifest's `field_manager`) and the `app.kubernetes.io/managed-by`
 * label (Kubernetes' recommended labels). Both name the tool, so `kubectl get --show-managed-fields`
 * and label selectors find its objects.
 */

/** Server-side apply field manager of every kubernetes_manifest. Changing it hands the fields to a new manager (conflicts on the next apply). */
export const FIELD_MANAGER = "hcp-azure";

/** Labels marking an object as written by this project: `app.kubernetes.io/managed-by: hcp-azure`. */
export const MANAGED_BY_LABELS: Readonly<Record<string, string>> = { "app.kubernetes.io/managed-by": FIELD_MANAGER };
