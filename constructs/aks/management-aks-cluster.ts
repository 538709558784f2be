import { DataAzurermClientConfig } from "@cdktf/provider-azurerm/lib/data-azurerm-client-config";
import { DataAzurermKubernetesCluster } from "@cdktf/provider-azurerm/lib/data-azurerm-kubernetes-cluster";
import { KubernetesCluster } from "@cdktf/provider-azurerm/lib/kubernetes-cluster";
import { KubernetesClusterNodePool } from "@cdktf/provider-azurerm/lib/kubernetes-cluster-node-pool";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { UserAssignedIdentity } from "@cdktf/provider-azurerm/lib/user-assigned-identity";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { literalTags } from "../terraform-literal";
import { protectedLifecycle } from "../../config/protection";
import { KEY_VAULT_SECRET_ID, validate, validateExisting } from "./management-aks-cluster-validation";

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
   * not protected: they cannot go while the protected cluster stays.
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

/** The management cluster as the stacks use it: created here, or an existing one read by name. */
export interface IManagementAksCluster {
  /** `/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>`, known at synth. */
  readonly id: string;
  readonly name: string;
  readonly resourceGroupName: string;
  /** The cluster's OIDC issuer URL (ends with '/'). */
  readonly oidcIssuerUrl: string;
  /** Client ID of the Key Vault Secrets Provider add-on identity (SecretProviderClass `userAssignedIdentityID`). */
  readonly keyVaultSecretsProviderClientId: string;
  /** Object (principal) ID of the Key Vault Secrets Provider add-on identity. */
  readonly keyVaultSecretsProviderObjectId: string;
  /** Client-certificate credentials of the cluster. Sensitive: outputs of them need `sensitive: true`. */
  readonly kubeConfig: AksKubeConfig;
  /** "Key Vault Secrets User" assignments, in `keyVaultSecretIds` order; pods mounting secrets must wait for them. */
  readonly keyVaultAccess: readonly RoleAssignment[];
}

/** The kube_config[0] attributes, base64 as Azure returns them. All sensitive (provider schema). */
export interface AksKubeConfig {
  readonly host: string;
  readonly clientCertificate: string;
  readonly clientKey: string;
  readonly clusterCaCertificate: string;
}

/**
 * The AKS management cluster that hosts HyperShift control planes (ARO HCP style, seed 003),
 * configured as HyperShift's contrib/managed-azure/setup_aks_cluster.sh does: Azure CNI and
 * network policy, Standard load balancer, AzureLinux, 250 pods per node, user-assigned
 * control-plane and kubelet identities, OIDC issuer, workload identity and the Key Vault
 * Secrets Provider with rotation. An existing cluster comes from `ManagementAksCluster.fromExisting`.
 */
export class ManagementAksCluster extends Construct implements IManagementAksCluster {
  /**
   * Uses an existing cluster, read by name and resource group (data source `<id>/Lookup`, which
   * fails the plan when the cluster lacks the Key Vault Secrets Provider add-on, the OIDC issuer or,
   * with `entraIdSignIn`, Entra ID integration): nothing is created; the add-on identity is granted
   * `keyVaultSecretIds` as for a created one.
   */
  public static fromExisting(scope: Construct, id: string, attributes: ExistingManagementAksClusterAttributes): IManagementAksCluster {
    return new ExistingManagementAksCluster(scope, id, attributes);
  }

  public readonly id: string;
  public readonly name: string;
  public readonly resourceGroupName: string;
  public readonly oidcIssuerUrl: string;
  public readonly keyVaultSecretsProviderClientId: string;
  public readonly keyVaultSecretsProviderObjectId: string;
  public readonly kubeConfig: AksKubeConfig;
  public readonly keyVaultAccess: readonly RoleAssignment[];
  /** The cluster. */
  public readonly resource: KubernetesCluster;
  /** The user pool: workloads that need schedulable nodes must depend on it. */
  public readonly userPool: KubernetesClusterNodePool;
  /** The deployer's "Azure Kubernetes Service RBAC Cluster Admin" role, when granted (entraIdRbac); Kubernetes writes must wait for it. */
  public readonly deployerClusterAdmin?: RoleAssignment;

  constructor(scope: Construct, id: string, props: ManagementAksClusterProps) {
    super(scope, id);
    validate(props);
    const group = `/subscriptions/${props.subscriptionId}/resourceGroups/${props.resourceGroupName}`;
    this.id = clusterArmId(props);
    this.name = props.name;
    this.resourceGroupName = props.resourceGroupName;

    const cluster = this.createCluster(props, group);
    this.resource = cluster;
    this.oidcIssuerUrl = cluster.oidcIssuerUrl;
    const addOnIdentity = cluster.keyVaultSecretsProvider.secretIdentity.get(0);
    this.kubeConfig = kubeConfigOf(cluster.kubeConfig.get(0));
    this.userPool = this.createUserPool(props, cluster);
    if (props.entraIdRbac && (props.entraIdRbac.grantDeployerClusterAdmin ?? true)) {
      const role = BUILT_IN_ROLES.aksRbacClusterAdmin;
      const deployer = new DataAzurermClientConfig(this, "Deployer", {});
      this.deployerClusterAdmin = new RoleAssignment(this, "DeployerClusterAdmin", {
        // Deterministic name: a re-apply after a partial failure finds the same assignment.
        name: Fn.uuidv5("url", `${this.id}/${role.guid}/${deployer.objectId}`),
        scope: cluster.id,
        roleDefinitionId: roleDefinitionId(props.subscriptionId, role),
        principalId: deployer.objectId,
      });
    }
    this.keyVaultSecretsProviderClientId = addOnIdentity.clientId;
    this.keyVaultSecretsProviderObjectId = addOnIdentity.objectId;
    this.keyVaultAccess = grantKeyVaultAccess(this, props, this.keyVaultSecretsProviderObjectId);
  }

  private createCluster(props: ManagementAksClusterProps, group: string): KubernetesCluster {
    const system = props.systemPool;
    const names = props.identityNames;
    const tags = literalTags(props.tags);
    const identity = (constructId: string, name: string) =>
      new UserAssignedIdentity(this, constructId, { name, resourceGroupName: props.resourceGroupName, location: props.location, tags });
    const clusterIdentity = identity("ClusterIdentity", names.cluster);
    const kubeletIdentity = identity("KubeletIdentity", names.kubelet);

    // AKS refuses a custom kubelet identity unless the control-plane identity may assign it.
    const operator = BUILT_IN_ROLES.managedIdentityOperator;
    const identities = `${group}/providers/Microsoft.ManagedIdentity/userAssignedIdentities`;
    const kubeletOperator = new RoleAssignment(this, "KubeletIdentityOperator", {
      name: Fn.uuidv5("url", `${identities}/${names.kubelet}/${operator.guid}/${identities}/${names.cluster}`),
      scope: kubeletIdentity.id,
      roleDefinitionId: roleDefinitionId(props.subscriptionId, operator),
      principalId: clusterIdentity.principalId,
      principalType: "ServicePrincipal",
    });

    return new KubernetesCluster(this, "Resource", {
      name: props.name,
      resourceGroupName: props.resourceGroupName,
      location: props.location,
      dnsPrefix: props.dnsPrefix ?? props.name,
      kubernetesVersion: props.kubernetesVersion,
      skuTier: props.skuTier ?? "Standard",
      oidcIssuerEnabled: true,
      workloadIdentityEnabled: true,
      // Without entraIdRbac, kept enabled: the Terraform Kubernetes provider authenticates with
      // kube_config's client certificate. With it, Terraform signs in through kubelogin.
      localAccountDisabled: props.entraIdRbac !== undefined,
      azureActiveDirectoryRoleBasedAccessControl: props.entraIdRbac && { azureRbacEnabled: true, tenantId: props.entraIdRbac.tenantId },
      apiServerAccessProfile:
        props.apiServerAuthorizedIpRanges && props.apiServerAuthorizedIpRanges.length > 0
          ? { authorizedIpRanges: [...props.apiServerAuthorizedIpRanges] }
          : undefined,
      defaultNodePool: {
        name: "system",
        // Control planes go to the user pool; this pool carries the CriticalAddonsOnly taint.
        onlyCriticalAddonsEnabled: true,
        ...poolSettings(system, props.kubernetesVersion),
        // A VM size change rotates through this pool instead of recreating the cluster.
        temporaryNameForRotation: "systemtmp",
      },
      identity: { type: "UserAssigned", identityIds: [clusterIdentity.id] },
      kubeletIdentity: {
        clientId: kubeletIdentity.clientId,
        objectId: kubeletIdentity.principalId,
        userAssignedIdentityId: kubeletIdentity.id,
      },
      keyVaultSecretsProvider: { secretRotationEnabled: true, secretRotationInterval: props.secretRotationInterval ?? "2m" },
      networkProfile: { networkPlugin: "azure", networkPolicy: "azure", loadBalancerSku: "standard" },
      tags,
      dependsOn: [kubeletOperator],
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
  }

  private createUserPool(props: ManagementAksClusterProps, cluster: KubernetesCluster): KubernetesClusterNodePool {
    const pool = props.userPool;
    return new KubernetesClusterNodePool(this, "UserPool", {
      name: pool.name,
      kubernetesClusterId: cluster.id,
      mode: "User",
      ...poolSettings(pool, props.kubernetesVersion),
      temporaryNameForRotation: "usertmp",
      tags: literalTags(props.tags),
    });
  }
}

class ExistingManagementAksCluster extends Construct implements IManagementAksCluster {
  public readonly id: string;
  public readonly name: string;
  public readonly resourceGroupName: string;
  public readonly oidcIssuerUrl: string;
  public readonly keyVaultSecretsProviderClientId: string;
  public readonly keyVaultSecretsProviderObjectId: string;
  public readonly kubeConfig: AksKubeConfig;
  public readonly keyVaultAccess: readonly RoleAssignment[];

  constructor(scope: Construct, id: string, attributes: ExistingManagementAksClusterAttributes) {
    super(scope, id);
    validateExisting(attributes);
    this.id = clusterArmId(attributes);
    this.name = attributes.name;
    this.resourceGroupName = attributes.resourceGroupName;
    const lookup = new DataAzurermKubernetesCluster(this, "Lookup", {
      name: attributes.name,
      resourceGroupName: attributes.resourceGroupName,
      // A plain "Invalid index" later says nothing: name what the cluster lacks.
      lifecycle: {
        postcondition: [
          {
            condition: "${length(self.key_vault_secrets_provider) > 0 && self.oidc_issuer_enabled}",
            errorMessage: `AKS cluster ${attributes.name} needs the azure-keyvault-secrets-provider add-on and the OIDC issuer (az aks enable-addons -a azure-keyvault-secrets-provider --enable-secret-rotation; az aks update --enable-oidc-issuer --enable-workload-identity).`,
          },
          ...((attributes.entraIdSignIn ?? true)
            ? [
                {
                  // kubelogin's token means nothing to a cluster without Entra ID integration.
                  condition: "${length(self.azure_active_directory_role_based_access_control) > 0}",
                  errorMessage: `AKS cluster ${attributes.name} has no Microsoft Entra ID integration, and Terraform signs in to it through kubelogin (managementCluster.aks.entraIdRbac.enabled, the default): enable it (az aks update --enable-aad --enable-azure-rbac) or set managementCluster.aks.entraIdRbac.enabled: false to sign in with the cluster's client certificate (help/aro-hcp.md).`,
                },
              ]
            : []),
        ],
      },
    });
    this.oidcIssuerUrl = lookup.oidcIssuerUrl;
    const addOnIdentity = lookup.keyVaultSecretsProvider.get(0).secretIdentity.get(0);
    // Empty if the cluster has local accounts disabled.
    this.kubeConfig = kubeConfigOf(lookup.kubeConfig.get(0));
    this.keyVaultSecretsProviderClientId = addOnIdentity.clientId;
    this.keyVaultSecretsProviderObjectId = addOnIdentity.objectId;
    this.keyVaultAccess = grantKeyVaultAccess(this, attributes, this.keyVaultSecretsProviderObjectId);
  }
}

function clusterArmId(cluster: { subscriptionId: string; resourceGroupName: string; name: string }): string {
  return `/subscriptions/${cluster.subscriptionId}/resourceGroups/${cluster.resourceGroupName}/providers/Microsoft.ContainerService/managedClusters/${cluster.name}`;
}

function kubeConfigOf(kubeConfig: AksKubeConfig): AksKubeConfig {
  return {
    host: kubeConfig.host,
    clientCertificate: kubeConfig.clientCertificate,
    clientKey: kubeConfig.clientKey,
    clusterCaCertificate: kubeConfig.clusterCaCertificate,
  };
}

/**
 * "Key Vault Secrets User" on each secret for the add-on identity; the same construct IDs
 * (`<cluster>/KeyVaultSecretsUser_<vault>_<secret>`) for a created and an existing cluster.
 */
function grantKeyVaultAccess(
  cluster: IManagementAksCluster & Construct,
  props: { subscriptionId: string; keyVaultSecretIds?: readonly string[] },
  principalId: string,
): RoleAssignment[] {
  const role = BUILT_IN_ROLES.keyVaultSecretsUser;
  return (props.keyVaultSecretIds ?? []).map((secretId) => {
    // Vault names are globally unique and secret names unique in their vault ('_' is in neither):
    // a stable construct ID whatever the list order.
    const [, vaultName, secretName] = KEY_VAULT_SECRET_ID.exec(secretId)!;
    return new RoleAssignment(cluster, `KeyVaultSecretsUser_${vaultName.toLowerCase()}_${secretName.toLowerCase()}`, {
      // Deterministic name from synth-time strings: a re-apply finds the same assignment.
      name: Fn.uuidv5("url", `${secretId}/${role.guid}/${cluster.id}`),
      scope: secretId,
      roleDefinitionId: roleDefinitionId(props.subscriptionId, role),
      principalId,
      // Spares ARM the Entra lookup that fails with PrincipalNotFound while the identity replicates.
      principalType: "ServicePrincipal",
    });
  });
}

/** What both pools share: autoscaling, AzureLinux, 250 pods per node (setup_aks_cluster.sh). */
function poolSettings(pool: AksNodePoolProps, kubernetesVersion: string | undefined) {
  return {
    vmSize: pool.vmSize,
    autoScalingEnabled: true,
    minCount: pool.minCount,
    maxCount: pool.maxCount,
    osDiskSizeGb: pool.osDiskSizeGb,
    zones: pool.zones,
    osSku: "AzureLinux",
    maxPods: 250,
    // Nodes follow the control plane; unset, a pool stays on its creation version.
    orchestratorVersion: kubernetesVersion,
    // AKS sets 10% when the block is absent, which azurerm then shows as a diff on every plan
    // (hashicorp/terraform-provider-azurerm#24020): state the same value.
    upgradeSettings: { maxSurge: "10%" },
  };
}
