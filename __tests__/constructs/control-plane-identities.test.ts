import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { TerraformOutput, Testing } from "cdktf";
import { Construct } from "constructs";
import { ControlPlaneIdentityKey } from "../../config/components";
import { ControlPlaneIdentities, ControlPlaneIdentitiesProps } from "../../constructs/control-plane-identities/control-plane-identities";
import { ControlPlaneIdentity, ControlPlaneIdentityProps } from "../../constructs/control-plane-identities/control-plane-identity";
import { only, resources, SEED_003_CONTROL_PLANE_SUFFIXES } from "../helpers";

const SUB = "00000000-0000-0000-0000-000000000000";
const TENANT = "11111111-1111-1111-1111-111111111111";
const VAULT_ID = `/subscriptions/${SUB}/resourceGroups/os4-common/providers/Microsoft.KeyVault/vaults/hc1-kv`;

const SUFFIXES: Record<ControlPlaneIdentityKey, string> = SEED_003_CONTROL_PLANE_SUFFIXES;
/** Given out of HyperShift's order on purpose: the JSON must come out in seed order regardless. */
const GIVEN_ORDER: ControlPlaneIdentityKey[] = [
  "file",
  "ingress",
  "controlPlaneOperator",
  "disk",
  "cloudProvider",
  "network",
  "imageRegistry",
  "nodePoolManagement",
];
const spec = (key: ControlPlaneIdentityKey) => ({ key, applicationName: `hc1-${SUFFIXES[key]}`, secretName: `hc1-${SUFFIXES[key]}` });

/** Synthesizes the 8 identities of `hc1` (plus a role assignment the secrets wait for) and outputs the managed identities JSON. */
function synthIdentities(props: Partial<ControlPlaneIdentitiesProps> = {}) {
  const json = Testing.synthScope((scope) => {
    const deployerAccess = new RoleAssignment(scope, "DeployerAccess", { scope: VAULT_ID, principalId: "p", roleDefinitionName: "Key Vault Secrets Officer" });
    const identities = new ControlPlaneIdentities(scope, "Cp", {
      identities: GIVEN_ORDER.map(spec),
      keyVault: { name: "hc1-kv", id: VAULT_ID },
      tenantId: TENANT,
      validityHours: 8760,
      renewBeforeHours: 720,
      secretDependsOn: [deployerAccess],
      tags: { environment: "dev" },
      ...props,
    });
    new TerraformOutput(scope, "managed_identities", { value: identities.managedIdentitiesJson });
  });
  return JSON.parse(json);
}

/** Synthesizes one ControlPlaneIdentity with valid defaults and `props` on top. */
function synthOne(props: Partial<ControlPlaneIdentityProps> = {}) {
  return JSON.parse(
    Testing.synthScope((scope: Construct) => {
      new ControlPlaneIdentity(scope, "One", {
        applicationName: "hc1-disk",
        secretName: "hc1-disk",
        keyVaultId: VAULT_ID,
        tenantId: TENANT,
        owners: ["22222222-2222-2222-2222-222222222222"],
        validityHours: 8760,
        renewBeforeHours: 720,
        ...props,
      });
    }),
  );
}

/** The Terraform resource address (`type.name`) of the single resource of `type` whose field matches. */
function addressOf(stack: any, type: string, predicate: (r: any) => boolean): string {
  const matches = Object.entries(stack.resource[type] as Record<string, any>).filter(([, r]) => predicate(r));
  expect(matches).toHaveLength(1);
  return `${type}.${matches[0][0]}`;
}

/**
 * Entries of the HCL object literal inside `${jsonencode({...})}`, in written order: splits at
 * top-level commas (outside quotes, parentheses, brackets and braces).
 */
function jsonencodeEntries(expression: string): Array<[string, string]> {
  const match = /^\$\{jsonencode\(\{(.*)\}\)\}$/s.exec(expression);
  if (!match) throw new Error(`not a jsonencode object: ${expression}`);
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (let i = 0; i < match[1].length; i++) {
    const ch = match[1][i];
    if (quoted) {
      if (ch === "\\") current += ch + match[1][++i];
      else {
        if (ch === '"') quoted = false;
        current += ch;
      }
      continue;
    }
    if (ch === '"') quoted = true;
    if ("([{".includes(ch)) depth++;
    if (")]}".includes(ch)) depth--;
    if (ch === "," && depth === 0) {
      parts.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts.map((part) => {
    const entry = /^"([^"]+)" = (.*)$/s.exec(part);
    if (!entry) throw new Error(`not a key = value entry: ${part}`);
    return [entry[1], entry[2]];
  });
}

describe("ControlPlaneIdentities: Entra objects", () => {
  const stack = synthIdentities();

  it("creates one application and one service principal per component, both owned by the deployer (azuread client config)", () => {
    const deployer = `\${data.azuread_client_config.${Object.keys(stack.data.azuread_client_config)[0]}.object_id}`;
    expect(Object.keys(stack.data.azuread_client_config)).toHaveLength(1);
    const applications = resources(stack, "azuread_application");
    expect(applications.map((a) => a.display_name).sort()).toEqual(
      Object.values(SUFFIXES)
        .map((s) => `hc1-${s}`)
        .sort(),
    );
    for (const application of applications) {
      expect(application).toEqual({
        display_name: application.display_name,
        owners: [deployer],
        prevent_duplicate_names: true,
        sign_in_audience: "AzureADMyOrg",
        lifecycle: { prevent_destroy: true },
      });
    }
    const principals = resources(stack, "azuread_service_principal");
    expect(principals).toHaveLength(8);
    for (const principal of principals) expect(principal.owners).toEqual([deployer]);
    // Each service principal belongs to a distinct application.
    const appAddresses = Object.keys(stack.resource.azuread_application).map((k) => `\${azuread_application.${k}.client_id}`);
    expect(principals.map((p) => p.client_id).sort()).toEqual(appAddresses.sort());
  });

  it("generates an RSA 2048 key and a client-auth certificate per component, with the configured validity and renewal window", () => {
    expect(resources(stack, "tls_private_key")).toEqual(Array(8).fill({ algorithm: "RSA", rsa_bits: 2048 }));
    const certificates = resources(stack, "tls_self_signed_cert");
    expect(certificates).toHaveLength(8);
    for (const certificate of certificates) {
      expect(certificate).toMatchObject({ validity_period_hours: 8760, early_renewal_hours: 720 });
      expect(certificate.allowed_uses).toContain("client_auth");
      expect(certificate.private_key_pem).toMatch(/^\$\{tls_private_key\.[\w-]+\.private_key_pem\}$/);
    }
    const other = synthIdentities({ validityHours: 48, renewBeforeHours: 12 });
    for (const certificate of resources(other, "tls_self_signed_cert"))
      expect(certificate).toMatchObject({ validity_period_hours: 48, early_renewal_hours: 12 });
  });

  it("registers each certificate on its application as a PEM X.509 credential ending with the certificate, replaced create-before-destroy", () => {
    const app = addressOf(stack, "azuread_application", (a) => a.display_name === "hc1-ingress");
    const cert = addressOf(stack, "tls_self_signed_cert", (c) => c.subject[0].common_name === "hc1-ingress");
    const credentials = resources(stack, "azuread_application_certificate");
    expect(credentials).toHaveLength(8);
    expect(credentials.find((c) => c.application_id === `\${${app}.id}`)).toEqual({
      application_id: `\${${app}.id}`,
      type: "AsymmetricX509Cert",
      encoding: "pem",
      value: `\${${cert}.cert_pem}`,
      start_date: `\${${cert}.validity_start_time}`,
      end_date: `\${${cert}.validity_end_time}`,
      lifecycle: { create_before_destroy: true },
    });
  });
});

describe("ControlPlaneIdentities: Key Vault secrets", () => {
  const stack = synthIdentities();
  const secrets = resources(stack, "azurerm_key_vault_secret");
  const app = addressOf(stack, "azuread_application", (a) => a.display_name === "hc1-cloud-provider");
  const cert = addressOf(stack, "tls_self_signed_cert", (c) => c.subject[0].common_name === "hc1-cloud-provider");
  const key = `tls_private_key.${/^\$\{tls_private_key\.([\w-]+)\.private_key_pem\}$/.exec(stack.resource.tls_self_signed_cert[cert.split(".")[1]].private_key_pem)![1]}`;
  const secret = secrets.find((s) => s.name === "hc1-cloud-provider");

  it("writes one JSON secret per component, named secretName, in the given vault", () => {
    expect(secrets.map((s) => s.name).sort()).toEqual(
      Object.values(SUFFIXES)
        .map((s) => `hc1-${s}`)
        .sort(),
    );
    for (const s of secrets) expect(s).toMatchObject({ key_vault_id: VAULT_ID, content_type: "application/json", tags: { environment: "dev" } });
  });

  it("holds msi-dataplane's credentials JSON: exactly the six snake_case keys, the secret is base64 of certificate + private key PEM", () => {
    const entries = jsonencodeEntries(secret.value_wo);
    expect(entries.map(([k]) => k).sort()).toEqual(["authentication_endpoint", "client_id", "client_secret", "not_after", "not_before", "tenant_id"]);
    expect(Object.fromEntries(entries)).toEqual({
      authentication_endpoint: '"https://login.microsoftonline.com/"',
      client_id: `${app}.client_id`,
      client_secret: `base64encode(join("", [${cert}.cert_pem, ${key}.private_key_pem]))`,
      tenant_id: `"${TENANT}"`,
      not_before: `${cert}.validity_start_time`,
      not_after: `${cert}.validity_end_time`,
    });
  });

  it("is write-only (value_wo), versioned by the public parts of the value only, and the stack requires Terraform 1.11", () => {
    expect(secret.value).toBeUndefined();
    const version: string = secret.value_wo_version;
    expect(version).toMatch(/^\$\{\(parseint\(substr\(sha256\(join\("\\n", \["hc1-cloud-provider", jsonencode\(\{/);
    // Every input that changes the value changes the version: the certificate (a new key forces a
    // new one), its validity, the client ID, the tenant and the authority host.
    for (const part of [
      `${cert}.cert_pem`,
      `${key}.public_key_pem`,
      `${cert}.validity_start_time`,
      `${cert}.validity_end_time`,
      `${app}.client_id`,
      TENANT,
      "https://login.microsoftonline.com/",
    ])
      expect(version).toContain(part);
    // No secret in the fingerprint.
    expect(version).not.toMatch(/\.private_key_(pem|openssh|pem_pkcs8)\b/);
    expect(stack.terraform.required_version).toBe(">= 1.11");
  });

  it("is written only after Entra trusts the certificate and after secretDependsOn (the deployer's vault role)", () => {
    const credential = addressOf(stack, "azuread_application_certificate", (c) => c.application_id === `\${${app}.id}`);
    const roleAssignment = `azurerm_role_assignment.${Object.keys(stack.resource.azurerm_role_assignment)[0]}`;
    expect(secret.depends_on).toEqual(expect.arrayContaining([credential, roleAssignment]));
    for (const s of secrets) expect(s.depends_on).toContain(roleAssignment);
  });
});

describe("ControlPlaneIdentities: managedIdentitiesJson", () => {
  const stack = synthIdentities();
  const text: string = stack.output.managed_identities.value;
  /** Fake client IDs by application display name, as Terraform would fill them in. */
  const clientIdOf = (displayName: string) => {
    const index = Object.values(SUFFIXES).indexOf(displayName.replace(/^hc1-/, ""));
    return `aaaaaaaa-0000-0000-0000-00000000000${index + 1}`;
  };
  const resolved = text.replace(/\$\{azuread_application\.([\w-]+)\.client_id\}/g, (_, id: string) =>
    clientIdOf(stack.resource.azuread_application[id].display_name),
  );

  it("is HyperShift's --managed-identities-file: the vault first, then the components in seed order, each utf-8", () => {
    expect(resolved).toBe(`{
  "managedIdentitiesKeyVault": {
    "name": "hc1-kv",
    "tenantID": "11111111-1111-1111-1111-111111111111"
  },
  "cloudProvider": {
    "clientID": "aaaaaaaa-0000-0000-0000-000000000001",
    "credentialsSecretName": "hc1-cloud-provider",
    "objectEncoding": "utf-8"
  },
  "nodePoolManagement": {
    "clientID": "aaaaaaaa-0000-0000-0000-000000000002",
    "credentialsSecretName": "hc1-nodepool-mgmt",
    "objectEncoding": "utf-8"
  },
  "controlPlaneOperator": {
    "clientID": "aaaaaaaa-0000-0000-0000-000000000003",
    "credentialsSecretName": "hc1-cpo",
    "objectEncoding": "utf-8"
  },
  "imageRegistry": {
    "clientID": "aaaaaaaa-0000-0000-0000-000000000004",
    "credentialsSecretName": "hc1-image-registry",
    "objectEncoding": "utf-8"
  },
  "ingress": {
    "clientID": "aaaaaaaa-0000-0000-0000-000000000005",
    "credentialsSecretName": "hc1-ingress",
    "objectEncoding": "utf-8"
  },
  "network": {
    "clientID": "aaaaaaaa-0000-0000-0000-000000000006",
    "credentialsSecretName": "hc1-network",
    "objectEncoding": "utf-8"
  },
  "disk": {
    "clientID": "aaaaaaaa-0000-0000-0000-000000000007",
    "credentialsSecretName": "hc1-disk",
    "objectEncoding": "utf-8"
  },
  "file": {
    "clientID": "aaaaaaaa-0000-0000-0000-000000000008",
    "credentialsSecretName": "hc1-file",
    "objectEncoding": "utf-8"
  }
}
`);
  });

  it("parses as JSON once Terraform fills the client IDs, with exactly that key order", () => {
    expect(resolved).not.toContain("${");
    const json = JSON.parse(resolved);
    expect(Object.keys(json)).toEqual([
      "managedIdentitiesKeyVault",
      "cloudProvider",
      "nodePoolManagement",
      "controlPlaneOperator",
      "imageRegistry",
      "ingress",
      "network",
      "disk",
      "file",
    ]);
    expect(json.managedIdentitiesKeyVault).toEqual({ name: "hc1-kv", tenantID: TENANT });
    expect(json.disk).toEqual({ clientID: "aaaaaaaa-0000-0000-0000-000000000007", credentialsSecretName: "hc1-disk", objectEncoding: "utf-8" });
    for (const key of Object.keys(json).slice(1)) expect(Object.keys(json[key])).toEqual(["clientID", "credentialsSecretName", "objectEncoding"]);
  });
});

describe("ControlPlaneIdentity: misuse", () => {
  it("synthesizes with valid props (the baseline of the cases below)", () => {
    expect(only(synthOne().resource.azurerm_key_vault_secret).name).toBe("hc1-disk");
  });

  it.each([
    {
      name: "a secret name with '_'",
      props: { secretName: "hc1_disk" },
      message: /ControlPlaneIdentity hc1-disk: secretName "hc1_disk" must be 1-127 letters, digits or '-'/,
    },
    { name: "a 128-character secret name", props: { secretName: "x".repeat(128) }, message: new RegExp(`secretName "${"x".repeat(128)}" must be 1-127`) },
    { name: "validity 23h", props: { validityHours: 23, renewBeforeHours: 1 }, message: /validityHours 23 must be a whole number between 24 and 17520/ },
    { name: "validity 17521h", props: { validityHours: 17521 }, message: /validityHours 17521 must be a whole number between 24 and 17520/ },
    {
      name: "renewal as long as validity",
      props: { validityHours: 720, renewBeforeHours: 720 },
      message: /renewBeforeHours 720 must be a whole number from 1 to less than validityHours \(720\)/,
    },
    { name: "renewal longer than validity", props: { renewBeforeHours: 9000 }, message: /renewBeforeHours 9000 must be .*validityHours \(8760\)/ },
    { name: "no owners", props: { owners: [] }, message: /owners must name at least one principal/ },
    { name: "a vault name as vault ID", props: { keyVaultId: "hc1-kv" }, message: /keyVaultId "hc1-kv" must be a Key Vault ARM ID/ },
    {
      name: "a resource group ID as vault ID",
      props: { keyVaultId: `/subscriptions/${SUB}/resourceGroups/os4-common` },
      message: /keyVaultId "\/subscriptions\/0{8}-0{4}-0{4}-0{4}-0{12}\/resourceGroups\/os4-common" must be a Key Vault ARM ID/,
    },
    { name: "an empty application name", props: { applicationName: "" }, message: /applicationName "" must be 1-120 characters/ },
  ])("refuses $name, naming the prop and its value", ({ props, message }) => {
    expect(() => synthOne(props)).toThrow(message);
  });

  it("ControlPlaneIdentities refuses a key given twice, naming it", () => {
    expect(() => synthIdentities({ identities: [spec("disk"), spec("file"), { ...spec("disk"), secretName: "hc1-disk-2" }] })).toThrow(
      /ControlPlaneIdentities: identity key disk appears twice/,
    );
  });
});

describe("ControlPlaneIdentity: protection (prevent_destroy)", () => {
  const PROTECTED = ["azuread_application", "azuread_service_principal", "azurerm_key_vault_secret"];
  // Renewal replaces these: prevent_destroy would make every renewal plan fail.
  const ROTATED = ["tls_private_key", "tls_self_signed_cert", "azuread_application_certificate"];

  it("protects the application, service principal and Key Vault secret by default, not the rotated key, certificate or credential", () => {
    const parsed = synthOne();
    for (const type of PROTECTED) expect(only(parsed.resource[type]).lifecycle).toEqual({ prevent_destroy: true });
    for (const type of ROTATED) expect(only(parsed.resource[type]).lifecycle?.prevent_destroy).toBeUndefined();
  });

  it("ControlPlaneIdentities passes preventDestroy: false down to every identity", () => {
    const parsed = synthIdentities({ preventDestroy: false });
    for (const type of PROTECTED) {
      expect(resources(parsed, type)).toHaveLength(8);
      for (const resource of resources(parsed, type)) expect(resource.lifecycle).toBeUndefined();
    }
  });
});
