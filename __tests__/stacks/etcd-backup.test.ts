import * as fs from "node:fs";
import * as path from "node:path";
import { validateConfig } from "../../config/load";
import { EXAMPLES, minimalConfig, REPO, resources, synthStacks, tempDir } from "../helpers";

/** managementCluster.etcdBackup: the rules, and what the management stack creates (help/backup.md). */

const dir = tempDir("hcp-azure-etcd-backup-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The example bundle plus release-4.22's HCPEtcdBackup CRD, as `--tech-preview-no-upgrade` renders it. */
const TECH_PREVIEW_BUNDLE = path.join(dir, "bundle-tech-preview.yaml");
fs.writeFileSync(
  TECH_PREVIEW_BUNDLE,
  `${fs.readFileSync(path.join(EXAMPLES, "operator", "hypershift-operator.yaml"), "utf8")}\n---\n${fs.readFileSync(
    path.join(REPO, "__tests__", "fixtures", "hypershift", "hcpetcdbackups-TechPreviewNoUpgrade.crd.yaml"),
    "utf8",
  )}`,
);

const ISSUER = "https://oidc.example.com/mgmt";
const config = (etcdBackup: Record<string, unknown>, bundleFile = TECH_PREVIEW_BUNDLE, location = "eastus") =>
  minimalConfig({ location, managementCluster: { operator: { bundleFile }, etcdBackup } });
const validate = (input: unknown) => validateConfig(input, EXAMPLES);
const messages = (input: unknown) => {
  const result = validate(input);
  return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`);
};
const management = (input: unknown) => {
  const loaded = validate(input);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return synthStacks(loaded).management;
};

describe("managementCluster.etcdBackup: rules", () => {
  it("needs the HCPEtcdBackup CRD in the bundle (release-4.22+, --tech-preview-no-upgrade)", () => {
    expect(messages(config({ storageAccountName: "demoetcdbackups", issuerUrl: ISSUER }, "operator/hypershift-operator.yaml"))).toEqual([
      expect.stringMatching(/^managementCluster\.operator\.bundleFile: has no CRD hcpetcdbackups\.hypershift\.openshift\.io.*--tech-preview-no-upgrade/),
    ]);
  });

  it("needs the management cluster's issuer without managementCluster.aks", () => {
    expect(messages(config({ storageAccountName: "demoetcdbackups" }))).toEqual([
      expect.stringMatching(/^managementCluster\.etcdBackup\.issuerUrl: is required without managementCluster\.aks/),
    ]);
  });

  it("checks the names", () => {
    expect(
      messages(config({ storageAccountName: "Demo-Backups", containerName: "etcd--x", issuerUrl: "http://x" }))
        .map((m) => m.split(":")[0])
        .sort(),
    ).toEqual(["managementCluster.etcdBackup.containerName", "managementCluster.etcdBackup.issuerUrl", "managementCluster.etcdBackup.storageAccountName"]);
  });
});

describe("managementCluster.etcdBackup: the management stack", () => {
  const stack = management(config({ storageAccountName: "demoetcdbackups", issuerUrl: ISSUER }));

  it("a storage account without shared keys, zone-redundant where the region has zones, protected", () => {
    const [account] = resources(stack, "azurerm_storage_account");
    expect(account).toMatchObject({
      name: "demoetcdbackups",
      resource_group_name: "demo-hcp-persistent",
      account_replication_type: "ZRS",
      shared_access_key_enabled: false,
      min_tls_version: "TLS1_2",
      allow_nested_items_to_be_public: false,
      lifecycle: { prevent_destroy: true },
    });
    const lrs = resources(
      management(config({ storageAccountName: "demoetcdbackups", issuerUrl: ISSUER }, TECH_PREVIEW_BUNDLE, "northcentralus")),
      "azurerm_storage_account",
    );
    expect(lrs[0].account_replication_type).toBe("LRS");
  });

  it("an identity trusted for the operator's etcd-backup-job on the management cluster's issuer, Storage Blob Data Contributor on the container only", () => {
    const [credential] = resources(stack, "azurerm_federated_identity_credential");
    expect(credential).toMatchObject({ issuer: ISSUER, subject: "system:serviceaccount:hypershift:etcd-backup-job", audience: ["api://AzureADTokenExchange"] });
    const [role] = resources(stack, "azurerm_role_assignment");
    expect(role.scope).toMatch(/^\$\{azurerm_storage_account\.[A-Za-z0-9_]+\.id\}\/blobServices\/default\/containers\/etcd-backups$/);
    expect(role.role_definition_id).toMatch(/ba92f5b4-2d11-453d-a403-e96b0029c9fe$/);
    expect(resources(stack, "azurerm_storage_container")[0]).toMatchObject({ name: "etcd-backups", container_access_type: "private" });
  });

  it("the Secret HCPEtcdBackup names, in the operator namespace, in workload identity mode, written write-only", () => {
    const secret = resources(stack, "kubernetes_secret_v1").find((s) => s.metadata.name === "etcd-backup-azure-credentials");
    expect(secret.metadata.namespace).toBe("hypershift");
    expect(secret.data_wo.cloud).toMatch(
      /^AZURE_SUBSCRIPTION_ID=00000000-0000-0000-0000-000000000000\nAZURE_TENANT_ID=11111111-1111-1111-1111-111111111111\nAZURE_CLIENT_ID=\$\{azurerm_user_assigned_identity\.[A-Za-z0-9_]+\.client_id\}\nAZURE_RESOURCE_GROUP=demo-hcp-persistent\nAZURE_CLOUD_NAME=AzurePublicCloud$/,
    );
  });

  it("without etcdBackup: no Azure provider, nothing of it", () => {
    const plain = synthStacks(
      validate(minimalConfig({ managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } } })) as any,
    ).management;
    expect(plain.provider.azurerm).toBeUndefined();
    expect(resources(plain, "kubernetes_secret_v1").filter((s) => s.metadata.name === "etcd-backup-azure-credentials")).toEqual([]);
  });
});
