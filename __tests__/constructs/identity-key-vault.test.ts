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
  it("uses Azure RBAC (not the deprecated argument), standard SKU, public endpoint, no access policies", () => {
    const { parsed } = synthVault();
    const vault = keyVault(parsed);
    expect(vault).toMatchObject({
      name: "hcp-identities",
      resource_group_name: "persistent-rg",
      tenant_id: "11111111-1111-1111-1111-111111111111",
      sku_name: "standard",
      rbac_authorization_enabled: true,
      public_network_access_enabled: true,
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
});
