import { NodePoolConfig } from "../schema";
import type { HostedContext } from "./hosted-context";
import { ConfigIssue, Rule } from "./rule";

/** Each NodePool with its config path. */
const each = (check: (pool: NodePoolConfig, at: string) => ConfigIssue[]) => (context: HostedContext) =>
  context.spec.nodePools.flatMap((pool, i) => check(pool, `${context.at}.nodePools[${i}]`));

/**
 * Rules across the workload keys of one NodePool (schema/node-pool-workload.ts): what HyperShift
 * would refuse or ignore after the apply started.
 */
export const NODE_POOL_WORKLOAD_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "a rolling update goes with upgradeType Replace",
    check: each((pool, at) =>
      pool.rollingUpdate && pool.upgradeType !== "Replace"
        ? [
            {
              path: `${at}.rollingUpdate`,
              value: JSON.stringify(pool.rollingUpdate),
              message: `is for upgradeType Replace (spec.management.replace); this pool is ${pool.upgradeType}, whose nodes are updated in place; remove rollingUpdate`,
            },
          ]
        : [],
    ),
  },
  {
    rule: "node configuration sets something",
    check: each((pool, at) => {
      const config = pool.config;
      if (!config) return [];
      const empty = (value: object | undefined) => value !== undefined && Object.values(value).every((v) => v === undefined);
      const issues: ConfigIssue[] = [];
      if (!config.kubelet && !config.containerRuntime)
        issues.push({ path: `${at}.config`, message: "sets neither kubelet nor containerRuntime; set one, or remove config" });
      for (const key of ["kubelet", "containerRuntime"] as const) {
        if (empty(config[key]))
          issues.push({ path: `${at}.config.${key}`, message: "sets nothing; HyperShift would roll the nodes for an empty object: set a field or remove it" });
      }
      return issues;
    }),
  },
];

/** Valid workload settings that will not do what they seem to, printed by synth. */
export function nodePoolWorkloadWarnings(clusterStack: string, pools: readonly NodePoolConfig[]): string[] {
  const repels = (pool: NodePoolConfig) => (pool.taints ?? []).some((t) => t.effect === "NoSchedule" || t.effect === "NoExecute");
  if (pools.length === 0 || !pools.every(repels)) return [];
  return [
    `${clusterStack}: every NodePool has a NoSchedule or NoExecute taint; OpenShift's own workloads (ingress routers, image registry, monitoring) do not tolerate them and stay Pending. Keep one pool untainted (or PreferNoSchedule).`,
  ];
}
