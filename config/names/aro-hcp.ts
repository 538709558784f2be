import { CONTROL_PLANE_COMPONENTS, ControlPlanePrincipalKey } from "../components";
import { Config } from "../schema";

/**
 * Names of the ARO HCP-style topology (seed 003), derived like everything in `names/` (deployment.ts and cluster.ts
 * attaches them to DeploymentNames and ClusterNames): deterministic, from the config alone.
 */

export const AKS_STACK = "aks";

export interface AksNames {
  /** Stack of the management cluster: `aks`. */
  readonly stack: string;
  readonly name: string;
  /** Whether the cluster exists already (only looked up, never created). */
  readonly existing: boolean;
  readonly resourceGroup: { readonly name: string; readonly id: string };
  /** ARM ID of the cluster (known before it exists). */
  readonly id: string;
  /** DNS prefix of the API server FQDN: the name, trimmed to AKS's 54-character rule. */
  readonly dnsPrefix: string;
  /** User-assigned identities of the cluster (control plane) and of its kubelets. */
  readonly identities: { readonly cluster: string; readonly kubelet: string };
  /** Config paths of the names (for error messages). */
  readonly origins: { readonly name: string; readonly resourceGroup: string };
}

export interface KeyVaultNames {
  readonly name: string;
  readonly id: string;
  /** Config path the name comes from (for error messages). */
  readonly origin: string;
}

export interface ControlPlaneIdentityNames {
  /** HyperShift's `managedIdentities.controlPlane` key, or `kms` for etcd encryption (`hostedCluster.kms`). */
  readonly key: ControlPlanePrincipalKey;
  /** Display name of the Entra application and its service principal: `[<deployment prefix>-]<prefix>-<suffix>`. */
  readonly applicationName: string;
  /** Key Vault secret with the credentials JSON (HyperShift's credentialsSecretName): `<prefix>-<suffix>`, seed 003. */
  readonly secretName: string;
}

export function aksNames(config: Config, suffix: (...parts: string[]) => string): AksNames | undefined {
  const aks = config.managementCluster?.aks;
  if (!aks) return undefined;
  const name = aks.name ?? `${config.prefix}-mgmt`;
  const group = aks.resourceGroupName ?? `${config.prefix}-mgmt-rg`;
  const groupId = `/subscriptions/${config.subscriptionId}/resourceGroups/${group}`;
  // dns_prefix: 1-54 letters, digits or '-', alphanumeric at both ends ('_' is not allowed there).
  const dnsPrefix = `${name.replace(/_/g, "-").slice(0, 47).replace(/-+$/, "")}-${suffix(config.subscriptionId, group, name).slice(0, 6)}`;
  return {
    stack: AKS_STACK,
    name,
    existing: aks.existing,
    resourceGroup: { name: group, id: groupId },
    id: `${groupId}/providers/Microsoft.ContainerService/managedClusters/${name}`,
    dnsPrefix,
    identities: { cluster: `${name}-cluster-identity`, kubelet: `${name}-kubelet-identity` },
    origins: {
      name: aks.name ? "managementCluster.aks.name" : "prefix",
      resourceGroup: aks.resourceGroupName ? "managementCluster.aks.resourceGroupName" : "prefix",
    },
  };
}

export function keyVaultNames(config: Config, persistentGroupId: string, suffix: (...parts: string[]) => string): KeyVaultNames {
  const configured = config.aroHcp?.keyVault.name;
  // Global DNS name: a stable hash keeps it unique per deployment; '--' and a trailing '-' are
  // not allowed, and the prefix may hold either once cut.
  const name =
    configured ?? `${config.prefix.replace(/-+/g, "-").slice(0, 13).replace(/-$/, "")}-kv-${suffix(config.subscriptionId, persistentGroupId, config.prefix)}`;
  return { name, id: `${persistentGroupId}/providers/Microsoft.KeyVault/vaults/${name}`, origin: configured ? "aroHcp.keyVault.name" : "prefix" };
}

/**
 * Entra display names are tenant-wide, unlike the vault's secrets: they carry the deployment
 * prefix too (once: `myprefix-hc-cpo`, not `myprefix-myprefix-hc-cpo`), so two deployments with
 * a cluster of the same name do not meet.
 */
export function controlPlaneIdentityNames(prefix: string, identityPrefix: string, options: { readonly kms?: boolean } = {}): ControlPlaneIdentityNames[] {
  const application = identityPrefix.startsWith(`${prefix}-`) ? identityPrefix : `${prefix}-${identityPrefix}`;
  // With hostedCluster.kms, a ninth principal for the KMS plugin, named like the others.
  const components: ReadonlyArray<{ key: ControlPlanePrincipalKey; suffix: string }> = [
    ...CONTROL_PLANE_COMPONENTS,
    ...(options.kms ? [{ key: "kms" as const, suffix: "kms" }] : []),
  ];
  return components.map(({ key, suffix }) => ({ key, applicationName: `${application}-${suffix}`, secretName: `${identityPrefix}-${suffix}` }));
}
