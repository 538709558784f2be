import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";

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

/** The cluster's ARM ID, known at synth. */
export function clusterArmId(cluster: { subscriptionId: string; resourceGroupName: string; name: string }): string {
  return `/subscriptions/${cluster.subscriptionId}/resourceGroups/${cluster.resourceGroupName}/providers/Microsoft.ContainerService/managedClusters/${cluster.name}`;
}

/** The kube_config attributes, copied out of the provider's list item. */
export function kubeConfigOf(kubeConfig: AksKubeConfig): AksKubeConfig {
  return {
    host: kubeConfig.host,
    clientCertificate: kubeConfig.clientCertificate,
    clientKey: kubeConfig.clientKey,
    clusterCaCertificate: kubeConfig.clusterCaCertificate,
  };
}
