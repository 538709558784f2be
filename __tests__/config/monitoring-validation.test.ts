import * as fs from "node:fs";
import * as path from "node:path";
import { validateConfig } from "../../config/load";
import { parseOperatorBundle } from "../../config/operator-bundle";
import { EXAMPLES, hostedClusterSpec, minimalConfig } from "../helpers";

/**
 * Monitoring config (config/schema/monitoring.ts, config/rules/monitoring.ts) and what the bundle
 * says about its monitoring install options (config/operator-bundle/monitoring.ts).
 */

const BUNDLE_TEXT = fs.readFileSync(path.join(EXAMPLES, "operator", "hypershift-operator.yaml"), "utf8");

const bundleOf = (text: string) => {
  const result = parseOperatorBundle(text);
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.bundle;
};

describe("the bundle's monitoring install options", () => {
  it("the example: namespace labelled for cluster monitoring, no --enable-ocp-cluster-monitoring, no METRICS_SET", () => {
    expect(bundleOf(BUNDLE_TEXT).monitoring).toEqual({ platformMonitoring: "OperatorOnly", metricsSet: undefined });
  });

  it("--platform-monitoring All passes --enable-ocp-cluster-monitoring=true; --metrics-set sets METRICS_SET", () => {
    const all = BUNDLE_TEXT.replace("--enable-ocp-cluster-monitoring=false", "--enable-ocp-cluster-monitoring=true").replace(
      /(\n(\s+)env:\n)/,
      "$1$2- name: METRICS_SET\n$2  value: SRE\n",
    );
    expect(bundleOf(all).monitoring).toEqual({ platformMonitoring: "All", metricsSet: "SRE" });
  });

  it("None: the namespace without the label", () => {
    expect(
      bundleOf(BUNDLE_TEXT.replace('    openshift.io/cluster-monitoring: "true"\n', "    hypershift.openshift.io/component: operator\n")).monitoring
        .platformMonitoring,
    ).toBe("None");
  });
});

describe("managementCluster.monitoring against the bundle", () => {
  const validate = (monitoring: Record<string, unknown>, operator: Record<string, unknown> = {}) =>
    validateConfig(minimalConfig({ managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml", ...operator }, monitoring } }), EXAMPLES);
  const warningsOf = (monitoring: Record<string, unknown>, operator: Record<string, unknown> = {}) => {
    const result = validate(monitoring, operator);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.warnings.filter((w) => w.includes("managementCluster.monitoring"));
  };

  it("agreeing options: no warning", () => {
    expect(warningsOf({ platformMonitoring: "OperatorOnly", metricsSet: "Telemetry" })).toEqual([]);
  });

  it("disagreeing options: a warning each, naming the field, both values and the render flag", () => {
    expect(warningsOf({ platformMonitoring: "None", metricsSet: "SRE" })).toEqual([
      expect.stringMatching(
        /managementCluster\.monitoring\.platformMonitoring is None, but the bundle was rendered with --platform-monitoring OperatorOnly.*--platform-monitoring None/,
      ),
      expect.stringMatching(
        /managementCluster\.monitoring\.metricsSet is SRE, but the operator's METRICS_SET is unset \(Telemetry\); render the bundle again with --metrics-set SRE/,
      ),
    ]);
  });

  it("alerts with the prometheus-operator kinds omitted from the bundle: a warning that the CRDs are missing", () => {
    expect(warningsOf({ alerts: { enabled: true } }, { omitKinds: ["ServiceMonitor"] })).toEqual([
      expect.stringMatching(/alerts\.enabled applies a PrometheusRule, but operator\.omitKinds lists ServiceMonitor/),
    ]);
  });

  it("bad values are config errors naming the field", () => {
    const result = validate({ platformMonitoring: "Everything", alerts: { maxHostedClusters: 0, rolloutStuckAfter: "2 hours" } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path).sort()).toEqual([
      "managementCluster.monitoring.alerts.maxHostedClusters",
      "managementCluster.monitoring.alerts.rolloutStuckAfter",
      "managementCluster.monitoring.platformMonitoring",
    ]);
  });

  it("alerts.labels: keys and values by Kubernetes' label rules (a bad one failed the management apply partway)", () => {
    const labels = {
      release: 'x"y',
      team: "a b",
      long: "a".repeat(64),
      tail: "ends-",
      "-bad": "v",
      "a..b/name": "v",
      "example.com/ok_key-1.x": "kube-prometheus-stack",
      empty: "",
    };
    const result = validate({ alerts: { enabled: true, labels } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const at = "managementCluster.monitoring.alerts.labels";
    expect(result.issues.map((i) => [i.path, i.message])).toEqual([
      [`${at}.release`, expect.stringMatching(/must be empty or start and end with a letter or digit.*\(a label of the PrometheusRule\)/)],
      [`${at}.team`, expect.stringMatching(/must be empty or start and end with a letter or digit/)],
      [`${at}.long`, expect.stringMatching(/must be at most 63 characters/)],
      [`${at}.tail`, expect.stringMatching(/must be empty or start and end with a letter or digit/)],
      [`${at}["-bad"]`, expect.stringMatching(/is not a valid label key: it must be a qualified name/)],
      [`${at}["a..b/name"]`, expect.stringMatching(/is not a valid label key: it has a prefix that is not a DNS subdomain/)],
    ]);
    expect(validate({ alerts: { enabled: true, labels: { release: "kube-prometheus-stack", "example.com/ok_key-1.x": "a.b_c-d", empty: "" } } }).ok).toBe(true);
  });
});

describe("clusters[].hostedCluster.monitoring", () => {
  const validate = (monitoring: Record<string, unknown>) =>
    validateConfig(
      minimalConfig({
        managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
        clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), monitoring } }],
      }),
      EXAMPLES,
    );
  const messages = (monitoring: Record<string, unknown>) => {
    const result = validate(monitoring);
    return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`);
  };

  it("an empty section is refused (the CRD's minProperties: 1)", () => {
    expect(messages({})).toEqual([expect.stringMatching(/^clusters\[0\]\.hostedCluster\.monitoring: must set metricsSet or metricsForwarding/)]);
  });

  it("forwardedMetricsSet needs metricsForwarding", () => {
    expect(messages({ metricsSet: "SRE", forwardedMetricsSet: "All" })).toEqual([
      expect.stringMatching(/^clusters\[0\]\.hostedCluster\.monitoring\.forwardedMetricsSet: forwardedMetricsSet needs metricsForwarding/),
    ]);
  });

  it("valid settings validate", () => {
    expect(messages({ metricsSet: "SRE", metricsForwarding: "Forward", forwardedMetricsSet: "Telemetry" })).toEqual([]);
  });
});
