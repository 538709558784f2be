import { z } from "zod";
import { AZURE_LIMITS } from "./azure-limits";

/**
 * Azure naming rules that the azurerm provider does not check (it accepts the name and Azure
 * rejects it at apply time, after other resources were already created).
 * Source for every row: shared/reference/notes/azure-rules.md §1-§2.
 */
export interface NameRule {
  /** The whole rule as one regular expression (also published in the JSON Schema). */
  readonly pattern: RegExp;
  /** Test for a candidate name. */
  readonly test: (name: string) => boolean;
  /** The rule in words, used in error messages ("must be ..."). */
  readonly rule: string;
}

function pattern(re: RegExp, rule: string): NameRule {
  return { pattern: re, test: (name) => re.test(name), rule };
}

export const AZURE_NAME_RULES = {
  /** Microsoft.Resources/resourceGroups: 1-90, `[-\w._()]`, no trailing '.'. */
  resourceGroup: pattern(/^[-\w.()]{0,89}[-\w()]$/, "must be 1-90 letters, digits, '_', '-', '.', '(' or ')' and must not end with '.'"),
  /** Microsoft.ManagedIdentity/userAssignedIdentities: 3-128, starts alphanumeric. */
  userAssignedIdentity: pattern(
    /^[a-zA-Z0-9][a-zA-Z0-9_-]{2,127}$/,
    "must be 3-128 letters, digits, '-' or '_', starting with a letter or digit (Azure managed identity name)",
  ),
  /** Federated identity credential: ARM pattern ^[a-zA-Z0-9]{1}[a-zA-Z0-9-_]{2,119}$. */
  federatedCredential: pattern(
    /^[a-zA-Z0-9][a-zA-Z0-9_-]{2,119}$/,
    "must match ^[a-zA-Z0-9][a-zA-Z0-9-_]{2,119}$ (federated identity credential name, 3-120 characters)",
  ),
  /** Microsoft.Storage/storageAccounts: globally unique DNS label. */
  storageAccount: pattern(/^[a-z0-9]{3,24}$/, "must match ^[a-z0-9]{3,24}$ (storage account name)"),
  /** Blob container: 3-63, lowercase letters, digits, single '-' between them. */
  blobContainer: pattern(/^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$/, "must be 3-63 lowercase letters, digits or single '-' between them (blob container name)"),
  /** VNet, subnet, NSG (resource-name-rules): 1-80, starts alphanumeric, ends alphanumeric or '_'. */
  networkName: pattern(
    /^[a-zA-Z0-9]([-\w.]{0,78}\w)?$/,
    "must be 1-80 letters, digits, '-', '_' or '.', starting with a letter or digit and ending with a letter, digit or '_'",
  ),
  /** Microsoft.Network/virtualNetworks: 2-64, starts alphanumeric, ends alphanumeric or '_'. */
  virtualNetwork: pattern(
    /^[a-zA-Z0-9][-\w.]{0,62}\w$/,
    "must be 2-64 letters, digits, '-', '_' or '.', starting with a letter or digit and ending with a letter, digit or '_' (VNet name)",
  ),
  /**
   * Microsoft.Network/dnsZones (public and private): 2-34 labels of 1-63 `[A-Za-z0-9_-]`. We also
   * require lowercase and at most 253 characters (RFC 1035), so one spelling is compared
   * everywhere (ExternalDNS domain filter, base domain, NS record name).
   */
  dnsZone: pattern(
    /^(?=.{1,253}$)[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63}){1,33}$/,
    "must be 2-34 dot-separated labels of 1-63 lowercase letters, digits, '-' or '_', at most 253 characters, without a trailing dot (Azure DNS zone name)",
  ),
  /** Microsoft.KeyVault/vaults: 3-24, global DNS name (`<name>.vault.azure.net`), no '--'. */
  keyVault: pattern(
    /^(?=.{3,24}$)[A-Za-z](?!.*--)[A-Za-z0-9-]*[A-Za-z0-9]$/,
    "must be 3-24 letters, digits or '-', start with a letter, end with a letter or digit, and contain no '--' (Key Vault names are global DNS names)",
  ),
  /** Microsoft.ContainerService/managedClusters: 1-63, alphanumeric at both ends (azurerm's KubernetesClusterName). */
  aksCluster: pattern(
    /^[a-zA-Z0-9]$|^[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]$/,
    "must be 1-63 letters, digits, '_' or '-', starting and ending with a letter or digit (AKS cluster name)",
  ),
} as const satisfies Record<string, NameRule>;

/** A config string that must follow an Azure name rule (the error is the rule in words). */
export const azureName = (rule: NameRule) => z.string().regex(rule.pattern, { error: rule.rule });

/**
 * AKS node pool names the management cluster uses itself: the system pool and the temporary
 * pools VM size changes rotate through (constructs/aks).
 */
export const AKS_RESERVED_POOL_NAMES: readonly string[] = ["system", "systemtmp", "usertmp"];

/** Azure tags: at most 50 per resource; names ≤512 (128 on storage accounts), values ≤256. */
export const TAG_RULES = {
  maxTags: 50,
  // Storage accounts have the strictest limit, and every tag lands on one.
  maxNameLength: 128,
  maxValueLength: 256,
  forbiddenNameCharacters: /[<>*%&:\\?/+]/,
} as const;

/**
 * Regions where user-assigned identities cannot hold federated identity credentials (HTTP 405
 * "Support for federated identity credentials not enabled"), per the Entra documentation.
 */
export const REGIONS_WITHOUT_FEDERATED_CREDENTIALS: readonly string[] = ["malaysiasouth", "newzealandnorth"];

/** Federated identity credentials per user-assigned identity (Entra limit; stated in azure-limits.ts). */
export const MAX_FEDERATED_CREDENTIALS_PER_IDENTITY = AZURE_LIMITS.federatedCredentialsPerIdentity.limit;
