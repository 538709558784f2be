import { isOperatorDeployment, operatorContainer } from "./facts";
import { BundleObject, KubernetesObject, RenderedObject } from "./types";

/**
 * What synth changes in the rendered bundle, and nothing else: the kinds the config leaves out
 * (managementCluster.operator.omitKinds) and operator environment known only at plan time.
 */

/** Kinds without which the bundle installs no working operator (never in omitKinds). */
const REQUIRED_KINDS = new Set(["CustomResourceDefinition", "Namespace", "Deployment", "ServiceAccount", "ClusterRole", "ClusterRoleBinding"]);

/** The objects without the kinds of `omitKinds`; a problem per kind that is required or absent. */
export function omitKinds(objects: readonly RenderedObject[], kinds: readonly string[]): { kept: RenderedObject[]; problems: string[] } {
  const omit = new Set(kinds);
  const problems: string[] = [];
  for (const kind of omit) {
    if (REQUIRED_KINDS.has(kind)) problems.push(`cannot omit ${kind}: the operator needs it (omitKinds)`);
    else if (!objects.some(({ object }) => object.kind === kind)) problems.push(`has no object of kind ${kind} to omit (omitKinds; kinds are case-sensitive)`);
  }
  return { kept: objects.filter(({ object }) => !omit.has(object.kind)), problems };
}

/**
 * The bundle's objects with `name=value` in the operator container's environment (replacing a
 * rendered value): for values known only at plan time, such as the AKS add-on identity's client ID.
 */
export function withOperatorEnv(objects: readonly BundleObject[], name: string, value: string): BundleObject[] {
  if (!objects.some((o) => isOperatorDeployment(o.manifest))) {
    throw new Error(`withOperatorEnv: the bundle has no Deployment operator to set ${name} on`);
  }
  return objects.map((object) => {
    const m = object.manifest as Record<string, any>;
    if (!isOperatorDeployment(m)) return object;
    const manifest = structuredClone(m);
    const container = operatorContainer(manifest);
    if (!container) return object;
    container.env = [...(container.env ?? []).filter((e) => e.name !== name), { name, value }];
    return { ...object, manifest: manifest as KubernetesObject };
  });
}
