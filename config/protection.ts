import type { Config } from "./schema";

/**
 * Which persistent resources carry Terraform's `prevent_destroy`, resolved once from the config:
 * `protection.preventDestroy` (default true) is the switch for all of them, and the older
 * per-resource keys (`resourceGroup.preventDestroy`, `dns.preventDestroy`,
 * `managementCluster.operator.preventDestroy`, `aroHcp.keyVault.preventDestroy`) override it for
 * their own resource when set. Terraform needs a literal in `lifecycle`, so synth writes it from
 * here. Resources replaced on purpose by rotation (certificates, their key pairs, application
 * certificates and passwords, OIDC document blobs) are never protected: `prevent_destroy` also
 * refuses a replacement, so it would block every renewal (help/destroy.md).
 */
export interface Protection {
  /** The created persistent resource group (`resourceGroup.preventDestroy`). */
  readonly persistentResourceGroup: boolean;
  /** The OIDC storage account and every issuer container (shared or per cluster). */
  readonly oidcIssuer: boolean;
  /** Workload (aroHcp: data-plane) identities and their federated credentials. */
  readonly workloadIdentities: boolean;
  /** The public DNS zone (`dns.preventDestroy`). */
  readonly dnsZone: boolean;
  /** ExternalDNS's Entra application and service principal. */
  readonly externalDnsPrincipal: boolean;
  /** The control-plane credentials Key Vault (`aroHcp.keyVault.preventDestroy`). */
  readonly keyVault: boolean;
  /** aroHcp: control-plane applications, service principals and their Key Vault secrets. */
  readonly controlPlaneIdentities: boolean;
  /** aroHcp: the created AKS management cluster and its resource group. */
  readonly aksCluster: boolean;
  /** The operator's CRDs and Namespaces, and the hosted clusters' namespaces (`managementCluster.operator.preventDestroy`). */
  readonly operator: boolean;
}

export function protectionOf(config: Config): Protection {
  const all = config.protection.preventDestroy;
  return {
    persistentResourceGroup: config.resourceGroup.preventDestroy ?? all,
    oidcIssuer: all,
    workloadIdentities: all,
    dnsZone: config.dns?.preventDestroy ?? all,
    externalDnsPrincipal: all,
    keyVault: config.aroHcp?.keyVault.preventDestroy ?? all,
    controlPlaneIdentities: all,
    aksCluster: all,
    operator: config.managementCluster?.operator.preventDestroy ?? all,
  };
}

/** A resource's `lifecycle` for the given protection: absent when off, so nothing else changes. */
export function protectedLifecycle(preventDestroy: boolean | undefined): { preventDestroy: true } | undefined {
  return (preventDestroy ?? true) ? { preventDestroy: true } : undefined;
}
