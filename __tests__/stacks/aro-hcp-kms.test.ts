import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { BUILT_IN_ROLES } from "../../config/azure-roles";
import { checkManifests, EXAMPLES, HAVE_CRDS, loadInline, resources, synthStacks, tempDir } from "../helpers";

/**
 * `hostedCluster.kms` with `topology: aroHcp` (issue 12 item 2): HyperShift's ARO form
 * (`--kms-credentials-secret-name`, notes §2.1-2.2) names a Key Vault secret in the
 * managed-identities vault with the KMS service principal's credentials, mounted like the
 * control-plane ones. So the KMS principal is made as a ninth certificate principal of the
 * cluster, granted Key Vault Crypto User on the key only, and kept out of the control-plane
 * managed identities. Built from examples/aro-hcp.yaml, one cluster creating its key, one bringing it.
 */

const KEY_VAULT_ID = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/security-rg/providers/Microsoft.KeyVault/vaults/mykeys";
const KEY_ID = "https://mykeys.vault.azure.net/keys/etcd/0123456789abcdef0123456789abcdef";

const config = parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));
const created = config.clusters[0];
created.hostedCluster.kms = { keyVault: { keyName: "etcd-encryption", network: { allowedIpRanges: ["203.0.113.7", "198.51.100.0/28"] } } };
const brought = structuredClone(created);
brought.name = "myprefix-byok";
brought.hostedCluster.nodePools = [{ name: "myprefix-byok", replicas: 1 }];
brought.hostedCluster.kms = { keyId: KEY_ID, keyVaultId: KEY_VAULT_ID };
config.clusters.push(brought);
const loaded = loadInline(config);
const stacks = synthStacks(loaded);

const hostedCluster = (cluster: string) =>
  Object.values(stacks[`cluster-${cluster}`].resource.kubernetes_manifest as Record<string, any>).find((r) => r.manifest.kind === "HostedCluster").manifest;

describe("aroHcp with hostedCluster.kms", () => {
  it("the created KMS vault's firewall denies every network but the configured addresses", () => {
    expect(resources(stacks["identities-myprefix-hc"], "azurerm_key_vault")).toEqual([
      expect.objectContaining({
        network_acls: { default_action: "Deny", bypass: "AzureServices", ip_rules: ["203.0.113.7", "198.51.100.0/28"], virtual_network_subnet_ids: [] },
      }),
    ]);
  });

  it("the AKS secrets provider may read each KMS principal's credentials secret, as the control-plane ones, and nothing else of the vault", () => {
    const scopes = resources(stacks.aks, "azurerm_role_assignment")
      .filter((r) => r.role_definition_id.endsWith(BUILT_IN_ROLES.keyVaultSecretsUser.guid))
      .map((r) => r.scope.split("/secrets/")[1]);
    expect(scopes).toEqual(expect.arrayContaining(["myprefix-hc-kms", "myprefix-byok-kms"]));
    expect(scopes).toHaveLength(18);
  });

  it("renders secretEncryption as the CLI's ARO form: the principal's Key Vault secret, utf-8, no workload identity", () => {
    const azure = hostedCluster("myprefix-hc").spec.secretEncryption.kms.azure;
    expect(hostedCluster("myprefix-hc").spec.secretEncryption.type).toBe("kms");
    expect(azure.kms).toEqual({ credentialsSecretName: "myprefix-hc-kms", objectEncoding: "utf-8" });
    expect(azure.workloadIdentity).toBeUndefined();
    expect(azure.keyVaultType).toBe("KeyVault");
    expect(hostedCluster("myprefix-byok").spec.secretEncryption.kms.azure.activeKey).toEqual({
      keyVaultName: "mykeys",
      keyName: "etcd",
      keyVersion: "0123456789abcdef0123456789abcdef",
    });
  });

  it("keeps the KMS principal out of managedIdentities.controlPlane and the --managed-identities-file output", () => {
    const controlPlane = hostedCluster("myprefix-hc").spec.platform.azure.azureAuthenticationConfig.managedIdentities.controlPlane;
    expect(Object.keys(controlPlane)).not.toContain("kms");
    expect(Object.keys(controlPlane)).toHaveLength(9); // the vault and the 8 components
    const json = stacks.shared.output.control_plane_identities.value["myprefix-hc"] as string;
    expect(json).not.toMatch(/kms/);
  });

  it("creates a ninth certificate principal per KMS cluster in shared, with its secret in the managed-identities vault", () => {
    const apps = resources(stacks.shared, "azuread_application").map((a) => a.display_name);
    expect(apps).toEqual(expect.arrayContaining(["myprefix-hc-kms", "myprefix-byok-kms"]));
    expect(apps.filter((name: string) => name.startsWith("myprefix-hc-"))).toHaveLength(9);
    const secrets = resources(stacks.shared, "azurerm_key_vault_secret").map((s) => s.name);
    expect(secrets).toEqual(expect.arrayContaining(["myprefix-hc-kms", "myprefix-byok-kms"]));
    expect(Object.keys(stacks.shared.output.control_plane_principals.value["myprefix-hc"])).toContain("kms");
  });

  it("grants Key Vault Crypto User on the key only, to the recorded KMS principal, in infra (not in identities)", () => {
    for (const [cluster, scope] of [
      ["myprefix-hc", /\/providers\/Microsoft\.KeyVault\/vaults\/[^/]+\/keys\/etcd-encryption$/],
      ["myprefix-byok", new RegExp(`^${KEY_VAULT_ID}/keys/etcd$`)],
    ] as const) {
      const grants = resources(stacks[`infra-${cluster}`], "azurerm_role_assignment").filter((r) =>
        String(r.role_definition_id).endsWith(BUILT_IN_ROLES.keyVaultCryptoUser.guid),
      );
      expect(grants).toHaveLength(1);
      expect(grants[0].scope).toMatch(scope);
      expect(grants[0].principal_id).toMatch(/data\.azuread_service_principal\.ControlPlanePrincipals_kms/);
      expect(
        resources(stacks[`identities-${cluster}`], "azurerm_role_assignment").filter((r) =>
          String(r.role_definition_id).endsWith(BUILT_IN_ROLES.keyVaultCryptoUser.guid),
        ),
      ).toEqual([]);
    }
  });

  it("creates the vault and key in identities-<cluster>, protected, when asked to", () => {
    expect(resources(stacks["identities-myprefix-hc"], "azurerm_key_vault_key").map((k) => [k.name, k.lifecycle?.prevent_destroy])).toEqual([
      ["etcd-encryption", true],
    ]);
    expect(resources(stacks["identities-myprefix-byok"], "azurerm_key_vault_key")).toEqual([]);
  });

  it("creates no KMS managed identity in ARO topology (its identity is the principal)", () => {
    expect(resources(stacks["identities-myprefix-hc"], "azurerm_user_assigned_identity").map((i) => i.name)).not.toContainEqual(expect.stringMatching(/kms/));
  });
});

if (!HAVE_CRDS) console.warn("aro-hcp-kms: ../shared is absent; the CRD check is skipped");

(HAVE_CRDS ? it : it.skip)("passes the real CRDs (schema and every CEL rule, e.g. kms and workloadIdentity mutually exclusive)", async () => {
  const out = tempDir("hcp-azure-aro-kms-");
  try {
    for (const [name, stack] of Object.entries(stacks).filter(([n]) => n.startsWith("cluster-"))) {
      fs.mkdirSync(path.join(out, "stacks", name), { recursive: true });
      fs.writeFileSync(path.join(out, "stacks", name, "cdk.tf.json"), JSON.stringify(stack));
    }
    const result = await checkManifests(out);
    expect(result.stdout).toMatch(/HostedCluster: 2, .* 0 errors, /);
    expect(result.status).toBe(0);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
