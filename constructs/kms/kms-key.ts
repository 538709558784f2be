import { DataAzurermClientConfig } from "@cdktf/provider-azurerm/lib/data-azurerm-client-config";
import { KeyVaultKey } from "@cdktf/provider-azurerm/lib/key-vault-key";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { IdentityKeyVault, KeyVaultNetworkProps } from "../key-vault/identity-key-vault";
import { functionArgument, literal, literalTags } from "../terraform-literal";

export interface KmsKeyProps {
  /** Globally unique vault name: 3-24 letters, digits or '-', starting with a letter, no '--'. */
  readonly vaultName: string;
  /** Resource group of the vault (must exist). */
  readonly resourceGroupName: string;
  readonly location: string;
  /** Entra tenant of the vault (a GUID). */
  readonly tenantId: string;
  /** Subscription of the vault (a GUID). */
  readonly subscriptionId: string;
  /** Key name: 1-127 letters, digits or '-'. */
  readonly keyName: string;
  /** RSA key size in bits. @default 2048 */
  readonly keySize?: 2048 | 3072 | 4096;
  /**
   * Key Vault creates a new version this long after the current one was created (ISO 8601
   * duration). Old versions stay enabled, so what they encrypted stays readable.
   * @default - no automatic rotation
   */
  readonly rotateAfter?: string;
  /** Days a deleted vault stays recoverable, 7-90 (creation only). @default 90 */
  readonly softDeleteRetentionDays?: number;
  /** Terraform refuses to destroy the vault and the key: etcd's secrets cannot be read without it. @default true */
  readonly preventDestroy?: boolean;
  /**
   * Grant the principal running Terraform "Key Vault Crypto Officer" on the vault: RBAC mode has no
   * access policies, and Terraform creates and reads the key through the data plane.
   * @default true
   */
  readonly grantDeployerCryptoOfficer?: boolean;
  /**
   * The vault's firewall: Terraform (it creates and reads the key) and the KMS plugin in the
   * management cluster must be let in.
   * @default - deny every network (IdentityKeyVault's default)
   */
  readonly network?: KeyVaultNetworkProps;
  /** Tags of the vault and the key. @default {} */
  readonly tags?: Record<string, string>;
}

/**
 * The Key Vault and RSA key that encrypt a hosted cluster's etcd secrets (HyperShift KMS, notes
 * §2.3): an RBAC-mode vault with soft delete and purge protection (IdentityKeyVault), and the key
 * with a rotation policy. HyperShift's docs: `az keyvault create --enable-rbac-authorization`,
 * `az keyvault key create --kty RSA --size 2048`.
 *
 * Construct IDs: `Vault` (its vault `Vault/Resource`), `Key`, `DeployerCryptoOfficer`.
 */
export class KmsKey extends Construct {
  public readonly vault: IdentityKeyVault;
  public readonly key: KeyVaultKey;
  /** `<vault ARM ID>/keys/<name>`, known at synth: the scope of Key Vault Crypto User. */
  public readonly keyArmId: string;

  constructor(scope: Construct, id: string, props: KmsKeyProps) {
    super(scope, id);
    validate(props);
    const preventDestroy = props.preventDestroy ?? true;
    this.vault = new IdentityKeyVault(this, "Vault", {
      name: props.vaultName,
      resourceGroupName: props.resourceGroupName,
      location: props.location,
      tenantId: props.tenantId,
      subscriptionId: props.subscriptionId,
      softDeleteRetentionDays: props.softDeleteRetentionDays,
      purgeProtectionEnabled: true,
      preventDestroy,
      grantDeployerSecretsOfficer: false,
      network: props.network,
      tags: props.tags,
    });
    this.keyArmId = `${this.vault.id}/keys/${props.keyName}`;

    const role = BUILT_IN_ROLES.keyVaultCryptoOfficer;
    const deployerAccess =
      (props.grantDeployerCryptoOfficer ?? true)
        ? (() => {
            const deployer = new DataAzurermClientConfig(this, "Deployer", {});
            return new RoleAssignment(this, "DeployerCryptoOfficer", {
              name: Fn.uuidv5("url", `${functionArgument(this.vault.id)}/${role.guid}/${deployer.objectId}`),
              scope: this.vault.vault.id,
              roleDefinitionId: roleDefinitionId(props.subscriptionId, role),
              principalId: deployer.objectId,
            });
          })()
        : undefined;

    this.key = new KeyVaultKey(this, "Key", {
      name: props.keyName,
      keyVaultId: this.vault.vault.id,
      keyType: "RSA",
      keySize: props.keySize ?? 2048,
      // The KMS plugin encrypts and decrypts (RSA-OAEP-256) and wraps keys.
      keyOpts: ["encrypt", "decrypt", "wrapKey", "unwrapKey"],
      rotationPolicy: props.rotateAfter ? { automatic: { timeAfterCreation: props.rotateAfter } } : undefined,
      tags: literalTags(props.tags),
      // Created once the deployer may, and can, reach the vault (its private endpoint).
      dependsOn: deployerAccess || this.vault.privateEndpoint ? [deployerAccess, this.vault.privateEndpoint].filter((d) => d !== undefined) : undefined,
      lifecycle: preventDestroy ? { preventDestroy: true } : undefined,
    });
  }
}

export interface KmsCryptoUserProps {
  /** Object ID (GUID or reference) of the KMS identity. */
  readonly principalId: string;
  /**
   * The keys it may use, as ARM IDs `<vault ID>/keys/<name>`, each once: Key Vault Crypto User
   * on each key, never on the vault (least scope).
   */
  readonly keyArmIds: readonly string[];
  /** What the assignments wait for (a key created in the same stack). @default - nothing */
  readonly dependsOn?: KeyVaultKey[];
}

const KEY_SCOPE = /^\/subscriptions\/([0-9a-fA-F-]{36})\/resourceGroups\/[^/]+\/providers\/Microsoft\.KeyVault\/vaults\/[^/]+\/keys\/([A-Za-z0-9-]{1,127})$/;

/**
 * "Key Vault Crypto User" for the KMS identity on each key (HyperShift's CLI does not grant it;
 * its docs do it by hand on the vault). Construct IDs: `Key_<key name>`.
 */
export class KmsCryptoUser extends Construct {
  public readonly assignments: readonly RoleAssignment[];

  constructor(scope: Construct, id: string, props: KmsCryptoUserProps) {
    super(scope, id);
    const problems = props.keyArmIds.filter((key) => !KEY_SCOPE.test(key)).map((key) => `"${key}" is not a Key Vault key ARM ID`);
    if (new Set(props.keyArmIds.map((key) => key.toLowerCase())).size !== props.keyArmIds.length) problems.push("a key appears twice");
    if (problems.length > 0) throw new Error(`KmsCryptoUser: ${problems.join("; ")}`);
    const role = BUILT_IN_ROLES.keyVaultCryptoUser;
    this.assignments = props.keyArmIds.map((key) => {
      const [, subscription, keyName] = KEY_SCOPE.exec(key) as RegExpExecArray;
      return new RoleAssignment(this, `Key_${keyName}`, {
        // The key's ARM ID comes from the config (kms.keyVaultId): a literal, never a template.
        name: Fn.uuidv5("url", `${functionArgument(key)}/${role.guid}/${props.principalId}`),
        scope: literal(key),
        roleDefinitionId: roleDefinitionId(subscription, role),
        principalId: props.principalId,
        principalType: "ServicePrincipal",
        dependsOn: props.dependsOn,
      });
    });
  }
}

function validate(props: KmsKeyProps): void {
  const problems: string[] = [];
  if (!/^[A-Za-z0-9-]{1,127}$/.test(props.keyName)) problems.push(`keyName "${props.keyName}" must be 1-127 letters, digits or '-'`);
  if (props.rotateAfter !== undefined && !/^P(?=\d)(\d+Y)?(\d+M)?(\d+D)?$/.test(props.rotateAfter))
    problems.push(`rotateAfter "${props.rotateAfter}" must be an ISO 8601 duration such as P1Y`);
  if (problems.length > 0) throw new Error(`KmsKey: ${problems.join("; ")}`);
}
