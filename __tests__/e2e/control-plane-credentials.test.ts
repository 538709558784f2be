import { Testing } from "cdktf";
import { spawnSync } from "node:child_process";
import { createPrivateKey, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { ControlPlaneIdentity } from "../../constructs/control-plane-identities/control-plane-identity";
import { HAVE_TERRAFORM, resources, rsaKeyPair, tempDir, terraformApply } from "../helpers";

/**
 * The Key Vault secret's value is a Terraform expression over tls/azuread attributes. This test
 * evaluates the synthesized expression with Terraform itself (attributes replaced by a real
 * certificate and key made with OpenSSL), then reads the result the way msi-dataplane does:
 * JSON with snake_case keys, `client_secret` decoded with standard base64, then PEM blocks as
 * azidentity.ParseCertificates walks them (a CERTIFICATE and an RSA key that belongs to it).
 * Runs where terraform and openssl are on PATH (no provider plugins needed).
 */
const tools = HAVE_TERRAFORM && spawnSync("openssl", ["version"], { encoding: "utf8" }).status === 0;

const CLIENT_ID = "22222222-2222-2222-2222-222222222222";
const TENANT_ID = "11111111-1111-1111-1111-111111111111";
const NOT_BEFORE = "2026-11-22T10:00:00Z";
const NOT_AFTER = "2027-11-22T10:00:00Z";

function synthesizedSecretValue(): string {
  const parsed = JSON.parse(
    Testing.synthScope((scope) => {
      new ControlPlaneIdentity(scope, "cpo", {
        applicationName: "demo-cpo",
        secretName: "demo-cpo",
        keyVaultId: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/demo-kv",
        tenantId: TENANT_ID,
        owners: ["33333333-3333-3333-3333-333333333333"],
        validityHours: 8760,
        renewBeforeHours: 720,
      });
    }),
  );
  const [secret] = resources(parsed, "azurerm_key_vault_secret");
  // Write-only (value_wo): the value reaches the vault, not plan or state.
  expect(secret.value).toBeUndefined();
  return secret.value_wo as string;
}

/** Replaces the resource attributes the expression refers to with locals and literals. */
function withInputs(expression: string): string {
  const replaced = expression
    .replace(/tls_self_signed_cert\.[\w-]+\.cert_pem/g, "local.cert_pem")
    .replace(/tls_private_key\.[\w-]+\.private_key_pem/g, "local.key_pem")
    .replace(/azuread_application\.[\w-]+\.client_id/g, `"${CLIENT_ID}"`)
    .replace(/tls_self_signed_cert\.[\w-]+\.validity_start_time/g, `"${NOT_BEFORE}"`)
    .replace(/tls_self_signed_cert\.[\w-]+\.validity_end_time/g, `"${NOT_AFTER}"`);
  // Nothing else may be left to resolve: the secret depends on these attributes only.
  expect(replaced).not.toMatch(/\b(tls_|azuread_|azurerm_|data\.)/);
  return replaced;
}

(tools ? describe : describe.skip)("control-plane credentials secret, evaluated by Terraform (needs terraform and openssl)", () => {
  let value: string;
  let certPem: string;
  let keyPem: string;

  beforeAll(() => {
    const dir = tempDir();
    try {
      // PKCS#1 ("RSA PRIVATE KEY"), as the tls provider's private_key_pem for RSA.
      keyPem = rsaKeyPair().privateKey;
      fs.writeFileSync(path.join(dir, "key.pem"), keyPem);
      const req = spawnSync("openssl", ["req", "-x509", "-key", "key.pem", "-out", "cert.pem", "-subj", "/CN=demo-cpo", "-days", "1"], {
        cwd: dir,
        encoding: "utf8",
      });
      expect({ status: req.status, stderr: req.stderr }).toMatchObject({ status: 0 });
      certPem = fs.readFileSync(path.join(dir, "cert.pem"), "utf8");
      fs.writeFileSync(
        path.join(dir, "main.tf.json"),
        JSON.stringify({
          locals: { cert_pem: '${file("cert.pem")}', key_pem: '${file("key.pem")}' },
          output: { secret: { value: withInputs(synthesizedSecretValue()) } },
        }),
      );
      const env = { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
      terraformApply(dir, env);
      // The output as Terraform stored it (what `terraform output -raw secret` prints).
      value = JSON.parse(fs.readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).outputs.secret.value;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("is msi-dataplane's UserAssignedIdentityCredentials JSON with the fields GetCredential requires", () => {
    const json = JSON.parse(value);
    expect(Object.keys(json).sort()).toEqual(["authentication_endpoint", "client_id", "client_secret", "not_after", "not_before", "tenant_id"]);
    expect(json).toMatchObject({
      authentication_endpoint: "https://login.microsoftonline.com/",
      client_id: CLIENT_ID,
      tenant_id: TENANT_ID,
      not_before: NOT_BEFORE,
      not_after: NOT_AFTER,
    });
    // Go's time.RFC3339 layout.
    expect(json.not_before).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  });

  it("client_secret is standard, padded base64 of the PEM certificate followed by its RSA private key", () => {
    const secret: string = JSON.parse(value).client_secret;
    expect(secret).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(secret.length % 4).toBe(0);
    const pem = Buffer.from(secret, "base64").toString("utf8");
    expect(pem).toBe(`${certPem}${keyPem}`);
    // azidentity.ParseCertificates: pem.Decode loop; CERTIFICATE blocks and one RSA PRIVATE KEY / PRIVATE KEY.
    const blocks = [...pem.matchAll(/-----BEGIN ([A-Z ]+)-----\n[\s\S]*?\n-----END \1-----/g)];
    expect(blocks.map((b) => b[1])).toEqual(["CERTIFICATE", "RSA PRIVATE KEY"]);
    const certificate = new X509Certificate(blocks[0][0]);
    const key = createPrivateKey(blocks[1][0]);
    expect(key.asymmetricKeyType).toBe("rsa");
    expect(certificate.checkPrivateKey(key)).toBe(true);
  });
});
