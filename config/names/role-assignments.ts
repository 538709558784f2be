import { ComponentRole, RoleScope, WorkloadIdentityKey } from "../components";
import { uuidv5 } from "../uuid";

export interface RoleAssignmentNames {
  /** HyperShift component (`capz`, `ingress`, ...). */
  readonly component: string;
  readonly identity: WorkloadIdentityKey;
  readonly roleGuid: string;
  readonly roleName: string;
  readonly scopeKind: RoleScope;
  /** `/subscriptions/<sub>/resourceGroups/<rg>`, or a resource's ARM ID in it. */
  readonly scope: string;
  /** Why the component needs the role there (help/roles.md). */
  readonly why: string;
  /** HyperShift's name: UUIDv5 (DNS namespace) of `<infraID>-<component>-<scope>`. */
  readonly name: string;
  /** Set on a grant that is not the identity's own component's (adoption-roles.ts: release-4.21's `cpo` of the image-registry identity). */
  readonly grant?: string;
}

/** A hosted cluster's role assignments, by topology (HyperShift's AssignControlPlaneRoles / AssignDataPlaneRoles with aroHcp). */
export type HostedRoleAssignmentNames =
  /** The workload identities' roles (`hypershift create infra azure --assign-identity-roles`). */
  | { readonly kind: "selfManaged"; readonly workloadIdentities: readonly RoleAssignmentNames[] }
  | {
      readonly kind: "aroHcp";
      /** The data-plane identities' roles, on the managed group. */
      readonly dataPlaneIdentities: readonly RoleAssignmentNames[];
      /** The control-plane service principals' roles (the control-plane operator always). */
      readonly controlPlanePrincipals: readonly RoleAssignmentNames[];
    };

/** The role assignments of the cluster's managed identities (with federated credentials), in either topology. */
export function managedIdentityRoleAssignmentsOf(assignments: HostedRoleAssignmentNames): readonly RoleAssignmentNames[] {
  return assignments.kind === "aroHcp" ? assignments.dataPlaneIdentities : assignments.workloadIdentities;
}

/**
 * Role assignments of `keys` by `roles`, at the hosted cluster's `scopes`, named as HyperShift
 * names them (UUIDv5 of `<infraID>-<component>-<scope>`, whatever the role: the name is the
 * component's grant at that scope, so HyperShift's `destroy iam azure` finds it too). Deduplicated:
 * groups that coincide give the same name (HyperShift skips the duplicate, so do we), and a grant
 * inside a scope where the component already has the same role (e.g. the subnet of a VNet in the
 * managed group, `singleResourceGroup`) adds nothing.
 */
export function roleAssignmentNames(
  infraId: string,
  scopes: Readonly<Record<RoleScope, string>>,
  keys: readonly WorkloadIdentityKey[],
  roles: Readonly<Partial<Record<WorkloadIdentityKey, ComponentRole>>>,
): RoleAssignmentNames[] {
  const assignments = new Map<string, RoleAssignmentNames>();
  for (const key of keys) {
    const role = roles[key];
    if (!role) continue;
    const granted: Array<{ scope: string; roleGuid: string }> = [];
    for (const grant of role.grants) {
      const scope = scopes[grant.scope];
      const covered = granted.some((g) => g.roleGuid === grant.role.guid && within(scope, g.scope));
      const assignmentName = uuidv5(`${infraId}-${role.component}-${scope}`);
      if (!covered && !assignments.has(assignmentName)) {
        assignments.set(assignmentName, {
          component: role.component,
          identity: key,
          roleGuid: grant.role.guid,
          roleName: grant.role.name,
          scopeKind: grant.scope,
          scope,
          why: grant.why,
          name: assignmentName,
        });
      }
      granted.push({ scope, roleGuid: grant.role.guid });
    }
  }
  return [...assignments.values()];
}

/** Whether `scope` is `outer` or inside it (ARM IDs compare case-insensitively). */
function within(scope: string, outer: string): boolean {
  const [s, o] = [scope.toLowerCase(), outer.toLowerCase()];
  return s !== o && s.startsWith(`${o}/`);
}
