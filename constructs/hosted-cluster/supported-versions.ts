import { DataKubernetesConfigMapV1 } from "@cdktf/provider-kubernetes/lib/data-kubernetes-config-map-v1";
import { TerraformResourceLifecycle } from "cdktf";
import { Construct } from "constructs";
import { releaseVersion } from "../../config/release-version";

/** The ConfigMap the HyperShift operator publishes its supported OpenShift minors in (supportedversion/reconciler.go). */
export const SUPPORTED_VERSIONS_CONFIG_MAP = "supported-versions";

export interface SupportedVersionsProps {
  /** Namespace of the HyperShift operator. */
  readonly operatorNamespace: string;
}

/**
 * Reads, at plan, the minors the installed HyperShift operator supports (data key
 * `supported-versions`: `{"versions":["4.22","4.21",...]}`) and gives the precondition that a
 * release is among them. A missing ConfigMap (or key) passes: an operator that publishes none
 * cannot be checked, and the operator's own ValidReleaseImage condition still applies.
 */
export class SupportedVersions extends Construct {
  private readonly data: DataKubernetesConfigMapV1;
  private readonly operatorNamespace: string;

  constructor(scope: Construct, id: string, props: SupportedVersionsProps) {
    super(scope, id);
    this.operatorNamespace = props.operatorNamespace;
    this.data = new DataKubernetesConfigMapV1(this, "ConfigMap", { metadata: { name: SUPPORTED_VERSIONS_CONFIG_MAP, namespace: props.operatorNamespace } });
  }

  /** The precondition that the minor of `releaseImage` is supported; none for a digest-only image (no version to compare). */
  preconditionFor(releaseImage: string, owner: string): NonNullable<TerraformResourceLifecycle["precondition"]> {
    const version = releaseVersion(releaseImage);
    if (!version) return [];
    const minor = `${version.major}.${version.minor}`;
    const versions = `try(jsondecode(${this.data.fqn}.data["supported-versions"]).versions, [])`;
    return [
      {
        condition: `\${length(${versions}) == 0 || contains(${versions}, "${minor}")}`,
        errorMessage: `${owner}: releaseImage ${version.text} (minor ${minor}) is not supported by the HyperShift operator on the management cluster, which offers \${join(", ", ${versions})} (ConfigMap ${this.operatorNamespace}/${SUPPORTED_VERSIONS_CONFIG_MAP}). Pick a release of an offered minor, or upgrade the operator first (help/upgrades.md).`,
      },
    ];
  }
}
