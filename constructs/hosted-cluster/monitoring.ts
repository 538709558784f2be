/**
 * HostedCluster `spec.monitoring` (openshift/hypershift api/hypershift/v1beta1/hostedcluster_types.go
 * `MonitoringSpec`, in the Default CRD from release-4.22): the metric set collected from the
 * control plane and the forwarding of those metrics into the hosted cluster's own monitoring.
 */
export interface HostedClusterMonitoring {
  /** `metricsSet`: Telemetry, SRE or All. @default - the operator's METRICS_SET */
  readonly metricsSet?: string;
  /** `metricsForwarding.mode`: Forward or None. @default - not written (the legacy annotation decides) */
  readonly metricsForwarding?: string;
  /** `metricsForwarding.metricsSet`, with metricsForwarding. @default - metricsSet */
  readonly forwardedMetricsSet?: string;
}

/** `{ monitoring }` to spread into the HostedCluster spec; nothing when unset (existing objects unchanged). */
export function hostedClusterMonitoring(monitoring: HostedClusterMonitoring | undefined): { monitoring?: Record<string, unknown> } {
  if (!monitoring || (!monitoring.metricsSet && !monitoring.metricsForwarding)) return {};
  const forwarding = monitoring.metricsForwarding
    ? { metricsForwarding: { mode: monitoring.metricsForwarding, ...(monitoring.forwardedMetricsSet ? { metricsSet: monitoring.forwardedMetricsSet } : {}) } }
    : {};
  return { monitoring: { ...(monitoring.metricsSet ? { metricsSet: monitoring.metricsSet } : {}), ...forwarding } };
}
