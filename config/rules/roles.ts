import { HostedClusterNames, DeploymentNames } from "../names";
import { managedIdentityRoleAssignmentsOf } from "../names/role-assignments";
import type { HostedContext } from "./hosted-context";
import { Rule } from "./rule";

const HELP = "(help/roles.md)";

/** Role rules, per hosted cluster (`hostedCluster.roles`). */
export const ROLE_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "adopted infrastructure keeps HyperShift's roles",
    check: ({ config, cluster, spec, at }) =>
      config.clusters[cluster.index].adopt?.infrastructure && spec.roles === "leastPrivilege"
        ? [
            {
              path: `${at}.roles`,
              value: spec.roles,
              message: `must be hypershiftDefaults with adopt.infrastructure: the CLI granted HyperShift's roles, and those are the assignments imported; adopt first, then remove adopt and switch (the plan only replaces role assignments) ${HELP}`,
            },
          ]
        : [],
  },
];

/** The role assignments of a hosted cluster, whatever the topology. */
function assignmentsOf(hosted: HostedClusterNames) {
  const roles = hosted.roleAssignments;
  return [...managedIdentityRoleAssignmentsOf(roles), ...(roles.kind === "aroHcp" ? roles.controlPlanePrincipals : [])];
}

/**
 * Roles granted on a whole resource group that this deployment does not create: the group of an
 * existing VNet or NSG (`network.existing`) may hold anything else (a hub network's group), and the
 * role then reaches all of it.
 */
export function roleWarnings(names: DeploymentNames): string[] {
  const warnings: string[] = [];
  for (const cluster of names.clusters) {
    const hosted = cluster.hosted;
    if (!hosted) continue;
    const at = `clusters[${cluster.index}].hostedCluster`;
    for (const key of ["vnet", "nsg"] as const) {
      const group = hosted.resourceGroups[key];
      if (group.create || !group.origin.includes(".network.existing.")) continue;
      const onGroup = assignmentsOf(hosted).filter((a) => a.scope.toLowerCase() === group.id.toLowerCase());
      if (onGroup.length === 0) continue;
      const grants = [...new Set(onGroup.map((a) => `${a.roleName} (${a.identity})`))].join(", ");
      warnings.push(
        `${hosted.infraStack}: ${at}.roles ${hosted.roleSet} grants ${grants} on the whole resource group ${group.name} of ${group.origin} (an existing ${key === "vnet" ? "VNet" : "NSG"}), which may hold other resources: set ${at}.roles: leastPrivilege to grant them on the ${key === "vnet" ? "VNet and subnet" : "NSG"} only ${HELP}.`,
      );
    }
  }
  return warnings;
}
