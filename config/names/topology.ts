import type { AksNames, ControlPlaneIdentityNames } from "./aro-hcp";
import type { ClusterIdentityNames, IdentityNames, TopologyNames } from "./types";

/** The cluster's managed identities with federated credentials, in either topology. */
export function managedIdentitiesOf(identities: ClusterIdentityNames): readonly IdentityNames[] {
  return identities.kind === "aroHcp" ? identities.dataPlaneIdentities : identities.workloadIdentities;
}

/** The control-plane service principals of an aroHcp cluster; none in a self-managed one. */
export function controlPlanePrincipalsOf(identities: ClusterIdentityNames): readonly ControlPlaneIdentityNames[] {
  return identities.kind === "aroHcp" ? identities.controlPlanePrincipals : [];
}

/** The AKS management cluster (aroHcp with managementCluster), else undefined. */
export function managementAksOf(topology: TopologyNames): AksNames | undefined {
  return topology.kind === "aroHcp" ? topology.aks : undefined;
}
