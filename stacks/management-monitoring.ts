import { Construct } from "constructs";
import { OperatorBundle } from "../config/operator-bundle";
import { Config } from "../config/schema";
import { HypershiftOperator } from "../constructs/hypershift-operator/hypershift-operator";
import { HypershiftAlerts } from "../constructs/monitoring/hypershift-alerts";

/** managementCluster.monitoring.alerts: the PrometheusRule, after the operator's namespace exists. */
export function addManagementMonitoring(scope: Construct, config: Config, bundle: OperatorBundle, operator: HypershiftOperator): void {
  const alerts = config.managementCluster?.monitoring?.alerts;
  if (!alerts?.enabled) return;
  new HypershiftAlerts(scope, "HypershiftAlerts", {
    namespace: alerts.namespace ?? bundle.operatorNamespace,
    labels: alerts.labels,
    maxHostedClusters: alerts.maxHostedClusters,
    rolloutStuckAfter: alerts.rolloutStuckAfter,
    dependsOn: operator.definitions,
  });
}
