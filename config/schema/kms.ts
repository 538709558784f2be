import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { keyVaultNetworkSchema } from "./key-vault-network";
import { armId, keyVaultRetentionDays } from "./primitives";

/**
 * `clusters[].hostedCluster.kms`: etcd encryption with an Azure Key Vault key (HyperShift's
 * `spec.secretEncryption` of type KMS, notes `hypershift-azure-options.md` §2). Part of
 * `hosted-cluster.ts`; kept apart so the HostedCluster schema reads on its own. Rules across these
 * fields (one of keyId and keyVault, same vault for the backup key, topology) are in
 * `rules/kms.ts`.
 */

/**
 * Key Vault DNS suffixes of HyperShift's `GetAzureEncryptionKeyInfo` (support/azureutil/constants.go):
 * a key URL on one of them is `keyVaultType: KeyVault`.
 */
export const KEY_VAULT_DNS_SUFFIXES = [
  "vault.azure.net",
  "vault.usgovcloudapi.net",
  "vault.azure.cn",
  "vault.microsoftazure.de",
  "vault.sovcloud-api.fr",
] as const;

/** `https://<vault>.<suffix>/keys/<name>/<version>`: vault, key name and version as groups. */
export const KEY_URL = new RegExp(
  `^https://([A-Za-z][A-Za-z0-9-]{1,22}[A-Za-z0-9])\\.(?:${KEY_VAULT_DNS_SUFFIXES.map((s) => s.replace(/\./g, "\\.")).join("|")})/keys/([A-Za-z0-9-]{1,127})/([0-9a-fA-F]{32})$`,
  "i",
);

/** Vault name, key name and version of a key URL the schema accepted. */
export function parseKeyUrl(url: string): { keyVaultName: string; keyName: string; keyVersion: string } {
  const match = KEY_URL.exec(url);
  if (!match) throw new Error(`internal: ${url} is not a Key Vault key URL`);
  // Vault names are DNS labels (case-insensitive); HyperShift lowercases the host too.
  return { keyVaultName: match[1].toLowerCase(), keyName: match[2], keyVersion: match[3] };
}

const keyUrl = (what: string) =>
  z
    .string()
    .refine((url) => !/^https:\/\/[^/]+\.managedhsm\./i.test(url), {
      error: `is a Managed HSM key: only Key Vault keys are supported here (Managed HSM needs HyperShift 4.22+ and HSM-local role assignments) (${what})`,
    })
    .refine((url) => KEY_URL.test(url), {
      error: `must be a Key Vault key URL with its version, https://<vault>.vault.azure.net/keys/<name>/<32 hex version>, as \`az keyvault key show --query key.kid\` prints it (${what})`,
    });

const keyVault = z
  .strictObject({
    name: azureName(AZURE_NAME_RULES.keyVault)
      .optional()
      .describe("Name of the created vault (globally unique). Default: kms-<cluster name, 13 chars>-<6 hex of a stable hash>."),
    keyName: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,127}$/, { error: "must be 1-127 letters, digits or '-' (Key Vault key name)" })
      .default("etcd-encryption")
      .describe("Name of the created RSA key."),
    keySize: z
      .union([z.literal(2048), z.literal(3072), z.literal(4096)])
      .default(2048)
      .describe("RSA key size in bits (2048, 3072 or 4096; HyperShift's docs use 2048)."),
    keyVersion: z
      .string()
      .regex(/^[0-9a-fA-F]{32}$/, { error: "must be a key version: 32 hex characters" })
      .optional()
      .describe(
        "Pin the version HyperShift encrypts with (activeKey.keyVersion). Default: the key's current version, read at each plan of cluster-<name>, so a rotated key becomes active at the next apply.",
      ),
    rotateAfter: z
      .string()
      .regex(/^P(\d+Y)?(\d+M)?(\d+D)?$/, { error: "must be an ISO 8601 duration in years, months or days, such as P1Y or P90D" })
      .refine((value) => value !== "P", { error: "must name at least one of years, months or days, such as P1Y" })
      .refine(
        (value) => {
          // Years and months counted short (365 and 28 days): only a period that is surely under 7 days is refused.
          const [, y, m, d] = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?$/.exec(value) ?? [];
          return Number(y ?? 0) * 365 + Number(m ?? 0) * 28 + Number(d ?? 0) >= 7;
        },
        { error: "must be at least P7D (Key Vault's shortest rotation after creation)" },
      )
      .optional()
      .describe(
        "Rotation policy: Key Vault creates a new key version this long after the current one was created (ISO 8601, at least P7D). Default: none, rotate on purpose (help/kms.md). With it, pin keyVersion: an unpinned cluster takes each new version as its active key at the next apply, without a backup key.",
      ),
    softDeleteRetentionDays: keyVaultRetentionDays().describe(
      "Days a deleted vault and key stay recoverable (7-90). Set only at creation; Azure ignores later changes.",
    ),
    preventDestroy: z.boolean().optional().describe("Make Terraform refuse to destroy the vault and key. Default: protection.preventDestroy."),
    grantDeployerAccess: z
      .boolean()
      .default(true)
      .describe("Grant the principal running Terraform Key Vault Crypto Officer on the vault (RBAC mode: Terraform creates and reads the key)."),
    network: keyVaultNetworkSchema("the created KMS vault"),
  })
  .describe("Create an RBAC-mode vault with purge protection and an RSA key in the persistent resource group (identities-<cluster> stack).");

export const kmsSchema = z
  .strictObject({
    keyId: keyUrl("kms.keyId")
      .optional()
      .describe("Existing key with its version, as --encryption-key-id: https://<vault>.vault.azure.net/keys/<name>/<version>. Not with keyVault."),
    keyVaultId: armId("Microsoft.KeyVault/vaults", "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.KeyVault/vaults/<vault>", {
      lastName: "[A-Za-z0-9-]{3,24}",
    })
      .optional()
      .describe("ARM ID of the vault of keyId (required with keyId): the KMS identity gets Key Vault Crypto User on the key there."),
    keyVault: keyVault.optional(),
    backupKeyId: keyUrl("kms.backupKeyId")
      .optional()
      .describe(
        "The previous key during a rotation (backupKey), in the same vault: https://<vault>.vault.azure.net/keys/<name>/<version>. HyperShift releases that track rotation in status ignore it. Default: none.",
      ),
  })
  .describe(
    "Encrypt etcd secrets with an Azure Key Vault key (KMS) instead of AES-CBC: bring keyId or create keyVault. Switches on identities.kms. Only at cluster creation (help/kms.md).",
  );

export type KmsConfig = z.output<typeof kmsSchema>;
