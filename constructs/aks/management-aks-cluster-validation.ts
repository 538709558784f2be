import { AZURE_NAME_RULES } from "../../config/azure-rules";
import type { ExistingManagementAksClusterAttributes, ManagementAksClusterProps } from "./management-aks-cluster-props";

/**
 * ManagementAksCluster's own invariants, every problem reported at once: the secret IDs its
 * construct IDs derive from, and its default DNS prefix. What the config already enforces (pool
 * bounds and names, intervals, ranges, identity names) lives in config/ only.
 */

const DNS_PREFIX = /^[a-zA-Z\d]$|^[a-zA-Z\d][-a-zA-Z\d]{0,52}[a-zA-Z\d]$/;
/** A Key Vault secret's ARM ID; group 1 is the vault name, group 2 the secret name. */
export const KEY_VAULT_SECRET_ID = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.KeyVault\/vaults\/([^/]+)\/secrets\/([^/]+)$/i;

/** Key Vault secret names: 1-127 letters, digits or '-'. */
const SECRET_NAME = /^[a-zA-Z0-9-]{1,127}$/;

/** Throws one error naming every invalid prop of a created cluster (field, value, rule). */
export function validate(props: ManagementAksClusterProps): void {
  const problems = keyVaultSecretProblems(props.keyVaultSecretIds);
  const dnsPrefix = props.dnsPrefix ?? props.name;
  if (!DNS_PREFIX.test(dnsPrefix)) {
    const source = props.dnsPrefix === undefined ? " (default: the name)" : "";
    problems.push(`dnsPrefix "${dnsPrefix}"${source} must be 1-54 letters, digits or '-', starting and ending with a letter or digit`);
  }
  if (problems.length > 0) throw new Error(`ManagementAksCluster: ${problems.join("; ")}`);
}

/** Throws one error naming every invalid attribute of an existing cluster. */
export function validateExisting(attributes: ExistingManagementAksClusterAttributes): void {
  const problems = keyVaultSecretProblems(attributes.keyVaultSecretIds);
  if (problems.length > 0) throw new Error(`ManagementAksCluster: ${problems.join("; ")}`);
}

/**
 * Each secret must be an ARM ID with a valid vault and secret name, and distinct: the grants'
 * construct IDs derive from them.
 */
function keyVaultSecretProblems(secretIds: readonly string[] | undefined): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  (secretIds ?? []).forEach((secretId, i) => {
    const [, vaultName, secretName] = KEY_VAULT_SECRET_ID.exec(secretId) ?? [];
    if (vaultName === undefined || !AZURE_NAME_RULES.keyVault.test(vaultName) || !SECRET_NAME.test(secretName)) {
      problems.push(
        `keyVaultSecretIds[${i}] "${secretId}" must be a Key Vault secret ARM ID /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.KeyVault/vaults/<vault>/secrets/<secret>, the vault name 3-24 letters, digits or '-', the secret name 1-127 letters, digits or '-'`,
      );
      return;
    }
    const key = `${vaultName}/${secretName}`.toLowerCase();
    if (seen.has(key)) problems.push(`keyVaultSecretIds[${i}] "${secretId}": secret "${secretName}" of vault "${vaultName}" appears twice`);
    seen.add(key);
  });
  return problems;
}
