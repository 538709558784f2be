import { Testing } from "cdktf";
import { IdentityKeyVault, IdentityKeyVaultProps } from "../../constructs/key-vault/identity-key-vault";
import { only, resources } from "../helpers";

const SUB = "00000000-0000-0000-0000-000000000000";
const VAULT_ID = `/subscriptions/${SUB}/resourceGroups/persistent-rg/providers/Microsoft.KeyVault/vaults/hcp-identities`;
// Written out here (not imported) so a wrong constant fails the test.
const KEY_VAULT_SECRETS_OFFICER = "b86a8fe4-44ce-4948-aee5-eccb2c155cd7";

function synthVault(props: Partial<IdentityKeyVaultProps> = {}) {
  let vault!: IdentityKeyVault;
  const parsed = JSON.parse(
    Testing.synthScope((scope) => {
      vault = new IdentityKeyVault(scope, "IdentityVault", {
        name: "hcp-identities",
        resourceGroupName: "persistent-rg",
        location: "eastus",
        tenantId: "11111111-1111-1111-1111-111111111111",
        subscriptionId: SUB,
        ...props,
      });
    }),
  );
  return { vault, parsed };
}

const keyVault = (parsed: any) => only(parsed.resource.azurerm_key_vault);

describe("IdentityKeyVault", () => {
  it("uses Azure RBAC (not the deprecated argument), standard SKU, no access policies, a firewall that denies every network", () => {
    const { parsed } = synthVault();
    const vault = keyVault(parsed);
    expect(vault).toMatchObject({
      name: "hcp-identities",
      resource_group_name: "persistent-rg",
      tenant_id: "11111111-1111-1111-1111-111111111111",
      sku_name: "standard",
      rbac_authorization_enabled: true,
      network_acls: { default_action: "Deny", bypass: "AzureServices", ip_rules: [], virtual_network_subnet_ids: [] },
    });
    expect(vault.enable_rbac_authorization).toBeUndefined();
    expect(vault.access_policy).toBeUndefined();
    expect(parsed.resource.azurerm_key_vault_access_policy).toBeUndefined();
  });

  it("retention 90 days and purge protection on by default", () => {
    expect(keyVault(synthVault().parsed)).toMatchObject({ soft_delete_retention_days: 90, purge_protection_enabled: true });
  });

  it("retention and purge protection can be overridden", () => {
    expect(keyVault(synthVault({ softDeleteRetentionDays: 7, purgeProtectionEnabled: false }).parsed)).toMatchObject({
      soft_delete_retention_days: 7,
      purge_protection_enabled: false,
    });
  });

  it("prevent_destroy by default, off on request", () => {
    expect(keyVault(synthVault().parsed).lifecycle).toEqual({ prevent_destroy: true });
    expect(keyVault(synthVault({ preventDestroy: false }).parsed).lifecycle).toBeUndefined();
  });

  it("grants the deployer Key Vault Secrets Officer on the vault only, with a deterministic name", () => {
    const { vault, parsed } = synthVault();
    const vaultKey = Object.keys(parsed.resource.azurerm_key_vault)[0];
    const deployer = `\${data.azurerm_client_config.${Object.keys(parsed.data.azurerm_client_config)[0]}.object_id}`;
    expect(only(parsed.resource.azurerm_role_assignment)).toEqual({
      name: `\${uuidv5("url", "${VAULT_ID}/${KEY_VAULT_SECRETS_OFFICER}/${deployer}")}`,
      scope: `\${azurerm_key_vault.${vaultKey}.id}`,
      role_definition_id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${KEY_VAULT_SECRETS_OFFICER}`,
      principal_id: deployer,
    });
    expect(vault.deployerAccess).toBeDefined();
  });

  it("no deployer grant when grantDeployerSecretsOfficer is false", () => {
    const { vault, parsed } = synthVault({ grantDeployerSecretsOfficer: false });
    expect(resources(parsed, "azurerm_role_assignment")).toEqual([]);
    expect(parsed.data).toBeUndefined();
    expect(vault.deployerAccess).toBeUndefined();
  });

  it("id is the vault's ARM ID, known at synth", () => {
    const { vault } = synthVault();
    expect(vault.id).toBe(VAULT_ID);
    expect(vault.name).toBe("hcp-identities");
  });

  it("rejects a tenant ID that is not a GUID", () => {
    expect(() => synthVault({ tenantId: "contoso.onmicrosoft.com" })).toThrow(/tenantId "contoso.onmicrosoft.com" must be a GUID/);
  });

  describe("network", () => {
    const SUBNET = `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets`;
    const ZONE = `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/privateDnsZones/privatelink.vaultcore.azure.net`;

    it("lets in exactly the given addresses and subnets, public access behind the firewall; no private endpoint", () => {
      const { parsed, vault } = synthVault({ network: { allowedIpRanges: ["203.0.113.7", "198.51.100.0/28"], allowedSubnetIds: [`${SUBNET}/a`] } });
      expect(keyVault(parsed)).toMatchObject({
        public_network_access_enabled: true,
        network_acls: {
          default_action: "Deny",
          bypass: "AzureServices",
          ip_rules: ["203.0.113.7", "198.51.100.0/28"],
          virtual_network_subnet_ids: [`${SUBNET}/a`],
        },
      });
      expect(parsed.resource.azurerm_private_endpoint).toBeUndefined();
      expect(vault.privateEndpoint).toBeUndefined();
    });

    it("a private endpoint alone switches public network access off; it targets the vault's vault subresource and registers in the zone", () => {
      const { parsed } = synthVault({ network: { privateEndpoint: { subnetId: `${SUBNET}/pe`, privateDnsZoneId: ZONE } } });
      const vaultKey = Object.keys(parsed.resource.azurerm_key_vault)[0];
      expect(keyVault(parsed)).toMatchObject({ public_network_access_enabled: false, network_acls: { default_action: "Deny", ip_rules: [] } });
      expect(only(parsed.resource.azurerm_private_endpoint)).toMatchObject({
        name: "hcp-identities-pe",
        resource_group_name: "persistent-rg",
        location: "eastus",
        subnet_id: `${SUBNET}/pe`,
        private_service_connection: {
          private_connection_resource_id: `\${azurerm_key_vault.${vaultKey}.id}`,
          subresource_names: ["vault"],
          is_manual_connection: false,
        },
        private_dns_zone_group: { private_dns_zone_ids: [ZONE] },
      });
    });

    it("a private endpoint with addresses keeps public access on for them; without a zone, no zone group", () => {
      const { parsed } = synthVault({ network: { allowedIpRanges: ["203.0.113.7"], privateEndpoint: { subnetId: `${SUBNET}/pe` } } });
      expect(keyVault(parsed)).toMatchObject({ public_network_access_enabled: true, network_acls: { ip_rules: ["203.0.113.7"] } });
      expect(only(parsed.resource.azurerm_private_endpoint).private_dns_zone_group).toBeUndefined();
    });

    it("allowPublicNetworkAccess: the explicit opt-out lets every network in", () => {
      expect(keyVault(synthVault({ network: { allowPublicNetworkAccess: true } }).parsed)).toMatchObject({
        public_network_access_enabled: true,
        network_acls: { default_action: "Allow", bypass: "AzureServices" },
      });
    });

    it("refuses addresses next to the opt-out (they would say nothing)", () => {
      expect(() => synthVault({ network: { allowPublicNetworkAccess: true, allowedIpRanges: ["203.0.113.7"] } })).toThrow(
        /network\.allowPublicNetworkAccess admits every network/,
      );
    });
  });
});
