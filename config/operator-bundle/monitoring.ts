import { isOperatorDeployment, operatorContainer, operatorEnvOf } from "./facts";
import { BundleMonitoring, KubernetesObject } from "./types";

/** --platform-monitoring and --metrics-set as the render shows them (BundleMonitoring in types.ts says how). */
const MONITORING_LABEL = "openshift.io/cluster-monitoring";

/** The monitoring install options read from the rendered objects (before omitKinds). */
export function monitoringOf(objects: readonly KubernetesObject[]): BundleMonitoring {
  const operator = objects.find(isOperatorDeployment);
  if (!operator) return {};
  const namespace = operator.metadata.namespace ?? "default";
  const container = operatorContainer(operator as Record<string, any>) as { command?: string[]; args?: string[] } | undefined;
  const args = [...(container?.command ?? []), ...(container?.args ?? [])];
  const namespaceObject = objects.find((o) => o.kind === "Namespace" && o.metadata.name === namespace);
  const labels = namespaceObject?.metadata.labels as Record<string, unknown> | undefined;
  const binding = objects.find((o) => o.kind === "RoleBinding" && o.metadata.name === "prometheus" && o.metadata.namespace === namespace);
  const subjects = (binding?.subjects ?? []) as Array<{ namespace?: string }>;
  const platformMonitoring = args.includes("--enable-ocp-cluster-monitoring=true")
    ? "All"
    : labels?.[MONITORING_LABEL] === "true" || subjects.some((s) => s.namespace === "openshift-monitoring")
      ? "OperatorOnly"
      : namespaceObject || binding
        ? "None"
        : undefined;
  return { platformMonitoring, metricsSet: operatorEnvOf(operator).METRICS_SET };
}
