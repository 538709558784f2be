import { OperatorBundle } from "../operator-bundle";
import { Config } from "../schema";

const MONITORING_PATH = "managementCluster.monitoring";

/** Kinds served by the prometheus-operator CRDs (monitoring.coreos.com) that HyperShift's bundle holds. */
const PROMETHEUS_OPERATOR_KINDS = ["ServiceMonitor", "PodMonitor", "PrometheusRule"];

/**
 * The monitoring options the config states against the ones the bundle was rendered with
 * (config/operator-bundle/monitoring.ts), and alert rules on a cluster said to lack their CRD.
 * Warnings, not errors: the bundle is what gets applied; the config says what was meant.
 */
export function monitoringBundleWarnings(bundle: OperatorBundle, config: Config): string[] {
  const management = config.managementCluster;
  const monitoring = management?.monitoring;
  if (!management || !monitoring) return [];
  const warnings: string[] = [];
  const rendered = bundle.monitoring;
  if (monitoring.platformMonitoring && rendered.platformMonitoring && monitoring.platformMonitoring !== rendered.platformMonitoring) {
    warnings.push(
      `management: ${MONITORING_PATH}.platformMonitoring is ${monitoring.platformMonitoring}, but the bundle was rendered with --platform-monitoring ${rendered.platformMonitoring} (its namespace label and prometheus RoleBinding say so); render it again with --platform-monitoring ${monitoring.platformMonitoring}, or correct the config (help/monitoring.md).`,
    );
  }
  const metricsSet = rendered.metricsSet ?? "Telemetry";
  if (monitoring.metricsSet && monitoring.metricsSet !== metricsSet) {
    warnings.push(
      `management: ${MONITORING_PATH}.metricsSet is ${monitoring.metricsSet}, but the operator's METRICS_SET is ${rendered.metricsSet ?? "unset (Telemetry)"}; render the bundle again with --metrics-set ${monitoring.metricsSet}, or correct the config (help/monitoring.md).`,
    );
  }
  const omitted = management.operator.omitKinds.filter((kind) => PROMETHEUS_OPERATOR_KINDS.includes(kind));
  if (monitoring.alerts.enabled && omitted.length > 0) {
    warnings.push(
      `management: ${MONITORING_PATH}.alerts.enabled applies a PrometheusRule, but operator.omitKinds lists ${omitted.join(", ")} (a cluster without the prometheus-operator CRDs): plan fails until they are installed. Install them first and drop the omitted kinds (help/monitoring.md#aks-management-clusters).`,
    );
  }
  return warnings;
}
