import { spawnSync } from "node:child_process";
import { createPrivateKey, createPublicKey } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { HAVE_TERRAFORM, hostedClusterSpec, loadInline, minimalConfig, rsaKeyPair, synthStacks, tempDir } from "../helpers";
import { caseDiagnostics, caseOutput, combineCases } from "../terraform-cases";

/**
 * The plan-time variables (secrets.source: variables), checked by Terraform itself: the variable
 * blocks and the terraform_data preconditions that every stack declares are copied into one
 * configuration (built-in provider only), then planned with good and bad values. Proves the
 * messages users see, that a rejected value is never printed, and that it reaches no provider or
 * resource. The signing key's key-pair check needs the tls provider, which is not installed here:
 * its synthesized comparison is planned with what tls_public_key outputs, computed with node:crypto.
 * Three plans in all: the cases that must pass in one configuration (combineCases), the cases that
 * must be refused in another (each case's messages read from its own diagnostics), and a missing
 * required variable alone (Terraform stops before evaluating anything else, so it cannot share a run).
 */

const pem = (label: string, body: string) => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
const asPkcs8 = (pkcs1Pem: string) => createPrivateKey(pkcs1Pem).export({ type: "pkcs8", format: "pem" }).toString();
/** The signing key pair: its public half is the published key. */
const { privateKey: pkcs1, publicKey } = rsaKeyPair();
/** The same private key, as PKCS#8. */
const pkcs8 = asPkcs8(pkcs1);
/** Another key pair: a valid private key (PKCS#8) that is not the published key's. */
const other = { privateKey: asPkcs8(rsaKeyPair(2048, "other").privateKey) };
/** A private key that must never appear in Terraform's output. */
const LEAKED_KEY = rsaKeyPair(2048, "leaked").privateKey;
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
/** The variables that take a private key: a pasted one passes their format rules. */
const TAKE_A_PRIVATE_KEY = ["service_account_signing_key", "kube_client_key"];

/**
 * `public_key_pem` of tls_public_key: Go's pem.EncodeToMemory of x509.MarshalPKIXPublicKey (the
 * SPKI DER), 64 base64 characters a line, "\n" line ends and a final "\n" (constructs/plan-time-input/public-half.ts).
 */
function tlsPublicKeyPem(privateKeyPem: string): string {
  const der = createPublicKey(privateKeyPem).export({ type: "spki", format: "der" }).toString("base64");
  return `-----BEGIN PUBLIC KEY-----\n${der.match(/.{1,64}/g)!.join("\n")}\n-----END PUBLIC KEY-----\n`;
}

/** One stack of a variables-mode deployment with every plan-time input; the issuer publishes `publicKey`. */
function synthesized(publicKeyFile: string): Record<string, any> {
  const loaded = loadInline(
    minimalConfig({
      serviceAccountSigningKey: { publicKeyFile },
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
  return synthStacks(loaded);
}

/** Every string in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** A case of a combined plan: the configuration it plans (checks, gated or key-pair) and its values, as TF_VAR_* (default) or in a -var-file. */
interface Case {
  readonly config: "checks" | "gated" | "key-pair";
  readonly values: Record<string, string>;
  readonly via?: "env" | "var-file";
}

interface Run {
  status: number | null;
  output: string;
  prose: string;
}

const prose = (output: string) => output.replace(/[│╷╵]/g, " ").replace(/\s+/g, " ");

(HAVE_TERRAFORM ? describe : describe.skip)("plan-time variables, checked by Terraform (needs terraform on PATH)", () => {
  let dir: string;
  let stacks: Record<string, any>;
  let config: Record<string, any>;
  /** Per variable, the one expression every consumer (provider, Secret, data source) gets in the synthesized stacks. */
  let gated: Map<string, string>;
  /** The signing key's tls_public_key data source, as synthesized. */
  let check: any;
  /** The configurations the cases plan. */
  const configs: Record<Case["config"], Record<string, any>> = { checks: {}, gated: {}, "key-pair": {} };
  /** The run of the cases that must pass, and of those that must be refused. */
  let passing: Run & { alone(name: string): Run };
  let refusing: Run & { alone(name: string): Run };

  beforeAll(() => {
    dir = tempDir("hcp-azure-vars-");
    const publicKeyFile = path.join(dir, "signer.public");
    fs.writeFileSync(publicKeyFile, publicKey);
    stacks = synthesized(publicKeyFile);
    const variable: Record<string, unknown> = {};
    const checks: Record<string, unknown> = {};
    for (const stack of Object.values(stacks)) {
      Object.assign(variable, stack.variable ?? {});
      for (const [name, resource] of Object.entries((stack.resource?.terraform_data ?? {}) as Record<string, any>)) {
        if (name.includes("_Check_")) checks[name] = { lifecycle: resource.lifecycle };
      }
    }
    config = { variable, resource: { terraform_data: checks } };
    configs.checks = config;
    // Variables only: no init needed.
    fs.mkdirSync(path.join(dir, "checks"));
    fs.writeFileSync(path.join(dir, "checks", "main.tf.json"), JSON.stringify(config, null, 2));

    gated = new Map();
    for (const text of Object.values(stacks).flatMap(strings)) {
      const match = /^\$\{([\s\S]*) \? var\.([a-z_]+) : ""\}$/.exec(text);
      if (!match) continue;
      const expression = text.slice(2, -1);
      expect({ variable: match[2], expression }).toEqual({ variable: match[2], expression: gated.get(match[2]) ?? expression });
      gated.set(match[2], expression);
    }
    // What each consumer gets, as outputs (without the checks, so that the plan runs to the end).
    const output = Object.fromEntries(
      [...gated].map(([name, expression]) => [
        name,
        { value: `\${nonsensitive(sensitive((${expression}) == var.${name} ? "the value" : (${expression}) == "" ? "nothing" : "something else"))}` },
      ]),
    );
    configs.gated = { variable: config.variable, output };

    const keys = Object.values(stacks["cluster-hc1"].data.tls_public_key as Record<string, any>);
    expect(keys).toHaveLength(1);
    check = keys[0];
    // The postcondition, as synthesized, on what tls_public_key would output (a variable here).
    const postcondition = check.lifecycle.postcondition[0];
    configs["key-pair"] = {
      variable: { tls_public_key_pem: { type: "string" } },
      resource: {
        terraform_data: {
          public_half: {
            lifecycle: {
              precondition: [
                {
                  condition: postcondition.condition.replaceAll("self.public_key_pem", "var.tls_public_key_pem"),
                  error_message: postcondition.error_message,
                },
              ],
            },
          },
        },
      },
    };

    const { kube_token: _token, ...withoutToken } = GOOD;
    const withClientCertificate = { ...withoutToken, kube_client_certificate: CERT, kube_client_key: pkcs8 };
    passing = planCases("passing", {
      good: { config: "checks", values: GOOD },
      pkcs8: { config: "checks", values: { ...withClientCertificate, service_account_signing_key: pkcs8 } },
      gated_good: { config: "gated", values: GOOD },
      gated_client_certificate: { config: "gated", values: withClientCertificate },
      gated_private_keys: { config: "gated", values: Object.fromEntries([...gated.keys()].map((name) => [name, LEAKED_KEY])) },
      key_pkcs1: { config: "key-pair", values: { tls_public_key_pem: tlsPublicKeyPem(pkcs1) } },
      key_pkcs8: { config: "key-pair", values: { tls_public_key_pem: tlsPublicKeyPem(pkcs8) } },
      key_crlf: {
        config: "key-pair",
        values: {
          tls_public_key_pem: tlsPublicKeyPem(pkcs1)
            .replace(/\n/g, "")
            .replace(/(.{76})/g, "$1\r\n"),
        },
      },
    });
    // A private key pasted into every variable: each copy names its variable in its first body line.
    const sentinel = (name: string) => LEAKED_KEY.replace("-----\n", `-----\nSENTINEL-${name}-SENTINEL\n`);
    const privateKeys = Object.fromEntries(Object.keys(config.variable).map((name) => [name, sentinel(name)]));
    refusing = planCases("refusing", {
      bad: {
        config: "checks",
        values: {
          pull_secret: JSON.stringify({ auths: {}, note: SENTINELS.pull }),
          service_account_signing_key: `${publicKey}${SENTINELS.key}`,
          ssh_public_key: "not-a-key",
          external_dns_credentials: JSON.stringify({ tenantId: SENTINELS.dns }),
          kube_host: "http://insecure.example.com",
          kube_cluster_ca_certificate: "not a certificate",
          kube_token: `Bearer ${SENTINELS.token}`,
          kube_client_certificate: "not a certificate",
          kube_client_key: SENTINELS.client,
        },
      },
      private_keys_env: { config: "checks", values: privateKeys, via: "env" },
      private_keys_var_file: { config: "checks", values: privateKeys, via: "var-file" },
      no_authentication: { config: "checks", values: withoutToken },
      another_key: { config: "key-pair", values: { tls_public_key_pem: tlsPublicKeyPem(other.privateKey) } },
    });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const SENTINELS = { pull: "LEAK-PULL-4711", key: "LEAK-KEY-4712", dns: "LEAK-DNS-4713", client: "LEAK-CLIENT-4714", token: "LEAK-TOKEN-4715" };

  /** `terraform plan` in `folder`, with `args` and `env` added. */
  function terraformPlan(folder: string, env: NodeJS.ProcessEnv, args: string[] = []): Run {
    const cwd = path.join(dir, folder);
    const run = spawnSync("terraform", ["plan", "-input=false", "-no-color", "-refresh=false", ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: dir, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    return { status: run.status, output, prose: prose(output) };
  }

  /**
   * One `terraform plan` of several cases in `folder`: their configurations combined (each case's
   * names prefixed `<case>__`), each case's values given as its `via` says (-var-file: HCL strings;
   * JSON's escapes \n, \", \\ are HCL's, and PEM and JSON values hold no template sequence).
   */
  function planCases(folder: string, cases: Record<string, Case>): Run & { alone(name: string): Run } {
    const cwd = path.join(dir, folder);
    fs.mkdirSync(cwd);
    const combined = combineCases(Object.fromEntries(Object.entries(cases).map(([name, c]) => [name, configs[c.config]])));
    fs.writeFileSync(path.join(cwd, "main.tf.json"), JSON.stringify(combined, null, 2));
    const env: NodeJS.ProcessEnv = {};
    const varFile: string[] = [];
    for (const [name, c] of Object.entries(cases)) {
      for (const [variable, value] of Object.entries(c.values)) {
        if (c.via === "var-file") varFile.push(`${name}__${variable} = ${JSON.stringify(value)}\n`);
        else env[`TF_VAR_${name}__${variable}`] = value;
      }
    }
    const file = path.join(cwd, "values.tfvars");
    if (varFile.length) fs.writeFileSync(file, varFile.join(""));
    const run = terraformPlan(folder, env, varFile.length ? [`-var-file=${file}`] : []);
    const names = Object.keys(cases);
    // Every error names one case's object: none comes from the combination itself.
    const errors = caseDiagnostics(run.output, names).filter((d) => /^[│ ]*Error/.test(d.text));
    expect(errors.filter((d) => d.case === undefined).map((d) => d.text)).toEqual([]);
    return {
      ...run,
      alone: (name) => {
        const output = caseOutput(run.output, names, name);
        return { status: run.status, output, prose: prose(output) };
      },
    };
  }

  /** `name`'s outputs in the passing run (`+ <name>__<variable> = "..."`), by variable. */
  function received(name: string): Record<string, string> {
    const outputs = [...passing.output.matchAll(/^\s*\+ ([a-z0-9_]+)__([a-z_]+)\s*=\s*"([^"]*)"$/gm)];
    return Object.fromEntries(outputs.filter((m) => m[1] === name).map((m) => [m[2], m[3]]));
  }

  const messages = () =>
    Object.values(config.resource.terraform_data as Record<string, any>).flatMap((r) => r.lifecycle.precondition.map((p: any) => p.error_message));

  it("declares every plan-time variable sensitive, without validation blocks, each checked by preconditions", () => {
    expect(Object.keys(config.variable).sort()).toEqual([...Object.keys(GOOD), "kube_client_certificate", "kube_client_key"].sort());
    for (const [name, block] of Object.entries(config.variable as Record<string, any>)) {
      // A failed validation block prints the value, even a sensitive one.
      expect({ name, sensitive: block.sensitive, validation: block.validation }).toEqual({ name, sensitive: true, validation: undefined });
    }
    const checked = Object.values(config.resource.terraform_data as Record<string, any>).map(
      (r) => r.lifecycle.precondition[0].condition.match(/var\.([a-z_]+)/)[1] as string,
    );
    expect(checked.sort()).toEqual(Object.keys(config.variable).sort());
  });

  // One run holds every case that must pass: each case shows no error of its own, and the run exits 0.
  it("plans every case that must pass with exit status 0", () => {
    expect(passing.output).not.toMatch(/Error/);
    expect(passing.status).toBe(0);
  });

  it("accepts good values (PKCS#1 key, token)", () => {
    expect(passing.alone("good").output).not.toMatch(/Error/);
    expect(passing.output).toMatch(/terraform_data\.good__\w+_Check_\w+ will be created/);
  });

  it("accepts a PKCS#8 signing key and client-certificate authentication instead of a token", () => {
    expect(passing.alone("pkcs8").output).not.toMatch(/Error/);
    expect(passing.output).toMatch(/terraform_data\.pkcs8__\w+_Check_\w+ will be created/);
  });

  it("rejects each bad value at plan with its message, and never prints a rejected secret", () => {
    const result = refusing.alone("bad");
    expect(result.status).toBe(1);
    const all = messages();
    expect(all).toHaveLength(11);
    // Every rule but two: a token is given (authentication holds), and the SSH key is no private key.
    const expected = all.filter((m) => !m.startsWith("Set kube_token") && !m.startsWith("The ssh_public_key holds a private key"));
    expect(expected).toHaveLength(9);
    for (const message of expected) expect(result.prose).toContain(message.replace(/\s+/g, " "));
    for (const message of all.filter((m) => !expected.includes(m))) expect(result.prose).not.toContain(message.replace(/\s+/g, " "));
    for (const sentinel of Object.values(SENTINELS)) expect(refusing.output).not.toContain(sentinel);
    expect(result.output).not.toContain("BEGIN PUBLIC KEY");
  });

  it.each(["env", "var-file"] as const)("refuses a private key given to any variable that does not take one, and prints it nowhere (values via %s)", (via) => {
    const result = refusing.alone(`private_keys_${via.replace("-", "_")}`);
    const names = Object.keys(config.variable);
    expect(result.status).toBe(1);
    // Nowhere in the whole run (both cases paste the same key).
    const printed = names.filter((name) => refusing.output.includes(`SENTINEL-${name}-`));
    const bodyLines = LEAKED_KEY.split("\n").filter((line) => /^[A-Za-z0-9+/=]{16,}$/.test(line));
    expect({ printed, bodyLines: bodyLines.filter((line) => refusing.output.includes(line)).length }).toEqual({ printed: [], bodyLines: 0 });
    expect(refusing.output).not.toContain("PRIVATE KEY-----");
    // Refused with its own message wherever a private key is wrong.
    for (const name of names.filter((n) => !TAKE_A_PRIVATE_KEY.includes(n))) {
      expect({ name, refused: result.prose.includes(`The ${name} `) }).toEqual({ name, refused: true });
    }
    // The SSH key: refused as a private key, not as a malformed line.
    expect(result.prose).toContain("The ssh_public_key holds a private key");
    expect(result.prose).not.toContain("The ssh_public_key must be one OpenSSH public key line");
  });

  it("requires a way to authenticate to the management cluster", () => {
    const result = refusing.alone("no_authentication");
    expect(result.status).toBe(1);
    expect(result.prose).toContain("Set kube_token, or both kube_client_certificate and kube_client_key");
  });

  it("requires every secret without a default (a run of its own: Terraform refuses it before it evaluates anything)", () => {
    const { pull_secret: _pull, ...rest } = GOOD;
    const result = terraformPlan("checks", Object.fromEntries(Object.entries(rest).map(([name, value]) => [`TF_VAR_${name}`, value])));
    expect(result.status).toBe(1);
    expect(result.prose).toMatch(/No value for required variable.*pull_secret/);
  });

  describe("a value that fails its rules reaches no provider and no resource", () => {
    it("the provider and every resource take the input only through it", () => {
      expect([...gated.keys()].sort()).toEqual(Object.keys(config.variable).sort());
      const management = stacks.management;
      const provider = management.provider.kubernetes[0];
      for (const [attribute, variable] of Object.entries({
        host: "kube_host",
        cluster_ca_certificate: "kube_cluster_ca_certificate",
        token: "kube_token",
        client_certificate: "kube_client_certificate",
        client_key: "kube_client_key",
      })) {
        expect({ attribute, value: provider[attribute] }).toEqual({ attribute, value: `\${${gated.get(variable)}}` });
      }
      // No other reference to a plan-time variable, but its checks and the signing key's public-half data source.
      // A write-only Secret's revision hashes the gated value: it may hold the gate's whole expression.
      const withoutGates = (text: string) => [...gated.values()].reduce((t, g) => t.split(g).join(""), text);
      const plain = Object.values(stacks)
        .flatMap((stack) =>
          strings({ ...stack, resource: { ...stack.resource, terraform_data: undefined }, data: { ...stack.data, tls_public_key: undefined } }),
        )
        .filter((text) => /\bvar\.[a-z_]+/.test(withoutGates(text)) && !/ \? var\.[a-z_]+ : ""\}$/.test(text));
      expect(plain).toEqual([]);
    });

    it("gives every consumer the value as set when it passes", () => {
      for (const name of ["gated_good", "gated_client_certificate"])
        expect({ name, errors: passing.alone(name).output.match(/Error.*/g) }).toEqual({ name, errors: null });
      expect(received("gated_good")).toEqual(Object.fromEntries([...gated.keys()].map((name) => [name, "the value"])));
      // Unset optional inputs stay null (the provider then uses the other way to authenticate).
      expect(received("gated_client_certificate")).toEqual(Object.fromEntries([...gated.keys()].map((name) => [name, "the value"])));
    });

    it("gives nothing to the consumers of a private key pasted where none belongs", () => {
      expect(passing.alone("gated_private_keys").output.match(/Error.*/g)).toEqual(null);
      expect(received("gated_private_keys")).toEqual(
        Object.fromEntries([...gated.keys()].map((name) => [name, TAKE_A_PRIVATE_KEY.includes(name) ? "the value" : "nothing"])),
      );
    });
  });

  describe("the signing key is the private half of the published key (tls_public_key, planned with node:crypto's public key)", () => {
    it("is synthesized as a tls_public_key of the variable, read only when its rules hold, compared with the published key", () => {
      expect(check.private_key_pem).toBe("${var.service_account_signing_key}");
      expect(check.count).toBe(
        `\${nonsensitive(sensitive((${config.resource.terraform_data[Object.keys(config.resource.terraform_data).find((n) => n.startsWith("SigningKeyInput"))!].lifecycle.precondition[0].condition.slice(2, -1)}))) ? 1 : 0}`,
      );
      const postcondition = check.lifecycle.postcondition;
      expect(postcondition).toHaveLength(1);
      // Only the derived public key is compared (never the private key), with the published key's DER.
      expect(postcondition[0].condition.match(/\b(self|var)\.[a-z_]+/g)).toEqual(["self.public_key_pem"]);
      expect(postcondition[0].condition).toContain(createPublicKey(publicKey).export({ type: "spki", format: "der" }).toString("base64"));
      expect(postcondition[0].error_message).toMatch(/^The service_account_signing_key is not the private half of serviceAccountSigningKey\.publicKeyFile/);
    });

    it.each([
      ["the published key's private half, PKCS#1", "key_pkcs1"],
      ["the published key's private half, PKCS#8", "key_pkcs8"],
      ["any line width and CRLF line ends", "key_crlf"],
    ])("accepts %s", (_name, name) => {
      expect(passing.alone(name).output.match(/Error.*/g)).toEqual(null);
      expect(passing.output).toContain(`terraform_data.${name}__public_half will be created`);
    });

    it("refuses another key's, naming the variable and the fix, without the private key", () => {
      const result = refusing.alone("another_key");
      expect(result.status).toBe(1);
      expect(result.prose).toContain(check.lifecycle.postcondition[0].error_message);
      // Terraform shows the public key it compared (public); never a private key.
      expect(result.output).not.toContain("PRIVATE KEY");
      for (const line of other.privateKey.split("\n").filter((l) => /^[A-Za-z0-9+/=]{16,}$/.test(l))) expect(refusing.output).not.toContain(line);
    });
  });
});
