import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { ITerraformDependable, Token } from "cdktf";
import { Construct } from "constructs";
import { MANAGED_BY_LABELS } from "../kubernetes-constants";
import { requireWriteOnlyArguments, warnWhileDataInState, writeOnlyRevision } from "../write-only/write-only";

export interface OperatorSecretProps {
  /** Secret name, e.g. `external-dns-credentials`. */
  readonly name: string;
  /** Namespace, e.g. `hypershift` (the operator namespace). */
  readonly namespace: string;
  /**
   * Secret type.
   * @default "Opaque"
   */
  readonly type?: string;
  /**
   * Data by key. Every value must be a Terraform reference (remote state output, `file()` at
   * plan time, a resource attribute), never a literal: a literal would be written into
   * cdktf.out. The provider base64-encodes the values. Written through the write-only `data_wo`:
   * the values reach the cluster, never plan or state.
   */
  readonly data: Readonly<Record<string, string>>;
  /**
   * What must exist first (the namespace).
   * @default - nothing
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * A Secret the operator's pods mount, created by Terraform rather than by `hypershift install`
 * (render leaves Secrets out). Its values are resolved at plan time and written through the
 * write-only `data_wo` (Terraform 1.11+, which the stack then requires), so they reach the
 * cluster but neither the synthesized JSON nor plan or state; `data_wo_revision`, derived from the
 * values (writeOnlyRevision), makes a changed value be written.
 */
export class OperatorSecret extends Construct {
  public readonly resource: SecretV1;

  constructor(scope: Construct, id: string, props: OperatorSecretProps) {
    super(scope, id);
    const literal = Object.entries(props.data).filter(([, value]) => !Token.isUnresolved(value));
    if (Object.keys(props.data).length === 0 || literal.length > 0) {
      throw new Error(
        `OperatorSecret ${props.namespace}/${props.name}: ${
          literal.length > 0
            ? `data keys ${literal.map(([key]) => key).join(", ")} are literal values; pass Terraform references so no secret is synthesized`
            : "data is empty"
        }`,
      );
    }
    this.resource = new SecretV1(this, "Resource", {
      metadata: { name: props.name, namespace: props.namespace, labels: { ...MANAGED_BY_LABELS } },
      type: props.type ?? "Opaque",
      dataWo: { ...props.data },
      dataWoRevision: writeOnlyRevision(props.name, props.data),
      dependsOn: props.dependsOn,
    });
    requireWriteOnlyArguments(this);
    warnWhileDataInState(this.resource);
  }
}
