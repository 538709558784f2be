import { inPlaceChanges, rollingChanges, rollVerb, tunesBootloader } from "../../constructs/hosted-cluster/node-pool-rollout";
import { StackDiff, StackJson } from "./diff";

/** A finding of dangers.ts (not imported: dangers.ts imports this file). */
interface Finding {
  readonly severity: "review";
  readonly stack: string;
  readonly address?: string;
  readonly message: string;
}

/** NodePools of the new side (all, changed or not): `<namespace>/<ConfigMap name>` → the pools naming it, with their upgrade type. */
function poolsByConfigMap(after: StackJson | undefined): Map<string, { name: string; upgradeType: unknown }[]> {
  const out = new Map<string, { name: string; upgradeType: unknown }[]>();
  for (const body of Object.values<any>(after?.resource?.kubernetes_manifest ?? {})) {
    const np = body?.manifest;
    if (np?.kind !== "NodePool") continue;
    for (const ref of [...(np.spec?.config ?? []), ...(np.spec?.tuningConfig ?? [])]) {
      const key = `${np.metadata?.namespace}/${ref.name}`;
      out.set(key, [
        ...(out.get(key) ?? []),
        { name: `NodePool ${np.metadata?.namespace}/${np.metadata?.name}`, upgradeType: np.spec?.management?.upgradeType },
      ]);
    }
  }
  return out;
}

/**
 * What a change does to running nodes (constructs/hosted-cluster/node-pool-rollout.ts): a NodePool
 * or ConfigMap edit that rolls every node of a pool, or node labels and taints that reach the
 * nodes in place. Listed for review, never a danger: a roll is planned disruption.
 */
export function nodeRollFindings(diff: StackDiff): Finding[] {
  const { stack } = diff;
  const findings: Finding[] = [];
  const pools = poolsByConfigMap(diff.after);
  for (const change of diff.resources) {
    if (change.action !== "update") continue;
    const at = (message: string): Finding => ({ severity: "review", stack, address: change.address, message });
    const [before, after] = [change.before?.manifest, change.after?.manifest];
    if (change.type === "kubernetes_manifest" && before?.kind === "NodePool" && after?.kind === "NodePool") {
      const pool = `NodePool ${after.metadata?.namespace}/${after.metadata?.name}`;
      const rolling = rollingChanges(before, after);
      if (rolling.length > 0)
        findings.push(at(`${rollVerb(after.spec?.management?.upgradeType, pool)}: ${rolling.map((f) => `\`${f.path}\` (${f.what})`).join(", ")} changes`));
      const inPlace = inPlaceChanges(before, after);
      if (inPlace.length > 0)
        findings.push(at(`changes the ${inPlace.map((f) => f.what).join(" and ")} of ${pool}: HyperShift applies them to the running nodes, no roll`));
    }
    if (change.type === "kubernetes_config_map_v1") {
      const key = `${change.after?.metadata?.namespace}/${change.after?.metadata?.name}`;
      const data = (side: any, k: string) => side?.data?.[k];
      for (const { name, upgradeType } of pools.get(key) ?? []) {
        if (data(change.before, "config") !== data(change.after, "config"))
          findings.push(at(`${rollVerb(upgradeType, name)}: its config ConfigMap ${key} changes`));
        const [was, now] = [data(change.before, "tuning"), data(change.after, "tuning")];
        if (was !== now)
          findings.push(
            at(
              tunesBootloader(was) || tunesBootloader(now)
                ? `${rollVerb(upgradeType, name)}: its TuneD profile (${key}) changes kernel boot parameters ([bootloader])`
                : `retunes every node of ${name} in place (TuneD, ${key}); no roll, as the profile sets no [bootloader] parameters`,
            ),
          );
      }
    }
  }
  return findings;
}
