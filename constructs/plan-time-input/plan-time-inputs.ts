import { Construct } from "constructs";
import { PlanTimeInputSpec, SecretsSource } from "../../config/plan-time-inputs";
import { PlanTimeInput } from "./plan-time-input";

/** A config file as written and as the loader resolved it (absolute). */
export interface ConfigFile {
  readonly written: string;
  readonly resolved: string;
}

export interface PlanTimeInputsProps {
  /** files: Terraform reads each input's file; variables: a sensitive Terraform variable each. */
  readonly source: SecretsSource;
  /** The path Terraform reads a config file from, as it sees it from the stack's folder. */
  readonly terraformPath: (file: ConfigFile) => string;
}

/**
 * The plan-time inputs of one stack, all read the same way (secrets.source): the file of each is
 * handed to Terraform only in files mode.
 *
 * Not a construct node of its own: each {@link PlanTimeInput} is the scope's child, at the
 * address (and with the variable names) it had when the stack made it.
 */
export class PlanTimeInputs {
  constructor(
    private readonly scope: Construct,
    private readonly props: PlanTimeInputsProps,
  ) {}

  /** The input `spec` as the scope's child `id`, read from `file` in files mode. */
  public add(id: string, spec: PlanTimeInputSpec, file: ConfigFile): PlanTimeInput {
    const { source, terraformPath } = this.props;
    return new PlanTimeInput(this.scope, id, { spec, source, file: source === "files" ? terraformPath(file) : undefined });
  }
}
