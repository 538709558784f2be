import { TlsProvider } from "@cdktf/provider-tls/lib/provider";
import { TerraformOutput, TerraformStack, Testing } from "cdktf";
import { spawnSync } from "node:child_process";
import { createPublicKey, generateKeyPairSync, KeyObject } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { kubernetesInputs, PlanTimeInputSpec, pullSecretInput, signingKeyInput, sshPublicKeyInput } from "../../config/plan-time-inputs";
import { PlanTimeInput, PlanTimeInputProps } from "../../constructs/plan-time-input/plan-time-input";
import { pemBody, publicKeyMatches } from "../../constructs/plan-time-input/public-half";
import { HAVE_TERRAFORM, rsaKeyPair, tempDir } from "../helpers";

/** Synthesizes one input whose value an output uses, as a stack's resources would. */
function synth(props: PlanTimeInputProps, id = "PullSecretInput") {
  const stack = new TerraformStack(Testing.app(), "s");
  new TlsProvider(stack, "tls");
  const input = new PlanTimeInput(stack, id, props);
  new TerraformOutput(stack, "value", { value: input.value, sensitive: true });
  const json = JSON.parse(Testing.synth(stack));
  return { input, json, value: json.output.value.value as string };
}

/** `terraform plan` of a configuration of variables and built-in resources only (no init needed). */
function plan(config: unknown, values: Record<string, string>) {
  const dir = tempDir("hcp-azure-input-");
  try {
    // One line per attribute: the source snippet of a diagnostic shows only its line, not the messages of other checks.
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(config, null, 2));
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
    for (const [name, value] of Object.entries(values)) env[`TF_VAR_${name}`] = value;
    const run = spawnSync("terraform", ["plan", "-input=false", "-no-color"], { cwd: dir, env, encoding: "utf8", timeout: 60_000 });
    const output = `${run.stdout}${run.stderr}`;
    return { status: run.status, output, prose: output.replace(/[│╷╵]/g, " ").replace(/\s+/g, " ") };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An OpenSSH public key line (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4) of a Node key. */
function opensshLine(type: string, key: KeyObject, blobType = type): string {
  const string = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, 0].map((_, i) => (b.length >>> (8 * (3 - i))) & 0xff)), b]);
  const mpint = (b: Buffer) => string(b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
  const jwk = key.export({ format: "jwk" });
  const field = (s: string | undefined) => Buffer.from(s as string, "base64url");
  const name = string(Buffer.from(blobType));
  const blob =
    type === "ssh-rsa"
      ? Buffer.concat([name, mpint(field(jwk.e)), mpint(field(jwk.n))])
      : type === "ssh-ed25519"
        ? Buffer.concat([name, string(field(jwk.x))])
        : Buffer.concat([name, string(Buffer.from(type.slice("ecdsa-sha2-".length))), string(Buffer.concat([Buffer.from([4]), field(jwk.x), field(jwk.y)]))]);
  return `${type} ${blob.toString("base64")} core@example`;
}

describe("PlanTimeInput", () => {
  const pull = pullSecretInput("the HostedCluster hc1", "clusters[0].hostedCluster.pullSecretFile", "pull-secret.json");

  it("files mode: the value is file() of the path, sensitive for a secret; no variable, no check", () => {
    const { input, json, value } = synth({ spec: pull, source: "files", file: "../../../pull-secret.json" });
    expect(value).toBe('${sensitive(file("../../../pull-secret.json"))}');
    expect(input.variable).toBeUndefined();
    expect(input.check).toBeUndefined();
    expect(input.file).toBe("../../../pull-secret.json");
    expect(json.variable).toBeUndefined();
    expect(json.resource).toBeUndefined();
    expect(synth({ spec: sshPublicKeyInput("hc1", "k", "id.pub"), source: "files", file: "id.pub" }, "Ssh").value).toBe('${sensitive(file("id.pub"))}');
  });

  it("files mode: any path reaches file() as a literal (quotes, backslashes, templates)", () => {
    expect(synth({ spec: pull, source: "files", file: 'a"b\\c${d}.json' }).value).toBe('${sensitive(file("a\\"b\\\\c$${d}.json"))}');
  });

  it("variables mode: a sensitive variable named by the spec (never a derived logical ID), checked by preconditions, the value only when they hold", () => {
    const { json, value } = synth({ spec: pull, source: "variables" });
    const condition = pull.validations[0].condition;
    expect(value).toBe(`\${(${condition}) ? var.pull_secret : ""}`);
    expect(Object.keys(json.variable)).toEqual(["pull_secret"]);
    // No validation block: Terraform prints the value a failed one tested, even a sensitive one.
    expect(json.variable.pull_secret).toEqual({ type: "string", description: pull.description, sensitive: true, nullable: false });
    const checks = Object.values(json.resource.terraform_data as Record<string, any>);
    expect(checks).toEqual([{ lifecycle: { precondition: [{ condition: `\${${condition}}`, error_message: pull.validations[0].errorMessage }] } }]);
    expect(json.data).toBeUndefined();
  });

  it("every rule of every input is a precondition joined into the value's condition", () => {
    const token = kubernetesInputs().find((s) => s.variable === "kube_token")!;
    const { json, value } = synth({ spec: token, source: "variables" }, "Token");
    expect(token.validations).toHaveLength(2);
    expect(value).toBe(`\${${token.validations.map((v) => `(${v.condition})`).join(" && ")} ? var.kube_token : ""}`);
    expect(Object.values(json.resource.terraform_data as Record<string, any>)[0].lifecycle.precondition).toHaveLength(2);
  });

  it("every input of the catalogue is sensitive and has rules", () => {
    const catalogue = [pull, signingKeyInput("c", "k", "f"), sshPublicKeyInput("c", "k", "f"), ...kubernetesInputs()];
    expect(catalogue.map((s) => ({ variable: s.variable, sensitive: s.sensitive, rules: s.validations.length > 0 }))).toEqual(
      catalogue.map((s) => ({ variable: s.variable, sensitive: true, rules: true })),
    );
  });

  it("refuses rules on a variable that is not sensitive; one without rules is the plain variable", () => {
    const host = kubernetesInputs().find((s) => s.variable === "kube_host")!;
    expect(() => synth({ spec: { ...host, sensitive: false }, source: "variables" }, "Host")).toThrow(
      /PlanTimeInput Host: kube_host has rules, so it must be sensitive \(Terraform prints a non-sensitive value its failed check tested\)/,
    );
    const plain: PlanTimeInputSpec = { variable: "region_hint", sensitive: false, description: "d", validations: [] };
    const { json, value } = synth({ spec: plain, source: "variables" }, "Plain");
    expect(value).toBe("${var.region_hint}");
    expect(json.variable.region_hint).toEqual({ type: "string", description: "d", nullable: false });
    expect(json.resource).toBeUndefined();
  });

  it("an optional variable defaults to null and is nullable", () => {
    const token = kubernetesInputs().find((s) => s.variable === "kube_token")!;
    const { json } = synth({ spec: token, source: "variables" }, "Token");
    expect(json.variable.kube_token).toMatchObject({ default: null, nullable: true, sensitive: true });
  });

  it("config text in the description stays as written: Terraform reads descriptions as plain text", () => {
    const spec = pullSecretInput("x", "k", 'secrets/${file("/etc/passwd")}%{if true}.json');
    const { json } = synth({ spec, source: "variables" });
    expect(json.variable.pull_secret.description).toContain('secrets/${file("/etc/passwd")}%{if true}.json');
    if (!HAVE_TERRAFORM) return; // the proof below needs terraform
    // Terraform plans it without evaluating the description (a template there would fail: no file, bad directive).
    const run = plan({ variable: json.variable }, { pull_secret: '{"auths":{"r":{}}}' });
    expect({ status: run.status, output: run.status === 0 ? "" : run.output }).toEqual({ status: 0, output: "" });
  });

  it("refuses a bad variable name and files mode without a file", () => {
    expect(() => synth({ spec: { ...pull, variable: "Pull-Secret" }, source: "variables" })).toThrow(/lower snake case/);
    expect(() => synth({ spec: pull, source: "files" })).toThrow(/files mode needs the file Terraform reads \(pull_secret\)/);
  });

  describe("a private key with a known public half (the signing key)", () => {
    const { publicKey } = rsaKeyPair();
    const spec = signingKeyInput("hc1", "serviceAccountSigningKey", "keys/signer.private", publicKey);

    it("variables mode: tls_public_key of the variable, read only when its rules hold, its public key compared with the published one", () => {
      const { input, json } = synth({ spec, source: "variables" }, "SigningKeyInput");
      expect(input.publicHalf).toBeDefined();
      const [data] = Object.values(json.data.tls_public_key as Record<string, any>);
      const holds = `(${spec.validations[0].condition})`;
      expect(data).toEqual({
        count: `\${nonsensitive(sensitive(${holds})) ? 1 : 0}`,
        private_key_pem: "${var.service_account_signing_key}",
        lifecycle: {
          postcondition: [{ condition: `\${${publicKeyMatches("self.public_key_pem", publicKey)}}`, error_message: spec.publicHalf!.errorMessage }],
        },
      });
      const body = createPublicKey(publicKey).export({ type: "spki", format: "der" }).toString("base64");
      expect(publicKeyMatches("self.public_key_pem", publicKey)).toBe(`replace(self.public_key_pem, "/-----[A-Z0-9 ]+-----|\\\\s/", "") == "${body}"`);
      // The message names the variable, the key and the fix; it holds no key material.
      expect(spec.publicHalf!.errorMessage).toMatch(
        /^The service_account_signing_key is not the private half of serviceAccountSigningKey\.publicKeyFile.*npm run keygen/,
      );
      expect(spec.publicHalf!.errorMessage).not.toMatch(/-----|MII/);
    });

    it("files mode and a spec without a public half: no data source", () => {
      expect(synth({ spec, source: "files", file: "k.private" }, "SigningKeyInput").json.data).toBeUndefined();
      expect(synth({ spec: signingKeyInput("hc1", "k", "f"), source: "variables" }, "SigningKeyInput").json.data).toBeUndefined();
    });

    it("compares the base64 of the SPKI DER: only an SPKI PEM is accepted as the published key", () => {
      expect(pemBody("-----BEGIN PUBLIC KEY-----\r\nAB CD\r\nEF==\n-----END PUBLIC KEY-----\n")).toBe("ABCDEF==");
      const pkcs1Public = createPublicKey(publicKey).export({ type: "pkcs1", format: "pem" }).toString();
      expect(() => publicKeyMatches("x", pkcs1Public)).toThrow(/must be SPKI PEM/);
      expect(() => publicKeyMatches("x", "-----BEGIN PUBLIC KEY-----\n${x}\n-----END PUBLIC KEY-----\n")).toThrow(/not base64/);
    });
  });

  (HAVE_TERRAFORM ? describe : describe.skip)("ssh_public_key rules, evaluated by Terraform", () => {
    const ssh = sshPublicKeyInput("hc1", "k", "id.pub");
    /**
     * One configuration with a copy of the variable and its check per case: each case's messages
     * are prefixed with its name, so one plan shows which rule refused which case.
     */
    function check(cases: Record<string, string>) {
      const variable: Record<string, unknown> = {};
      const checks: Record<string, unknown> = {};
      const values: Record<string, string> = {};
      Object.entries(cases).forEach(([name, value], i) => {
        variable[`case_${i}`] = { type: "string", sensitive: true };
        values[`case_${i}`] = value;
        checks[`case_${i}`] = {
          lifecycle: {
            precondition: ssh.validations.map((v) => ({
              condition: `\${${v.condition.replaceAll("var.ssh_public_key", `var.case_${i}`)}}`,
              error_message: `[${name}] ${v.errorMessage}`,
            })),
          },
        };
      });
      const result = plan({ variable, resource: { terraform_data: checks } }, values);
      return Object.fromEntries(
        Object.keys(cases).map((name) => {
          const refusals = ssh.validations.filter((v) => result.prose.includes(`[${name}] ${v.errorMessage}`.replace(/\s+/g, " ")));
          return [name, refusals.map((v) => (v === ssh.validations[0] ? "private key" : "not a public key line")).join(", ") || "accepted"];
        }),
      );
    }

    it("accepts a public key line of each type, and refuses private keys, other lines and mismatched types", () => {
      const ed25519 = generateKeyPairSync("ed25519");
      const keys: Record<string, KeyObject> = {
        "ssh-rsa": createPublicKey(rsaKeyPair().privateKey),
        "ssh-ed25519": ed25519.publicKey,
        "ecdsa-sha2-nistp256": generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey,
        "ecdsa-sha2-nistp384": generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey,
        "ecdsa-sha2-nistp521": generateKeyPairSync("ec", { namedCurve: "P-521" }).publicKey,
      };
      const good = Object.fromEntries(Object.entries(keys).map(([type, key]) => [type, `${opensshLine(type, key)}\n`]));
      const rsaLine = opensshLine("ssh-rsa", keys["ssh-rsa"]);
      const result = check({
        ...good,
        "no comment": rsaLine.replace(/ core@example$/, ""),
        "PEM private key": rsaKeyPair().privateKey,
        "OpenSSH private key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----\n",
        "PuTTY private key": "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n",
        "the ed25519 key named ssh-rsa": `ssh-rsa ${opensshLine("ssh-ed25519", keys["ssh-ed25519"]).split(" ")[1]}`,
        "a truncated key": "ssh-rsa AAAAB3NzaC1y",
        "two keys": `${rsaLine}\n${good["ssh-ed25519"]}`,
        "a fingerprint": "SHA256:vapAeNVytBbev73oDdsZ2n9qze4oCHMR+nSbzD3O44w",
        "a PEM public key": rsaKeyPair().publicKey,
      });
      expect(result).toEqual({
        ...Object.fromEntries(Object.keys(good).map((type) => [type, "accepted"])),
        "no comment": "accepted",
        "PEM private key": "private key",
        "OpenSSH private key": "private key",
        "PuTTY private key": "private key",
        "the ed25519 key named ssh-rsa": "not a public key line",
        "a truncated key": "not a public key line",
        "two keys": "not a public key line",
        "a fingerprint": "not a public key line",
        "a PEM public key": "not a public key line",
      });
    });
  });
});
