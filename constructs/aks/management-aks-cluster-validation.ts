import { AKS_RESERVED_POOL_NAMES, AZURE_NAME_RULES } from "../../config/azure-rules";
import { parseCidr } from "../../config/cidr";
import type { AksNodePoolProps, ManagementAksClusterProps } from "./management-aks-cluster";

/** ManagementAksCluster's own invariants, every problem reported at once. */

const DNS_PREFIX = /^[a-zA-Z\d]$|^[a-zA-Z\d][-a-zA-Z\d]{0,52}[a-zA-Z\d]$/;
const NODE_POOL_NAME = /^[a-z][a-z0-9]{0,11}$/;
// Go durations as the CSI driver's rotation-poll-interval takes them.
const DURATION = /^(?=\d)(\d+h)?(\d+m)?(\d+s)?$/;
/** A Key Vault ARM ID; group 1 is the vault name. */
export const KEY_VAULT_ID = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.KeyVault\/vaults\/([^/]+)$/i;
const SKU_TIERS = ["Free", "Standard", "Premium"];

/** Throws one error naming every invalid prop (field, value, rule). */
export function validate(props: ManagementAksClusterProps): void {
  const problems: string[] = [];
  if (!AZURE_NAME_RULES.aksCluster.test(props.name)) {
    problems.push(`name "${props.name}" ${AZURE_NAME_RULES.aksCluster.rule}`);
  }
  const vaultNames = new Set<string>();
  (props.keyVaultIds ?? []).forEach((vaultId, i) => {
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
  if (!props.existing) validateCreation(props, problems);
  else if (props.apiServerAuthorizedIpRanges !== undefined || props.entraIdRbac !== undefined) {
    problems.push("apiServerAuthorizedIpRanges and entraIdRbac configure a created cluster; an existing one keeps its own settings");
  }
  if (problems.length > 0) throw new Error(`ManagementAksCluster: ${problems.join("; ")}`);
}

function validateCreation(props: ManagementAksClusterProps, problems: string[]): void {
  const dnsPrefix = props.dnsPrefix ?? props.name;
  if (!DNS_PREFIX.test(dnsPrefix)) {
    const source = props.dnsPrefix === undefined ? " (default: the name)" : "";
    problems.push(`dnsPrefix "${dnsPrefix}"${source} must be 1-54 letters, digits or '-', starting and ending with a letter or digit`);
  }
  if (props.skuTier !== undefined && !SKU_TIERS.includes(props.skuTier)) {
    problems.push(`skuTier "${props.skuTier}" must be one of ${SKU_TIERS.join(", ")}`);
  }
  const interval = props.secretRotationInterval;
  if (interval !== undefined && (!DURATION.test(interval) || /^(0+[hms])+$/.test(interval))) {
    problems.push(`secretRotationInterval "${interval}" must be a positive duration in hours, minutes and/or seconds such as 2m, 1h or 1h30m`);
  }
  if (props.systemPool === undefined) problems.push("systemPool is required unless existing is true");
  else validatePool("systemPool", props.systemPool, problems);
  if (props.userPool === undefined) {
    problems.push("userPool is required unless existing is true");
  } else {
    validatePool("userPool", props.userPool, problems);
    if (!NODE_POOL_NAME.test(props.userPool.name)) {
      problems.push(`userPool.name "${props.userPool.name}" must match ^[a-z][a-z0-9]{0,11}$ (AKS Linux node pool name)`);
    } else if (AKS_RESERVED_POOL_NAMES.includes(props.userPool.name)) {
      problems.push(`userPool.name "${props.userPool.name}" must not be ${AKS_RESERVED_POOL_NAMES.join(", ")} (the system pool and the rotation pools)`);
    }
  }
  (props.apiServerAuthorizedIpRanges ?? []).forEach((range, i) => {
    const cidr = /^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(range) ? parseCidr(range) : undefined;
    if (
      !cidr ||
      range
        .split(/[./]/)
        .slice(0, 4)
        .some((octet) => Number(octet) > 255) ||
      cidr.prefix > 32 ||
      !cidr.aligned
    ) {
      problems.push(`apiServerAuthorizedIpRanges[${i}] "${range}" must be an aligned IPv4 CIDR such as 203.0.113.0/24`);
    }
  });
  const names = props.identityNames;
  if (names === undefined) {
    problems.push("identityNames is required unless existing is true");
  } else {
    for (const key of ["cluster", "kubelet"] as const) {
      if (!AZURE_NAME_RULES.userAssignedIdentity.test(names[key])) {
        problems.push(`identityNames.${key} "${names[key]}" ${AZURE_NAME_RULES.userAssignedIdentity.rule}`);
      }
    }
    if (names.cluster.toLowerCase() === names.kubelet.toLowerCase()) {
      problems.push(`identityNames.kubelet "${names.kubelet}" must differ from identityNames.cluster (AKS needs two identities)`);
    }
  }
}

function validatePool(path: string, pool: AksNodePoolProps, problems: string[]): void {
  if (pool.vmSize.length === 0) problems.push(`${path}.vmSize "" must not be empty`);
  for (const key of ["minCount", "maxCount"] as const) {
    const count = pool[key];
    if (!Number.isInteger(count) || count < 1 || count > 1000) problems.push(`${path}.${key} ${count} must be a whole number from 1 to 1000`);
  }
  if (pool.minCount > pool.maxCount) problems.push(`${path}.minCount ${pool.minCount} must not exceed ${path}.maxCount ${pool.maxCount}`);
  const disk = pool.osDiskSizeGb;
  if (disk !== undefined && !(Number.isInteger(disk) && disk >= 1 && disk <= 2048)) {
    problems.push(`${path}.osDiskSizeGb ${disk} must be a whole number of GB from 1 to 2048`);
  }
  for (const zone of pool.zones ?? []) {
    if (!["1", "2", "3"].includes(zone)) problems.push(`${path}.zones "${zone}" must be "1", "2" or "3"`);
  }
}
