import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { Fn, Op, TerraformStack, Token } from "cdktf";
import { Construct } from "constructs";

/**
 * Write-only arguments (`data_wo` of kubernetes_secret_v1 in hashicorp/kubernetes 2.38,
 * `value_wo` of azurerm_key_vault_secret in hashicorp/azurerm 4.55) are sent to the provider and
 * never stored in plan or state. Terraform supports them from 1.11; an older Terraform must
 * refuse the configuration rather than misread it, so a stack that uses one declares this.
 */
export const WRITE_ONLY_TERRAFORM_VERSION = ">= 1.11";

/**
 * Bits of the SHA-256 a revision keeps: 52, so the number is exact in a JSON double (state,
 * plan JSON, any tool reading them) and in the providers' int64 (SDKv2 TypeInt).
 */
export const REVISION_HEX_DIGITS = 13;

/** Declares `terraform { required_version = ">= 1.11" }` in the stack of `scope` (idempotent). */
export function requireWriteOnlyArguments(scope: Construct): void {
  TerraformStack.of(scope).addOverride("terraform.required_version", WRITE_ONLY_TERRAFORM_VERSION);
}

/**
 * The revision (`data_wo_revision`, `value_wo_version`) of a write-only value: a Terraform
 * expression, 1 + the first 52 bits of SHA-256 over `label`, a newline and `value`.
 *
 * Terraform cannot compare a write-only value with the last one it wrote (it keeps neither), so
 * the provider writes only when the revision changes: the revision must change whenever the value
 * does, or a rotated secret is silently never written. A number derived from the value does that
 * with nothing to remember; a counter would need the previous value (in state) to compare with.
 *
 * What it costs: the revision is stored in state, so state holds a 52-bit fingerprint of the
 * value. For the values this is used on (private keys, registry tokens, Entra client secrets:
 * 128 bits of entropy or more) it reveals nothing: confirming a guess needs the guess, and 52 bits
 * leave ~2^76 candidates for a 128-bit secret. A salt or key kept in state would not stop a state
 * reader, who has it too; a key kept outside state would be one more secret to supply at every
 * plan. `label` (the Secret's name) keeps two Secrets that hold the same value from sharing a
 * revision, so state does not show that they are equal. The value's sensitivity carries over:
 * the revision of a sensitive value is shown as `(sensitive value)` in plans.
 *
 * A collision (a new value with the same 52 bits, about 2^-52 per change) would skip one write.
 *
 * @param label fixed text (e.g. the Secret's name): no secret, no template
 * @param value the value as a Terraform expression (string token), or a map of them
 */
export function writeOnlyRevision(label: string, value: string | Readonly<Record<string, string>>): number {
  if (label.length === 0 || /[$%]\{/.test(label)) throw new Error(`writeOnlyRevision: label "${label}" must be non-empty plain text`);
  const text = typeof value === "string" ? value : Fn.jsonencode({ ...value });
  const digest = Fn.sha256(Fn.join("\n", [label, text]));
  return Token.asNumber(Op.add(Fn.parseint(Fn.substr(digest, 0, REVISION_HEX_DIGITS), 16), 1));
}

/**
 * hashicorp/kubernetes 2.38 (`resource_kubernetes_secret_v1.go` at v2.38.0, and issue #2846 on
 * 3.0.1): once `data_wo_revision` is set, Read no longer reads `data`, and `data` is optional and
 * computed, so a Secret switched in place from `data` to `data_wo` keeps the value it had in its
 * `data` in state forever, and so does a Secret imported into a `data_wo` resource (adoption: the
 * import reads `data`). A check block (a warning, never an error) says so on every plan and
 * apply while that copy is there, with the command that removes it: a replacement re-creates the
 * Secret from `data_wo` and leaves `data` null. A Secret created with `data_wo` never warns
 * (its `data` is unknown at plan and null after apply).
 */
export function warnWhileDataInState(secret: SecretV1): void {
  const stack = TerraformStack.of(secret);
  const id = stack.getLogicalId(secret);
  const address = `${secret.terraformResourceType}.${id}`;
  stack.addOverride(`check.${id}_data_out_of_state`, {
    assert: [
      {
        // length() of the sensitive map: the warning names the keys, never the values.
        condition: `\${try(length(${address}.data), 0) == 0}`,
        error_message:
          `${address} still holds a copy of its data in state (written before it switched to write-only data_wo, or read by an import; hashicorp/kubernetes 2.38 does not remove it). ` +
          `Remove the copy once with: terraform apply -replace=${address} (the Secret is deleted and re-created from the config's data_wo). See help/terraform-cloud.md, "Secrets in state".`,
      },
    ],
  });
}
