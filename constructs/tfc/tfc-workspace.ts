import { DataTfeAgentPool } from "@cdktf/provider-tfe/lib/data-tfe-agent-pool";
import { Variable } from "@cdktf/provider-tfe/lib/variable";
import { Workspace, WorkspaceVcsRepo } from "@cdktf/provider-tfe/lib/workspace";
import { WorkspaceSettings } from "@cdktf/provider-tfe/lib/workspace-settings";
import { Construct } from "constructs";
import { escapeTemplates, literal, literalTags } from "../terraform-literal";

/** A string from the config or the command line, as Terraform must read it (a reference of ours is kept). */

/** One variable of a workspace: a fixed value, or an empty slot the administrator fills. */
export interface TfcVariable {
  readonly key: string;
  readonly category: "terraform" | "env";
  readonly sensitive: boolean;
  readonly description: string;
  /**
   * The value to set. Without one the variable is created empty, and the bootstrap never reads or
   * resets what the administrator sets later (`ignore_changes = [value]`): no secret value ever
   * enters the bootstrap's configuration or state.
   * @default - an empty slot
   */
  readonly value?: string;
}

/** A variable of a workspace or a variable set; an empty slot is never reset (`ignore_changes = [value]`). */
export function createVariable(scope: Construct, variable: TfcVariable, owner: { workspaceId: string } | { variableSetId: string }): Variable {
  const created = new Variable(scope, `${variable.category}-${variable.key}`, {
    ...owner,
    key: literal(variable.key),
    category: variable.category,
    sensitive: variable.sensitive,
    description: literal(variable.description.slice(0, 512)),
    value: variable.value === undefined ? undefined : literal(variable.value),
  });
  if (variable.value === undefined) created.lifecycle = { ignoreChanges: ["value"] };
  return created;
}

export interface TfcWorkspaceProps {
  readonly name: string;
  readonly organization: string;
  readonly projectId: string;
  readonly terraformVersion: string;
  readonly executionMode: "remote" | "agent" | "local";
  /** @default - none (execution mode remote or local) */
  readonly agentPool?: DataTfeAgentPool;
  readonly tags: Readonly<Record<string, string>>;
  /** @default - CLI-driven (no repository) */
  readonly vcsRepo?: WorkspaceVcsRepo;
  /** @default - the repository's root (only with vcsRepo) */
  readonly workingDirectory?: string;
  readonly variables: readonly TfcVariable[];
}

/**
 * A Terraform Cloud workspace with its settings and variables. Execution mode, agent pool and
 * state sharing live on `tfe_workspace_settings` only (deprecated on `tfe_workspace`; managing them
 * in both places drifts), and the execution mode is always set there (omitting it resets the
 * workspace to the organization default). `queue_all_runs = false`: no run before the variables
 * exist. `force_delete = false`: Terraform Cloud refuses to delete a workspace that still manages
 * resources. Every string prop is written as a literal (constructs/terraform-literal.ts): a `${`
 * in a name, tag, variable or VCS setting is never evaluated.
 */
export class TfcWorkspace extends Construct {
  readonly workspace: Workspace;
  readonly settings: WorkspaceSettings;

  constructor(scope: Construct, id: string, props: TfcWorkspaceProps) {
    super(scope, id);
    if (props.executionMode === "agent" && !props.agentPool) throw new Error(`internal: workspace ${props.name}: execution mode agent needs an agent pool`);
    this.workspace = new Workspace(this, "Workspace", {
      name: literal(props.name),
      organization: literal(props.organization),
      projectId: props.projectId,
      terraformVersion: literal(props.terraformVersion),
      tags: literalTags(props.tags),
      queueAllRuns: false,
      forceDelete: false,
      vcsRepo: props.vcsRepo && (escapeTemplates(props.vcsRepo) as WorkspaceVcsRepo),
      workingDirectory: props.vcsRepo && props.workingDirectory !== undefined ? literal(props.workingDirectory) : undefined,
    });
    this.settings = new WorkspaceSettings(this, "Settings", {
      workspaceId: this.workspace.id,
      executionMode: props.executionMode,
      agentPoolId: props.executionMode === "agent" ? props.agentPool?.id : undefined,
      globalRemoteState: false,
      remoteStateConsumerIds: [],
    });
    props.variables.forEach((variable) => createVariable(this, variable, { workspaceId: this.workspace.id }));
  }

  /** Lets exactly these workspaces read this one's state. */
  shareStateWith(consumers: readonly TfcWorkspace[]): void {
    this.settings.remoteStateConsumerIds = consumers.map((c) => c.workspace.id);
  }
}
