import { ComponentRole, RoleScope, WorkloadIdentityKey } from "../components";
import { RoleAssignmentNames, roleAssignmentNames } from "./role-assignments";

/**
 * The roles `hypershift create cluster azure --assign-service-principal-roles` granted with the
 * user's CLI release, where they differ from HyperShift main (help/adopt.md#the-hypershift-release):
 * release-4.21's `AssignWorkloadIdentities` (`cmd/infra/azure/rbac.go`) maps the `cpo` component to
 * the image-registry identity's client ID, so that identity got Contributor on the managed, NSG and
 * VNet groups under the names `<infraID>-cpo-<scope>` (even with ImageRegistry disabled), and no
 * identity got them as the control-plane operator's. release-4.22 and later grant `cpo` to the
 * control-plane operator's identity only when it is in workload-identities.json (as main).
 */

/** The CLI release whose `cpo` grant went to the image-registry identity. */
const CPO_AS_IMAGE_REGISTRY = "4.21";

/**
 * The adopted cluster's HyperShift-default role assignments as `release`'s CLI made them: `roles`
 * for `keys`, and the grants it gave an identity under another component's name (`grant` set).
 */
export function cliReleaseRoleAssignments(
  release: string | undefined,
  infraId: string,
  scopes: Readonly<Record<RoleScope, string>>,
  keys: readonly WorkloadIdentityKey[],
  roles: Readonly<Partial<Record<WorkloadIdentityKey, ComponentRole>>>,
  allKeys: readonly WorkloadIdentityKey[],
): RoleAssignmentNames[] {
  const cpo = roles.controlPlaneOperator;
  if (release !== CPO_AS_IMAGE_REGISTRY || !cpo || !allKeys.includes("imageRegistry")) {
    return roleAssignmentNames(infraId, scopes, keys, roles);
  }
  const { controlPlaneOperator: _granted, ...own } = roles;
  return [
    ...roleAssignmentNames(infraId, scopes, keys, own),
    ...roleAssignmentNames(infraId, scopes, ["imageRegistry"], { imageRegistry: cpo }).map((a) => ({ ...a, grant: cpo.component })),
  ];
}
