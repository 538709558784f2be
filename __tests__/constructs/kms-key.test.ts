import { TerraformStack, Testing } from "cdktf";
import { KmsCryptoUser, KmsKey, KmsKeyProps } from "../../constructs/kms/kms-key";
import { resources } from "../helpers";

const SUB = "00000000-0000-0000-0000-000000000000";
const VAULT_ID = `/subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv1`;
const PROPS: KmsKeyProps = {
  vaultName: "kv1",
  resourceGroupName: "rg",
  location: "eastus",
  tenantId: "11111111-1111-1111-1111-111111111111",
  subscriptionId: SUB,
  keyName: "k",
};

function synth(build: (stack: TerraformStack) => void): any {
  const stack = new TerraformStack(Testing.app(), "s");
  build(stack);
  return JSON.parse(Testing.synth(stack));
}

describe("KmsKey", () => {
  it("without a rotation period or deployer grant: no rotation policy, no role, the key waits for nothing", () => {
    const json = synth((s) => new KmsKey(s, "Kms", { ...PROPS, grantDeployerCryptoOfficer: false }));
    const [key] = resources(json, "azurerm_key_vault_key");
    expect(key.rotation_policy).toBeUndefined();
    expect(key.depends_on).toBeUndefined();
    expect(resources(json, "azurerm_role_assignment")).toEqual([]);
  });

  it("the vault's firewall denies every network by default; network passes through, and the key waits for a private endpoint", () => {
    const closed = synth((s) => new KmsKey(s, "Kms", { ...PROPS, grantDeployerCryptoOfficer: false }));
    expect(resources(closed, "azurerm_key_vault")[0].network_acls).toMatchObject({ default_action: "Deny", ip_rules: [] });
    const subnetId = `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/pe`;
    const json = synth((s) => new KmsKey(s, "Kms", { ...PROPS, network: { allowedIpRanges: ["203.0.113.7"], privateEndpoint: { subnetId } } }));
    expect(resources(json, "azurerm_key_vault")[0].network_acls).toMatchObject({ default_action: "Deny", ip_rules: ["203.0.113.7"] });
    const endpointKey = Object.keys(json.resource.azurerm_private_endpoint)[0];
    expect(resources(json, "azurerm_key_vault_key")[0].depends_on).toContain(`azurerm_private_endpoint.${endpointKey}`);
  });

  it("with preventDestroy false: neither the vault nor the key is protected", () => {
    const json = synth((s) => new KmsKey(s, "Kms", { ...PROPS, preventDestroy: false }));
    expect(resources(json, "azurerm_key_vault")[0].lifecycle).toBeUndefined();
    expect(resources(json, "azurerm_key_vault_key")[0].lifecycle).toBeUndefined();
  });

  it("exposes the key's ARM ID for the role scope", () => {
    let armId = "";
    synth((s) => (armId = new KmsKey(s, "Kms", PROPS).keyArmId));
    expect(armId).toBe(`${VAULT_ID}/keys/k`);
  });

  // The vault name's rules live once, in config (kms-zones-validation.test.ts); the vault construct no longer repeats them.
  it.each([
    [{ keyName: "bad_name" }, /keyName "bad_name"/],
    [{ rotateAfter: "P" }, /rotateAfter "P"/],
    [{ rotateAfter: "1Y" }, /rotateAfter "1Y"/],
  ] as const)("refuses %j", (overrides, message) => {
    expect(() => synth((s) => new KmsKey(s, "Kms", { ...PROPS, ...overrides }))).toThrow(message);
  });
});

describe("KmsCryptoUser", () => {
  it("one Key Vault Crypto User assignment per key, scoped to the key, in the key's subscription", () => {
    const json = synth((s) => new KmsCryptoUser(s, "User", { principalId: "p", keyArmIds: [`${VAULT_ID}/keys/a`, `${VAULT_ID}/keys/b`] }));
    expect(resources(json, "azurerm_role_assignment").map((a) => [a.scope, a.role_definition_id, a.principal_type])).toEqual([
      [
        `${VAULT_ID}/keys/a`,
        `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/12338af0-0e69-4776-bea7-57ae8d297424`,
        "ServicePrincipal",
      ],
      [
        `${VAULT_ID}/keys/b`,
        `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/12338af0-0e69-4776-bea7-57ae8d297424`,
        "ServicePrincipal",
      ],
    ]);
  });

  it.each([
    [[VAULT_ID], /is not a Key Vault key ARM ID/],
    [[`${VAULT_ID}/keys/a`, `${VAULT_ID}/KEYS/A`.replace("/KEYS/", "/keys/")], /a key appears twice/],
  ] as const)("refuses a vault scope or a key twice: %j", (keyArmIds, message) => {
    expect(() => synth((s) => new KmsCryptoUser(s, "User", { principalId: "p", keyArmIds }))).toThrow(message);
  });
});
