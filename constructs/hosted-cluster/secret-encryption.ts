/**
 * etcd secret encryption of a HostedCluster (`spec.secretEncryption`): AES-CBC with the generated
 * key Secret, or KMS with an Azure Key Vault key (`--encryption-key-id`, cmd/cluster/azure/create.go).
 */

/** HyperShift's `AzureKMSKey`; the version may be a Terraform reference (a created key's current version). */
export interface AzureKmsKey {
  readonly keyVaultName: string;
  readonly keyName: string;
  readonly keyVersion: string;
}

/** etcd encryption with an Azure Key Vault key (self-managed: the KMS workload identity). */
export interface KmsEncryptionInput {
  readonly activeKey: AzureKmsKey;
  /** The previous key during a rotation. @default - none */
  readonly backupKey?: AzureKmsKey;
  /** `keyVaultType`, written where the CRD has it (`secretEncryption`'s `writeKeyVaultType`). */
  readonly keyVaultType: "KeyVault";
  /**
   * How the KMS plugin authenticates: self-managed, the client ID (UUID or Terraform reference) of
   * the KMS identity federated with kube-system/kms-provider; ARO HCP style, the Key Vault secret
   * with the KMS service principal's credentials in the managed-identities vault
   * (`--kms-credentials-secret-name`).
   */
  readonly identity: { readonly workloadIdentityClientId: string } | { readonly credentialsSecretName: string };
}

/**
 * KMS with the Key Vault key as `--encryption-key-id` renders it (cmd/cluster/azure/create.go:
 * activeKey, keyVaultType always, workloadIdentity for self-managed), plus backupKey during a
 * rotation (keyVaultType only with `writeKeyVaultType`: the CRD of releases before 5.1 has no such
 * field, and release-4.21 to 4.23 CLIs write none); otherwise AES-CBC with the generated key (`etcdEncryptionKeySecret`), as the CLI
 * without the flag. A cluster is created with one or the other: the kube-apiserver's KMS
 * encryption config has no AES-CBC provider to read older secrets
 * (control-plane-operator/.../kas/kms/azure.go), so the creation guard refuses the switch.
 */
export function secretEncryption(kms: KmsEncryptionInput | undefined, etcdEncryptionKeySecret: string, writeKeyVaultType = true): Record<string, unknown> {
  if (!kms) return { type: "aescbc", aescbc: { activeKey: { name: etcdEncryptionKeySecret } } };
  const key = (k: AzureKmsKey) => ({ keyVaultName: k.keyVaultName, keyName: k.keyName, keyVersion: k.keyVersion });
  return {
    type: "kms",
    kms: {
      provider: "Azure",
      azure: {
        activeKey: key(kms.activeKey),
        ...(kms.backupKey ? { backupKey: key(kms.backupKey) } : {}),
        // cmd/cluster/azure/create.go: workloadIdentity for self-managed; for ARO the managed
        // identity's secret with objectEncoding utf-8, as the control-plane identities (no clientID).
        ...("workloadIdentityClientId" in kms.identity
          ? { workloadIdentity: { clientID: kms.identity.workloadIdentityClientId } }
          : { kms: { credentialsSecretName: kms.identity.credentialsSecretName, objectEncoding: "utf-8" } }),
        ...(writeKeyVaultType ? { keyVaultType: kms.keyVaultType } : {}),
      },
    },
  };
}
