/**
 * Alert rules over the HyperShift operator's metrics, as a PrometheusRule's `spec.groups`. Metric
 * names and labels, the same on release-4.21 (@1600118) but for WAITING_INITIAL_AVAILABILITY:
 * openshift/hypershift@3ee9615 (main) hypershift-operator/controllers/hostedcluster/metrics/metrics.go,
 * hypershift-operator/controllers/nodepool/metrics/metrics.go, hypershift-operator/metrics.go;
 * the expected conditions behind the `condition` label: support/conditions/conditions.go.
 * Modelled on Azure/ARO-HCP@c3f02f9 observability/alerts/ (HCPclusterOperators-prometheusRule.yaml,
 * userJourneyClusterUpgradeMonitor-prometheusRule.yaml, mgmt-capacity-prometheusRule.yaml).
 * Pure data: no Terraform, so the same groups can feed an Azure Monitor rule group later.
 */

export interface AlertRule {
  readonly alert: string;
  readonly expr: string;
  /** A Prometheus duration such as 15m. */
  readonly for: string;
  readonly labels: { readonly severity: "info" | "warning" | "critical" };
  readonly annotations: { readonly summary: string; readonly description: string };
}

export interface AlertRuleGroup {
  readonly name: string;
  readonly rules: readonly AlertRule[];
}

export interface HypershiftAlertRulesProps {
  /** HostedClusters the management cluster is sized for (capacity alerts at 60% and 85%). 1-1000. */
  readonly maxHostedClusters: number;
  /** How long a rollout may run before the stuck alerts fire: a whole number of s, m or h, e.g. 2h. */
  readonly rolloutStuckAfter: string;
}

/** Seconds of a whole duration such as 2h, 90m or 600s. */
export function durationSeconds(duration: string): number {
  const match = /^([1-9]\d*)([smh])$/.exec(duration);
  if (!match) throw new Error(`internal: ${JSON.stringify(duration)} is not a whole duration such as 2h`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as "s" | "m" | "h"];
}

/**
 * The gauge of the clusters still waiting for their first Available condition, by either name:
 * release-4.20 and release-4.21 export `hypershift_cluster_waiting_initial_avaibility_duration_seconds`
 * (sic; release-4.21@1600118 hostedcluster/metrics/metrics.go:51), release-4.22 and main
 * `..._availability_...` (renamed by 6b9eb30be6). Matching both keeps the rules right on either
 * operator and across its upgrade.
 */
const WAITING_INITIAL_AVAILABILITY = `{__name__=~"hypershift_cluster_waiting_initial_(availability|avaibility)_duration_seconds"}`;

const HOW_TO_LOOK = "oc get hostedclusters -A and oc get hostedcluster -n <namespace> <name> -o jsonpath='{.status.conditions}'";

const rule = (alert: string, expr: string, duration: string, severity: AlertRule["labels"]["severity"], summary: string, description: string): AlertRule => ({
  alert,
  expr,
  for: duration,
  labels: { severity },
  annotations: { summary, description },
});

/** Hosted clusters: availability, degradation, etcd, stuck rollouts. */
function hostedClusterRules(stuck: string, stuckSeconds: number): AlertRule[] {
  return [
    rule(
      "HostedClusterNotAvailable",
      // Clusters still waiting for their first availability are counted by their own alert.
      `sum(hypershift_hostedclusters_failure_conditions{condition="not_Available"}) - (count(${WAITING_INITIAL_AVAILABILITY}) or vector(0)) > 0`,
      "15m",
      "critical",
      "A hosted cluster that was available is not",
      `{{ $value }} HostedCluster(s) have condition Available not True. Look: ${HOW_TO_LOOK}.`,
    ),
    rule(
      "HostedClusterNeverAvailable",
      `max by (namespace, name) (${WAITING_INITIAL_AVAILABILITY}) > ${stuckSeconds}`,
      "5m",
      "warning",
      "A new hosted cluster is not available after " + stuck,
      "HostedCluster {{ $labels.namespace }}/{{ $labels.name }} has waited {{ $value | humanizeDuration }} for its first Available condition.",
    ),
    rule(
      "HostedClusterDegraded",
      `sum(hypershift_hostedclusters_failure_conditions{condition="Degraded"}) > 0`,
      "30m",
      "warning",
      "A hosted cluster is degraded",
      `{{ $value }} HostedCluster(s) have condition Degraded True. Look: ${HOW_TO_LOOK}.`,
    ),
    rule(
      "HostedClusterEtcdUnavailable",
      `sum(hypershift_hostedclusters_failure_conditions{condition="not_EtcdAvailable"}) > 0`,
      "10m",
      "critical",
      "A hosted cluster's etcd is not available",
      "{{ $value }} HostedCluster(s) have condition EtcdAvailable not True; automatic etcd recovery (HighlyAvailable only) shows as condition EtcdRecoveryActive. If it does not recover, restore it from an etcd snapshot (help/backup.md).",
    ),
    rule(
      "HostedClusterEtcdManualInterventionRequired",
      // HyperShift emits this for ROSA clusters only today; kept so it fires if that changes.
      `max by (namespace, name) (hypershift_etcd_manual_intervention_required) > 0`,
      "5m",
      "critical",
      "A hosted cluster's etcd needs manual intervention",
      "HostedCluster {{ $labels.namespace }}/{{ $labels.name }}: etcd cannot recover by itself. Follow HyperShift's etcd disaster-recovery guide (docs/content/how-to/disaster-recovery/etcd-recovery.md), or restore from an etcd snapshot (help/backup.md).",
    ),
    rule(
      "HostedClusterRolloutStuck",
      `max by (namespace, name) (hypershift_cluster_initial_rolling_out_duration_seconds) > ${stuckSeconds} or max by (namespace, name, previous_version, new_version) (hypershift_cluster_upgrading_duration_seconds) > ${stuckSeconds}`,
      "5m",
      "warning",
      "A hosted cluster's install or upgrade has run longer than " + stuck,
      "HostedCluster {{ $labels.namespace }}/{{ $labels.name }} has been rolling out a release for {{ $value | humanizeDuration }}. Look at status.version.history and the ClusterVersion conditions.",
    ),
  ];
}

/** NodePools: not ready, missing replicas, stuck version updates. */
function nodePoolRules(stuck: string, stuckSeconds: number): AlertRule[] {
  return [
    rule(
      "NodePoolNotReady",
      `sum(hypershift_nodepools_failure_conditions{condition="not_Ready"}) > 0`,
      "30m",
      "warning",
      "A NodePool is not ready",
      "{{ $value }} NodePool(s) have condition Ready not True. Look: oc get nodepools -A.",
    ),
    rule(
      "NodePoolReplicasUnavailable",
      `sum by (namespace, cluster_name, name) (hypershift_nodepools_size) - sum by (namespace, cluster_name, name) (hypershift_nodepools_available_replicas) > 0`,
      "30m",
      "warning",
      "A NodePool has fewer available nodes than desired",
      "NodePool {{ $labels.namespace }}/{{ $labels.name }} of {{ $labels.cluster_name }} misses {{ $value }} available replica(s).",
    ),
    rule(
      "NodePoolUpgradeStuck",
      `sum(hypershift_nodepools_failure_conditions{condition="UpdatingVersion"}) > 0`,
      stuck,
      "warning",
      "A NodePool has been updating its version for longer than " + stuck,
      "{{ $value }} NodePool(s) have had condition UpdatingVersion True for " + stuck + ". Look: oc get nodepools -A (VERSION, UPDATINGVERSION).",
    ),
    rule(
      "NodePoolRolloutStuck",
      `max by (namespace, cluster_name, name) (hypershift_nodepools_initial_rolling_out_duration_seconds) > ${stuckSeconds}`,
      "5m",
      "warning",
      "A new NodePool has no ready nodes after " + stuck,
      "NodePool {{ $labels.namespace }}/{{ $labels.name }} of {{ $labels.cluster_name }} has been rolling out for {{ $value | humanizeDuration }}.",
    ),
  ];
}

/** The management cluster: capacity and the operator's own metrics. */
function managementRules(maxHostedClusters: number): AlertRule[] {
  const ratio = `sum(hypershift_hostedclusters) / ${maxHostedClusters}`;
  return [
    rule(
      "ManagementClusterHostedClusterCapacityWarning",
      `${ratio} > 0.6`,
      "15m",
      "warning",
      "The management cluster holds over 60% of the hosted clusters it is sized for",
      `{{ $value | humanizePercentage }} of ${maxHostedClusters} (managementCluster.monitoring.alerts.maxHostedClusters).`,
    ),
    rule(
      "ManagementClusterHostedClusterCapacityCritical",
      `${ratio} > 0.85`,
      "5m",
      "critical",
      "The management cluster holds over 85% of the hosted clusters it is sized for",
      `{{ $value | humanizePercentage }} of ${maxHostedClusters}: add a management cluster or scale this one before creating more.`,
    ),
    rule(
      "HypershiftOperatorMetricsAbsent",
      "absent(hypershift_operator_info)",
      "15m",
      "warning",
      "No metrics from the HyperShift operator",
      "Prometheus scrapes no hypershift_operator_info: the operator is down or its ServiceMonitor is not picked up, and every other HyperShift alert is silent.",
    ),
  ];
}

/** The rule groups, in a fixed order. */
export function hypershiftAlertGroups(props: HypershiftAlertRulesProps): AlertRuleGroup[] {
  const stuckSeconds = durationSeconds(props.rolloutStuckAfter);
  return [
    { name: "hypershift-hosted-clusters", rules: hostedClusterRules(props.rolloutStuckAfter, stuckSeconds) },
    { name: "hypershift-nodepools", rules: nodePoolRules(props.rolloutStuckAfter, stuckSeconds) },
    { name: "hypershift-management-cluster", rules: managementRules(props.maxHostedClusters) },
  ];
}
