import { WorkspaceEntry, WorkspaceVariable, WorkspacesDocument } from "./workspaces";

/**
 * The Terraform Cloud bootstrap (`npm run tfc-bootstrap`, help/terraform-cloud.md "Bootstrap"), as
 * plain data: derived from the same document as workspaces.json and from each stack's synthesized
 * Terraform JSON, so it cannot drift from the app. stacks/tfc-bootstrap-stack.ts turns it into
 * resources; the script prints its manual steps.
 */

export type ExecutionMode = "remote" | "agent" | "local";

export interface BootstrapOptions {
  readonly organization: string;
  /** Terraform Cloud or Enterprise host; the dynamic-credential token issuer is https://<hostname>. */
  readonly hostname: string;
  /** The project the workspaces go to (its name is part of every federated credential subject). */
  readonly project: string;
  readonly subscriptionId: string;
  readonly location: string;
  /** Resource group the bootstrap creates for the run identities. */
  readonly identityResourceGroup: string;
  /** @default ">= 1.11.0" (write-only arguments, help/terraform-cloud.md "Secrets in state") */
  readonly terraformVersion: string;
  readonly executionMode: ExecutionMode;
  /** Agent pool name (execution mode agent). */
  readonly agentPool?: string;
  /** VCS-driven runs: the repository holding the synthesized stacks; none for CLI-driven runs. */
  readonly vcs?: BootstrapVcs;
  /** One Entra application per workspace with one flexible federated credential, instead of a managed identity with two. */
  readonly flexibleCredentials: boolean;
  /** Workspace tags (key: value). */
  readonly tags: Readonly<Record<string, string>>;
  /** The project-owned variable set of the management cluster's connection (the same in every workspace). */
  readonly connectionVariableSet: string;
}

export interface BootstrapVcs {
  /** `<owner>/<repository>` */
  readonly identifier: string;
  readonly branch?: string;
  /** OAuth token ID of the organization's VCS connection (ot-...), not a secret. */
  readonly oauthTokenId: string;
  /** Folder of the committed output in the repository ("" = its root): working directory <directory>/stacks/<stack>. */
  readonly directory: string;
}

export interface RoleGrant {
  readonly role: string;
  /** ARM scope: the subscription or a resource group. */
  readonly scope: string;
  readonly why: string;
}

export interface BootstrapWorkspace {
  readonly stack: string;
  readonly workspace: string;
  /** Workspace names of the stacks whose state this one reads. */
  readonly readsStateOf: readonly string[];
  /** Workspace names allowed to read this one's state (exactly the stacks that read it). */
  readonly stateConsumers: readonly string[];
  /** Stacks whose successful apply queues a run here (VCS-driven only, from readsStateOf). */
  readonly runTriggerSources: readonly string[];
  /** Variables the bootstrap creates on the workspace: fixed values, the run identity, empty slots for the rest. */
  readonly variables: readonly WorkspaceVariable[];
  /** Required variables of the management cluster's connection: in the variable set, attached to this workspace. */
  readonly connectionVariables: readonly WorkspaceVariable[];
  /** Optional variables (one of several ways to authenticate): left to the administrator. */
  readonly optionalVariables: readonly WorkspaceVariable[];
  /** Whether the stack authenticates to Azure (a run identity, its federated credentials and roles). */
  readonly azure: boolean;
  /** Whether the stack uses Microsoft Graph (azuread): permissions only an administrator can consent. */
  readonly graph: boolean;
  readonly roles: readonly RoleGrant[];
  readonly workingDirectory?: string;
}

/** What a stack's Terraform JSON touches in Azure, coarsely. */
export interface StackFootprint {
  readonly azurerm: boolean;
  readonly azuread: boolean;
  /** Resource groups the stack creates (azurerm_resource_group). */
  readonly creates: readonly string[];
  /** Resource groups it names otherwise (resource_group_name, /resourceGroups/<name> in IDs and scopes). */
  readonly uses: readonly string[];
  /** Whether it manages role assignments (needs Role Based Access Control Administrator). */
  readonly assignsRoles: boolean;
  /** Whether it manages any azurerm resource (else reading is enough). */
  readonly writes: boolean;
}

export const RUN_CLIENT_ID = "TFC_AZURE_RUN_CLIENT_ID";

/**
 * The management cluster's connection (KUBE_* environment variables, kube_* Terraform variables
 * with credentialsFromVariables): one value for every workspace that reads it, so one variable set
 * instead of a copy per workspace.
 */
export function isConnectionVariable(variable: Pick<WorkspaceVariable, "name">): boolean {
  return /^(KUBE_|kube_)/.test(variable.name);
}

/** The dynamic-credential token issuer of a Terraform Cloud or Enterprise host (no trailing slash). */
export function tokenIssuer(hostname: string): string {
  return `https://${hostname.replace(/\/+$/, "")}`;
}

/** The `sub` of a workspace's run token (terraform-cloud-facts.md §3.2). */
export function runSubject(options: Pick<BootstrapOptions, "organization" | "project">, workspace: string, phase: "plan" | "apply" | "*"): string {
  return `organization:${options.organization}:project:${options.project}:workspace:${workspace}:run_phase:${phase}`;
}

const GROUP_IN_ID = /\/resourceGroups\/([^/"$]+)/gi;

/** The resource groups, roles and providers of one synthesized stack (derived from its JSON). */
export function stackFootprint(json: any): StackFootprint {
  const providers = Object.keys(json.provider ?? {});
  const creates = new Set<string>();
  const uses = new Set<string>();
  let assignsRoles = false;
  let writes = false;
  const visit = (value: unknown, key?: string): void => {
    if (typeof value === "string") {
      if (key === "resource_group_name" && !value.includes("${")) uses.add(value);
      for (const match of value.matchAll(GROUP_IN_ID)) uses.add(match[1]);
    } else if (Array.isArray(value)) value.forEach((v) => visit(v));
    else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => visit(v, k));
  };
  for (const [type, blocks] of Object.entries<Record<string, any>>(json.resource ?? {})) {
    if (!type.startsWith("azurerm_")) continue;
    writes = true;
    if (type === "azurerm_role_assignment") assignsRoles = true;
    for (const body of Object.values(blocks)) {
      if (type === "azurerm_resource_group" && typeof body.name === "string") creates.add(body.name);
      visit(body);
    }
  }
  for (const [type, blocks] of Object.entries<Record<string, any>>(json.data ?? {})) {
    if (!type.startsWith("azurerm_")) continue;
    for (const body of Object.values(blocks)) {
      if (type === "azurerm_resource_group" && typeof body.name === "string") uses.add(body.name);
      visit(body);
    }
  }
  creates.forEach((group) => uses.delete(group));
  return {
    azurerm: providers.includes("azurerm"),
    azuread: providers.includes("azuread"),
    creates: [...creates].sort(),
    uses: [...uses].sort(),
    assignsRoles,
    writes,
  };
}

/**
 * The roles a stack's run identity gets, coarsely (help/terraform-cloud.md "What is approximate"):
 * a stack that creates resource groups, or names a group another stack creates (it does not exist
 * when the bootstrap runs, and Azure requires an existing scope), gets its roles on the
 * subscription; one that only names groups that exist before the deployment gets them there.
 * Contributor where it writes (Reader where it only reads), plus Role Based Access Control
 * Administrator where it assigns roles.
 */
export function rolesOf(footprint: StackFootprint, createdByDeployment: ReadonlySet<string>, subscriptionId: string): RoleGrant[] {
  if (!footprint.azurerm) return [];
  const subscription = `/subscriptions/${subscriptionId}`;
  const later = footprint.uses.filter((group) => createdByDeployment.has(group));
  const subscriptionWide = footprint.creates.length > 0 || later.length > 0;
  const scopes = subscriptionWide
    ? [
        {
          scope: subscription,
          why: footprint.creates.length > 0 ? `creates ${footprint.creates.join(", ")}` : `uses ${later.join(", ")}, created by another stack`,
        },
      ]
    : footprint.uses.map((group) => ({ scope: `${subscription}/resourceGroups/${group}`, why: `uses ${group}` }));
  const base = footprint.writes ? "Contributor" : "Reader";
  return scopes.flatMap(({ scope, why }) => [
    { role: base, scope, why },
    ...(footprint.assignsRoles ? [{ role: "Role Based Access Control Administrator", scope, why: `${why}; assigns roles` }] : []),
  ]);
}

/** Every workspace of the bootstrap, from workspaces.json's document and each stack's footprint. */
export function bootstrapWorkspaces(
  document: WorkspacesDocument,
  footprints: ReadonlyMap<string, StackFootprint>,
  options: BootstrapOptions,
): BootstrapWorkspace[] {
  const workspaceOf = new Map(document.workspaces.map((w) => [w.stack, w.state]));
  const created = new Set([...footprints.values()].flatMap((f) => f.creates));
  const consumersOf = (stack: string) =>
    document.workspaces
      .filter((w) => w.readsStateOf.includes(stack))
      .map((w) => w.state)
      .sort();
  return document.workspaces.map((entry: WorkspaceEntry): BootstrapWorkspace => {
    const footprint = footprints.get(entry.stack);
    if (!footprint) throw new Error(`internal: no synthesized JSON for stack ${entry.stack}`);
    const azure = entry.variables.some((v) => v.name === RUN_CLIENT_ID);
    return {
      stack: entry.stack,
      workspace: entry.state,
      readsStateOf: entry.readsStateOf.map((s) => workspaceOf.get(s) ?? s),
      stateConsumers: consumersOf(entry.stack),
      runTriggerSources: options.vcs ? [...entry.readsStateOf] : [],
      variables: entry.variables.filter((v) => v.required && !isConnectionVariable(v)),
      connectionVariables: entry.variables.filter((v) => v.required && isConnectionVariable(v)),
      optionalVariables: entry.variables.filter((v) => !v.required),
      azure,
      graph: footprint.azuread,
      roles: azure ? rolesOf(footprint, created, options.subscriptionId) : [],
      workingDirectory: options.vcs ? [options.vcs.directory, "stacks", entry.stack].filter((p) => p !== "").join("/") : undefined,
    };
  });
}
