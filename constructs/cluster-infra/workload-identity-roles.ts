import { DataAzurermUserAssignedIdentity } from "@cdktf/provider-azurerm/lib/data-azurerm-user-assigned-identity";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { ITerraformDependable, Token } from "cdktf";
import { Construct } from "constructs";
import { AZURE_NAME_RULES } from "../../config/azure-rules";
import { literal } from "../terraform-literal";

/** Names and IDs come from the config: written as literals, never templates. */

/** One role of one workload identity on one resource group. */
export interface WorkloadRoleAssignment {
  /** Key of the identity that gets the role (HyperShift's workloadIdentities key). */
  readonly identity: string;
  /** What the scope is (`managed`, `vnet`, `nsg`, `dnsZone`): with `identity`, the construct ID. */
  readonly scopeKind: string;
  /** Resource group ARM ID `/subscriptions/<sub>/resourceGroups/<rg>`, or a resource's in it, possibly in another subscription. */
  readonly scope: string;
  /** Built-in role definition GUID. */
  readonly roleGuid: string;
  /** Assignment name: a UUID, HyperShift's deterministic one so both tools find the same assignment. */
  readonly name: string;
  /**
   * A second grant of the identity on the same scope kind, by the HyperShift component it stands
   * for (release-4.21's `cpo` Contributor of the image-registry identity): part of its key and construct ID.
   * @default - the identity's own grant
   */
  readonly grant?: string;
}

/** An assignment's key in `assignments`: `<identity>/<scopeKind>`, or `<identity>/<scopeKind>-<grant>`. */
export function workloadRoleKey(a: { readonly identity: string; readonly scopeKind: string; readonly grant?: string }): string {
  return `${a.identity}/${a.scopeKind}${a.grant ? `-${a.grant}` : ""}`;
}

export interface WorkloadIdentityRolesProps {
  /** The assignments, each (identity, scopeKind) and each name at most once. */
  readonly assignments: readonly WorkloadRoleAssignment[];
  /**
   * Who gets the roles, by key: a user-assigned managed identity found by `name` (3-128 letters,
   * digits, '-' or '_') in identityResourceGroupName, or a principal whose object ID is known
   * already (`principalId`, e.g. checked by ControlPlanePrincipals): no lookup then.
   */
  readonly identities: ReadonlyArray<{ readonly key: string; readonly name: string } | { readonly key: string; readonly principalId: string }>;
  /** Resource group of user-assigned identities (the persistent group); unused for `principalId` entries. */
  readonly identityResourceGroupName: string;
  /**
   * What an assignment must wait for, by scope ARM ID (case-insensitive): the resource groups
   * created in the same stack, because a scope string carries no dependency.
   * @default - none (every scope exists already)
   */
  readonly scopeDependencies?: ReadonlyMap<string, ITerraformDependable>;
}

const SCOPE = /^\/subscriptions\/([^/]+)\/resourceGroups\/[^/]+(\/providers\/[^/]+(\/[^/]+\/[^/]+)+)?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The roles HyperShift's `--assign-service-principal-roles` grants the workload identities
 * (cmd/infra/azure/rbac.go), on the cluster's resource groups and the base domain's group. The
 * identities live in another stack, so their principal IDs are looked up by name, once each
 * (managed identity names are unique in their resource group), unless they are known already.
 */
export class WorkloadIdentityRoles extends Construct {
  /** Role assignments by `workloadRoleKey`: `<identity>/<scopeKind>[-<grant>]`. */
  public readonly assignments: ReadonlyMap<string, RoleAssignment>;

  constructor(scope: Construct, id: string, props: WorkloadIdentityRolesProps) {
    super(scope, id);
    validate(props);
    const identitiesByKey = new Map(props.identities.map((identity) => [identity.key, identity]));
    const dependencies = new Map([...(props.scopeDependencies ?? [])].map(([armId, dependable]) => [armId.toLowerCase(), dependable]));
    // One construct per identity: its lookup and its assignments, `<identity>/<scopeKind>`.
    const identities = new Map<string, { scope: Construct; principalId: string }>();
    const identity = (key: string) => {
      let found = identities.get(key);
      if (!found) {
        const scope = new Construct(this, key);
        const known = identitiesByKey.get(key);
        const principalId =
          known && "principalId" in known
            ? known.principalId
            : new DataAzurermUserAssignedIdentity(scope, "Identity", {
                name: literal(known?.name ?? ""),
                resourceGroupName: literal(props.identityResourceGroupName),
              }).principalId;
        identities.set(key, (found = { scope, principalId }));
      }
      return found;
    };
    const assignments = new Map<string, RoleAssignment>();
    for (const assignment of props.assignments) {
      const { scope, principalId } = identity(assignment.identity);
      const dependency = dependencies.get(assignment.scope.toLowerCase());
      const resource = new RoleAssignment(scope, workloadRoleKey(assignment).slice(assignment.identity.length + 1), {
        name: assignment.name,
        scope: literal(assignment.scope),
        // Role definitions are per subscription: the one of the scope (the DNS zone's group may
        // be in another subscription than the cluster).
        roleDefinitionId: literal(
          `/subscriptions/${subscriptionOf(assignment.scope)}/providers/Microsoft.Authorization/roleDefinitions/${assignment.roleGuid}`,
        ),
        principalId,
        // Managed identities are service principals; saying so spares ARM the Entra lookup that
        // fails with PrincipalNotFound while a new identity replicates.
        principalType: "ServicePrincipal",
        dependsOn: dependency ? [dependency] : undefined,
      });
      assignments.set(workloadRoleKey(assignment), resource);
    }
    this.assignments = assignments;
  }
}

function subscriptionOf(scope: string): string {
  return SCOPE.exec(scope)?.[1] ?? "";
}

function validate(props: WorkloadIdentityRolesProps): void {
  const problems: string[] = [];
  const identityKeys = new Set(props.identities.map((identity) => identity.key));
  for (const identity of props.identities) {
    if ("principalId" in identity) {
      if (!Token.isUnresolved(identity.principalId) && !UUID.test(identity.principalId.toLowerCase())) {
        problems.push(`identities.${identity.key}.principalId "${identity.principalId}" must be an object ID (GUID) or a reference`);
      }
    } else if (!AZURE_NAME_RULES.userAssignedIdentity.test(identity.name)) {
      problems.push(`identities.${identity.key}.name "${identity.name}" ${AZURE_NAME_RULES.userAssignedIdentity.rule}`);
    }
  }
  const names = new Set<string>();
  const ids = new Set<string>();
  for (const a of props.assignments) {
    const at = `assignment ${workloadRoleKey(a)}`;
    if (!identityKeys.has(a.identity)) problems.push(`${at}: identity "${a.identity}" is not among identities (${[...identityKeys].join(", ")})`);
    if (!SCOPE.test(a.scope))
      problems.push(`${at}: scope "${a.scope}" must be /subscriptions/<subscription>/resourceGroups/<group>[/providers/<namespace>/<type>/<name>]`);
    if (!UUID.test(a.roleGuid)) problems.push(`${at}: roleGuid "${a.roleGuid}" must be a lowercase GUID`);
    if (!UUID.test(a.name)) problems.push(`${at}: name "${a.name}" must be a lowercase UUID (Azure role assignment name)`);
    // The same name twice is one Azure assignment managed by two resources.
    if (names.has(a.name.toLowerCase())) problems.push(`${at}: name "${a.name}" appears twice (deduplicate the assignments)`);
    if (ids.has(workloadRoleKey(a))) problems.push(`${at}: appears twice`);
    names.add(a.name.toLowerCase());
    ids.add(workloadRoleKey(a));
  }
  if (problems.length > 0) throw new Error(`WorkloadIdentityRoles: ${problems.join("; ")}`);
}
