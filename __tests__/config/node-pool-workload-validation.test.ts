import { validateConfig } from "../../config/load";
import { labelValueProblem, qualifiedNameProblem } from "../../config/schema/node-pool-workload";
import { EXAMPLES, hostedClusterSpec, minimalConfig } from "../helpers";

/**
 * Workload keys of a NodePool (issue 25 item 3): labels and taints by the Kubernetes rules
 * (apimachinery IsQualifiedName / IsValidLabelValue, core validateNodeTaints) and the NodePool CRD
 * (taint key CEL, at most 50 taints), the rolling update (CRD int-or-string, Replace only) and the
 * typed kubelet, CRI-O and TuneD config. Good values load; bad ones name the field and the rule.
 */

function validate(pool: Record<string, unknown>, more: Record<string, unknown>[] = []) {
  return validateConfig(
    minimalConfig({
      clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), nodePools: [{ name: "p", ...pool }, ...more] } }],
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
    }),
    EXAMPLES,
  );
}

const AT = "clusters[0].hostedCluster.nodePools[0]";

describe("Kubernetes label and taint rules", () => {
  it.each(["app", "example.com/gpu", "node-role.kubernetes.io/infra", "a.b-c/X_y.z", "A1", "a".repeat(63), `${"a".repeat(253)}/n`])(
    "key %s is valid",
    (key) => {
      expect(qualifiedNameProblem(key)).toBeUndefined();
    },
  );
  it.each(["", "-a", "a-", "a/b/c", "/a", "Example.com/a", "a_.com/b", "a".repeat(64), `${"a".repeat(254)}/n`, "a b", "é"])("key %j is refused", (key) => {
    expect(qualifiedNameProblem(key)).toBeDefined();
  });
  it.each(["", "v", "v1.2_3-x", "A", "a".repeat(63)])("value %j is valid", (value) => {
    expect(labelValueProblem(value)).toBeUndefined();
  });
  it.each(["-v", "v-", "v/1", "a".repeat(64), "a b", "v:1"])("value %j is refused", (value) => {
    expect(labelValueProblem(value)).toBeDefined();
  });
});

describe("NodePool workload keys: valid values load", () => {
  it.each<[string, Record<string, unknown>]>([
    ["labels, including an empty value", { nodeLabels: { "example.com/tier": "web", "node-role.kubernetes.io/infra": "" } }],
    [
      "taints of each effect, one without a value",
      {
        taints: [
          { key: "a", value: "b", effect: "NoSchedule" },
          { key: "a", effect: "NoExecute" },
          { key: "example.com/x", effect: "PreferNoSchedule" },
        ],
      },
    ],
    ["rolling update by numbers", { rollingUpdate: { maxSurge: 3, maxUnavailable: 1 } }],
    ["rolling update by percentages", { rollingUpdate: { maxSurge: "25%", maxUnavailable: "10%" } }],
    ["only maxUnavailable (maxSurge defaults to 1)", { rollingUpdate: { maxUnavailable: 2 } }],
    [
      "kubelet config",
      {
        config: {
          kubelet: { maxPods: 300, systemReserved: { cpu: "500m", memory: "1Gi" }, evictionHard: { "memory.available": "500Mi", "nodefs.available": "10%" } },
        },
      },
    ],
    ["CRI-O config", { config: { containerRuntime: { pidsLimit: 4096, logSizeMax: "50Mi" } } }],
    ["a TuneD profile", { tuning: { profileName: "workers", data: "[main]\ninclude=openshift-node\n[sysctl]\nvm.swappiness=10\n" } }],
  ])("%s", (_name, pool) => {
    const loaded = validate(pool);
    expect(loaded.ok ? [] : loaded.issues).toEqual([]);
  });
});

describe("NodePool workload keys: invalid values fail naming the field", () => {
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ["a label key with two slashes", { nodeLabels: { "a/b/c": "v" } }, `${AT}.nodeLabels`, /DNS subdomain|qualified name/],
    ["a label key with an uppercase prefix", { nodeLabels: { "Example.com/a": "v" } }, `${AT}.nodeLabels`, /DNS subdomain/],
    ["a label value of 64 characters", { nodeLabels: { a: "v".repeat(64) } }, `${AT}.nodeLabels`, /at most 63 characters/],
    ["a label value ending in '-'", { nodeLabels: { a: "v-" } }, `${AT}.nodeLabels`, /start and end with a letter or digit/],
    ["a taint key with a space", { taints: [{ key: "a b", effect: "NoSchedule" }] }, `${AT}.taints[0].key`, /qualified name/],
    ["a taint value with ':'", { taints: [{ key: "a", value: "x:y", effect: "NoSchedule" }] }, `${AT}.taints[0].value`, /label value/],
    ["an unknown taint effect", { taints: [{ key: "a", effect: "NoRun" }] }, `${AT}.taints[0].effect`, /NoSchedule/],
    ["a taint without effect", { taints: [{ key: "a" }] }, `${AT}.taints[0].effect`, /./],
    [
      "the same key and effect twice",
      {
        taints: [
          { key: "a", effect: "NoSchedule" },
          { key: "a", value: "b", effect: "NoSchedule" },
        ],
      },
      `${AT}.taints[1]`,
      /one taint per key and effect/,
    ],
    ["51 taints (CRD maxItems 50)", { taints: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, effect: "NoSchedule" })) }, `${AT}.taints`, /at most 50/],
    [
      "maxSurge and maxUnavailable both 0",
      { rollingUpdate: { maxSurge: 0, maxUnavailable: "0%" } },
      `${AT}.rollingUpdate.maxSurge`,
      /cannot be 0 when maxUnavailable is 0/,
    ],
    ["a percentage over 100", { rollingUpdate: { maxSurge: "150%" } }, `${AT}.rollingUpdate.maxSurge`, /percentage/],
    ["a negative maxUnavailable", { rollingUpdate: { maxUnavailable: -1 } }, `${AT}.rollingUpdate.maxUnavailable`, /./],
    ["a rolling update on an InPlace pool", { upgradeType: "InPlace", rollingUpdate: { maxSurge: 2 } }, `${AT}.rollingUpdate`, /upgradeType Replace/],
    ["config with nothing in it", { config: {} }, `${AT}.config`, /neither kubelet nor containerRuntime/],
    ["an empty kubelet", { config: { kubelet: {} } }, `${AT}.config.kubelet`, /sets nothing/],
    ["a bad quantity", { config: { kubelet: { systemReserved: { memory: "1 GB" } } } }, `${AT}.config.kubelet.systemReserved.memory`, /quantity/],
    ["an unknown eviction signal", { config: { kubelet: { evictionHard: { "pid.available": "10%" } } } }, `${AT}.config.kubelet.evictionHard`, /./],
    ["pidsLimit below CRI-O's floor", { config: { containerRuntime: { pidsLimit: 5 } } }, `${AT}.config.containerRuntime.pidsLimit`, /./],
    ["a TuneD profile name with uppercase", { tuning: { profileName: "Workers", data: "[main]" } }, `${AT}.tuning.profileName`, /lowercase/],
  ])("%s", (_name, pool, path, message) => {
    const loaded = validate(pool);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.issues.filter((issue) => issue.path.startsWith(path) && message.test(issue.message)).length).toBeGreaterThanOrEqual(1);
  });
});

describe("NodePool workload warnings", () => {
  const taint = { taints: [{ key: "dedicated", effect: "NoSchedule" }] };
  it("warns when every pool repels OpenShift's own workloads", () => {
    const loaded = validate(taint, [{ name: "q", taints: [{ key: "x", effect: "NoExecute" }] }]);
    expect(loaded.ok && loaded.warnings.filter((w) => /every NodePool has a NoSchedule or NoExecute taint/.test(w))).toHaveLength(1);
  });
  it("is quiet while one pool takes any pod", () => {
    const loaded = validate(taint, [{ name: "q", taints: [{ key: "x", effect: "PreferNoSchedule" }] }]);
    expect(loaded.ok && loaded.warnings.filter((w) => /NoSchedule or NoExecute/.test(w))).toEqual([]);
  });
});
