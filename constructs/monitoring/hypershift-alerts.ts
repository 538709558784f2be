import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { FIELD_MANAGER, MANAGED_BY_LABELS } from "../kubernetes-constants";
import { escapeTemplates } from "../terraform-literal";
import { hypershiftAlertGroups, HypershiftAlertRulesProps } from "./alert-rules";

/** Name of the PrometheusRule (one per management cluster). */
export const ALERTS_RULE_NAME = "hypershift-alerts";

export interface HypershiftAlertsProps extends HypershiftAlertRulesProps {
  /** Namespace of the PrometheusRule (must exist: the operator's namespace, created with the bundle). */
  readonly namespace: string;
  /** Extra labels, e.g. the one a Prometheus ruleSelector asks for. @default {} */
  readonly labels?: Readonly<Record<string, string>>;
  /** What must exist first (the operator's namespace). @default - nothing */
  readonly dependsOn?: ITerraformDependable[];
}

/** The PrometheusRule object (monitoring.coreos.com/v1) of `props`. Pure. */
export function hypershiftAlertsManifest(props: HypershiftAlertsProps): Record<string, unknown> {
  return {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: { name: ALERTS_RULE_NAME, namespace: props.namespace, labels: { ...(props.labels ?? {}), ...MANAGED_BY_LABELS } },
    spec: { groups: hypershiftAlertGroups(props) },
  };
}

/**
 * Alert rules over the HyperShift operator's metrics, for the management cluster's Prometheus
 * (OpenShift platform or user-workload monitoring, or prometheus-operator on AKS). The
 * PrometheusRule CRD must be on the cluster when Terraform plans (kubernetes_manifest reads it).
 */
export class HypershiftAlerts extends Construct {
  public readonly resource: Manifest;

  constructor(scope: Construct, id: string, props: HypershiftAlertsProps) {
    super(scope, id);
    this.resource = new Manifest(this, "PrometheusRule", {
      manifest: escapeTemplates(hypershiftAlertsManifest(props)) as Record<string, unknown>,
      fieldManager: { name: FIELD_MANAGER },
      dependsOn: props.dependsOn,
    });
  }
}
