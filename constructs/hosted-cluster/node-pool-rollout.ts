import { HyperShiftObject } from "./hypershift-object";

/**
 * Which NodePool changes replace or update its nodes, and which reach them in place, for the
 * review (scripts/change-review/node-rolls.ts) and help/node-pools.md. From the NodePool CRD
 * ("Changing this field will trigger a NodePool rollout" on config and tuningConfig) and
 * HyperShift's NodePool controller: the config, the release and (Replace) the machine template
 * are hashed into the pool's target; nodeLabels and taints are patched onto the existing Machines
 * (`managed.hypershift.openshift.io.` labels, the `hypershift.openshift.io/nodePoolTaints`
 * annotation), which the hosted control plane's node controller copies to the Nodes.
 */

/** A field whose change rolls the pool: its path and what it is, for messages. */
export interface RollingField {
  readonly path: string;
  readonly what: string;
  /** Only for this upgrade type. @default - both */
  readonly upgradeType?: "Replace" | "InPlace";
}

export const NODE_POOL_ROLLING_FIELDS: readonly RollingField[] = [
  { path: "spec.config", what: "the config ConfigMaps it names" },
  { path: "spec.tuningConfig", what: "the tuning ConfigMaps it names" },
  { path: "spec.release.image", what: "its release (an upgrade)" },
  { path: "spec.platform.azure", what: "its VM template (size, image, disks)", upgradeType: "Replace" },
];

/** Fields HyperShift applies to the existing nodes without a roll. */
export const NODE_POOL_IN_PLACE_FIELDS: readonly RollingField[] = [
  { path: "spec.nodeLabels", what: "node labels" },
  { path: "spec.taints", what: "taints" },
];

function get(object: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((value, step) => (value && typeof value === "object" ? (value as Record<string, unknown>)[step] : undefined), object);
}

const changed = (before: HyperShiftObject, after: HyperShiftObject, path: string) => JSON.stringify(get(before, path)) !== JSON.stringify(get(after, path));

/** The rolling fields that differ between two versions of a NodePool. */
export function rollingChanges(before: HyperShiftObject, after: HyperShiftObject): RollingField[] {
  const upgradeType = get(after, "spec.management.upgradeType");
  return NODE_POOL_ROLLING_FIELDS.filter((f) => (!f.upgradeType || f.upgradeType === upgradeType) && changed(before, after, f.path));
}

/** The in-place fields that differ between two versions of a NodePool. */
export const inPlaceChanges = (before: HyperShiftObject, after: HyperShiftObject) => NODE_POOL_IN_PLACE_FIELDS.filter((f) => changed(before, after, f.path));

/** How a pool's nodes take a rolling change: replaced (Replace) or updated and rebooted one by one (InPlace). */
export function rollVerb(upgradeType: unknown, pool: string): string {
  return upgradeType === "InPlace"
    ? `updates every node of ${pool} in place (each drained and rebooted, maxUnavailable at a time)`
    : `rolls every node of ${pool} (new VMs replace the old, each old one drained)`;
}

/** Whether a TuneD profile text sets kernel boot parameters: NTO then makes a MachineConfig, which rolls the pool. */
export const tunesBootloader = (text: unknown) => typeof text === "string" && /^\s*\[bootloader\]/m.test(text);
