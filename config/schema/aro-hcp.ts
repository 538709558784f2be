import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { keyVaultNetworkSchema } from "./key-vault-network";
import { hours, keyVaultRetentionDays } from "./primitives";

/**
 * Config of the ARO HCP-style topology (seed 003): the Key Vault of the control-plane identities
 * and their certificates. The AKS management cluster is in `aks.ts`.
 */

export const aroHcpSchema = z
  .strictObject({
    keyVault: z
      .strictObject({
        name: azureName(AZURE_NAME_RULES.keyVault)
          .optional()
          .describe("Key Vault of the control-plane credentials (globally unique). Default: <prefix, 13 chars>-kv-<6 hex of a stable hash>."),
        softDeleteRetentionDays: keyVaultRetentionDays().describe(
          "Days a deleted vault (and its name) is kept recoverable (7-90). Set only at creation; Azure ignores later changes.",
        ),
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

export type AroHcpConfig = z.output<typeof aroHcpSchema>;

/** The aroHcp block with its defaults, also when the config leaves it out. */
export function aroHcpSettings(config: { readonly aroHcp?: AroHcpConfig }): AroHcpConfig {
  return config.aroHcp ?? aroHcpSchema.parse({});
}
