import { TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { IManagementAksCluster, ManagementAksCluster } from "../constructs/aks/management-aks-cluster";
import { protectionOf } from "../config/protection";
import { AksConfig } from "../config/schema";
import { PersistentResourceGroup } from "../constructs/resource-group/persistent-resource-group";
import { AksNames, controlPlanePrincipalsOf, KeyVaultNames } from "../config/names";
import { configureAzureStack } from "./azure-providers";
import { StackContext } from "./stack-setup";

export interface AksStackProps extends StackContext {
  /** The AKS management cluster's names (aroHcp with managementCluster.aks). */
  readonly aks: AksNames;
  /** The control-plane credentials vault its Key Vault secrets provider reads. */
  readonly keyVault: KeyVaultNames;
}

/**
 * The AKS management cluster of the ARO HCP-style topology (seed 003), created in its own
 * resource group or read by name, and its Key Vault secrets provider identity's read access to
 * the control-plane credentials: each secret the shared stack writes, not the whole vault. The
 * management and HostedCluster stacks reach the cluster through its own kube config, read at plan
 * time.
 */
export class AksStack extends TerraformStack {
  constructor(scope: Construct, props: AksStackProps) {
    const { config, aks } = props;
    const settings = config.managementCluster?.aks;
    if (!settings) throw new Error("internal: AksStack needs managementCluster.aks in the config");
    super(scope, aks.stack);
    configureAzureStack(this, aks.stack, props);

    // An existing cluster is only read (its group is not ours); the secret grants apply to both.
    const cluster = aks.existing
      ? ManagementAksCluster.fromExisting(this, "ManagementCluster", {
          name: aks.name,
          resourceGroupName: aks.resourceGroup.name,
          subscriptionId: config.subscriptionId,
          keyVaultSecretIds: controlPlaneSecretIds(props),
          entraIdSignIn: settings.entraIdRbac.enabled,
        })
      : this.createCluster(props, settings);

    new TerraformOutput(this, "aks_name", { value: aks.name });
    new TerraformOutput(this, "aks_resource_group", { value: aks.resourceGroup.name });
    new TerraformOutput(this, "aks_oidc_issuer_url", { value: cluster.oidcIssuerUrl });
    new TerraformOutput(this, "key_vault_secrets_provider_client_id", {
      value: cluster.keyVaultSecretsProviderClientId,
      description: "Client ID of the Key Vault secrets provider add-on identity (hypershift install --aro-hcp-key-vault-users-client-id)",
    });
  }

  /** The cluster in its own group: the group lives and dies with the cluster, and shares its protection. */
  private createCluster(props: AksStackProps, settings: AksConfig): IManagementAksCluster {
    const { config, aks } = props;
    const preventDestroy = protectionOf(config).aksCluster;
    const group = new PersistentResourceGroup(this, "ResourceGroup", {
      name: aks.resourceGroup.name,
      location: config.location,
      preventDestroy,
      tags: config.tags,
    });
    const cluster = new ManagementAksCluster(this, "ManagementCluster", {
      name: aks.name,
      resourceGroupName: group.name,
      location: config.location,
      subscriptionId: config.subscriptionId,
      dnsPrefix: aks.dnsPrefix,
      kubernetesVersion: settings.kubernetesVersion,
      skuTier: settings.skuTier,
      systemPool: settings.systemPool,
      userPool: settings.userPool,
      identityNames: aks.identities,
      secretRotationInterval: settings.secretRotationInterval,
      keyVaultSecretIds: controlPlaneSecretIds(props),
      apiServerAuthorizedIpRanges: settings.apiServerAuthorizedIpRanges,
      entraIdRbac: settings.entraIdRbac.enabled
        ? { tenantId: config.tenantId, grantDeployerClusterAdmin: settings.entraIdRbac.grantDeployerClusterAdmin }
        : undefined,
      preventDestroy,
      tags: config.tags,
    });
    new TerraformOutput(this, "aks_outbound_ip_ids", {
      value: cluster.resource.networkProfile.loadBalancerProfile.effectiveOutboundIps,
      description:
        "ARM IDs of the cluster's outbound public IPs: their addresses go in the vaults' allowedIpRanges (az network public-ip show --ids <id> --query ipAddress).",
    });
    return cluster;
  }
}

/** Every control-plane secret the shared stack writes to the vault (one per cluster and component), by ARM ID. */
function controlPlaneSecretIds({ names, keyVault }: AksStackProps): string[] {
  return names.clusters.flatMap((cluster) => controlPlanePrincipalsOf(cluster.identities).map((identity) => `${keyVault.id}/secrets/${identity.secretName}`));
}
