import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { stackFindings } from "../../scripts/change-review/dangers";
import { diffSynths } from "../../scripts/change-review/diff";
import { EXAMPLES, loadInline, synthStacks } from "../helpers";

/**
 * The review says which NodePool edits roll the nodes (constructs/hosted-cluster/node-pool-rollout.ts):
 * config and a [bootloader] TuneD change roll every node, labels, taints and other TuneD changes
 * reach the nodes in place, scaling does neither. Real synths of examples/basic.yaml edits.
 */
type Config = Record<string, any>;
const BASIC: Config = parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8"));
const basic = (): Config => structuredClone(BASIC);
const pool = (config: Config) => config.clusters[0].hostedCluster.nodePools[0];
const POOL = "NodePool clusters/myprefix-hc";
const STACK = "cluster-myprefix-hc";
const TUNED = "[main]\ninclude=openshift-node\n[sysctl]\nvm.dirty_ratio=55\n";

/** Each distinct config validated once (several tests start from the same edit). */
const validated = new Map<string, ReturnType<typeof loadInline>>();

/** The cluster stacks of basic.yaml with `edit` applied to its pool (the findings are the cluster stack's). */
function synth(edit: (pool: Config) => void): Map<string, any> {
  const config = basic();
  edit(pool(config));
  const key = JSON.stringify(config);
  if (!validated.has(key)) validated.set(key, loadInline(config));
  return new Map(Object.entries(synthStacks(validated.get(key)!, "cluster")));
}

/** The review findings of the cluster stack between two edits, as `severity: message`. */
function findings(before: (pool: Config) => void, after: (pool: Config) => void): string[] {
  const stack = diffSynths(synth(before), synth(after)).find((s) => s.stack === STACK)!;
  return stackFindings(stack).map((f) => `${f.severity}: ${f.message}`);
}

const none = () => undefined;
const kubelet = (maxPods: number) => (p: Config) => (p.config = { kubelet: { maxPods } });
const tuning = (data: string) => (p: Config) => (p.tuning = { profileName: "workers", data });

describe("review: which NodePool changes roll the nodes", () => {
  test("adding kubelet config rolls every node (spec.config changes)", () => {
    expect(findings(none, kubelet(300))).toEqual([
      `review: rolls every node of ${POOL} (new VMs replace the old, each old one drained): \`spec.config\` (the config ConfigMaps it names) changes`,
    ]);
  });

  test("changing the kubelet config's content rolls every node (the ConfigMap changes)", () => {
    expect(findings(kubelet(300), kubelet(400))).toEqual([
      `review: rolls every node of ${POOL} (new VMs replace the old, each old one drained): its config ConfigMap clusters/myprefix-hc-config changes`,
    ]);
  });

  test("an InPlace pool is updated in place, node by node", () => {
    const inPlace = (maxPods: number) => (p: Config) => {
      p.upgradeType = "InPlace";
      kubelet(maxPods)(p);
    };
    expect(findings(inPlace(300), inPlace(400))).toEqual([
      `review: updates every node of ${POOL} in place (each drained and rebooted, maxUnavailable at a time): its config ConfigMap clusters/myprefix-hc-config changes`,
    ]);
  });

  test("a TuneD change without [bootloader] retunes in place; with it, rolls", () => {
    expect(findings(tuning(TUNED), tuning(TUNED.replace("55", "60")))).toEqual([
      `review: retunes every node of ${POOL} in place (TuneD, clusters/myprefix-hc-tuning); no roll, as the profile sets no [bootloader] parameters`,
    ]);
    expect(findings(tuning(TUNED), tuning(`${TUNED}[bootloader]\ncmdline=nosmt\n`))).toEqual([
      `review: rolls every node of ${POOL} (new VMs replace the old, each old one drained): its TuneD profile (clusters/myprefix-hc-tuning) changes kernel boot parameters ([bootloader])`,
    ]);
  });

  test("labels and taints reach the nodes in place; no roll", () => {
    const shaped = (p: Config) => {
      p.nodeLabels = { "example.com/tier": "web" };
      p.taints = [{ key: "example.com/dedicated", value: "web", effect: "NoSchedule" }];
    };
    const out = findings(none, shaped);
    expect(out).toEqual([`review: changes the node labels and taints of ${POOL}: HyperShift applies them to the running nodes, no roll`]);
    expect(out.join()).not.toMatch(/rolls/);
  });

  test("scaling and the rolling update settings roll nothing", () => {
    expect(findings(none, (p) => (p.replicas = 3))).toEqual([]);
    expect(findings(none, (p) => (p.rollingUpdate = { maxSurge: "25%" }))).toEqual([]);
  });
});
