/**
 * The Azure clouds a deployment can target (top-level `cloud`), and what each changes: the
 * HostedCluster's `spec.platform.azure.cloud`, the azurerm and azuread provider environments, the
 * Microsoft Entra authority host written into credentials, and the Blob endpoint of the OIDC
 * issuer. HyperShift's CRD also lists AzureGermanCloud, AzureBleuCloud and AzureStackCloud; they
 * are left out: Germany is retired, and HyperShift's own cloud table (`support/azureutil`
 * `GetAzureCloudConfiguration`) and the CAPZ identity (`parseCloudType`) know only these three.
 */
export const AZURE_CLOUDS = ["AzurePublicCloud", "AzureUSGovernmentCloud", "AzureChinaCloud"] as const;
export type AzureCloud = (typeof AZURE_CLOUDS)[number];

export interface CloudEndpoints {
  /** `environment` of the azurerm provider. */
  readonly azurerm: string;
  /** `environment` of the azuread provider (3.x names). */
  readonly azuread: string;
  /** Microsoft Entra authority host, with trailing slash (azidentity's AuthorityHost). */
  readonly authorityHost: string;
  /** Blob service DNS suffix: `https://<account>.<suffix>`. */
  readonly blobSuffix: string;
  /** Key Vault DNS suffix: HyperShift rebuilds a KMS vault's host from the cloud and the vault name (`GetKeyVaultFQDN`). */
  readonly keyVaultSuffix: string;
}

/** Endpoints per cloud (Azure SDK for Go `cloud.AzurePublic`/`AzureGovernment`/`AzureChina`; azurerm and azuread provider docs). */
export const CLOUD_ENDPOINTS: Readonly<Record<AzureCloud, CloudEndpoints>> = {
  AzurePublicCloud: {
    azurerm: "public",
    azuread: "global",
    authorityHost: "https://login.microsoftonline.com/",
    blobSuffix: "blob.core.windows.net",
    keyVaultSuffix: "vault.azure.net",
  },
  AzureUSGovernmentCloud: {
    azurerm: "usgovernment",
    azuread: "usgovernmentl4",
    authorityHost: "https://login.microsoftonline.us/",
    blobSuffix: "blob.core.usgovcloudapi.net",
    keyVaultSuffix: "vault.usgovcloudapi.net",
  },
  AzureChinaCloud: {
    azurerm: "china",
    azuread: "china",
    authorityHost: "https://login.chinacloudapi.cn/",
    blobSuffix: "blob.core.chinacloudapi.cn",
    keyVaultSuffix: "vault.azure.cn",
  },
};
