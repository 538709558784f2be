import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig, validateConfig } from "../../config/load";
import { checkProtectedResources, protectedResourcesOf } from "../../config/protected-resources";
import { protectionWarnings } from "../../config/protection";
import { EXAMPLES, HAVE_TERRAFORM, minimalConfig, REPO, resources, synthStacks, tempDir, terraformApply } from "../helpers";

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
const loaded = (input: unknown): LoadedConfig => {
  const result = validate(input);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result;
};
const management = (input: unknown) => synthStacks(loaded(input), ["management"]).management;

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

  it("takes the issuer URL the sign-in OIDC issuer rule takes: https, no space, quote, <>, query, fragment or user info", () => {
    const bad = [
      `${ISSUER}<img src=https://attacker.example/p.png>`,
      `${ISSUER}/<b>x</b>`,
      `${ISSUER}"x`,
      `${ISSUER} x`,
      `${ISSUER}?a=b`,
      `${ISSUER}#f`,
      "https://user@oidc.example.com/mgmt",
    ];
    for (const issuerUrl of bad)
      expect(messages(config({ storageAccountName: "demoetcdbackups", issuerUrl }))).toEqual([
        expect.stringMatching(/^managementCluster\.etcdBackup\.issuerUrl: must be an https URL without query, fragment, user info, spaces, quotes or <>/),
      ]);
    expect(messages(config({ storageAccountName: "demoetcdbackups", issuerUrl: "https://eastus.oic.prod-aks.azure.com/t/g/" }))).toEqual([]);
  });
});

describe("managementCluster.etcdBackup: protection off", () => {
  it("the warning names the backup storage and its snapshots", () => {
    const off = loaded({ ...config({ storageAccountName: "demoetcdbackups", issuerUrl: ISSUER }), protection: { preventDestroy: false } });
    expect(protectionWarnings(off.config).join("\n")).toMatch(/prevent_destroy is off for .*the etcd backup storage account and container \(every snapshot\)/);
    expect(protectionWarnings(loaded(config({ storageAccountName: "demoetcdbackups", issuerUrl: ISSUER })).config)).toEqual([]);
  });
});

describe("managementCluster.etcdBackup: the management stack", () => {
  // Everything cdktf prints while synthesizing it (this config is synthesized here first).
  const warned: string[] = [];
  const warn = jest.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warned.push(args.join(" ")));
  let stack: any;
  try {
    stack = management(config({ storageAccountName: "demoetcdbackups", issuerUrl: ISSUER }));
  } finally {
    warn.mockRestore();
  }
  const identity = Object.keys(stack.resource.azurerm_user_assigned_identity)[0];
  const secret = resources(stack, "kubernetes_secret_v1").find((s) => s.metadata.name === "etcd-backup-azure-credentials");

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

  it("the container is protected as the account: a new containerName (azurerm: ForceNew) would delete every snapshot", () => {
    expect(resources(stack, "azurerm_storage_container")).toEqual([
      expect.objectContaining({ name: "etcd-backups", container_access_type: "private", lifecycle: { prevent_destroy: true } }),
    ]);
    const open = management(
      minimalConfig({
        managementCluster: { operator: { bundleFile: TECH_PREVIEW_BUNDLE }, etcdBackup: { storageAccountName: "demoetcdbackups", issuerUrl: ISSUER } },
        protection: { preventDestroy: false },
      }),
    );
    expect([...resources(open, "azurerm_storage_account"), ...resources(open, "azurerm_storage_container")].map((r) => r.lifecycle)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it("removing etcdBackup is refused at synth naming the account and the container, as the backup storage's removal", () => {
    // The same bundle without etcdBackup: only the backup storage leaves the configuration.
    const without = loaded(minimalConfig({ managementCluster: { operator: { bundleFile: TECH_PREVIEW_BUNDLE } } }));
    const held = new Map([...protectedResourcesOf(new Map([["management", stack]]))].map((id) => [id, { released: false }]));
    const { issues } = checkProtectedResources(without, new Map([["management", synthStacks(without, ["management"]).management]]), {
      held,
      source: "the record",
      unrecorded: false,
    });
    expect(issues.map((i) => i.path)).toEqual(["managementCluster.etcdBackup"]);
    expect(issues[0].message).toMatch(
      /^drops 2 protected resources the deployment holds \(the record\): the etcd backup storage is no longer declared \(managementCluster\.etcdBackup removed\): its storage account and container would go, and every etcd snapshot in them\./,
    );
    expect(issues[0].message).toMatch(/^ {6}management\/azurerm_storage_account\.EtcdBackup_Account_[0-9A-F]{8}$/m);
    expect(issues[0].message).toMatch(/^ {6}management\/azurerm_storage_container\.EtcdBackup_Container_[0-9A-F]{8}$/m);
  });

  it("an identity trusted for the operator's etcd-backup-job on the management cluster's issuer, Storage Blob Data Contributor on the container only", () => {
    const [credential] = resources(stack, "azurerm_federated_identity_credential");
    expect(credential).toMatchObject({ issuer: ISSUER, subject: "system:serviceaccount:hypershift:etcd-backup-job", audience: ["api://AzureADTokenExchange"] });
    const [role] = resources(stack, "azurerm_role_assignment");
    expect(role.scope).toMatch(/^\$\{azurerm_storage_account\.[A-Za-z0-9_]+\.id\}\/blobServices\/default\/containers\/etcd-backups$/);
    expect(role.role_definition_id).toMatch(/ba92f5b4-2d11-453d-a403-e96b0029c9fe$/);
  });

  /** The Secret's value once the identity exists (evaluated by Terraform below). */
  const CLIENT_ID = "0f1e2d3c-aaaa-bbbb-cccc-123456789abc";
  const CLOUD = [
    "AZURE_SUBSCRIPTION_ID=00000000-0000-0000-0000-000000000000",
    "AZURE_TENANT_ID=11111111-1111-1111-1111-111111111111",
    `AZURE_CLIENT_ID=${CLIENT_ID}`,
    "AZURE_RESOURCE_GROUP=demo-hcp-persistent",
    "AZURE_CLOUD_NAME=AzurePublicCloud",
  ].join("\n");

  it("the Secret HCPEtcdBackup names, in the operator namespace, in workload identity mode, written write-only", () => {
    expect(secret.metadata.namespace).toBe("hypershift");
    // The literal lines around the identity's client ID, joined (no template inside a function: see below).
    expect(secret.data_wo.cloud).toBe(
      `\${join("", [${JSON.stringify(CLOUD.slice(0, CLOUD.indexOf(CLIENT_ID)))}, azurerm_user_assigned_identity.${identity}.client_id, ${JSON.stringify(CLOUD.slice(CLOUD.indexOf(CLIENT_ID) + CLIENT_ID.length))}])}`,
    );
  });

  it("synth prints no cdktf warning (a template inside the revision's jsonencode() made it warn on every synth)", () => {
    expect(warned.filter((line) => /escape sequences|TfToken/.test(line))).toEqual([]);
    expect(JSON.stringify(stack)).not.toContain("TfToken");
  });

  (HAVE_TERRAFORM ? it : it.skip)("Terraform evaluates the Secret's value and its revision as the lines above (the same as before the join)", () => {
    const dir = tempDir("hcp-azure-etcd-backup-tf-");
    const reference = `azurerm_user_assigned_identity.${identity}.client_id`;
    const evaluated = (expression: string) => ({ value: expression.replaceAll(reference, "var.client_id") });
    fs.writeFileSync(
      path.join(dir, "main.tf.json"),
      JSON.stringify({
        variable: { client_id: { type: "string", default: CLIENT_ID } },
        output: { cloud: evaluated(secret.data_wo.cloud), revision: evaluated(secret.data_wo_revision) },
      }),
    );
    terraformApply(dir);
    const outputs = JSON.parse(fs.readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).outputs;
    // writeOnlyRevision: 1 + the first 52 bits of sha256("<Secret name>\n" + jsonencode(data)).
    const digest = createHash("sha256")
      .update(`etcd-backup-azure-credentials\n${JSON.stringify({ cloud: CLOUD })}`)
      .digest("hex");
    expect({ cloud: outputs.cloud.value, revision: outputs.revision.value }).toEqual({ cloud: CLOUD, revision: 1 + parseInt(digest.slice(0, 13), 16) });
  });

  it("without etcdBackup: no Azure provider, nothing of it", () => {
    const plain = management(minimalConfig({ managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } } }));
    expect(plain.provider.azurerm).toBeUndefined();
    expect(resources(plain, "kubernetes_secret_v1").filter((s) => s.metadata.name === "etcd-backup-azure-credentials")).toEqual([]);
  });
});
