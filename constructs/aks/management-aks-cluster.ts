import { DataAzurermClientConfig } from "@cdktf/provider-azurerm/lib/data-azurerm-client-config";
import { KubernetesCluster } from "@cdktf/provider-azurerm/lib/kubernetes-cluster";
import { KubernetesClusterNodePool } from "@cdktf/provider-azurerm/lib/kubernetes-cluster-node-pool";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { UserAssignedIdentity } from "@cdktf/provider-azurerm/lib/user-assigned-identity";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { literalTags } from "../terraform-literal";
import { protectedLifecycle } from "../../config/protection";
import { ExistingManagementAksCluster } from "./existing-management-aks-cluster";
import { grantKeyVaultAccess } from "./key-vault-access";
import { AksKubeConfig, clusterArmId, IManagementAksCluster, kubeConfigOf } from "./management-aks-cluster-interface";
import { AksNodePoolProps, ExistingManagementAksClusterAttributes, ManagementAksClusterProps } from "./management-aks-cluster-props";
import { validate } from "./management-aks-cluster-validation";

// The construct's public surface, as one import for the stacks.
export type { AksKubeConfig, IManagementAksCluster } from "./management-aks-cluster-interface";
export type { AksNodePoolProps, AksUserNodePoolProps, ExistingManagementAksClusterAttributes, ManagementAksClusterProps } from "./management-aks-cluster-props";

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
      // A new name replaces the pool (azurerm: name is ForceNew). Destroying first would leave the
      // control planes nowhere to run (the system pool takes critical add-ons only): the new pool,
      // named differently, is created beside it and the old one goes after (help/aro-hcp.md).
      lifecycle: { createBeforeDestroy: true },
    });
  }
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
