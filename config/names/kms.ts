import { KmsConfig, parseKeyUrl } from "../schema";
import { parseArmId } from "./naming";

/** A key as HyperShift's `AzureKMSKey` names it. */
export interface KmsKeyNames {
  readonly keyVaultName: string;
  readonly keyName: string;
  /** The version; undefined for a created key without `keyVault.keyVersion`: its current version, read at plan. */
  readonly keyVersion?: string;
}

/** The KMS key of a hosted cluster (`hostedCluster.kms`), and where its vault is. */
export interface KmsNames {
  /** The vault: created in the persistent group (`keyVault`), or the existing one of `keyId`. */
  readonly vault: { readonly name: string; readonly id: string; readonly resourceGroupName: string; readonly create: boolean; readonly origin: string };
  readonly activeKey: KmsKeyNames;
  readonly backupKey?: KmsKeyNames;
  /** `keyVaultType`: only Key Vault keys are accepted (config/schema/kms.ts). */
  readonly keyVaultType: "KeyVault";
  /**
   * ARM IDs the KMS identity gets Key Vault Crypto User on: each key (active, backup) once, never
   * the whole vault (least scope; HyperShift's docs grant it on the vault).
   */
  readonly cryptoUserScopes: readonly string[];
}

/**
 * Default vault name: `kms-<cluster, 13 chars>-<6 hex>` (at most 24, starts with a letter, no
 * '--'): global DNS name, so a stable hash of the deployment and cluster keeps it unique.
 */
export function defaultKmsVaultName(cluster: string, hash: string): string {
  return `kms-${cluster.replace(/-+/g, "-").slice(0, 13).replace(/-$/, "")}-${hash.slice(0, 6)}`;
}

export function kmsNames(
  kms: KmsConfig,
  at: string,
  cluster: { readonly name: string; readonly origin: string },
  persistentGroup: { readonly name: string; readonly id: string },
  hash: string,
): KmsNames | undefined {
  const backupKey = kms.backupKeyId ? parseKeyUrl(kms.backupKeyId) : undefined;
  const scopes = (vaultId: string, keyNames: string[]) => [...new Set(keyNames)].map((name) => `${vaultId}/keys/${name}`);
  if (kms.keyId && kms.keyVaultId) {
    const activeKey = parseKeyUrl(kms.keyId);
    const parsed = parseArmId(kms.keyVaultId);
    return {
      vault: { name: parsed.name, id: kms.keyVaultId, resourceGroupName: parsed.resourceGroup, create: false, origin: `${at}.kms.keyVaultId` },
      activeKey,
      backupKey,
      keyVaultType: "KeyVault",
      cryptoUserScopes: scopes(kms.keyVaultId, [activeKey.keyName, ...(backupKey ? [backupKey.keyName] : [])]),
    };
  }
  const created = kms.keyVault;
  // rules/kms.ts reports a config with neither or both.
  if (!created || kms.keyId) return undefined;
  const name = created.name ?? defaultKmsVaultName(cluster.name, hash);
  const id = `${persistentGroup.id}/providers/Microsoft.KeyVault/vaults/${name}`;
  return {
    vault: { name, id, resourceGroupName: persistentGroup.name, create: true, origin: created.name ? `${at}.kms.keyVault.name` : cluster.origin },
    // Lowercase as parsed key URLs are: the CRD compares backupKey's vault name with this one exactly.
    activeKey: { keyVaultName: name.toLowerCase(), keyName: created.keyName, keyVersion: created.keyVersion },
    backupKey,
    keyVaultType: "KeyVault",
    cryptoUserScopes: scopes(id, [created.keyName, ...(backupKey ? [backupKey.keyName] : [])]),
  };
}
