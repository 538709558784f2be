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
        assignments.set(assignmentName, { component: role.component, identity: key, roleGuid: role.roleGuid, roleName: role.roleName, scopeKind, scope, name: assignmentName });
      }
    }
  }
  return [...assignments.values()];
}
