import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { HAVE_TERRAFORM, hostedClusterSpec, loadInline, minimalConfig, synthStacks, tempDir } from "../helpers";

/**
 * The plan-time variables (secrets.source: variables), checked by Terraform itself: the variable
 * blocks and the terraform_data preconditions that every stack declares are copied into one
 * configuration (built-in provider only), then planned with good and bad values. Proves the
 * messages users see, and that a rejected secret never appears in Terraform's output.
 */

function declarations(): Record<string, any> {
  const loaded = loadInline(
    minimalConfig({
      clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), sshPublicKeyFile: "keys/id_rsa.pub", nodePools: [{ name: "hc1" }] } }],
      managementCluster: {
        operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" },
        pullSecretFile: "pull-secret.json",
        externalDnsCredentialsFile: "azure_mgmt.json",
        credentialsFromVariables: true,
      },
      secrets: { source: "variables" },
    }),
  );
  const variable: Record<string, unknown> = {};
  const checks: Record<string, unknown> = {};
  for (const stack of Object.values(synthStacks(loaded))) {
    Object.assign(variable, stack.variable ?? {});
    for (const [name, resource] of Object.entries((stack.resource?.terraform_data ?? {}) as Record<string, any>)) {
      if (name.includes("_Check_")) checks[name] = { lifecycle: resource.lifecycle };
    }
  }
  return { variable, resource: { terraform_data: checks } };
}

const pem = (label: string, body: string) => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
const { privateKey: pkcs1, publicKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const pkcs8 = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;
const CERT = pem("CERTIFICATE", "MIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGVTaGFwZU9ubHk=");

const GOOD: Record<string, string> = {
  pull_secret: JSON.stringify({ auths: { "registry.redhat.io": { auth: "dXNlcjpwYXNz" } } }),
  service_account_signing_key: pkcs1,
  ssh_public_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHVzZXI= core@example",
  external_dns_credentials: JSON.stringify({ tenantId: "t", subscriptionId: "s", resourceGroup: "rg", aadClientId: "c", aadClientSecret: "x" }),
  kube_host: "https://api.mgmt.example.com:6443",
  kube_cluster_ca_certificate: CERT,
  kube_token: "token-value",
};

(HAVE_TERRAFORM ? describe : describe.skip)("plan-time variables, checked by Terraform (needs terraform on PATH)", () => {
  let dir: string;
  let config: Record<string, any>;
  beforeAll(() => {
    dir = tempDir("hcp-azure-vars-");
    config = declarations();
    // Variables only: no init needed.
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(config, null, 2));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function plan(values: Record<string, string>) {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, TF_IN_AUTOMATION: "1" };
    for (const [name, value] of Object.entries(values)) env[`TF_VAR_${name}`] = value;
    const run = spawnSync("terraform", ["plan", "-input=false", "-no-color", "-refresh=false"], { cwd: dir, env, encoding: "utf8" });
    const output = `${run.stdout}${run.stderr}`;
    return { status: run.status, output, prose: output.replace(/[│╷╵]/g, " ").replace(/\s+/g, " ") };
  }

  it("declares every plan-time variable, and checks the secrets with preconditions", () => {
    expect(Object.keys(config.variable).sort()).toEqual([...Object.keys(GOOD), "kube_client_certificate", "kube_client_key"].sort());
    for (const [name, block] of Object.entries(config.variable as Record<string, any>)) {
      // Variable validation prints the value on failure, so secrets carry none.
      expect({ name, validation: block.sensitive ? block.validation : "n/a" }).toEqual({ name, validation: block.sensitive ? undefined : "n/a" });
    }
    expect(Object.keys(config.resource.terraform_data)).toHaveLength(5);
  });

  it("accepts good values (PKCS#1 key, token)", () => {
    const result = plan(GOOD);
    expect(result.output).not.toMatch(/Error/);
    expect(result.status).toBe(0);
  });

  it("accepts a PKCS#8 signing key and client-certificate authentication instead of a token", () => {
    const { kube_token: _token, ...rest } = GOOD;
    const result = plan({ ...rest, service_account_signing_key: pkcs8, kube_client_certificate: CERT, kube_client_key: pkcs8 });
    expect(result.output).not.toMatch(/Error/);
    expect(result.status).toBe(0);
  });

  it("rejects each bad value at plan with its message, and never prints a rejected secret", () => {
    const sentinels = { pull: "LEAK-PULL-4711", key: "LEAK-KEY-4712", dns: "LEAK-DNS-4713", client: "LEAK-CLIENT-4714" };
    const result = plan({
      pull_secret: JSON.stringify({ auths: {}, note: sentinels.pull }),
      service_account_signing_key: `${publicKey}${sentinels.key}`,
      ssh_public_key: "not-a-key",
      external_dns_credentials: JSON.stringify({ tenantId: sentinels.dns }),
      kube_host: "http://insecure.example.com",
      kube_cluster_ca_certificate: "not a certificate",
      kube_client_certificate: "not a certificate",
      kube_client_key: sentinels.client,
    });
    expect(result.status).toBe(1);
    const messages = [
      ...Object.values(config.variable as Record<string, any>).flatMap((v) => (v.validation ?? []).map((r: any) => r.error_message)),
      ...Object.values(config.resource.terraform_data as Record<string, any>).flatMap((r) => r.lifecycle.precondition.map((p: any) => p.error_message)),
    ];
    expect(messages).toHaveLength(9);
    // Every rule but the authentication one (a certificate and a key are given, both malformed).
    const expected = messages.filter((m) => !m.startsWith("Set kube_token"));
    expect(expected).toHaveLength(8);
    for (const message of expected) expect(result.prose).toContain(message.replace(/\s+/g, " "));
    for (const sentinel of Object.values(sentinels)) expect(result.output).not.toContain(sentinel);
    expect(result.output).not.toContain("BEGIN PUBLIC KEY");
  });

  it("requires a way to authenticate to the management cluster", () => {
    const { kube_token: _token, ...rest } = GOOD;
    const result = plan(rest);
    expect(result.status).toBe(1);
    expect(result.prose).toContain("Set kube_token, or both kube_client_certificate and kube_client_key");
  });

  it("requires every secret without a default", () => {
    const { pull_secret: _pull, ...rest } = GOOD;
    const result = plan(rest);
    expect(result.status).toBe(1);
    expect(result.prose).toMatch(/No value for required variable.*pull_secret/);
  });
});
