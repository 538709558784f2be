import { DataTlsPublicKey } from "@cdktf/provider-tls/lib/data-tls-public-key";
import { conditional, DataResource, Fn, ref, TerraformVariable, Token } from "cdktf";
import { Construct } from "constructs";
import { PlanTimeInputSpec, SecretsSource } from "../../config/plan-time-inputs";
import { fileContents } from "../terraform-literal";
import { publicKeyMatches } from "./public-half";

export interface PlanTimeInputProps {
  /** The variable's name, description, sensitivity and rules (config/plan-time-inputs.ts). */
  readonly spec: PlanTimeInputSpec;
  /** files: Terraform reads `file` at plan time. variables: a Terraform variable named `spec.variable`. */
  readonly source: SecretsSource;
  /**
   * The file Terraform reads in files mode, as Terraform sees it from the stack folder (relative,
   * absolute or `~/`). Required in files mode unless the spec is optional.
   * @default - none (variables mode)
   */
  readonly file?: string;
}

/**
 * One value a stack needs at plan time and never at synth: `file()` (sensitive when the spec is)
 * or a sensitive Terraform variable checked at plan by the spec's rules. Either way the synthesized
 * JSON holds a reference, never the value. Synth lists every instance in workspaces.json.
 *
 * Variables mode never prints the value, whatever was set: Terraform (1.11, verified by
 * `__tests__/e2e/plan-time-variables.test.ts`) prints the value a failed `validation` block tested
 * even when the variable is sensitive, and the value a failed precondition tested unless it is
 * sensitive. So the rules are preconditions of a `terraform_data` on a sensitive variable, and
 * {@link value} is the variable only while every rule holds (else ""): a rejected value reaches no
 * provider, which would get it without Terraform's sensitive mark and may print it in its own error
 * (the kubernetes provider's "Failed to parse value for host: <host>").
 */
export class PlanTimeInput extends Construct {
  /** The value as a Terraform expression (string; null for an unset optional variable; "" in variables mode when a rule fails). */
  public readonly value: string;
  /** The variable, in variables mode. */
  public readonly variable?: TerraformVariable;
  /** variables mode, a spec with rules: a terraform_data whose preconditions check the value at plan (they never print it). */
  public readonly check?: DataResource;
  /**
   * variables mode, a spec with a public half: the tls provider's public key of the value (read
   * only when the rules hold), whose postcondition compares it with the published one.
   */
  public readonly publicHalf?: DataTlsPublicKey;
  /** What the input is (variable name, description, rules). */
  public readonly spec: PlanTimeInputSpec;
  /** The file Terraform reads, in files mode. */
  public readonly file?: string;

  constructor(scope: Construct, id: string, props: PlanTimeInputProps) {
    super(scope, id);
    const { spec } = props;
    this.spec = spec;
    if (!/^[a-z][a-z0-9_]*$/.test(spec.variable)) throw new Error(`PlanTimeInput ${id}: variable name ${spec.variable} must be lower snake case`);
    if (!spec.sensitive && (spec.validations.length > 0 || spec.publicHalf))
      throw new Error(
        `PlanTimeInput ${id}: ${spec.variable} has rules, so it must be sensitive (Terraform prints a non-sensitive value its failed check tested)`,
      );
    if (props.source === "files") {
      if (props.file === undefined || props.file.trim() === "")
        throw new Error(`PlanTimeInput ${id}: files mode needs the file Terraform reads (${spec.variable})`);
      this.file = props.file;
      // Any path, quoted for HCL (a config path may hold `"`, `\`, `${`).
      const content = fileContents(props.file);
      this.value = spec.sensitive ? Fn.sensitive(content) : content;
      return;
    }
    this.variable = new TerraformVariable(this, "Variable", {
      type: "string",
      // Terraform reads a description as plain text (no templates), so config strings in it stay as written.
      description: spec.description,
      sensitive: spec.sensitive || undefined,
      nullable: spec.optional ? true : false,
    });
    // An optional variable defaults to null (cdktf's props cannot carry a null default).
    if (spec.optional) this.variable.addOverride("default", null);
    // The variable's name is what users set in their workspace: never a derived logical ID.
    this.variable.overrideLogicalId(spec.variable);
    const reference = `var.${spec.variable}`;
    if (spec.validations.length === 0) {
      this.value = this.variable.stringValue;
      return;
    }
    this.check = new DataResource(this, "Check", {
      lifecycle: { precondition: spec.validations.map((v) => ({ condition: `\${${v.condition}}`, errorMessage: v.errorMessage })) },
    });
    const holds = spec.validations.map((v) => `(${v.condition})`).join(" && ");
    this.value = Token.asString(conditional(ref(holds), this.variable.value, ""));
    if (spec.publicHalf) {
      this.publicHalf = new DataTlsPublicKey(this, "PublicHalf", {
        // Read only a value that passed the rules (the check above refuses the rest): the provider
        // would otherwise add its own parse error. count may not be sensitive; the rules' result may
        // or may not carry the variable's mark (can() drops it, try() keeps it), and before
        // Terraform 1.8 nonsensitive() of an unmarked value is an error, hence sensitive() first.
        count: Token.asNumber(`\${nonsensitive(sensitive(${holds})) ? 1 : 0}`),
        privateKeyPem: `\${${reference}}`,
        lifecycle: {
          postcondition: [{ condition: `\${${publicKeyMatches("self.public_key_pem", spec.publicHalf.pem)}}`, errorMessage: spec.publicHalf.errorMessage }],
        },
      });
    }
  }
}
