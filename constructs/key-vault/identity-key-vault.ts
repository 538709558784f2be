import { DataAzurermClientConfig } from "@cdktf/provider-azurerm/lib/data-azurerm-client-config";
import { KeyVault } from "@cdktf/provider-azurerm/lib/key-vault";
import { PrivateEndpoint } from "@cdktf/provider-azurerm/lib/private-endpoint";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { functionArgument, literal, literalTags } from "../terraform-literal";

/** Names and IDs come from the config: written as literals, never templates. */

/**
 * Who reaches a vault's data plane. Closed by default: the firewall denies every network but the
 * ones listed; trusted Azure services keep their bypass (`AzureServices`).
 */
export interface KeyVaultNetworkProps {
  /**
   * Admit every network (`default_action = Allow`): the explicit opt-out of the firewall. Not with
   * `allowedIpRanges` or `allowedSubnetIds`.
   * @default false
   */
  readonly allowPublicNetworkAccess?: boolean;
  /** Public IPv4 addresses or CIDRs let through the firewall (`ip_rules`). @default [] */
  readonly allowedIpRanges?: readonly string[];
  /** Subnet ARM IDs let through (`virtual_network_subnet_ids`; each needs the Microsoft.KeyVault service endpoint). @default [] */
  readonly allowedSubnetIds?: readonly string[];
  /**
   * A private endpoint for the vault (`vault` subresource), in the vault's location. With no
   * ranges and no subnets, public network access is switched off.
   * @default - none
   */
  readonly privateEndpoint?: {
    /** Subnet ARM ID of the endpoint. */
    readonly subnetId: string;
    /** `privatelink.vaultcore.*` private DNS zone ARM ID the endpoint registers in. @default - none */
    readonly privateDnsZoneId?: string;
  };
}

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
  /**
   * The vault's firewall. Left out, nothing but trusted Azure services reaches the data plane
   * (deny, no rules): pass who reads and writes it.
   * @default - deny every network
   */
  readonly network?: KeyVaultNetworkProps;
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
  /** The vault's private endpoint (construct ID `PrivateEndpoint`), when `network.privateEndpoint`. */
  public readonly privateEndpoint?: PrivateEndpoint;

  constructor(scope: Construct, id: string, props: IdentityKeyVaultProps) {
    super(scope, id);
    validate(props);
    this.name = props.name;
    this.id = `/subscriptions/${props.subscriptionId}/resourceGroups/${props.resourceGroupName}/providers/Microsoft.KeyVault/vaults/${props.name}`;
    this.vault = new KeyVault(this, "Resource", {
      name: literal(props.name),
      resourceGroupName: literal(props.resourceGroupName),
      location: props.location,
      tenantId: props.tenantId,
      skuName: "standard",
      // Not the deprecated enable_rbac_authorization (removed in azurerm 5.x).
      rbacAuthorizationEnabled: true,
      softDeleteRetentionDays: props.softDeleteRetentionDays ?? 90,
      purgeProtectionEnabled: props.purgeProtectionEnabled ?? true,
      ...networkSettings(props.network ?? {}),
      tags: literalTags(props.tags),
      lifecycle: (props.preventDestroy ?? true) ? { preventDestroy: true } : undefined,
    });

    const endpoint = props.network?.privateEndpoint;
    if (endpoint) {
      this.privateEndpoint = new PrivateEndpoint(this, "PrivateEndpoint", {
        name: literal(`${props.name}-pe`),
        resourceGroupName: literal(props.resourceGroupName),
        location: props.location,
        subnetId: literal(endpoint.subnetId),
        privateServiceConnection: {
          name: literal(`${props.name}-pe`),
          privateConnectionResourceId: this.vault.id,
          subresourceNames: ["vault"],
          isManualConnection: false,
        },
        privateDnsZoneGroup: endpoint.privateDnsZoneId ? { name: "vault", privateDnsZoneIds: [literal(endpoint.privateDnsZoneId)] } : undefined,
        tags: literalTags(props.tags),
      });
    }

    if (props.grantDeployerSecretsOfficer ?? true) {
      const deployer = new DataAzurermClientConfig(this, "Deployer", {});
      const role = BUILT_IN_ROLES.keyVaultSecretsOfficer;
      this.deployerAccess = new RoleAssignment(this, "DeployerSecretsOfficer", {
        // Deterministic name: a re-apply after a partial failure finds the same assignment.
        name: Fn.uuidv5("url", `${functionArgument(this.id)}/${role.guid}/${deployer.objectId}`),
        // The reference (not this.id) orders the assignment after the vault.
        scope: this.vault.id,
        roleDefinitionId: roleDefinitionId(props.subscriptionId, role),
        principalId: deployer.objectId,
      });
    }
  }
}

/**
 * `public_network_access_enabled` and `network_acls` of a vault. Public access stays on (behind
 * the firewall) while an address or subnet is allowed; a vault reached only through its private
 * endpoint has it off. Trusted Azure services bypass the firewall (`AzureServices`): nothing here
 * relies on them, but Azure needs one value and this one is Key Vault's own default.
 */
function networkSettings(network: KeyVaultNetworkProps) {
  if (network.allowPublicNetworkAccess) {
    return { publicNetworkAccessEnabled: true, networkAcls: { defaultAction: "Allow", bypass: "AzureServices" } };
  }
  const ipRules = (network.allowedIpRanges ?? []).map(literal);
  const subnets = (network.allowedSubnetIds ?? []).map(literal);
  return {
    publicNetworkAccessEnabled: ipRules.length > 0 || subnets.length > 0 || !network.privateEndpoint,
    networkAcls: { defaultAction: "Deny", bypass: "AzureServices", ipRules, virtualNetworkSubnetIds: subnets },
  };
}

function validate(props: IdentityKeyVaultProps): void {
  // The vault name, softDeleteRetentionDays and the firewall's values are config rules
  // (config/schema/aro-hcp.ts, config/rules/control-plane-credentials.ts); the construct checks only what contradicts itself.
  const problems: string[] = [];
  const network = props.network;
  if (network?.allowPublicNetworkAccess && ((network.allowedIpRanges?.length ?? 0) > 0 || (network.allowedSubnetIds?.length ?? 0) > 0))
    problems.push("network.allowPublicNetworkAccess admits every network: allowedIpRanges and allowedSubnetIds would say nothing");
  if (!GUID.test(props.tenantId)) problems.push(`tenantId "${props.tenantId}" must be a GUID`);
  if (!GUID.test(props.subscriptionId)) problems.push(`subscriptionId "${props.subscriptionId}" must be a GUID`);
  if (problems.length > 0) throw new Error(`IdentityKeyVault: ${problems.join("; ")}`);
}
