import { DataResource, Fn, TerraformVariable } from "cdktf";
import { Construct } from "constructs";
import { PlanTimeInputSpec, SecretsSource } from "../../config/plan-time-inputs";
import { fileContents } from "../terraform-literal";

export interface PlanTimeInputProps {
  /** The variable's name, description, sensitivity and validation (config/plan-time-inputs.ts). */
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
 * or a Terraform variable checked at plan by the spec's rules. Either way the synthesized JSON holds
 * a reference, never the value. Synth lists every instance in workspaces.json.
 */
export class PlanTimeInput extends Construct {
  /** The value as a Terraform expression (string; null for an unset optional variable). */
  public readonly value: string;
  /** The variable, in variables mode. */
  public readonly variable?: TerraformVariable;
  /**
   * variables mode, sensitive spec: a terraform_data whose preconditions check the value at plan
   * (they never print it).
   */
  public readonly check?: DataResource;
  /** What the input is (variable name, description, validation). */
  public readonly spec: PlanTimeInputSpec;
  /** The file Terraform reads, in files mode. */
  public readonly file?: string;

  constructor(scope: Construct, id: string, props: PlanTimeInputProps) {
    super(scope, id);
    const { spec } = props;
    this.spec = spec;
    if (!/^[a-z][a-z0-9_]*$/.test(spec.variable)) throw new Error(`PlanTimeInput ${id}: variable name ${spec.variable} must be lower snake case`);
    if (props.source === "files") {
      if (props.file === undefined || props.file.trim() === "")
        throw new Error(`PlanTimeInput ${id}: files mode needs the file Terraform reads (${spec.variable})`);
      this.file = props.file;
      // Any path, quoted for HCL (a config path may hold `"`, `\`, `${`).
      const content = fileContents(props.file);
      this.value = spec.sensitive ? Fn.sensitive(content) : content;
      return;
    }
    const rules = spec.validations.map((v) => ({ condition: v.condition, errorMessage: v.errorMessage }));
    this.variable = new TerraformVariable(this, "Variable", {
      type: "string",
      // Terraform reads a description as plain text (no templates), so config strings in it stay as written.
      description: spec.description,
      sensitive: spec.sensitive || undefined,
      nullable: spec.optional ? true : false,
      // Terraform (1.11, verified by the e2e test) prints a variable's value in the diagnostic of a
      // failed validation block even when the variable is sensitive; a resource precondition
      // shows no value. Secrets are therefore checked by a precondition, the rest by validation.
      validation: spec.sensitive ? undefined : rules,
    });
    if (spec.sensitive && rules.length > 0) {
      this.check = new DataResource(this, "Check", { lifecycle: { precondition: rules } });
    }
    // An optional variable defaults to null (cdktf's props cannot carry a null default).
    if (spec.optional) this.variable.addOverride("default", null);
    // The variable's name is what users set in their workspace: never a derived logical ID.
    this.variable.overrideLogicalId(spec.variable);
    this.value = this.variable.stringValue;
  }
}
