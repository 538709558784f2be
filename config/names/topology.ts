import type { AksNames, ControlPlaneIdentityNames, KeyVaultNames } from "./aro-hcp";
import type { IdentityNames } from "./cluster";

/**
 * The deployment's topology (config `topology`), as one union: what exists only in one variant
 * lives in that variant, so a stack switches on `kind` instead of testing optional names.
 */
export type TopologyNames =
  /** Self-managed: HyperShift's WorkloadIdentities on an OpenShift management cluster. */
  | { readonly kind: "selfManaged" }
  /** ARO HCP style (seed 003): certificate service principals whose credentials live in a Key Vault. */
  | {
      readonly kind: "aroHcp";
      /** The Key Vault of the control-plane credentials (persistent group). */
      readonly keyVault: KeyVaultNames;
      /** The AKS management cluster, when managementCluster is configured. */
      readonly aks?: AksNames;
    };

/** One cluster's identities, by topology. */
export type ClusterIdentityNames =
  | {
      readonly kind: "selfManaged";
      /** HyperShift's workloadIdentities: managed identities with federated credentials (identities-<cluster>). */
      readonly workloadIdentities: readonly IdentityNames[];
    }
  | {
      readonly kind: "aroHcp";
      /** The data-plane managed identities with federated credentials (identities-<cluster>). */
      readonly dataPlaneIdentities: readonly IdentityNames[];
      /** The control-plane certificate service principals (shared stack). */
      readonly controlPlanePrincipals: readonly ControlPlaneIdentityNames[];
      /** The Key Vault holding the principals' credentials secrets (the deployment's one vault). */
      readonly keyVault: KeyVaultNames;
    };

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
