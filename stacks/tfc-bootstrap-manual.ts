import { BootstrapOptions, BootstrapWorkspace, RUN_CLIENT_ID } from "./tfc-bootstrap-plan";

/**
 * What the bootstrap cannot do and an administrator must (printed by `npm run tfc-bootstrap`,
 * listed in help/terraform-cloud.md "Bootstrap"): numbered steps, before and after its apply.
 */

export interface ManualSteps {
  readonly before: readonly string[];
  readonly after: readonly string[];
}

/** The values an administrator fills: empty slots of the workspaces, and those of the connection variable set once. */
export function emptySlots(
  workspaces: readonly BootstrapWorkspace[],
  options: Pick<BootstrapOptions, "connectionVariableSet">,
): { owner: string; key: string; sensitive: boolean }[] {
  const own = workspaces.flatMap((w) =>
    w.variables.filter((v) => v.value === undefined && v.name !== RUN_CLIENT_ID).map((v) => ({ owner: w.workspace, key: v.name, sensitive: v.sensitive })),
  );
  const connection = new Map(workspaces.flatMap((w) => w.connectionVariables).map((v) => [`${v.category}-${v.name}`, v]));
  return [...own, ...[...connection.values()].map((v) => ({ owner: options.connectionVariableSet, key: v.name, sensitive: v.sensitive }))];
}

export function manualSteps(workspaces: readonly BootstrapWorkspace[], options: BootstrapOptions): ManualSteps {
  const slots = emptySlots(workspaces, options);
  const secrets = slots.filter((s) => s.sensitive);
  const keysOf = (list: readonly { key: string }[]) => [...new Set(list.map((s) => s.key))].sort().join(", ");
  const optional = workspaces.filter((w) => w.optionalVariables.length > 0);
  const graph = workspaces.filter((w) => w.graph).map((w) => w.workspace);
  const before = [
    `The organization ${options.organization} exists on ${options.hostname} (the bootstrap never creates an organization).`,
    "An API token allowed to create projects and workspaces in it (an organization owner's user or team token), exported as TFE_TOKEN; never put it in a file or the config.",
    `az login as someone who may create resource groups, managed identities and role assignments in subscription ${options.subscriptionId} (Owner, or Contributor with Role Based Access Control Administrator)` +
      (options.flexibleCredentials ? " and create Entra applications (Application Developer or Application.ReadWrite.OwnedBy)." : "."),
    ...(options.vcs
      ? [
          `The VCS connection (OAuth client) of the organization exists; its token ID ${options.vcs.oauthTokenId} was passed. Commit the synthesized stacks to ${options.vcs.identifier} under ${options.vcs.directory ? `${options.vcs.directory}/` : ""}stacks/<stack>.`,
        ]
      : []),
    ...(options.agentPool
      ? [`The agent pool ${options.agentPool} exists with running agents (agent version 1.7.0 or newer for Azure dynamic credentials).`]
      : []),
  ];
  const after = [
    ...(secrets.length > 0
      ? [
          `Set ${secrets.length} sensitive variable values the bootstrap created empty (${keysOf(secrets)}), in the Variables pages of the workspaces (or of the variable set ${options.connectionVariableSet}) or through the API; plans refuse an empty one.`,
        ]
      : []),
    ...(slots.length > secrets.length
      ? [
          `Set ${slots.length - secrets.length} non-secret values the bootstrap cannot know (${keysOf(slots.filter((s) => !s.sensitive))}); the management cluster's connection once, in the variable set ${options.connectionVariableSet}.`,
        ]
      : []),
    ...(optional.length > 0
      ? [
          `Optional variables, one of several ways to authenticate (${keysOf(optional.flatMap((w) => w.optionalVariables.map((v) => ({ key: v.name }))))}): create the ones you use, sensitive where they hold a token or key; the management cluster's (KUBE_*, kube_*) once, in the variable set ${options.connectionVariableSet}.`,
        ]
      : []),
    ...(graph.length > 0
      ? [
          `Grant Microsoft Graph application permissions (admin consent, e.g. Application.ReadWrite.OwnedBy) to the run identities of ${graph.join(", ")}: they use azuread (help/terraform-cloud.md "Least privilege per workspace").`,
        ]
      : []),
    ...(workspaces.some((w) => w.connectionVariables.length > 0)
      ? [`Kubernetes: the credentials in the variable set ${options.connectionVariableSet} need cluster-admin on the management cluster.`]
      : []),
    "Review the role assignments (tfc-bootstrap.json, roles): subscription-wide where a stack creates resource groups or uses one another stack creates; narrow them once the groups exist.",
    "Wait a few minutes before the first runs: new federated credentials and role assignments take time to propagate.",
  ];
  return { before, after };
}
