import { z } from "zod";
import { kubernetesLabels } from "./node-pool-workload";
import { kubernetesName, wholeDuration } from "./primitives";

/**
 * Monitoring (help/monitoring.md): `managementCluster.monitoring` (the operator's install options,
 * checked against the bundle, and the alert rules) and `clusters[].hostedCluster.monitoring`
 * (HostedCluster `spec.monitoring`). Facts: shared/reference/notes/operations-facts.md §3.
 */

/** HyperShift's metric sets (`support/metrics/sets.go`): the HO's METRICS_SET and `spec.monitoring.metricsSet`. */
export const METRICS_SETS = ["Telemetry", "SRE", "All"] as const;

/** `hypershift install --platform-monitoring` values (`support/metrics/platform_monitoring.go`). */
export const PLATFORM_MONITORING = ["None", "OperatorOnly", "All"] as const;

const alertsSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        "Apply the PrometheusRule hypershift-alerts (monitoring.coreos.com/v1): hosted cluster not available or degraded, NodePool not ready, rollout stuck, etcd unavailable, management-cluster capacity. Needs the prometheus-operator CRDs on the management cluster at plan time.",
      ),
    namespace: kubernetesName("namespace")
      .optional()
      .describe("Namespace of the PrometheusRule. Default: the operator's namespace (where OpenShift platform monitoring or your Prometheus picks it up)."),
    labels: kubernetesLabels("a label of the PrometheusRule")
      .default({})
      .describe("Extra labels of the PrometheusRule, e.g. release: kube-prometheus-stack for a Prometheus whose ruleSelector asks for it."),
    maxHostedClusters: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(60)
      .describe(
        "HostedClusters this management cluster is sized for; capacity alerts fire at 60% (warning) and 85% (critical), as ARO HCP's MgmtClusterHCPCapacity rules.",
      ),
    rolloutStuckAfter: wholeDuration("2h")
      .default("2h")
      .describe("How long an install or upgrade rollout (HostedCluster or NodePool) may run before the rollout-stuck alerts fire."),
  })
  .describe("Alert rules for the management cluster's Prometheus (opt-in).");

export const managementMonitoringSchema = z
  .strictObject({
    platformMonitoring: z
      .enum(PLATFORM_MONITORING)
      .optional()
      .describe("The --platform-monitoring the bundle was rendered with (checked against it: a warning when they disagree). Default: not checked."),
    metricsSet: z
      .enum(METRICS_SETS)
      .optional()
      .describe("The --metrics-set the bundle was rendered with (the operator's METRICS_SET; checked against it). Default: not checked."),
    alerts: alertsSchema.default({ enabled: false, labels: {}, maxHostedClusters: 60, rolloutStuckAfter: "2h" }),
  })
  .describe("Monitoring of the HyperShift operator and the hosted control planes (help/monitoring.md).");

export const hostedMonitoringSchema = z
  .strictObject({
    metricsSet: z
      .enum(METRICS_SETS)
      .optional()
      .describe(
        "spec.monitoring.metricsSet: the metrics collected from this cluster's control plane, overriding the operator's METRICS_SET. Default: the operator's.",
      ),
    metricsForwarding: z
      .enum(["Forward", "None"])
      .optional()
      .describe(
        "spec.monitoring.metricsForwarding.mode: Forward the control-plane metrics into the hosted cluster's own monitoring (OpenShift 4.22+, needs workers). Default: not written (the annotation hypershift.openshift.io/enable-metrics-forwarding decides; none: off).",
      ),
    forwardedMetricsSet: z
      .enum(METRICS_SETS)
      .optional()
      .describe("spec.monitoring.metricsForwarding.metricsSet: the set forwarded. Default: metricsSet, then the operator's. Needs metricsForwarding."),
  })
  .refine((m) => m.metricsSet !== undefined || m.metricsForwarding !== undefined, {
    error: "must set metricsSet or metricsForwarding (the CRD's spec.monitoring has minProperties: 1); or leave monitoring out",
  })
  .refine((m) => m.forwardedMetricsSet === undefined || m.metricsForwarding !== undefined, {
    error: "forwardedMetricsSet needs metricsForwarding (spec.monitoring.metricsForwarding.mode is required)",
    path: ["forwardedMetricsSet"],
  })
  .describe("HostedCluster spec.monitoring (HyperShift's API from release-4.22; help/monitoring.md). Default: not written.");

export type ManagementMonitoringConfig = z.output<typeof managementMonitoringSchema>;
export type HostedMonitoringConfig = z.output<typeof hostedMonitoringSchema>;
