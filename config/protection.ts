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
  /** The operator's Private Link Entra application and service principal (managementCluster.privateLink). */
  readonly privateLinkPrincipal: boolean;
  /** The control-plane credentials Key Vault (`aroHcp.keyVault.preventDestroy`). */
  readonly keyVault: boolean;
  /** aroHcp: control-plane applications, service principals and their Key Vault secrets. */
  readonly controlPlaneIdentities: boolean;
  /** aroHcp: the created AKS management cluster and its resource group. */
  readonly aksCluster: boolean;
  /** The operator's CRDs and Namespaces, and the hosted clusters' namespaces (`managementCluster.operator.preventDestroy`). */
  readonly operator: boolean;
}

/**
 * One cluster's own persistent resources (identities, federated credentials, per-cluster issuer
 * container): protected as `protectionOf` says until the cluster is retired, so that its stacks can
 * then be destroyed (help/retire-cluster.md).
 */
export function clusterProtection(config: Config, cluster: { readonly retired: boolean }): Pick<Protection, "oidcIssuer" | "workloadIdentities"> {
  const { oidcIssuer, workloadIdentities } = protectionOf(config);
  return { oidcIssuer: oidcIssuer && !cluster.retired, workloadIdentities: workloadIdentities && !cluster.retired };
}

/**
 * A cluster's created KMS vault and key (`hostedCluster.kms.keyVault`): `kms.keyVault.preventDestroy`,
 * else `protection.preventDestroy`, lifted once the cluster is retired. Without the key, etcd's
 * secrets cannot be read: a restore from an etcd backup needs it too.
 */
export function kmsKeyProtection(config: Config, cluster: Config["clusters"][number]): boolean {
  const own = cluster.hostedCluster?.kms?.keyVault?.preventDestroy;
  return (own ?? config.protection.preventDestroy) && !cluster.retired;
}

/**
 * The Azure providers a stack must keep configured while `protection.release` lists resources of
 * theirs in it: the next deploy destroys those resources, and Terraform destroys a resource with
 * its provider's configuration (an implied empty `azurerm` has no `features` block and fails). Once
 * the deploy has destroyed them, remove the entries (help/destroy.md#releasing-a-protected-resource).
 */
export function releasingProviders(config: Config, stack: string): ReadonlySet<"azurerm" | "azuread"> {
  const providers = new Set<"azurerm" | "azuread">();
  for (const address of config.protection.release) {
    const [releasedStack, resource] = address.split("/");
    if (releasedStack !== stack) continue;
    if (resource.startsWith("azurerm_")) providers.add("azurerm");
    if (resource.startsWith("azuread_")) providers.add("azuread");
  }
  return providers;
}

export function protectionOf(config: Config): Protection {
  const all = config.protection.preventDestroy;
  return {
    persistentResourceGroup: config.resourceGroup.preventDestroy ?? all,
    oidcIssuer: all,
    workloadIdentities: all,
    dnsZone: config.dns?.preventDestroy ?? all,
    externalDnsPrincipal: all,
    privateLinkPrincipal: all,
    keyVault: config.aroHcp?.keyVault.preventDestroy ?? all,
    controlPlaneIdentities: all,
    aksCluster: all,
    operator: config.managementCluster?.operator.preventDestroy ?? all,
  };
}

/** What each protection covers, in the words of help/destroy.md. */
const PROTECTED_RESOURCES: Readonly<Record<keyof Protection, string>> = {
  persistentResourceGroup: "the persistent resource group",
  oidcIssuer: "the OIDC storage account and containers",
  workloadIdentities: "the identities and federated credentials",
  dnsZone: "the DNS zone",
  externalDnsPrincipal: "ExternalDNS's principal",
  privateLinkPrincipal: "the operator's Private Link principal",
  keyVault: "the Key Vault",
  controlPlaneIdentities: "the control-plane principals and secrets",
  aksCluster: "the AKS cluster",
  operator: "the operator's CRDs and namespaces",
};

/** A config meant for tearing down, deployed as if it were the everyday one: said at every synth. */
export function protectionWarnings(config: Config): string[] {
  const exists: Record<keyof Protection, boolean> = {
    persistentResourceGroup: config.resourceGroup.create,
    oidcIssuer: true,
    workloadIdentities: true,
    dnsZone: config.dns !== undefined,
    externalDnsPrincipal: config.externalDns !== undefined,
    privateLinkPrincipal: config.managementCluster?.privateLink !== undefined && !config.managementCluster.privateLink.credentialsFile,
    keyVault: config.topology === "aroHcp",
    controlPlaneIdentities: config.topology === "aroHcp",
    aksCluster: config.managementCluster?.aks !== undefined && !config.managementCluster.aks.existing,
    operator: config.managementCluster !== undefined,
  };
  const open = (Object.entries(protectionOf(config)) as Array<[keyof Protection, boolean]>)
    .filter(([resource, on]) => !on && exists[resource])
    .map(([resource]) => PROTECTED_RESOURCES[resource]);
  // Created KMS vaults are per cluster; a retired cluster's are meant to go.
  if (config.clusters.some((c) => c.hostedCluster?.kms?.keyVault && !c.retired && !kmsKeyProtection(config, c))) open.push("a KMS Key Vault and key");
  if (config.managementCluster?.etcdBackup && !config.protection.preventDestroy) open.push("the etcd backup storage account and container (every snapshot)");
  if (open.length === 0) return [];
  return [
    `protection: prevent_destroy is off for ${open.join(", ")}: a destroy, or a change that replaces them, deletes them without asking. Set protection.preventDestroy: true again once done (help/destroy.md).`,
  ];
}

/** A resource's `lifecycle` for the given protection: absent when off, so nothing else changes. */
export function protectedLifecycle(preventDestroy: boolean | undefined): { preventDestroy: true } | undefined {
  return (preventDestroy ?? true) ? { preventDestroy: true } : undefined;
}
