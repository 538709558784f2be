import { ConfigMapV1 } from "@cdktf/provider-kubernetes/lib/config-map-v1";
import { Construct } from "constructs";
import { MANAGED_BY_LABELS } from "../kubernetes-constants";
import { escapeTemplates } from "../terraform-literal";
import { TRUST_BUNDLE_KEY } from "./hosted-options";

export interface TrustBundleProps {
  /** Namespace of the HostedCluster. */
  readonly namespace: string;
  /** ConfigMap name (spec.additionalTrustBundle.name). */
  readonly name: string;
  /** PEM CA certificates, as read from the config's file (public, so a literal). */
  readonly pem: string;
}

/**
 * The additional trust bundle as `hypershift create cluster --additional-trust-bundle` writes it:
 * a ConfigMap with key `ca-bundle.crt` (`cmd/cluster/core/create.go`
 * `applyTrustBundleAndImageSources`), which HyperShift copies into the control plane and the nodes.
 */
export class TrustBundle extends Construct {
  public readonly configMap: ConfigMapV1;

  constructor(scope: Construct, id: string, props: TrustBundleProps) {
    super(scope, id);
    if (!props.pem.includes("-----BEGIN CERTIFICATE-----")) throw new Error(`TrustBundle ${id}: pem must hold at least one PEM certificate`);
    this.configMap = new ConfigMapV1(this, "Resource", {
      metadata: { name: props.name, namespace: props.namespace, labels: { ...MANAGED_BY_LABELS } },
      data: { [TRUST_BUNDLE_KEY]: escapeTemplates(props.pem) as string },
    });
  }
}
