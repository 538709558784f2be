import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { durationSeconds, hypershiftAlertGroups } from "../../../constructs/monitoring/alert-rules";
import { hypershiftAlertsManifest } from "../../../constructs/monitoring/hypershift-alerts";
import { loadInline, minimalConfig, REPO, resources, synthStacks, terraformLiteral } from "../../helpers";

// The real CRD (README.md next to it names the source, commit and version); ajv comes with eslint.
const CRD = parse(fs.readFileSync(path.join(REPO, "__tests__", "fixtures", "prometheus-operator", "monitoring.coreos.com_prometheusrules.yaml"), "utf8"));
const SCHEMA = CRD.spec.versions.find((v: { name: string }) => v.name === "v1").schema.openAPIV3Schema;

/** Go's `(?i)` flag (partial_response_strategy) has no JavaScript spelling: each letter becomes a [xX] class. */
function withoutGoFlags(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutGoFlags);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === "pattern" && typeof value === "string" && value.includes("(?i)")
        ? [key, value.replace("(?i)", "").replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`)]
        : [key, withoutGoFlags(value)],
    ),
  );
}
const Ajv = require("ajv");
const validate = new Ajv({ allErrors: true, unknownFormats: "ignore" }).compile(withoutGoFlags(SCHEMA));

/** Fields the API server would prune (not in the structural schema): a typo there is silently lost. */
function unknownFields(value: unknown, schema: any, at = ""): string[] {
  if (!schema || schema["x-kubernetes-preserve-unknown-fields"] || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => unknownFields(item, schema.items, `${at}[${i}]`));
  if (schema.additionalProperties) return Object.entries(value).flatMap(([k, v]) => unknownFields(v, schema.additionalProperties, `${at}.${k}`));
  return Object.entries(value).flatMap(([k, v]) => (schema.properties?.[k] ? unknownFields(v, schema.properties[k], `${at}.${k}`) : [`${at}.${k}`]));
}

/** What the CRD and the API server's pruning say about `object`. */
function crdProblems(object: unknown): string[] {
  const schemaErrors = validate(object) ? [] : (validate.errors as Array<{ dataPath: string; message: string }>).map((e) => `${e.dataPath} ${e.message}`);
  // metadata is ObjectMeta, which the API server checks itself (the CRD says only `type: object`).
  const { metadata: _metadata, ...rest } = object as Record<string, unknown>;
  return [...schemaErrors, ...unknownFields(rest, SCHEMA).map((field) => `${field} is not in the CRD (pruned)`)];
}

/**
 * The metrics the rules may use, as the HyperShift operator names them in
 * hypershift-operator/controllers/{hostedcluster,nodepool}/metrics/metrics.go and
 * hypershift-operator/metrics.go (written out, not imported, so a typo in a rule fails), on main
 * (openshift/hypershift@3ee9615) and on release-4.21 (@1600118), which users of the 4.21 CLI run.
 * The two differ in one name: release-4.21 (and 4.20) spell the initial availability gauge
 * `avaibility` (main renamed it in 6b9eb30be6).
 */
const COMMON_METRICS = [
  "hypershift_hostedclusters",
  "hypershift_hostedclusters_failure_conditions",
  "hypershift_cluster_initial_rolling_out_duration_seconds",
  "hypershift_cluster_upgrading_duration_seconds",
  "hypershift_etcd_manual_intervention_required",
  "hypershift_nodepools_failure_conditions",
  "hypershift_nodepools_size",
  "hypershift_nodepools_available_replicas",
  "hypershift_nodepools_initial_rolling_out_duration_seconds",
  "hypershift_operator_info",
];
const RELEASE_METRICS: Record<string, ReadonlySet<string>> = {
  main: new Set([...COMMON_METRICS, "hypershift_cluster_waiting_initial_availability_duration_seconds"]),
  "release-4.21": new Set([...COMMON_METRICS, "hypershift_cluster_waiting_initial_avaibility_duration_seconds"]),
};
const PROMQL_WORDS = new Set(["sum", "max", "count", "by", "or", "vector", "absent"]);

/**
 * A PromQL sanity check (no parser here) against one release's metrics: balanced brackets and
 * quotes, known metrics and functions, a comparison. A `{__name__=~"<regex>"}` selector must match
 * at least one of the release's metrics.
 */
function promqlProblems(expr: string, metrics: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const [, pattern] of expr.matchAll(/__name__=~"([^"]*)"/g)) {
    const regex = new RegExp(`^(?:${pattern})$`);
    if (![...metrics].some((metric) => regex.test(metric))) problems.push(`no metric matches __name__=~"${pattern}"`);
  }
  const stack: string[] = [];
  const pairs: Record<string, string> = { ")": "(", "}": "{", "]": "[" };
  const unquoted = expr.replace(/"[^"\\]*"/g, '""');
  if ((unquoted.match(/"/g) ?? []).length % 2 !== 0) problems.push("unbalanced quotes");
  for (const c of unquoted) {
    if ("({[".includes(c)) stack.push(c);
    else if (c in pairs && stack.pop() !== pairs[c]) problems.push(`unbalanced ${c}`);
  }
  if (stack.length > 0) problems.push(`unclosed ${stack.join("")}`);
  const words = unquoted
    .replace(/\{[^}]*\}/g, "")
    .replace(/\([^()]*\)/g, (group) => group.replace(/\b(namespace|name|cluster_name|previous_version|new_version)\b/g, ""));
  for (const word of words.match(/[a-z_][a-z0-9_:]*/gi) ?? []) {
    if (!metrics.has(word) && !PROMQL_WORDS.has(word)) problems.push(`unknown metric or function ${word}`);
  }
  if (!/[<>]=?\s*\d|absent\(/.test(expr)) problems.push("no threshold comparison");
  return problems;
}

const PROPS = { namespace: "hypershift", maxHostedClusters: 60, rolloutStuckAfter: "2h" };

describe("HypershiftAlerts: the PrometheusRule", () => {
  const manifest = hypershiftAlertsManifest({ ...PROPS, labels: { release: "kube-prometheus-stack" } });

  it("is valid against prometheus-operator's PrometheusRule CRD (v0.93.0), with no field the API server would prune", () => {
    expect(crdProblems(manifest)).toEqual([]);
  });

  it("the check catches what the API server would refuse or prune", () => {
    const broken = structuredClone(manifest) as any;
    broken.spec.groups[0].rules[0].for = "2 hours";
    broken.spec.groups[0].rules[1].severity = "warning";
    delete broken.spec.groups[1].rules[0].expr;
    expect(crdProblems(broken)).toEqual([
      '.spec.groups[0].rules[0].for should match pattern "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"',
      ".spec.groups[1].rules[0] should have required property 'expr'",
      ".spec.groups[0].rules[1].severity is not in the CRD (pruned)",
    ]);
  });

  it.each(Object.keys(RELEASE_METRICS))("every expression uses only the metrics of HyperShift's %s and passes the PromQL sanity check", (release) => {
    const metrics = RELEASE_METRICS[release];
    const rules = hypershiftAlertGroups(PROPS).flatMap((g) => g.rules);
    expect(rules.map((r) => [r.alert, promqlProblems(r.expr, metrics)]).filter(([, p]) => p.length > 0)).toEqual([]);
    expect(promqlProblems('sum(hypershift_hostedcluster_failure_conditions{condition="x"} > 0', metrics)).toEqual([
      "unclosed (",
      "unknown metric or function hypershift_hostedcluster_failure_conditions",
    ]);
  });

  it("the initial availability gauge by both of its names: one rule set for release-4.21's operator and later ones", () => {
    const rules = hypershiftAlertGroups(PROPS).flatMap((g) => g.rules);
    const using = rules.filter((r) => r.expr.includes("waiting_initial")).map((r) => r.alert);
    expect(using).toEqual(["HostedClusterNotAvailable", "HostedClusterNeverAvailable"]);
    // Main's name alone is what the rules said before: on release-4.21 no such series exists.
    expect(promqlProblems("max(hypershift_cluster_waiting_initial_availability_duration_seconds) > 1", RELEASE_METRICS["release-4.21"])).toEqual([
      "unknown metric or function hypershift_cluster_waiting_initial_availability_duration_seconds",
    ]);
    expect(promqlProblems('max({__name__=~"hypershift_cluster_waiting_initial_availability_duration_seconds"}) > 1', RELEASE_METRICS["release-4.21"])).toEqual([
      'no metric matches __name__=~"hypershift_cluster_waiting_initial_availability_duration_seconds"',
    ]);
  });

  it("covers availability, degradation, NodePools, stuck rollouts, etcd and capacity, with unique names", () => {
    const alerts = hypershiftAlertGroups(PROPS).flatMap((g) => g.rules.map((r) => r.alert));
    expect(new Set(alerts).size).toBe(alerts.length);
    expect(alerts).toEqual(
      expect.arrayContaining([
        "HostedClusterNotAvailable",
        "HostedClusterDegraded",
        "NodePoolNotReady",
        "HostedClusterRolloutStuck",
        "NodePoolUpgradeStuck",
        "HostedClusterEtcdUnavailable",
        "HostedClusterEtcdManualInterventionRequired",
        "ManagementClusterHostedClusterCapacityWarning",
        "ManagementClusterHostedClusterCapacityCritical",
      ]),
    );
  });

  it("thresholds follow the props", () => {
    const rules = hypershiftAlertGroups({ ...PROPS, maxHostedClusters: 100, rolloutStuckAfter: "90m" }).flatMap((g) => g.rules);
    const byName = Object.fromEntries(rules.map((r) => [r.alert, r]));
    expect(byName.ManagementClusterHostedClusterCapacityCritical.expr).toBe("sum(hypershift_hostedclusters) / 100 > 0.85");
    expect(byName.HostedClusterRolloutStuck.expr).toContain("> 5400");
    expect(byName.NodePoolUpgradeStuck.for).toBe("90m");
    expect([durationSeconds("600s"), durationSeconds("2h")]).toEqual([600, 7200]);
    expect(() => durationSeconds("2 hours")).toThrow(/not a whole duration/);
  });
});

describe("management stack: managementCluster.monitoring.alerts", () => {
  const config = (alerts: Record<string, unknown> | undefined) =>
    minimalConfig({ managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" }, ...(alerts ? { monitoring: { alerts } } : {}) } });
  const promRules = (stack: any) =>
    resources(stack, "kubernetes_manifest").filter((m) => m.manifest.kind === "PrometheusRule" && m.manifest.metadata.name === "hypershift-alerts");

  it("is off by default", () => {
    expect(promRules(synthStacks(loadInline(config(undefined))).management)).toEqual([]);
    expect(promRules(synthStacks(loadInline(config({ enabled: false }))).management)).toEqual([]);
  });

  it("enabled: one PrometheusRule in the operator's namespace, after it exists, valid against the CRD as Terraform reads it", () => {
    const stack = synthStacks(loadInline(config({ enabled: true, labels: { release: "prom" }, maxHostedClusters: 40 }))).management;
    const [rule] = promRules(stack);
    expect(rule.manifest.metadata).toEqual({
      name: "hypershift-alerts",
      namespace: "hypershift",
      labels: { release: "prom", "app.kubernetes.io/managed-by": "hcp-azure" },
    });
    expect(rule.depends_on.length).toBeGreaterThan(0);
    expect(rule.field_manager).toEqual({ name: "hcp-azure" });
    // Terraform's view of the literal (escapes undone) is the object the CRD sees.
    const asRead = JSON.parse(terraformLiteral(JSON.stringify(rule.manifest)));
    expect(crdProblems(asRead)).toEqual([]);
    expect(JSON.stringify(asRead)).toContain("/ 40 > 0.85");
  });

  it("a namespace of your choice", () => {
    const [rule] = promRules(synthStacks(loadInline(config({ enabled: true, namespace: "monitoring" }))).management);
    expect(rule.manifest.metadata.namespace).toBe("monitoring");
  });
});
