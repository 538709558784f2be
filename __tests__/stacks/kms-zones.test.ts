import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { checkManifests, EXAMPLES, HAVE_CRDS, loadExample, loadInline, resources, synthStacks, tempDir } from "../helpers";

/**
 * examples/kms.yaml (issue 12 items 2-3): KMS etcd encryption with a created and a brought Key
 * Vault key, and a NodePool fanned out over three zones. The rendered fields are compared with
 * what `hypershift create cluster azure` writes (openshift/hypershift@3ee9615, cited per test);
 * the manifests go through the real CRDs (../shared/tools/check-manifests.mjs).
 */
const loaded = loadExample("kms.yaml");
const stacks = synthStacks(loaded);
const SUB = "00000000-0000-0000-0000-000000000000";
const PERSISTENT = `/subscriptions/${SUB}/resourceGroups/myprefix-hcp-persistent`;
const CREATED_VAULT = loaded.names.clusters[0].hosted!.kms!.vault.name;
const BYO_VAULT_ID = `/subscriptions/${SUB}/resourceGroups/security-rg/providers/Microsoft.KeyVault/vaults/mykeys`;
const CRYPTO_USER = "12338af0-0e69-4776-bea7-57ae8d297424";
const CRYPTO_OFFICER = "14b46e9e-c2b7-41b4-b07b-48a6ebf60603";

const manifests = (stack: string) => resources(stacks[stack], "kubernetes_manifest").map((r) => r.manifest);
const hostedCluster = (stack: string) => manifests(stack).find((m) => m.kind === "HostedCluster");

describe("KMS: spec.secretEncryption as the CLI renders --encryption-key-id (cmd/cluster/azure/create.go)", () => {
  it("a brought key: activeKey parsed from the URL (GetAzureEncryptionKeyInfo), keyVaultType KeyVault, the KMS identity's client ID, no backupKey", () => {
    expect(hostedCluster("cluster-myprefix-byok").spec.secretEncryption).toEqual({
      type: "kms",
      kms: {
        provider: "Azure",
        azure: {
          activeKey: { keyVaultName: "mykeys", keyName: "etcd", keyVersion: "0123456789abcdef0123456789abcdef" },
          workloadIdentity: { clientID: "${data.azurerm_user_assigned_identity.Identity_kms.client_id}" },
          keyVaultType: "KeyVault",
        },
      },
    });
    expect(stacks["cluster-myprefix-byok"].data.azurerm_user_assigned_identity.Identity_kms).toMatchObject({
      name: "myprefix-byok-kms",
      resource_group_name: "myprefix-hcp-persistent",
    });
  });

  it("a created key: the derived vault, the key name, and its current version read at plan", () => {
    const azure = hostedCluster("cluster-myprefix-prod").spec.secretEncryption.kms.azure;
    expect(azure.activeKey).toEqual({ keyVaultName: CREATED_VAULT, keyName: "etcd-encryption", keyVersion: "${data.azurerm_key_vault_key.KmsKey.version}" });
    expect(CREATED_VAULT).toMatch(/^kms-myprefix-prod-[0-9a-f]{6}$/);
    expect(stacks["cluster-myprefix-prod"].data.azurerm_key_vault_key.KmsKey).toMatchObject({
      name: "etcd-encryption",
      key_vault_id: `${PERSISTENT}/providers/Microsoft.KeyVault/vaults/${CREATED_VAULT}`,
    });
  });

  it("a backup key and a pinned version are rendered as given; AES-CBC clusters keep the CLI's default", () => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, "kms.yaml"), "utf8"));
    config.clusters[0].hostedCluster.kms.keyVault.keyVersion = "a".repeat(32);
    config.clusters[0].hostedCluster.kms.backupKeyId = `https://${CREATED_VAULT}.vault.azure.net/keys/etcd-encryption/${"b".repeat(32)}`;
    delete config.clusters[1].hostedCluster.kms;
    const edited = synthStacks(loadInline(config));
    const hc = (stack: string) => resources(edited[stack], "kubernetes_manifest").find((r) => r.manifest.kind === "HostedCluster").manifest.spec;
    expect(hc("cluster-myprefix-prod").secretEncryption.kms.azure).toMatchObject({
      activeKey: { keyVaultName: CREATED_VAULT, keyName: "etcd-encryption", keyVersion: "a".repeat(32) },
      backupKey: { keyVaultName: CREATED_VAULT, keyName: "etcd-encryption", keyVersion: "b".repeat(32) },
    });
    expect(edited["cluster-myprefix-prod"].data.azurerm_key_vault_key).toBeUndefined();
    expect(hc("cluster-myprefix-byok").secretEncryption).toEqual({ type: "aescbc", aescbc: { activeKey: { name: "myprefix-byok-etcd-encryption-key" } } });
  });
});

describe("KMS: the identity, the vault and the least-scope role (identities stacks)", () => {
  it("the KMS identity exists (implied by hostedCluster.kms) with the credential create iam --enable-kms makes", () => {
    for (const cluster of ["myprefix-prod", "myprefix-byok"]) {
      const stack = stacks[`identities-${cluster}`];
      expect(resources(stack, "azurerm_user_assigned_identity").map((i) => i.name)).toContain(`${cluster}-kms`);
      expect(resources(stack, "azurerm_federated_identity_credential").find((c) => c.name === `${cluster}-kms-fed-id`)).toMatchObject({
        subject: "system:serviceaccount:kube-system:kms-provider",
        audience: ["openshift"],
      });
    }
  });

  it("creates an RBAC vault with purge protection and an RSA key, both prevent_destroy; a rotation policy only when asked", () => {
    const stack = stacks["identities-myprefix-prod"];
    const [vault] = resources(stack, "azurerm_key_vault");
    expect(vault).toMatchObject({
      name: CREATED_VAULT,
      resource_group_name: "myprefix-hcp-persistent",
      rbac_authorization_enabled: true,
      purge_protection_enabled: true,
      soft_delete_retention_days: 90,
      lifecycle: { prevent_destroy: true },
    });
    const [key] = resources(stack, "azurerm_key_vault_key");
    expect(key).toMatchObject({
      name: "etcd-encryption",
      key_type: "RSA",
      key_size: 2048,
      lifecycle: { prevent_destroy: true },
    });
    expect(key.rotation_policy).toBeUndefined();
    const config = parse(fs.readFileSync(path.join(EXAMPLES, "kms.yaml"), "utf8"));
    config.clusters[0].hostedCluster.kms.keyVault.rotateAfter = "P1Y";
    const [rotated] = resources(synthStacks(loadInline(config))["identities-myprefix-prod"], "azurerm_key_vault_key");
    expect(rotated.rotation_policy).toEqual({ automatic: { time_after_creation: "P1Y" } });
  });

  it("grants Key Vault Crypto User on the key only (never the vault), and the deployer Crypto Officer on the vault", () => {
    const assignments = resources(stacks["identities-myprefix-prod"], "azurerm_role_assignment");
    const user = assignments.filter((a) => a.role_definition_id.endsWith(CRYPTO_USER));
    expect(user.map((a) => a.scope)).toEqual([`${PERSISTENT}/providers/Microsoft.KeyVault/vaults/${CREATED_VAULT}/keys/etcd-encryption`]);
    expect(user[0].principal_id).toMatch(/azurerm_user_assigned_identity\.\w*kms\w*\.principal_id/);
    expect(user[0].depends_on.join()).toMatch(/azurerm_key_vault_key/);
    const officer = assignments.filter((a) => a.role_definition_id.endsWith(CRYPTO_OFFICER));
    expect(officer.map((a) => a.scope)).toEqual([expect.stringMatching(/^\$\{azurerm_key_vault\.KmsKey_Vault_\w+\.id\}$/)]);

    const byok = resources(stacks["identities-myprefix-byok"], "azurerm_role_assignment");
    expect(byok.map((a) => [a.scope, a.role_definition_id])).toEqual([
      [`${BYO_VAULT_ID}/keys/etcd`, `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${CRYPTO_USER}`],
    ]);
    expect(resources(stacks["identities-myprefix-byok"], "azurerm_key_vault")).toEqual([]);
  });

  it("lifts prevent_destroy of a retired cluster's vault and key", () => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, "kms.yaml"), "utf8"));
    config.clusters[0].retired = true;
    const retired = synthStacks(loadInline(config))["identities-myprefix-prod"];
    expect(resources(retired, "azurerm_key_vault")[0].lifecycle).toBeUndefined();
    expect(resources(retired, "azurerm_key_vault_key")[0].lifecycle).toBeUndefined();
  });
});

describe("availability zones: one NodePool per zone, as --availability-zones (cmd/cluster/azure/create.go, core/create.go defaultNodePool)", () => {
  it("names each <pool>-<zone>, sets availabilityZone, and gives each the full replicas (fixture ..._availability_zones_are_provided__it_should_configure_zones)", () => {
    const pools = manifests("cluster-myprefix-prod").filter((m) => m.kind === "NodePool");
    expect(pools.map((p) => [p.metadata.name, p.spec.platform.azure.availabilityZone, p.spec.replicas])).toEqual([
      ["workers-1", "1", 2],
      ["workers-2", "2", 2],
      ["workers-3", "3", 2],
    ]);
    // Everything else is the pool's, the same in every zone.
    const withoutZone = pools.map((p) => ({
      ...p,
      metadata: {},
      spec: { ...p.spec, platform: { azure: { ...p.spec.platform.azure, availabilityZone: "" } } },
    }));
    expect(new Set(withoutZone.map((p) => JSON.stringify(p))).size).toBe(1);
  });

  it("has construct IDs NodePool_<pool>-<zone>, each with its own creation guard", () => {
    const ids = Object.keys(stacks["cluster-myprefix-prod"].resource.kubernetes_manifest);
    expect(ids.filter((id) => id.includes("NodePool")).map((id) => id.replace(/_[0-9A-F]{8}$/, ""))).toEqual([
      "HostedCluster_NodePool_workers-1",
      "HostedCluster_NodePool_workers-2",
      "HostedCluster_NodePool_workers-3",
    ]);
    const guards = Object.keys(stacks["cluster-myprefix-prod"].resource.terraform_data).filter((id) => id.startsWith("CreationGuard_NodePool"));
    expect(guards).toHaveLength(3);
  });

  it("a zone's guard names the config entry the user edits (the pool and its zone), not the NodePool's derived name", () => {
    const guards = stacks["cluster-myprefix-prod"].resource.terraform_data;
    const messages = Object.entries(guards)
      .filter(([id]) => id.startsWith("CreationGuard_NodePool_workers-2"))
      .flatMap(([, guard]: [string, any]) => guard.lifecycle.postcondition.map((p: any) => p.error_message));
    const pool = "clusters[0].hostedCluster.nodePools[name: workers]";
    const prefixes = [
      `${pool}.subnetId (for zone 2 of its availabilityZones) (default: the cluster's subnet, `,
      `${pool}.arch (for zone 2 of its availabilityZones): NodePool clusters/workers-2 was created with spec.arch `,
      `${pool}.upgradeType (for zone 2 of its availabilityZones): NodePool clusters/workers-2 was created with spec.management.upgradeType `,
      "clusters[0].hostedCluster.namespace: NodePool clusters/workers-2 was created with metadata.namespace ",
    ];
    expect(messages.map((message: string, i) => message.slice(0, prefixes[i]?.length))).toEqual(prefixes);
  });

  it("leaves a single-zone pool one NodePool named as configured", () => {
    const pools = manifests("cluster-myprefix-byok").filter((m) => m.kind === "NodePool");
    expect(pools.map((p) => [p.metadata.name, p.spec.platform.azure.availabilityZone])).toEqual([["myprefix-byok", "1"]]);
  });
});

describe("examples/kms.yaml stacks", () => {
  it.each(["identities-myprefix-prod", "identities-myprefix-byok", "cluster-myprefix-prod", "cluster-myprefix-byok"])("snapshot of stack %s", (name) => {
    expect(stacks[name]).toMatchSnapshot();
  });

  it("holds no secret: no private key, client secret or pull secret in any stack", () => {
    for (const [name, stack] of Object.entries(stacks)) {
      const text = JSON.stringify(stack);
      expect([name, /BEGIN [A-Z ]*PRIVATE KEY/.test(text)]).toEqual([name, false]);
      expect([name, /"(client_secret|aadClientSecret|clientSecret)"\s*:\s*"[^"$]/.test(text)]).toEqual([name, false]);
      expect([name, /"auths"/.test(text)]).toEqual([name, false]);
    }
  });
});

if (!HAVE_CRDS) console.warn("kms-zones: ../shared is absent; the CRD checks are skipped");

(HAVE_CRDS ? describe : describe.skip)("examples/kms.yaml against the real CRDs (check-manifests)", () => {
  const out = tempDir("hcp-azure-kms-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  /** Writes the cluster stacks of `synthesized` as a cdktf.out folder. */
  const write = (dir: string, synthesized: Record<string, any>) => {
    for (const [name, stack] of Object.entries(synthesized).filter(([n]) => n.startsWith("cluster-"))) {
      fs.mkdirSync(path.join(out, dir, "stacks", name), { recursive: true });
      fs.writeFileSync(path.join(out, dir, "stacks", name, "cdk.tf.json"), JSON.stringify(stack));
    }
    return path.join(out, dir);
  };

  it("every HostedCluster and NodePool passes the schema and every CEL rule", async () => {
    const result = await checkManifests(write("base", stacks));
    expect(result.stdout).toMatch(/checked 6 manifests \(HostedCluster: 2, NodePool: 4\), 0 errors, /);
    expect(result.status).toBe(0);
  });

  it("a key rotation (backup key, then a new active version) is an edit the CRDs accept", async () => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, "kms.yaml"), "utf8"));
    const kms = config.clusters[1].hostedCluster.kms;
    kms.backupKeyId = kms.keyId;
    kms.keyId = kms.keyId.replace(/[0-9a-f]{32}$/, "f".repeat(32));
    const result = await checkManifests("--old", write("base", stacks), write("rotated", synthStacks(loadInline(config))));
    expect(result.stdout).toMatch(/ 0 errors, /);
    expect(result.status).toBe(0);
  });

  it("a backup key in another vault is refused by the CRD too (the config rule mirrors it)", async () => {
    const broken = structuredClone(stacks);
    const hc = Object.values(broken["cluster-myprefix-byok"].resource.kubernetes_manifest as Record<string, any>).find(
      (r) => r.manifest.kind === "HostedCluster",
    );
    hc.manifest.spec.secretEncryption.kms.azure.backupKey = { keyVaultName: "otherkeys", keyName: "etcd", keyVersion: "f".repeat(32) };
    const result = await checkManifests(write("broken", broken));
    expect(result.stdout).toMatch(/backupKey.keyVaultName must match activeKey.keyVaultName/);
    expect(result.status).toBe(1);
  });
});
