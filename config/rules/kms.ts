import { AZURE_NAME_RULES } from "../azure-rules";
import { CLOUD_ENDPOINTS } from "../cloud";
import { DeploymentNames } from "../names";
import { parseKeyUrl } from "../schema";
import { keyVaultNetworkIssues } from "./aro-hcp";
import type { HostedContext } from "./hosted-context";
import { ConfigIssue, duplicates, nameIssue, Rule } from "./rule";

/** Rules of `hostedCluster.kms` (etcd encryption with a Key Vault key), per hosted cluster. */
export const KMS_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "a KMS key is in the configured cloud's Key Vault service",
    check: ({ config, spec, at }) => {
      // HyperShift keeps only the vault name and rebuilds the host from spec.platform.azure.cloud
      // (support/azureutil GetKeyVaultFQDN): a key elsewhere would be looked up in the wrong cloud.
      const suffix = CLOUD_ENDPOINTS[config.cloud].keyVaultSuffix;
      const urls = [
        ["keyId", spec.kms?.keyId],
        ["backupKeyId", spec.kms?.backupKeyId],
      ] as const;
      return urls.flatMap(([field, url]) =>
        url && new URL(url).hostname.toLowerCase().slice(new URL(url).hostname.indexOf(".") + 1) !== suffix
          ? [
              {
                path: `${at}.kms.${field}`,
                value: url,
                message: `must be a key of ${config.cloud} (https://<vault>.${suffix}/keys/...): HyperShift keeps only the vault name and finds it in the cluster's cloud (top-level cloud)`,
              },
            ]
          : [],
      );
    },
  },
  {
    rule: "a KMS key is either brought (keyId with keyVaultId) or created (keyVault)",
    check: ({ spec, at }) => {
      const kms = spec.kms;
      if (!kms) return [];
      const issues: ConfigIssue[] = [];
      if (kms.keyId && kms.keyVault)
        issues.push({ path: `${at}.kms.keyVault`, message: "is not allowed with kms.keyId: bring a key (keyId) or create one (keyVault), not both" });
      if (!kms.keyId && !kms.keyVault)
        issues.push({ path: `${at}.kms`, message: "needs keyId (an existing key, with keyVaultId) or keyVault (create the vault and key)" });
      if (kms.keyId && !kms.keyVaultId)
        issues.push({
          path: `${at}.kms.keyVaultId`,
          message: "is required with kms.keyId: the ARM ID of its vault, where the KMS identity gets Key Vault Crypto User on the key",
        });
      if (kms.keyVaultId && !kms.keyId) issues.push({ path: `${at}.kms.keyVaultId`, value: kms.keyVaultId, message: "is only used with kms.keyId" });
      if (kms.keyId && kms.keyVaultId) {
        const vault = parseKeyUrl(kms.keyId).keyVaultName;
        const named = kms.keyVaultId.split("/").pop() as string;
        if (named.toLowerCase() !== vault)
          issues.push({ path: `${at}.kms.keyVaultId`, value: kms.keyVaultId, message: `must be the vault of kms.keyId (${vault}), not ${named}` });
      }
      return issues;
    },
  },
  {
    rule: "the backup key is another key in the same vault",
    check: ({ hosted, spec, at }) => {
      const kms = hosted.kms;
      if (!kms?.backupKey || !spec.kms?.backupKeyId) return [];
      const { backupKey, activeKey } = kms;
      if (backupKey.keyVaultName !== kms.vault.name.toLowerCase())
        return [
          {
            path: `${at}.kms.backupKeyId`,
            value: spec.kms.backupKeyId,
            message: `must be in the vault of the active key (${kms.vault.name}): HyperShift requires both keys in the same Key Vault`,
          },
        ];
      if (backupKey.keyName === activeKey.keyName && backupKey.keyVersion === activeKey.keyVersion)
        return [{ path: `${at}.kms.backupKeyId`, value: spec.kms.backupKeyId, message: "is the active key; during a rotation it is the previous one" }];
      return [];
    },
  },
  {
    rule: "a created KMS vault lets Terraform and the management cluster in",
    check: ({ spec, at }) =>
      spec.kms?.keyVault
        ? keyVaultNetworkIssues(
            spec.kms.keyVault.network,
            `${at}.kms.keyVault.network`,
            "the KMS plugin on the management cluster (it encrypts and decrypts etcd's secrets with the key)",
          )
        : [],
  },
  {
    rule: "the created vault's name is a valid Key Vault name",
    check: ({ hosted }) =>
      hosted.kms?.vault.create ? nameIssue(AZURE_NAME_RULES.keyVault, hosted.kms.vault.name, hosted.kms.vault.origin, "Key Vault name") : [],
  },
];

/** Vault names are global: two clusters (or the ARO HCP vault) must not create the same one. */
export function kmsVaultCollisions(names: DeploymentNames): ConfigIssue[] {
  const aroVault = names.topology.kind === "aroHcp" ? [{ key: names.topology.keyVault.name.toLowerCase(), path: names.topology.keyVault.origin }] : [];
  return duplicates(
    [
      ...aroVault,
      ...names.clusters.flatMap((c) => {
        const vault = c.hosted?.kms?.vault;
        return vault?.create ? [{ key: vault.name.toLowerCase(), path: vault.origin, value: vault.name }] : [];
      }),
    ],
    "gives a Key Vault name that another vault of this deployment also uses (Key Vault names are global; set kms.keyVault.name)",
  );
}
