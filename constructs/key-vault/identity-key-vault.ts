import { DataAzurermClientConfig } from "@cdktf/provider-azurerm/lib/data-azurerm-client-config";
import { KeyVault } from "@cdktf/provider-azurerm/lib/key-vault";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { literalTags } from "../terraform-literal";

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export interface IdentityKeyVaultProps {
  /** Globally unique vault name: 3-24 letters, digits or '-', starting with a letter, ending with a letter or digit, no '--'. */
  readonly name: string;
  /** Resource group that holds the vault (must exist). */
  readonly resourceGroupName: string;
  /** Azure region. */
  readonly location: string;
  /** Entra tenant that authenticates requests to the vault (a GUID). */
  readonly tenantId: string;
  /** Subscription of the vault (a GUID): builds the vault's ARM ID and the role definition ID. */
  readonly subscriptionId: string;
  /**
   * Days a deleted vault (and its secrets) stays recoverable, 7-90; the name stays reserved
   * meanwhile. Immutable: Azure takes it only at creation (azure-rules.md §8), so choose it
   * before the first apply.
   * @default 90
   */
  readonly softDeleteRetentionDays?: number;
  /**
   * Forbid purging a deleted vault before its retention ends. Cannot be turned off once on, and a
   * destroyed vault's name cannot be reused until the retention ends.
   * @default true
   */
  readonly purgeProtectionEnabled?: boolean;
  /**
   * Terraform refuses to destroy the vault (lifecycle prevent_destroy): the identities'
   * credentials in it cannot be recreated from anywhere else.
   * @default true
   */
  readonly preventDestroy?: boolean;
  /**
   * Grant the principal running Terraform "Key Vault Secrets Officer" on this vault only. The
   * vault is RBAC-only (no access policies), so Terraform needs this data role to write secrets.
   * @default true
   */
  readonly grantDeployerSecretsOfficer?: boolean;
  /** Tags. @default {} */
  readonly tags?: Record<string, string>;
}

/**
 * The Key Vault that holds the control-plane identities' credentials (ARO HCP style), read by
 * the AKS Key Vault Secrets Provider (CSI driver) on the management cluster. Azure RBAC only
 * (access policies are legacy, azure-rules.md §8), soft delete and purge protection on.
 */
export class IdentityKeyVault extends Construct {
  public readonly vault: KeyVault;
  /** `/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.KeyVault/vaults/<name>`, known at synth. */
  public readonly id: string;
  /** The vault name. */
  public readonly name: string;
  /** Present when `grantDeployerSecretsOfficer`; secrets written by Terraform must depend on it. */
  public readonly deployerAccess?: RoleAssignment;

  constructor(scope: Construct, id: string, props: IdentityKeyVaultProps) {
    super(scope, id);
    validate(props);
    this.name = props.name;
    this.id = `/subscriptions/${props.subscriptionId}/resourceGroups/${props.resourceGroupName}/providers/Microsoft.KeyVault/vaults/${props.name}`;
    this.vault = new KeyVault(this, "Resource", {
      name: props.name,
      resourceGroupName: props.resourceGroupName,
      location: props.location,
      tenantId: props.tenantId,
      skuName: "standard",
      // Not the deprecated enable_rbac_authorization (removed in azurerm 5.x).
      rbacAuthorizationEnabled: true,
      softDeleteRetentionDays: props.softDeleteRetentionDays ?? 90,
      purgeProtectionEnabled: props.purgeProtectionEnabled ?? true,
      // The CSI driver on the management cluster reads the secrets over the public endpoint.
      publicNetworkAccessEnabled: true,
      tags: literalTags(props.tags),
      lifecycle: (props.preventDestroy ?? true) ? { preventDestroy: true } : undefined,
    });

    if (props.grantDeployerSecretsOfficer ?? true) {
      const deployer = new DataAzurermClientConfig(this, "Deployer", {});
      const role = BUILT_IN_ROLES.keyVaultSecretsOfficer;
      this.deployerAccess = new RoleAssignment(this, "DeployerSecretsOfficer", {
        // Deterministic name: a re-apply after a partial failure finds the same assignment.
        name: Fn.uuidv5("url", `${this.id}/${role.guid}/${deployer.objectId}`),
        // The reference (not this.id) orders the assignment after the vault.
        scope: this.vault.id,
        roleDefinitionId: roleDefinitionId(props.subscriptionId, role),
        principalId: deployer.objectId,
      });
    }
  }
}

function validate(props: IdentityKeyVaultProps): void {
  // The vault name and softDeleteRetentionDays are config rules (schema-aro-hcp.ts, rules/aro-hcp.ts).
  const problems: string[] = [];
  if (!GUID.test(props.tenantId)) problems.push(`tenantId "${props.tenantId}" must be a GUID`);
  if (!GUID.test(props.subscriptionId)) problems.push(`subscriptionId "${props.subscriptionId}" must be a GUID`);
  if (problems.length > 0) throw new Error(`IdentityKeyVault: ${problems.join("; ")}`);
}
