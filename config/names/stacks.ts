/** Stack names: shared, management and the per-cluster stacks (`<prefix><cluster name>`). */
export const SHARED_STACK = "shared";
export const MANAGEMENT_STACK = "management";
/** Prefixes of the per-cluster stacks: `<prefix><cluster name>`. */
const CLUSTER_STACK_PREFIXES = { identities: "identities-", infra: "infra-", cluster: "cluster-" } as const;
export const identitiesStackName = (cluster: string) => `${CLUSTER_STACK_PREFIXES.identities}${cluster}`;
export const infraStackName = (cluster: string) => `${CLUSTER_STACK_PREFIXES.infra}${cluster}`;
export const clusterStackName = (cluster: string) => `${CLUSTER_STACK_PREFIXES.cluster}${cluster}`;

/** Every stack a cluster of this name can have, in destroy order: `cluster-`, `infra-`, `identities-<name>`. */
export const clusterStackNames = (cluster: string): string[] => [clusterStackName(cluster), infraStackName(cluster), identitiesStackName(cluster)];

/** The cluster a per-cluster stack belongs to (`infra-hc1` → `hc1`), or undefined for a shared stack. */
export function clusterOfStack(stack: string): string | undefined {
  const prefix = Object.values(CLUSTER_STACK_PREFIXES).find((p) => stack.startsWith(p) && stack.length > p.length);
  return prefix && stack.slice(prefix.length);
}
