import { DataAzurermKubernetesCluster } from "@cdktf/provider-azurerm/lib/data-azurerm-kubernetes-cluster";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Construct } from "constructs";
import { grantKeyVaultAccess } from "./key-vault-access";
import { AksKubeConfig, clusterArmId, IManagementAksCluster, kubeConfigOf } from "./management-aks-cluster-interface";
import { ExistingManagementAksClusterAttributes } from "./management-aks-cluster-props";
import { validateExisting } from "./management-aks-cluster-validation";

/** An existing management cluster, read by name (`ManagementAksCluster.fromExisting`). */
export class ExistingManagementAksCluster extends Construct implements IManagementAksCluster {
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
