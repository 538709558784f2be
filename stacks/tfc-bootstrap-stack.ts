import { AzureadProvider } from "@cdktf/provider-azuread/lib/provider";
import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import { DataTfeAgentPool } from "@cdktf/provider-tfe/lib/data-tfe-agent-pool";
import { Project } from "@cdktf/provider-tfe/lib/project";
import { TfeProvider } from "@cdktf/provider-tfe/lib/provider";
import { RunTrigger } from "@cdktf/provider-tfe/lib/run-trigger";
import { VariableSet } from "@cdktf/provider-tfe/lib/variable-set";
import { WorkspaceVariableSet } from "@cdktf/provider-tfe/lib/workspace-variable-set";
import { LocalBackend, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { literal } from "../constructs/terraform-literal";
import { RunIdentity } from "../constructs/tfc/run-identity";
import { createVariable, TfcVariable, TfcWorkspace } from "../constructs/tfc/tfc-workspace";
import { azureadEnvironment, azurermEnvironment } from "./azure-providers";
import { Config } from "../config/schema";
import { BootstrapOptions, BootstrapWorkspace, RUN_CLIENT_ID, runSubject, tokenIssuer } from "./tfc-bootstrap-plan";

/** The bootstrap's one stack (its own output folder; never part of the deployment's `deploy '*'`). */
export const TFC_BOOTSTRAP_STACK = "tfc-bootstrap";

/** A config or command-line string as Terraform must read it: provider and resource arguments are templates. */

export interface TfcBootstrapStackProps {
  readonly config: Pick<Config, "subscriptionId" | "tenantId" | "cloud">;
  readonly options: BootstrapOptions;
  readonly workspaces: readonly BootstrapWorkspace[];
}

/**
 * The Terraform Cloud project and one workspace per stack (settings, variables, state sharing,
 * run triggers), and per Azure stack its run identity (help/terraform-cloud.md "Bootstrap").
 * Credentials are the administrator's: TFE_TOKEN for tfe, az login for azurerm/azuread. State is
 * local, in the stack's folder: it holds IDs and empty variable slots, never a secret value.
 */
export class TfcBootstrapStack extends TerraformStack {
  readonly identities = new Map<string, RunIdentity>();
  readonly workspaces = new Map<string, TfcWorkspace>();

  constructor(scope: Construct, props: TfcBootstrapStackProps) {
    super(scope, TFC_BOOTSTRAP_STACK);
    const { options, config } = props;
    new LocalBackend(this, { path: "terraform.tfstate" });
    new TfeProvider(this, "tfe", { hostname: literal(options.hostname), organization: literal(options.organization) });
    new AzurermProvider(this, "azurerm", {
      features: [{}],
      subscriptionId: literal(config.subscriptionId),
      tenantId: literal(config.tenantId),
      ...azurermEnvironment(config),
    });
    if (options.flexibleCredentials) new AzureadProvider(this, "azuread", { tenantId: literal(config.tenantId), ...azureadEnvironment(config) });
    const organization = literal(options.organization);
    const project = new Project(this, "Project", { name: literal(options.project), organization });
    const agentPool = options.agentPool ? new DataTfeAgentPool(this, "AgentPool", { name: literal(options.agentPool), organization }) : undefined;
    const group = props.workspaces.some((w) => w.azure)
      ? new ResourceGroup(this, "Identities", { name: literal(options.identityResourceGroup), location: literal(options.location) })
      : undefined;
    for (const entry of props.workspaces) {
      const identity = entry.azure && group ? this.runIdentity(entry, options, group) : undefined;
      if (identity) this.identities.set(entry.stack, identity);
      const variables = entry.variables.map((v): TfcVariable => ({
        key: v.name,
        category: v.category,
        sensitive: v.sensitive,
        description: v.description,
        value: v.name === RUN_CLIENT_ID ? identity?.clientId : v.value,
      }));
      this.workspaces.set(
        entry.stack,
        new TfcWorkspace(this, entry.stack, {
          name: entry.workspace,
          organization: options.organization,
          projectId: project.id,
          terraformVersion: options.terraformVersion,
          executionMode: options.executionMode,
          agentPool,
          tags: { ...options.tags, stack: entry.stack.split("-")[0] },
          vcsRepo: options.vcs && { identifier: options.vcs.identifier, branch: options.vcs.branch, oauthTokenId: options.vcs.oauthTokenId },
          workingDirectory: entry.workingDirectory,
          variables,
        }),
      );
    }
    this.connect(props.workspaces);
    this.connectionVariableSet(props.workspaces, options, project);
  }

  /** The management cluster's connection, set once for every workspace that reads it (empty slots). */
  private connectionVariableSet(entries: readonly BootstrapWorkspace[], options: BootstrapOptions, project: Project): void {
    const readers = entries.filter((e) => e.connectionVariables.length > 0);
    if (readers.length === 0) return;
    const set = new VariableSet(this, "ManagementCluster", {
      name: literal(options.connectionVariableSet),
      description: "Connection to the management cluster, read by the management and cluster-* workspaces (values set by an administrator).",
      organization: literal(options.organization),
      parentProjectId: project.id,
    });
    const variables = new Map(readers.flatMap((e) => e.connectionVariables).map((v) => [`${v.category}-${v.name}`, v]));
    for (const v of [...variables.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      createVariable(set, { key: v.name, category: v.category, sensitive: v.sensitive, description: v.description }, { variableSetId: set.id });
    }
    for (const entry of readers)
      new WorkspaceVariableSet(this.workspaces.get(entry.stack)!, "ManagementCluster", {
        variableSetId: set.id,
        workspaceId: this.workspaces.get(entry.stack)!.workspace.id,
      });
  }

  private runIdentity(entry: BootstrapWorkspace, options: BootstrapOptions, group: ResourceGroup): RunIdentity {
    return new RunIdentity(this, `${entry.stack}-identity`, {
      name: `id-tfc-${entry.workspace}`,
      resourceGroupName: group.name,
      location: options.location,
      issuer: tokenIssuer(options.hostname),
      subjects: { plan: runSubject(options, entry.workspace, "plan"), apply: runSubject(options, entry.workspace, "apply") },
      flexible: options.flexibleCredentials,
      roles: entry.roles,
    });
  }

  /** State sharing exactly along readsStateOf, and run triggers where data flows (VCS-driven runs). */
  private connect(entries: readonly BootstrapWorkspace[]): void {
    const byWorkspace = new Map(entries.map((e) => [e.workspace, this.workspaces.get(e.stack)!]));
    for (const entry of entries) {
      const workspace = this.workspaces.get(entry.stack)!;
      workspace.shareStateWith(entry.stateConsumers.map((name) => byWorkspace.get(name)!));
      for (const source of entry.runTriggerSources) {
        new RunTrigger(workspace, `TriggeredBy-${source}`, { workspaceId: workspace.workspace.id, sourceableId: this.workspaces.get(source)!.workspace.id });
      }
    }
  }
}
