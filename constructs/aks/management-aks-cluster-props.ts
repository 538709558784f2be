/** An autoscaled node pool. */
export interface AksNodePoolProps {
  /** VM size, e.g. `Standard_D4s_v5`. */
  readonly vmSize: string;
  /** Fewest nodes the autoscaler keeps, 1-1000. */
  readonly minCount: number;
  /** Most nodes the autoscaler adds, 1-1000 and at least minCount. */
  readonly maxCount: number;
  /** OS disk size in GB, 1-2048. @default - AKS chooses from the VM size */
  readonly osDiskSizeGb?: number;
  /** Availability zones, each "1", "2" or "3". @default - no zones */
  readonly zones?: string[];
}

/** The user pool: where the HostedCluster control planes run. */
export interface AksUserNodePoolProps extends AksNodePoolProps {
  /** Node pool name: 1-12 lowercase letters or digits, starting with a letter; not `system`, `systemtmp` or `usertmp`. */
  readonly name: string;
}

export interface ManagementAksClusterProps {
  /** AKS cluster name: 1-63 letters, digits, '_' or '-', starting and ending with a letter or digit. */
  readonly name: string;
  /** Existing resource group of the cluster and its two identities. */
  readonly resourceGroupName: string;
  /** Azure region. */
  readonly location: string;
  /** Subscription of the cluster (its ARM ID, role definition IDs). */
  readonly subscriptionId: string;
  /** DNS prefix of the API server FQDN: 1-54 letters, digits or '-', starting and ending with a letter or digit. @default - the name */
  readonly dnsPrefix?: string;
  /** Kubernetes version of the control plane and both pools, e.g. `1.33`. @default - the AKS default at creation */
  readonly kubernetesVersion?: string;
  /** `Free`, `Standard` or `Premium` (uptime SLA, API server scale). @default "Standard" */
  readonly skuTier?: "Free" | "Standard" | "Premium";
  /** The default node pool, named `system`, for critical add-ons only. */
  readonly systemPool: AksNodePoolProps;
  /** The pool the HostedCluster control planes run on. */
  readonly userPool: AksUserNodePoolProps;
  /** Names of the user-assigned control-plane and kubelet identities (3-128 letters, digits, '-' or '_'). */
  readonly identityNames: { readonly cluster: string; readonly kubelet: string };
  /** How often the Key Vault Secrets Provider re-reads mounted secrets, e.g. `2m`, `1h`. @default "2m" */
  readonly secretRotationInterval?: string;
  /**
   * ARM IDs of the Key Vault secrets the Key Vault Secrets Provider add-on identity may read,
   * `<vault ARM ID>/secrets/<name>`: "Key Vault Secrets User" on each secret, never on the vault
   * or a resource group (any pod that mounts a SecretProviderClass with this identity reads what
   * it may). A plain ID carries no dependency: the secrets must exist before this stack applies.
   * @default []
   */
  readonly keyVaultSecretIds?: readonly string[];
  /**
   * IPv4 CIDRs allowed to reach the public API server (`api_server_access_profile`), each
   * aligned (`203.0.113.0/24`, not `203.0.113.5/24`). Wherever Terraform runs must be inside
   * them. The cluster's own outbound IP is always allowed by AKS.
   * @default - no restriction (any address)
   */
  readonly apiServerAuthorizedIpRanges?: readonly string[];
  /**
   * Microsoft Entra ID authentication with Azure RBAC for Kubernetes authorization, and local
   * accounts disabled: kube_config then holds no client certificate, so Terraform needs an Entra
   * token (kubelogin, see help/aro-hcp.md). `tenantId` is the Entra tenant.
   * @default - local accounts with client certificates, Kubernetes RBAC only
   */
  readonly entraIdRbac?: {
    /** Microsoft Entra tenant of the users. */
    readonly tenantId: string;
    /**
     * Grant the principal running Terraform "Azure Kubernetes Service RBAC Cluster Admin" on the
     * cluster: with Azure RBAC even a subscription Owner cannot apply manifests without it.
     * @default true
     */
    readonly grantDeployerClusterAdmin?: boolean;
  };
  /**
   * Make Terraform refuse to destroy the cluster (lifecycle prevent_destroy): it runs every hosted
   * control plane. Also refuses a change that would replace it. Node pools and identities are
   * not protected; a renamed user pool is replaced create-before-destroy (the new one first).
   * @default true
   */
  readonly preventDestroy?: boolean;
  /** Tags for the cluster, its identities and the user pool. @default {} */
  readonly tags?: Record<string, string>;
}

/** What `ManagementAksCluster.fromExisting` needs: the cluster to read and the vaults to grant. */
export interface ExistingManagementAksClusterAttributes {
  /** Name of the existing AKS cluster. */
  readonly name: string;
  /** Its resource group. */
  readonly resourceGroupName: string;
  /** Its subscription (its ARM ID, role definition IDs). */
  readonly subscriptionId: string;
  /**
   * ARM IDs of the Key Vault secrets its Key Vault Secrets Provider add-on identity may read (the
   * cluster needs the add-on for that), as `ManagementAksClusterProps.keyVaultSecretIds`.
   * @default []
   */
  readonly keyVaultSecretIds?: readonly string[];
  /**
   * Terraform signs in to the cluster with Entra ID (kubelogin): the plan then stops, naming the
   * fix, when the cluster has no Entra ID integration. False: it uses the client certificate.
   * @default true
   */
  readonly entraIdSignIn?: boolean;
}
