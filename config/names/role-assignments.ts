import { ComponentRole, RoleScope, WorkloadIdentityKey } from "../components";
import { uuidv5 } from "../uuid";

export interface RoleAssignmentNames {
  /** HyperShift component (`capz`, `ingress`, ...). */
  readonly component: string;
  readonly identity: WorkloadIdentityKey;
  readonly roleGuid: string;
  readonly roleName: string;
  readonly scopeKind: RoleScope;
  /** `/subscriptions/<sub>/resourceGroups/<rg>`. */
  readonly scope: string;
  /** HyperShift's name: UUIDv5 (DNS namespace) of `<infraID>-<component>-<scope>`. */
  readonly name: string;
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
 * names them; deduplicated (groups that coincide give the same name, and HyperShift skips the
 * duplicate, so do we).
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
    for (const scopeKind of role.scopes) {
      const scope = scopes[scopeKind];
      const assignmentName = uuidv5(`${infraId}-${role.component}-${scope}`);
      if (!assignments.has(assignmentName)) {
        assignments.set(assignmentName, {
          component: role.component,
          identity: key,
          roleGuid: role.roleGuid,
          roleName: role.roleName,
          scopeKind,
          scope,
          name: assignmentName,
        });
      }
    }
  }
  return [...assignments.values()];
}
