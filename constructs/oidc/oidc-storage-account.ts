import { DataAzurermClientConfig } from "@cdktf/provider-azurerm/lib/data-azurerm-client-config";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { StorageAccount } from "@cdktf/provider-azurerm/lib/storage-account";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { AZURE_NAME_RULES } from "../../config/azure-rules";
import { functionArgument, literalTags } from "../terraform-literal";
import { protectedLifecycle } from "../../config/protection";

export interface OidcStorageAccountProps {
  /** Globally unique account name: 3-24 lowercase letters or digits. */
  readonly name: string;
  /** Resource group that holds the account. */
  readonly resourceGroupName: string;
  /** Azure region. */
  readonly location: string;
  /** Subscription of the account (builds the role definition ID). */
  readonly subscriptionId: string;
  /**
   * Grant the principal running Terraform "Storage Blob Data Contributor" on the account. Shared
   * keys are disabled, so Terraform uploads the documents with Entra ID and needs this data role.
   * @default true
   */
  readonly grantDeployerBlobAccess?: boolean;
  /**
   * Grant that role on this blob container only (the shared issuer's), not on the whole account:
   * the deployer can then write nothing else. The assignment must wait for the container
   * (`deployerAccess.dependsOn`), which the issuer creates.
   * @default - the whole account (per-cluster issuers: their containers are created by other stacks)
   */
  readonly deployerBlobAccessContainer?: string;
  /**
   * Make Terraform refuse to destroy the account: every issuer URL and federated credential points at it (lifecycle prevent_destroy; config
   * `protection.preventDestroy`).
   * @default true
   */
  readonly preventDestroy?: boolean;
  /**
   * Azure's second layer of encryption at rest. Fixed at creation (azurerm forces a replacement
   * on change), so an adopted account that ccoctl made without it keeps it off.
   * @default true
   */
  readonly infrastructureEncryption?: boolean;
  /** Tags. @default {} */
  readonly tags?: Record<string, string>;
}

/**
 * The storage account that serves OIDC issuer documents. Stricter than ccoctl, which leaves
 * Azure defaults: HTTPS only, TLS 1.2, no shared keys (no account key exists to leak),
 * infrastructure encryption, no cross-tenant replication. Anonymous read is possible only on
 * containers that opt in (the issuer containers), because Entra ID fetches the documents
 * without credentials.
 */
export class OidcStorageAccount extends Construct {
  public readonly account: StorageAccount;
  /** Present when `grantDeployerBlobAccess`; document uploads must wait for it. */
  public readonly deployerAccess?: RoleAssignment;

  constructor(scope: Construct, id: string, props: OidcStorageAccountProps) {
    super(scope, id);
    if (!AZURE_NAME_RULES.storageAccount.test(props.name)) {
      throw new Error(`OidcStorageAccount name "${props.name}" ${AZURE_NAME_RULES.storageAccount.rule}`);
    }
    this.account = new StorageAccount(this, "Resource", {
      name: props.name,
      resourceGroupName: props.resourceGroupName,
      location: props.location,
      accountKind: "StorageV2",
      accountTier: "Standard",
      accountReplicationType: "LRS",
      httpsTrafficOnlyEnabled: true,
      minTlsVersion: "TLS1_2",
      sharedAccessKeyEnabled: false,
      defaultToOauthAuthentication: true,
      // Required for any anonymous container; azurerm 5.x flips the default to false, so say it.
      allowNestedItemsToBePublic: true,
      // Entra ID fetches from the internet: no firewall on this account.
      publicNetworkAccessEnabled: true,
      crossTenantReplicationEnabled: false,
      infrastructureEncryptionEnabled: props.infrastructureEncryption ?? true,
      localUserEnabled: false,
      sftpEnabled: false,
      tags: literalTags(props.tags),
      lifecycle: protectedLifecycle(props.preventDestroy),
    });

    if (props.grantDeployerBlobAccess ?? true) {
      const deployer = new DataAzurermClientConfig(this, "Deployer", {});
      const container = props.deployerBlobAccessContainer;
      if (container !== undefined && !AZURE_NAME_RULES.blobContainer.test(container)) {
        throw new Error(`OidcStorageAccount deployerBlobAccessContainer "${container}" ${AZURE_NAME_RULES.blobContainer.rule}`);
      }
      const scope = container === undefined ? this.account.id : `${this.account.id}/blobServices/default/containers/${container}`;
      this.deployerAccess = new RoleAssignment(this, "DeployerBlobAccess", {
        // Deterministic name: a re-apply after a partial failure finds the same assignment.
        name: Fn.uuidv5("url", `${functionArgument(scope)}/${BUILT_IN_ROLES.storageBlobDataContributor.guid}/${deployer.objectId}`),
        scope,
        roleDefinitionId: roleDefinitionId(props.subscriptionId, BUILT_IN_ROLES.storageBlobDataContributor),
        principalId: deployer.objectId,
      });
    }
  }
}
