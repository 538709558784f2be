import { z } from "zod";
import { scalarAsText } from "./yaml-scalars";
import { AZURE_NAME_RULES, azureName } from "./azure-rules";

/**
 * Config of the ARO HCP-style topology (seed 003): the AKS management cluster, the Key Vault of
 * the control-plane identities and their certificates. Part of `schema.ts`; kept apart so the
 * self-managed schema reads on its own.
 */

const IPV4 = "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";

const subnetId = () =>
  z
    .string()
    .regex(/^\/subscriptions\/[0-9a-fA-F-]{36}\/resourceGroups\/[-\w.()]{1,90}\/providers\/Microsoft\.Network\/virtualNetworks\/[^/]+\/subnets\/[^/]+$/, {
      error: "must be a full ARM ID like /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
    });

/**
 * A Key Vault's firewall (`network_acls`, `public_network_access_enabled`, a private endpoint):
 * the aroHcp control-plane credentials vault and a created KMS vault. Closed by default: deny,
 * with what is let in listed here; `rules/aro-hcp.ts` refuses a vault nothing can reach.
 */
export const keyVaultNetworkSchema = (vault: string) =>
  z
    .strictObject({
      allowPublicNetworkAccess: z
        .boolean()
        .default(false)
        .describe(
          "true: the vault's firewall admits every network (default_action Allow), the explicit opt-out of the default: deny everything but allowedIpRanges, allowedSubnetIds and privateEndpoint.",
        ),
      allowedIpRanges: z
        .array(
          z.string().regex(new RegExp(`^${IPV4}(\\/([0-9]|[12]\\d|3[0-2]))?$`), {
            error: "must be a public IPv4 address or CIDR such as 203.0.113.7 or 203.0.113.0/24",
          }),
        )
        .default([])
        .describe(
          "Public IPv4 addresses or CIDRs let through the firewall (ip_rules): where Terraform runs (it writes to the vault), and the management cluster's outbound addresses (its pods read the vault).",
        ),
      allowedSubnetIds: z
        .array(subnetId())
        .default([])
        .describe("Subnets let through the firewall (virtual_network_subnet_ids); each needs the Microsoft.KeyVault service endpoint."),
      privateEndpoint: z
        .strictObject({
          subnetId: subnetId().describe("Subnet of the private endpoint (its VNet in the config's location)."),
          privateDnsZoneId: z
            .string()
            .regex(
              /^\/subscriptions\/[0-9a-fA-F-]{36}\/resourceGroups\/[-\w.()]{1,90}\/providers\/Microsoft\.Network\/privateDnsZones\/privatelink\.vaultcore\.[^/]+$/i,
              {
                error:
                  "must be the ARM ID of a privatelink.vaultcore.* private DNS zone, like /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/privateDnsZones/privatelink.vaultcore.azure.net",
              },
            )
            .optional()
            .describe("privatelink.vaultcore.azure.net zone the endpoint registers in (private_dns_zone_group). Default: none, your DNS resolves the vault."),
        })
        .optional()
        .describe(
          "A private endpoint for the vault (subresource vault). With no allowedIpRanges or allowedSubnetIds, public network access is switched off. Default: none.",
        ),
    })
    .default({ allowPublicNetworkAccess: false, allowedIpRanges: [], allowedSubnetIds: [] })
    .describe(`Firewall of ${vault}: deny by default; say who reaches it (help/aro-hcp.md#key-vault-firewall).`);

export type KeyVaultNetworkConfig = z.output<ReturnType<typeof keyVaultNetworkSchema>>;

const hours = (example: string) => z.string().regex(/^[1-9]\d*h$/, { error: `must be a whole number of hours such as ${example}` });

const nodePoolShape = (defaults: { vmSize: string; minCount: number; maxCount: number }, what: string) => ({
  vmSize: z
    .string()
    .regex(/^(Standard_|Basic_)?[A-Z]+[0-9]+(-[0-9]+)?[a-zA-Z]*(_[A-Z]*[0-9]+[A-Z]*)?(_v[0-9]+)?$/, {
      error: "must be an Azure VM size such as Standard_D4s_v5",
    })
    .default(defaults.vmSize)
    .describe(`VM size of the ${what} nodes.`),
  minCount: z
    .number()
    .int()
    .min(1, { error: "must be at least 1" })
    .max(1000, { error: "must be at most 1000" })
    .default(defaults.minCount)
    .describe("Fewest nodes the autoscaler keeps (1-1000)."),
  maxCount: z
    .number()
    .int()
    .min(1, { error: "must be at least 1" })
    .max(1000, { error: "must be at most 1000" })
    .default(defaults.maxCount)
    .describe("Most nodes the autoscaler adds (1-1000, at least minCount)."),
  osDiskSizeGb: z.number().int().min(30).max(2048).optional().describe("OS disk size in GB (30-2048). Default: AKS's default for the VM size."),
  zones: z
    .array(scalarAsText(z.enum(["1", "2", "3"])))
    .optional()
    .describe("Availability zones of the nodes. Default: none (regional)."),
});

export const aksSchema = z
  .strictObject({
    name: azureName(AZURE_NAME_RULES.aksCluster).optional().describe("AKS cluster name. Default: <prefix>-mgmt."),
    resourceGroupName: azureName(AZURE_NAME_RULES.resourceGroup).optional().describe("Resource group of the AKS cluster. Default: <prefix>-mgmt-rg."),
    existing: z
      .boolean()
      .default(false)
      .describe(
        "true: use an existing AKS cluster (found by name and resource group; it needs the OIDC issuer, workload identity, the Key Vault secrets provider add-on, and Entra ID integration: Terraform signs in through kubelogin, or with its kube_config client certificate when entraIdRbac.enabled is false); only entraIdRbac.enabled and entraIdRbac.kubeloginMode still apply.",
      ),
    kubernetesVersion: z
      .string()
      .regex(/^\d+\.\d+(\.\d+)?$/, { error: "must be a Kubernetes version such as 1.33 or 1.33.2" })
      .optional()
      .describe("Kubernetes version. Default: AKS's default version."),
    skuTier: z.enum(["Free", "Standard", "Premium"]).default("Standard").describe("AKS pricing tier (Standard has the uptime SLA a management cluster needs)."),
    systemPool: z
      .strictObject(nodePoolShape({ vmSize: "Standard_D4s_v5", minCount: 2, maxCount: 3 }, "system"))
      .default({ vmSize: "Standard_D4s_v5", minCount: 2, maxCount: 3 })
      .describe("The default node pool, named system: critical add-ons only."),
    userPool: z
      .strictObject({
        name: z
          .string()
          .regex(/^[a-z][a-z0-9]{0,11}$/, { error: "must be 1-12 lowercase letters or digits, starting with a letter (AKS node pool name)" })
          .default("controlplane")
          .describe("Node pool name."),
        ...nodePoolShape({ vmSize: "Standard_D8s_v5", minCount: 2, maxCount: 6 }, "control-plane"),
      })
      .default({ name: "controlplane", vmSize: "Standard_D8s_v5", minCount: 2, maxCount: 6 })
      .describe("The node pool where HyperShift runs the hosted control planes."),
    secretRotationInterval: z
      .string()
      .regex(/^[1-9]\d*[smh]$/, { error: "must be a duration such as 2m" })
      .default("2m")
      .describe("How often the Key Vault secrets provider re-reads mounted secrets (certificate renewal reaches the control planes this way)."),
    apiServerAuthorizedIpRanges: z
      .array(
        z.string().regex(/^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\/([0-9]|[12]\d|3[0-2])$/, {
          error: "must be an IPv4 CIDR such as 203.0.113.0/24",
        }),
      )
      .optional()
      .describe(
        "Only these IPv4 CIDRs reach the API server; include where Terraform runs (workstation, Terraform Cloud agents). Default: any address (synth warns).",
      ),
    entraIdRbac: z
      .strictObject({
        enabled: z
          .boolean()
          .default(true)
          .describe(
            "Microsoft Entra ID sign-in with Azure RBAC, local accounts disabled: Terraform signs in through kubelogin (help/aro-hcp.md). false re-enables local accounts (client certificates, Kubernetes RBAC only): Terraform then uses the kube_config client certificate. With existing: true, says how the existing cluster works.",
          ),
        kubeloginMode: z
          .enum(["azurecli", "workloadidentity", "spn", "msi"])
          .default("azurecli")
          .describe(
            "How kubelogin gets Terraform's token: azurecli (az login, workstation), workloadidentity (AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_FEDERATED_TOKEN_FILE), spn (AZURE_CLIENT_ID and AZURE_CLIENT_SECRET), msi (the VM's managed identity).",
          ),
        grantDeployerClusterAdmin: z
          .boolean()
          .default(true)
          .describe(
            "Grant the principal running Terraform Azure Kubernetes Service RBAC Cluster Admin on the created cluster (it applies the operator and HostedClusters).",
          ),
      })
      .default({ enabled: true, kubeloginMode: "azurecli", grantDeployerClusterAdmin: true })
      .describe("Entra ID authentication and Azure RBAC for the management cluster's API."),
  })
  .describe("AKS management cluster (topology: aroHcp): created in its own resource group, or an existing one.");

export const aroHcpSchema = z
  .strictObject({
    keyVault: z
      .strictObject({
        name: azureName(AZURE_NAME_RULES.keyVault)
          .optional()
          .describe("Key Vault of the control-plane credentials (globally unique). Default: <prefix, 13 chars>-kv-<6 hex of a stable hash>."),
        softDeleteRetentionDays: z
          .number()
          .int()
          .min(7, { error: "must be at least 7 days (Key Vault minimum)" })
          .max(90, { error: "must be at most 90 days (Key Vault maximum)" })
          .default(90)
          .describe("Days a deleted vault (and its name) is kept recoverable (7-90). Set only at creation; Azure ignores later changes."),
        purgeProtection: z.boolean().default(true).describe("Forbid purging the deleted vault before the retention ends. Cannot be turned off once on."),
        preventDestroy: z.boolean().optional().describe("Make Terraform refuse to destroy the vault. Default: protection.preventDestroy."),
        grantDeployerAccess: z
          .boolean()
          .default(true)
          .describe("Grant the principal running Terraform Key Vault Secrets Officer on the vault (RBAC mode: Terraform writes the credential secrets)."),
        network: keyVaultNetworkSchema("the control-plane credentials vault"),
      })
      .default({
        softDeleteRetentionDays: 90,
        purgeProtection: true,
        grantDeployerAccess: true,
        network: { allowPublicNetworkAccess: false, allowedIpRanges: [], allowedSubnetIds: [] },
      })
      .describe("RBAC-mode Key Vault in the persistent resource group."),
    certificates: z
      .strictObject({
        validity: hours("8760h").default("8760h").describe("Lifetime of each control-plane certificate, in hours (24h-17520h)."),
        renewBefore: hours("720h")
          .default("720h")
          .describe("An apply this long (hours) before expiry replaces the certificate; shorter than validity. Apply at least this often."),
      })
      .default({ validity: "8760h", renewBefore: "720h" })
      .describe("Self-signed certificates (tls provider, RSA 2048) the control-plane service principals authenticate with."),
  })
  .describe("ARO HCP-style settings (topology: aroHcp).");

export type AksConfig = z.output<typeof aksSchema>;
export type AroHcpConfig = z.output<typeof aroHcpSchema>;

/** The aroHcp block with its defaults, also when the config leaves it out. */
export function aroHcpSettings(config: { readonly aroHcp?: AroHcpConfig }): AroHcpConfig {
  return config.aroHcp ?? aroHcpSchema.parse({});
}
