import { AZURE_NAME_RULES } from "../../config/azure-rules";
import type { ExistingManagementAksClusterAttributes, ManagementAksClusterProps } from "./management-aks-cluster";

/**
 * ManagementAksCluster's own invariants, every problem reported at once: the vault IDs its
 * construct IDs derive from, and its default DNS prefix. What the config already enforces (pool
 * bounds and names, intervals, ranges, identity names) lives in config/ only.
 */

const DNS_PREFIX = /^[a-zA-Z\d]$|^[a-zA-Z\d][-a-zA-Z\d]{0,52}[a-zA-Z\d]$/;
/** A Key Vault ARM ID; group 1 is the vault name. */
export const KEY_VAULT_ID = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.KeyVault\/vaults\/([^/]+)$/i;

/** Throws one error naming every invalid prop of a created cluster (field, value, rule). */
export function validate(props: ManagementAksClusterProps): void {
  const problems = keyVaultProblems(props.keyVaultIds);
  const dnsPrefix = props.dnsPrefix ?? props.name;
  if (!DNS_PREFIX.test(dnsPrefix)) {
    const source = props.dnsPrefix === undefined ? " (default: the name)" : "";
    problems.push(`dnsPrefix "${dnsPrefix}"${source} must be 1-54 letters, digits or '-', starting and ending with a letter or digit`);
  }
  if (problems.length > 0) throw new Error(`ManagementAksCluster: ${problems.join("; ")}`);
}

/** Throws one error naming every invalid attribute of an existing cluster. */
export function validateExisting(attributes: ExistingManagementAksClusterAttributes): void {
  const problems = keyVaultProblems(attributes.keyVaultIds);
  if (problems.length > 0) throw new Error(`ManagementAksCluster: ${problems.join("; ")}`);
}

/** Each vault must be an ARM ID with a valid, distinct name: the grants' construct IDs derive from it. */
function keyVaultProblems(keyVaultIds: readonly string[] | undefined): string[] {
  const problems: string[] = [];
  const vaultNames = new Set<string>();
  (keyVaultIds ?? []).forEach((vaultId, i) => {
    const vaultName = KEY_VAULT_ID.exec(vaultId)?.[1];
    if (vaultName === undefined || !AZURE_NAME_RULES.keyVault.test(vaultName)) {
      problems.push(
        `keyVaultIds[${i}] "${vaultId}" must be a Key Vault ARM ID /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.KeyVault/vaults/<name>, the name 3-24 letters, digits or '-'`,
      );
    } else if (vaultNames.has(vaultName.toLowerCase())) {
      problems.push(`keyVaultIds[${i}] "${vaultId}": vault "${vaultName}" appears twice`);
    } else {
      vaultNames.add(vaultName.toLowerCase());
    }
  });
  return problems;
}
