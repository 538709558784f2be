import { FederatedIdentityCredential } from "@cdktf/provider-azurerm/lib/federated-identity-credential";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { StorageAccount } from "@cdktf/provider-azurerm/lib/storage-account";
import { StorageContainer } from "@cdktf/provider-azurerm/lib/storage-container";
import { UserAssignedIdentity } from "@cdktf/provider-azurerm/lib/user-assigned-identity";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { AZURE_NAME_RULES } from "../../config/azure-rules";
import { protectedLifecycle } from "../../config/protection";
import { functionArgument, literalTags } from "../terraform-literal";

export interface EtcdBackupStorageProps {
  /** Globally unique account name: 3-24 lowercase letters or digits. */
  readonly storageAccountName: string;
  /** Blob container of the snapshots. */
  readonly containerName: string;
  /** `ZRS` where the region has availability zones, else `LRS`. */
  readonly replication: "ZRS" | "LRS";
  /** User-assigned identity the backup Job signs in as. */
  readonly identityName: string;
  /** Name of its federated credential. */
  readonly federatedCredentialName: string;
  /** OIDC issuer of the management cluster (may be a Terraform reference, e.g. the AKS cluster's). */
  readonly issuerUrl: string;
  /** Namespace of the HyperShift operator, whose `etcd-backup-job` service account is trusted. */
  readonly operatorNamespace: string;
  /** Service account of the backup Job. */
  readonly serviceAccount: string;
  /** Resource group of the account and identity (the persistent one). */
  readonly resourceGroupName: string;
  readonly location: string;
  /** Subscription (builds the role definition ID). */
  readonly subscriptionId: string;
  /**
   * Make Terraform refuse to destroy the account and its container (they hold the snapshots; a
   * container rename or move replaces it, deleting every snapshot; config `protection.preventDestroy`).
   * @default true
   */
  readonly preventDestroy?: boolean;
  /** Tags. @default {} */
  readonly tags?: Record<string, string>;
}

/** Token audience of Azure workload identity federation (HyperShift's backup Job asks for it). */
export const AZURE_AD_TOKEN_EXCHANGE = "api://AzureADTokenExchange";

/**
 * Where HyperShift's HCPEtcdBackup writes etcd snapshots (help/backup.md): a storage account with
 * no shared keys (ARO HCP's hcp-backups/storage.bicep), its container, and an identity federated
 * with the management cluster's issuer for the operator's `etcd-backup-job` service account,
 * with Storage Blob Data Contributor on that container only (upstream grants the whole account).
 */
export class EtcdBackupStorage extends Construct {
  public readonly account: StorageAccount;
  public readonly container: StorageContainer;
  public readonly identity: UserAssignedIdentity;

  constructor(scope: Construct, id: string, props: EtcdBackupStorageProps) {
    super(scope, id);
    if (!AZURE_NAME_RULES.storageAccount.test(props.storageAccountName)) {
      throw new Error(`EtcdBackupStorage storageAccountName "${props.storageAccountName}" ${AZURE_NAME_RULES.storageAccount.rule}`);
    }
    const tags = literalTags(props.tags);
    this.account = new StorageAccount(this, "Account", {
      name: props.storageAccountName,
      resourceGroupName: props.resourceGroupName,
      location: props.location,
      accountKind: "StorageV2",
      accountTier: "Standard",
      accountReplicationType: props.replication,
      accessTier: "Cool",
      httpsTrafficOnlyEnabled: true,
      minTlsVersion: "TLS1_2",
      sharedAccessKeyEnabled: false,
      defaultToOauthAuthentication: true,
      allowNestedItemsToBePublic: false,
      crossTenantReplicationEnabled: false,
      infrastructureEncryptionEnabled: true,
      localUserEnabled: false,
      sftpEnabled: false,
      tags,
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
    // Through ARM (storage_account_id): no shared key and no data-plane role needed to create it.
    // Protected as the account: azurerm replaces it on a new name or account, snapshots and all.
    this.container = new StorageContainer(this, "Container", {
      name: props.containerName,
      storageAccountId: this.account.id,
      containerAccessType: "private",
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
    this.identity = new UserAssignedIdentity(this, "Identity", {
      name: props.identityName,
      resourceGroupName: props.resourceGroupName,
      location: props.location,
      tags,
    });
    new FederatedIdentityCredential(this, "FederatedCredential", {
      name: props.federatedCredentialName,
      resourceGroupName: props.resourceGroupName,
      parentId: this.identity.id,
      issuer: props.issuerUrl,
      subject: `system:serviceaccount:${props.operatorNamespace}:${props.serviceAccount}`,
      audience: [AZURE_AD_TOKEN_EXCHANGE],
    });
    const containerScope = `${this.account.id}/blobServices/default/containers/${props.containerName}`;
    new RoleAssignment(this, "BlobDataContributor", {
      // Deterministic name: a re-apply after a partial failure finds the same assignment.
      name: Fn.uuidv5("url", `${functionArgument(containerScope)}/${BUILT_IN_ROLES.storageBlobDataContributor.guid}/${this.identity.principalId}`),
      scope: containerScope,
      roleDefinitionId: roleDefinitionId(props.subscriptionId, BUILT_IN_ROLES.storageBlobDataContributor),
      principalId: this.identity.principalId,
      principalType: "ServicePrincipal",
      dependsOn: [this.container],
    });
  }

  /**
   * The `cloud` key of the Secret HCPEtcdBackup names (workload identity mode): the lines
   * HyperShift's setup_backup.sh writes. No secret: IDs only.
   *
   * A `join()` of the literal text and the client ID reference, not one template string: the
   * Secret's revision puts the value inside `jsonencode()`, where a template would nest `${...}`
   * in a function argument (cdktf warns on every synth; the value was the same).
   */
  public cloudCredentials(subscriptionId: string, tenantId: string, resourceGroupName: string, cloudName: string): string {
    const before = [`AZURE_SUBSCRIPTION_ID=${subscriptionId}`, `AZURE_TENANT_ID=${tenantId}`, "AZURE_CLIENT_ID="].join("\n");
    const after = ["", `AZURE_RESOURCE_GROUP=${resourceGroupName}`, `AZURE_CLOUD_NAME=${cloudName}`].join("\n");
    return Fn.join("", [functionArgument(before), this.identity.clientId, functionArgument(after)]);
  }
}
