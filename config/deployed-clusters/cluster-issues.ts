import { LoadedConfig } from "../load";
import { clusterOfStack, clusterStackNames } from "../names";
import { ConfigIssue } from "../rules";

/** The refusal of a config whose clusters left it while their stacks may hold state: one issue per cluster, from either backend's evidence. */

/** Stacks the config synthesizes for its clusters. */
export function configuredStacks(loaded: LoadedConfig): Set<string> {
  return new Set(loaded.names.clusters.flatMap((cluster) => cluster.stacks));
}

/**
 * One issue per cluster whose stacks left the config: the whole cluster (`clusters`), or only
 * its hostedCluster (cluster- and infra- stacks), each with its way forward. `held` gives, per
 * stack, what shows it may hold state; `evidence` phrases them, in destroy order.
 */
export function issuesFor(
  loaded: LoadedConfig,
  held: ReadonlyMap<string, string>,
  evidence: (items: readonly string[]) => string,
  afterDestroy: (stacks: readonly string[]) => string,
): ConfigIssue[] {
  const byCluster = new Map<string, string[]>();
  for (const stack of held.keys()) {
    const cluster = clusterOfStack(stack) as string;
    byCluster.set(cluster, [...(byCluster.get(cluster) ?? []), stack]);
  }
  return [...byCluster].map(([name, stacks]) => {
    const ordered = clusterStackNames(name).filter((stack) => stacks.includes(stack));
    const shownEvidence = evidence(ordered.map((stack) => held.get(stack) as string));
    const configured = loaded.names.clusters.find((cluster) => cluster.name === name);
    if (configured) {
      // Only the hostedCluster left: its two stacks, destroyed together (cdktf refuses infra- alone).
      const destroy = clusterStackNames(name).filter((stack) => !configured.stacks.includes(stack));
      return {
        path: `clusters[${configured.index}].hostedCluster`,
        message:
          `was removed from the config, but ${ordered.join(" and ")} may still hold state (${shownEvidence}). ` +
          `Put hostedCluster back, synth, and destroy them (npm run destroy -- ${destroy.join(" ")}); then remove it (help/phase3.md#delete-a-cluster). ${afterDestroy(ordered)}`,
      };
    }
    return {
      path: "clusters",
      value: name,
      message:
        `was removed from the config, but its stacks may still hold state (${shownEvidence}). ` +
        `Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- ${clusterStackNames(name).join(" ")}); then remove it (help/retire-cluster.md). ${afterDestroy(ordered)}`,
    };
  });
}
