import { z } from "zod";
import { DNS1123_SUBDOMAIN } from "./primitives";

/**
 * The NodePool keys that shape a pool for its workloads (issue 25 item 3): node labels and taints
 * (`spec.nodeLabels`, `spec.taints`), the rolling update of Replace pools
 * (`spec.management.replace.rollingUpdate`), kubelet and container runtime settings
 * (`spec.config`, ConfigMaps of machineconfiguration.openshift.io objects) and a TuneD profile
 * (`spec.tuningConfig`). Rules across fields: rules/node-pool-workload.ts.
 */

/** The name part of a qualified name (Kubernetes `IsQualifiedName`): at most 63 characters. */
const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
/** A label value (Kubernetes `IsValidLabelValue`): empty, or at most 63 characters of this shape. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Why `key` is not a Kubernetes qualified name (`[prefix/]name`), or undefined when it is one. */
export function qualifiedNameProblem(key: string): string | undefined {
  const slash = key.lastIndexOf("/");
  const [prefix, name] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  // The optional prefix of a label or taint key: a DNS subdomain.
  if (prefix !== undefined && !DNS1123_SUBDOMAIN.test(prefix))
    return "has a prefix that is not a DNS subdomain (lowercase letters, digits, '-' and '.', at most 253 characters) before the '/'";
  if (!QUALIFIED_NAME.test(name))
    return "must be a qualified name: an optional DNS subdomain prefix and '/', then 1-63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (e.g. example.com/gpu)";
  return undefined;
}

/** Why `value` is not a Kubernetes label value, or undefined when it is one. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return "must be at most 63 characters (a Kubernetes label value)";
  if (!LABEL_VALUE.test(value))
    return "must be empty or start and end with a letter or digit, with only '-', '_' and '.' in between (a Kubernetes label value)";
  return undefined;
}

const qualifiedKey = (what: string) =>
  z.string().superRefine((key, ctx) => {
    const problem = qualifiedNameProblem(key);
    if (problem) ctx.addIssue({ code: "custom", input: key, message: `${problem} (${what})` });
  });

const labelValue = (what: string) =>
  z.string().superRefine((value, ctx) => {
    const problem = labelValueProblem(value);
    if (problem) ctx.addIssue({ code: "custom", input: value, message: `${problem} (${what})` });
  });

/**
 * A map of Kubernetes labels: keys by the qualified-name rule, values by the label value rule
 * (`valueWhat` names them in the message). Keys are checked on the record, each issue at its key.
 */
export const kubernetesLabels = (valueWhat: string) =>
  z.record(z.string(), labelValue(valueWhat)).superRefine((labels, ctx) => {
    for (const key of Object.keys(labels)) {
      const problem = qualifiedNameProblem(key);
      if (problem) ctx.addIssue({ code: "custom", path: [key], input: key, message: `is not a valid label key: it ${problem}` });
    }
  });

export const nodeLabels = kubernetesLabels("node label value")
  .optional()
  .describe(
    "Labels HyperShift puts on every node of the pool (spec.nodeLabels), key: value by the Kubernetes label rules. Changes reach existing nodes in place, without a roll. Default: none.",
  );

const taint = z.strictObject({
  key: qualifiedKey("taint key").describe("Taint key, a qualified name such as example.com/dedicated."),
  value: labelValue("taint value").optional().describe("Taint value (a label value). Default: none."),
  effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]).describe("What happens to pods that do not tolerate it."),
});

export const taints = z
  .array(taint)
  .max(50, { error: "must list at most 50 taints (the NodePool CRD)" })
  .superRefine((list, ctx) => {
    // Kubernetes (validateNodeTaints): one taint per key and effect.
    const seen = new Set<string>();
    list.forEach((t, i) => {
      const id = `${t.key}:${t.effect}`;
      if (seen.has(id))
        ctx.addIssue({
          code: "custom",
          path: [i],
          input: t,
          message: `repeats key ${t.key} with effect ${t.effect}; Kubernetes allows one taint per key and effect`,
        });
      seen.add(id);
    });
  })
  .optional()
  .describe(
    "Taints HyperShift puts on every node of the pool (spec.taints), added to other controllers' taints; changes reach existing nodes in place. Default: none.",
  );

/** An int-or-string of a rolling update: a whole number, or a percentage of the desired nodes. */
const intOrPercent = (what: string) =>
  z.union([
    z
      .number()
      .int()
      .min(0, { error: `must be 0 or more (${what})` }),
    z.string().regex(/^(100|[1-9]?[0-9])%$/, { error: `must be a whole number or a percentage from 0% to 100% such as 25% (${what})` }),
  ]);

export const rollingUpdate = z
  .strictObject({
    maxSurge: intOrPercent("maxSurge").default(1).describe("Nodes created above the desired count during a roll (number or percentage, rounded up)."),
    maxUnavailable: intOrPercent("maxUnavailable").default(0).describe("Nodes that may be unavailable during a roll (number or percentage, rounded down)."),
  })
  .superRefine((r, ctx) => {
    const zero = (v: number | string) => v === 0 || v === "0%";
    if (zero(r.maxSurge) && zero(r.maxUnavailable))
      ctx.addIssue({
        code: "custom",
        path: ["maxSurge"],
        input: r.maxSurge,
        message: "cannot be 0 when maxUnavailable is 0 (the NodePool API): the roll could never progress",
      });
  })
  .optional()
  .describe(
    "How a Replace pool rolls its nodes (spec.management.replace.rollingUpdate); not with upgradeType InPlace. Default: not written, HyperShift's maxSurge 1, maxUnavailable 0.",
  );

/** A Kubernetes quantity (resource.Quantity), such as 500m, 1Gi or 2. */
const quantity = (what: string) =>
  z.string().regex(/^(\d+(\.\d+)?|\.\d+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/, { error: `must be a Kubernetes quantity such as 500m, 1Gi or 2 (${what})` });

/** An eviction threshold: a quantity or a percentage. */
const threshold = z
  .string()
  .regex(/^((\d+(\.\d+)?|\.\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?|(100|[1-9]?[0-9](\.\d+)?)%)$/, { error: "must be a quantity such as 500Mi or a percentage such as 10%" });

const kubelet = z
  .strictObject({
    maxPods: z.number().int().min(1).max(2500).optional().describe("Most pods per node (kubelet maxPods). Default: OpenShift's 250."),
    systemReserved: z
      .strictObject({
        cpu: quantity("systemReserved.cpu").optional().describe("CPU kept for the system, such as 500m."),
        memory: quantity("systemReserved.memory").optional().describe("Memory kept for the system, such as 1Gi."),
      })
      .optional()
      .describe("Resources kept for system daemons (kubelet systemReserved). Default: OpenShift's automatic sizing."),
    evictionHard: z
      .strictObject({
        "memory.available": threshold.optional().describe("Evict pods below this free memory, such as 500Mi."),
        "nodefs.available": threshold.optional().describe("Evict pods below this free node filesystem, such as 10%."),
        "nodefs.inodesFree": threshold.optional().describe("Evict pods below these free node filesystem inodes, such as 5%."),
        "imagefs.available": threshold.optional().describe("Evict pods below this free image filesystem, such as 15%."),
      })
      .optional()
      .describe("Hard eviction thresholds (kubelet evictionHard). Default: the kubelet's."),
  })
  .optional()
  .describe("Kubelet settings, rendered as a machineconfiguration.openshift.io/v1 KubeletConfig. Default: none.");

const containerRuntime = z
  .strictObject({
    pidsLimit: z.number().int().min(20).optional().describe("Most processes per container (CRI-O pids_limit; at least 20). Default: CRI-O's."),
    logSizeMax: quantity("logSizeMax").optional().describe("Largest container log before it is rotated, such as 50Mi. Default: CRI-O's (no limit)."),
  })
  .optional()
  .describe("CRI-O settings, rendered as a machineconfiguration.openshift.io/v1 ContainerRuntimeConfig. Default: none.");

export const nodeConfig = z
  .strictObject({ kubelet, containerRuntime })
  .optional()
  .describe(
    "Node configuration made into a ConfigMap (key `config`) in the HostedCluster's namespace that spec.config names. Changing it rolls every node of the pool (Replace) or updates each in place (InPlace). Default: none.",
  );

export const tuning = z
  .strictObject({
    profileName: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/, { error: "must be 1-63 lowercase letters, digits, '-' or '.'" })
      .describe("TuneD profile name, such as workers-sysctl."),
    data: z.string().min(1).max(65536).describe("The TuneD profile (ini text), e.g. `[main]` include=openshift-node and a `[sysctl]` section."),
    priority: z.number().int().min(0).max(1000).default(20).describe("Priority of the profile's recommend entry (lower wins)."),
  })
  .optional()
  .describe(
    "A TuneD profile for the pool's nodes: a tuned.openshift.io/v1 Tuned in a ConfigMap (key `tuning`) that spec.tuningConfig names. A profile with a [bootloader] section rolls the nodes when it changes. Default: none.",
  );

/** The keys `nodePoolSchema` takes from this file, in the order of the JSON Schema. */
export const nodePoolWorkloadShape = { nodeLabels, taints, rollingUpdate, config: nodeConfig, tuning };
