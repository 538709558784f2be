import { createPrivateKey } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { loadConfigFile, LoadedConfig } from "../config/load";
import { DEFAULT_CONFIG, main } from "../main";
import { synthesize } from "../stacks/app";
import { EXAMPLES, recordingReads, REPO, rsaKeyPair, tempDir, tree } from "./helpers";
import { scanCommittedFiles } from "./secret-scan";

function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

let basic: { outdir: string; files: Record<string, string>; result: ReturnType<typeof run> } | undefined;
/**
 * One synth of examples/basic.yaml into a folder of its own, shared by the tests that need a first
 * synth of it (its files, by path, and what it printed) or an existing output (each gets a copy).
 */
function basicOutput(): NonNullable<typeof basic> {
  if (!basic) {
    const outdir = path.join(tempDir(), "cdktf.out");
    const result = run([path.join(EXAMPLES, "basic.yaml")], { CDKTF_OUTDIR: outdir });
    expect(result.code).toBe(0);
    basic = { outdir, files: tree(outdir), result };
  }
  return basic;
}

/** Puts at `outdir` an output as a synth of examples/basic.yaml left it (a copy of basicOutput's). */
function existingOutput(outdir: string): void {
  fs.cpSync(basicOutput().outdir, outdir, { recursive: true });
}

describe("npm run synth (main)", () => {
  let work: string;
  beforeEach(() => (work = tempDir()));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  it("an output folder that cannot be written is a message, not a stack trace", () => {
    const file = path.join(work, "not-a-folder");
    fs.writeFileSync(file, "x");
    const result = run([path.join(EXAMPLES, "basic.yaml")], { CDKTF_OUTDIR: file });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^cannot write the output folder .*not-a-folder: .* is not a folder: the output folder must be a folder \(or absent\); set CDKTF_OUTDIR to a folder\nthe previous output was not replaced\.$/,
    );
    expect(fs.readFileSync(file, "utf8")).toBe("x");
  });

  it("synthesizes the bundled example by default into CDKTF_OUTDIR and prints a summary", () => {
    const outdir = path.join(work, "out");
    // The default config path is relative to the working directory: the project root, where npm
    // test runs jest (a worker thread cannot chdir for fs).
    expect(fs.realpathSync(".")).toBe(fs.realpathSync(REPO));
    const result = run([], { CDKTF_OUTDIR: outdir });
    expect(result.code).toBe(0);
    expect(result.out).toContain(`synthesized ${DEFAULT_CONFIG}`);
    expect(result.out).toMatch(/shared\s+5 resources, 2 data sources, 3 outputs/);
    // 8 identities (the control-plane operator by default) and 13 federated credentials.
    expect(result.out).toMatch(/identities-myprefix-hc\s+21 resources, 0 data sources, 2 outputs/);
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
    expect(Object.keys(manifest.stacks).sort()).toEqual(["cluster-myprefix-hc", "identities-myprefix-hc", "infra-myprefix-hc", "management", "shared"]);
    expect(fs.existsSync(path.join(outdir, "stacks", "shared", "cdk.tf.json"))).toBe(true);
  });

  it("takes the config from HCP_AZURE_CONFIG when no argument is given", () => {
    const result = run([], { CDKTF_OUTDIR: path.join(work, "out"), HCP_AZURE_CONFIG: path.join(EXAMPLES, "isolated-clusters.yaml") });
    expect(result.code).toBe(0);
    expect(result.out).toContain("identities-team-b");
  });

  it("on config errors exits 1, reports every issue and leaves an existing output untouched", () => {
    const outdir = path.join(work, "cdktf.out");
    existingOutput(outdir);
    fs.writeFileSync(path.join(outdir, "stacks", "shared", ".terraform.lock.hcl"), "# terraform's file\n");
    const before = tree(outdir);
    const bad = path.join(work, "bad.yaml");
    fs.writeFileSync(bad, "prefix: Bad_Prefix\nsubscriptionId: nope\nlocation: East US\nclusters: []\n");
    const result = run([bad], { CDKTF_OUTDIR: outdir });
    expect(result.code).toBe(1);
    expect(result.err).toContain(`config error(s) in ${bad}:`);
    for (const field of ["prefix", "subscriptionId", "tenantId", "location", "clusters"]) expect(result.err).toMatch(new RegExp(`^  ${field}: `, "m"));
    expect(result.err).toContain("nothing was written");
    expect(tree(outdir)).toEqual(before);
    expect(fs.readdirSync(work).sort()).toEqual(["bad.yaml", "cdktf.out"]); // no scratch folder left
  });

  it("an error during synthesis leaves the existing output untouched and no scratch folder", () => {
    const outdir = path.join(work, "cdktf.out");
    const loaded = loadConfigFile(path.join(EXAMPLES, "basic.yaml")) as LoadedConfig;
    existingOutput(outdir);
    const before = tree(outdir);
    // A construct invariant failing mid-synth (here: no public key for the issuer).
    const broken: LoadedConfig = { ...loaded, publicKeys: new Map() };
    expect(() => synthesize(broken, outdir)).toThrow();
    expect(tree(outdir)).toEqual(before);
    expect(fs.readdirSync(work)).toEqual(["cdktf.out"]);
  });

  it("keeps Terraform's files in the output folder across synths", () => {
    const outdir = path.join(work, "cdktf.out");
    existingOutput(outdir);
    const lock = path.join(outdir, "stacks", "shared", ".terraform.lock.hcl");
    fs.writeFileSync(lock, "# lock\n");
    expect(run([path.join(EXAMPLES, "basic.yaml")], { CDKTF_OUTDIR: outdir }).code).toBe(0);
    expect(fs.readFileSync(lock, "utf8")).toBe("# lock\n");
  });

  it.each(["basic.yaml", "isolated-clusters.yaml", "external-dns.yaml"])("is deterministic: two synths of %s are byte-identical", (example) => {
    // Two synths into new folders at the same depth (the output's relative paths depend on it);
    // basic.yaml's first is the one the tests above share.
    let first = basicOutput().files;
    if (example !== "basic.yaml") {
      const firstOutdir = path.join(tempDir(), "cdktf.out");
      run([path.join(EXAMPLES, example)], { CDKTF_OUTDIR: firstOutdir });
      first = tree(firstOutdir);
      fs.rmSync(path.dirname(firstOutdir), { recursive: true });
    }
    const outdir = path.join(work, "cdktf.out");
    run([path.join(EXAMPLES, example)], { CDKTF_OUTDIR: outdir });
    expect(tree(outdir)).toEqual(first);
    expect(Object.keys(first).length).toBeGreaterThan(2);
  });

  it("prints usage for --help and rejects extra arguments", () => {
    expect(run(["--help"]).code).toBe(0);
    const extra = run(["a.yaml", "b.yaml"]);
    expect(extra.code).toBe(2);
    expect(extra.err).toContain("usage:");
  });
});

describe("under the cdktf CLI (CDKTF_CONTEXT_JSON set)", () => {
  let work: string;
  beforeEach(() => (work = tempDir()));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));
  const CLI = { CDKTF_CONTEXT_JSON: "{}" };

  it("refuses to guess the config: without HCP_AZURE_CONFIG it writes nothing and says what to set", () => {
    const outdir = path.join(work, "out");
    // Where the bundled example would be found (the project root, where npm test runs jest).
    expect(fs.existsSync(DEFAULT_CONFIG)).toBe(true);
    const result = run([], { ...CLI, CDKTF_OUTDIR: outdir });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^HCP_AZURE_CONFIG is not set: the cdktf CLI synthesizes the config it names/);
    expect(result.err).toContain("nothing was written.");
    expect(fs.existsSync(outdir)).toBe(false);
  });

  it("prints warnings on stdout (cdktf shows the app's stderr as [ERROR]) and no npm deploy hint", () => {
    // A copy of the example: under the CLI synth writes the record of protected resources beside
    // the local state, which must not land in the repository's examples/.
    for (const folder of ["keys", "operator"]) fs.cpSync(path.join(EXAMPLES, folder), path.join(work, folder), { recursive: true });
    fs.copyFileSync(path.join(EXAMPLES, "basic.yaml"), path.join(work, "basic.yaml"));
    const result = run([], { ...CLI, CDKTF_OUTDIR: path.join(work, "out"), HCP_AZURE_CONFIG: path.join(work, "basic.yaml") });
    expect(result.code).toBe(0);
    expect(result.err).toBe("");
    expect(result.out).toMatch(/^warning: management: the operator bundle is an abridged example/m);
    expect(result.out).not.toContain("deploy: HCP_AZURE_CONFIG=");
    expect(fs.readdirSync(path.join(work, "terraform-state"), { recursive: true })).toContain(
      path.join("00000000-0000-0000-0000-000000000000", "myprefix", "protected-resources.lock"),
    );
    // Outside the CLI, the same warnings go to stderr.
    const plain = basicOutput().result;
    expect(plain.err).toMatch(/^warning: management: the operator bundle is an abridged example/m);
  });
});

describe("secret files in files mode", () => {
  let work: string;
  beforeEach(() => {
    work = tempDir();
    fs.copyFileSync(path.join(EXAMPLES, "keys", "example-signer.public"), path.join(work, "signer.public"));
    fs.copyFileSync(path.join(EXAMPLES, "operator", "hypershift-operator.yaml"), path.join(work, "bundle.yaml"));
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  const write = (extra: string[] = []) => {
    const config = path.join(work, "dev.yaml");
    fs.writeFileSync(
      config,
      [
        "prefix: dev",
        "subscriptionId: 00000000-0000-0000-0000-000000000000",
        "tenantId: 11111111-1111-1111-1111-111111111111",
        "location: eastus",
        "serviceAccountSigningKey: {publicKeyFile: signer.public}",
        "clusters: [{name: hc1, hostedCluster: {releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64', baseDomain: example.com, publicZone: {resourceGroupName: dns-rg}, pullSecretFile: pull-secret.json, nodePools: [{name: hc1}]}}]",
        "managementCluster: {operator: {bundleFile: bundle.yaml}}",
        ...extra,
      ].join("\n"),
    );
    return config;
  };

  it("a missing pull secret or signing key is an error before anything is written (deploy would stop half-way)", () => {
    const outdir = path.join(work, "out");
    const result = run([write()], { CDKTF_OUTDIR: outdir });
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      `  clusters[0].hostedCluster.pullSecretFile: "${path.join(work, "pull-secret.json")}" does not exist; Terraform reads it when it plans cluster-hc1`,
    );
    expect(result.err).toContain(`  serviceAccountSigningKey.privateKeyFile: "${path.join(work, "signer.private")}" does not exist`);
    expect(result.err).toContain("nothing was written.");
    expect(fs.existsSync(outdir)).toBe(false);
  });

  it("synthesizes once the files exist, or when they exist only where Terraform runs", () => {
    expect(run([write(["secrets: {filesOnlyWhereTerraformRuns: true}"])], { CDKTF_OUTDIR: path.join(work, "a") }).code).toBe(0);
    // Files that are what they claim: a pull secret with auths, the private half of signer.public.
    const { privateKey, publicKey } = rsaKeyPair();
    fs.writeFileSync(path.join(work, "signer.public"), publicKey);
    fs.writeFileSync(path.join(work, "pull-secret.json"), '{"auths":{"r":{"auth":"eDp5"}}}', { mode: 0o600 });
    fs.writeFileSync(path.join(work, "signer.private"), privateKey, { mode: 0o600 });
    expect(run([write()], { CDKTF_OUTDIR: path.join(work, "b") }).code).toBe(0);
  });
});

describe("secrets never reach synthesized output", () => {
  it("files mode: synth reads the private key only to check it against the public key; no private key material appears in cdktf.out", () => {
    const work = tempDir();
    try {
      const { privateKey, publicKey } = rsaKeyPair();
      fs.writeFileSync(path.join(work, "serviceaccount-signer.public"), publicKey);
      fs.writeFileSync(path.join(work, "serviceaccount-signer.private"), privateKey, { mode: 0o600 });
      fs.writeFileSync(path.join(work, "pull-secret.json"), '{"auths":{"r":{"auth":"eDp5"}}}', { mode: 0o600 });
      const config = path.join(work, "config.yaml");
      fs.writeFileSync(
        config,
        [
          "prefix: sec",
          "subscriptionId: 00000000-0000-0000-0000-000000000000",
          "tenantId: 11111111-1111-1111-1111-111111111111",
          "location: eastus",
          "serviceAccountSigningKey: {publicKeyFile: serviceaccount-signer.public}",
          // A hosted cluster: its stack puts the private key into a Secret, read at plan time only.
          "clusters: [{name: hc1, hostedCluster: {releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64', baseDomain: example.com, publicZone: {resourceGroupName: dns-rg}, pullSecretFile: pull-secret.json, nodePools: [{name: hc1}]}}]",
          "managementCluster: {operator: {bundleFile: bundle.yaml}}",
        ].join("\n"),
      );
      fs.copyFileSync(path.join(EXAMPLES, "operator", "hypershift-operator.yaml"), path.join(work, "bundle.yaml"));
      const { result: code, reads } = recordingReads(() => run([config], { CDKTF_OUTDIR: path.join(work, "out") }).code);
      expect(code).toBe(0);
      expect(reads).toContain(path.join(work, "serviceaccount-signer.public"));
      // Files mode: read once at synth to check it is the private half of the published key
      // (issue 21); never written anywhere (below). Variables mode never reads it (secret-files.test.ts).
      expect(reads.filter((f) => f.endsWith(".private"))).toEqual([path.join(work, "serviceaccount-signer.private")]);
      expect(fs.readFileSync(path.join(work, "out", "stacks", "cluster-hc1", "cdk.tf.json"), "utf8")).toContain(
        'file(\\"../../../serviceaccount-signer.private\\")',
      );

      // The PEM body also encodes the public modulus (which the JWKS publishes), so look for the
      // secret parts: private exponent and primes, in base64url and in standard base64.
      const jwk = createPrivateKey(privateKey).export({ format: "jwk" });
      const secrets = [jwk.d, jwk.p, jwk.q, jwk.dp, jwk.dq, jwk.qi].flatMap((value) => {
        const b64 = Buffer.from(value as string, "base64url").toString("base64");
        return [(value as string).slice(8, 48), b64.slice(8, 48)];
      });
      for (const file of Object.keys(tree(path.join(work, "out")))) {
        const text = fs.readFileSync(path.join(work, "out", file), "utf8");
        expect(text).not.toMatch(/PRIVATE KEY/);
        for (const secret of secrets) expect(text).not.toContain(secret);
      }
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("files mode: synth reads the secret files only to check them, and their contents never reach cdktf.out or its messages", () => {
    const work = tempDir();
    try {
      const { publicKey, privateKey } = rsaKeyPair();
      fs.writeFileSync(path.join(work, "signer.public"), publicKey);
      fs.writeFileSync(path.join(work, "signer.private"), privateKey, { mode: 0o600 });
      const pullSecret = JSON.stringify({ auths: { "registry.redhat.io": { auth: "cHVsbC1zZWNyZXQtc2VudGluZWwtNzc3" } } });
      const azureMgmt = JSON.stringify({
        tenantId: "t",
        subscriptionId: "s",
        resourceGroup: "r",
        aadClientId: "x",
        aadClientSecret: "azure-mgmt-sentinel-Q8~secret",
      });
      fs.writeFileSync(path.join(work, "pull-secret.json"), pullSecret, { mode: 0o600 });
      fs.writeFileSync(path.join(work, "azure_mgmt.json"), azureMgmt, { mode: 0o600 });
      fs.copyFileSync(path.join(EXAMPLES, "operator", "hypershift-operator-external-dns.yaml"), path.join(work, "bundle.yaml"));
      const config = path.join(work, "config.yaml");
      fs.writeFileSync(
        config,
        [
          "prefix: myprefix",
          "subscriptionId: 00000000-0000-0000-0000-000000000000",
          "tenantId: 11111111-1111-1111-1111-111111111111",
          "location: eastus",
          "serviceAccountSigningKey: {publicKeyFile: signer.public}",
          "clusters: [{name: hc1, hostedCluster: {releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64', baseDomain: example.com, publicZone: {resourceGroupName: dns-rg}, pullSecretFile: pull-secret.json, nodePools: [{name: hc1}]}}]",
          "dns: {parent: {zoneName: example.com, resourceGroupName: dns-rg}}",
          "externalDns: {}",
          "managementCluster: {operator: {bundleFile: bundle.yaml}, pullSecretFile: pull-secret.json, externalDnsCredentialsFile: azure_mgmt.json}",
        ].join("\n"),
      );
      const { result, reads } = recordingReads(() => run([config], { CDKTF_OUTDIR: path.join(work, "out") }));
      expect(result.code).toBe(0);
      expect(reads).toContain(path.join(work, "bundle.yaml"));
      for (const line of [result.out, result.err]) {
        expect(line).not.toContain("cHVsbC1zZWNyZXQtc2VudGluZWwtNzc3");
        expect(line).not.toContain("azure-mgmt-sentinel");
      }
      const files = Object.keys(tree(path.join(work, "out")));
      expect(files).toEqual(expect.arrayContaining([path.join("stacks", "management", "cdk.tf.json"), path.join("stacks", "cluster-hc1", "cdk.tf.json")]));
      for (const file of files) {
        const text = fs.readFileSync(path.join(work, "out", file), "utf8");
        expect(text).not.toContain("cHVsbC1zZWNyZXQtc2VudGluZWwtNzc3");
        expect(text).not.toContain("azure-mgmt-sentinel");
        // The ExternalDNS client secret is only ever a reference to Terraform state.
        expect(text).not.toMatch(/aadClientSecret\\?"\s*:\s*\\?"/);
      }
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("no snapshot, example or committed file holds a private key or client secret", () => {
    const { scanned, findings } = scanCommittedFiles(REPO);
    expect(findings.filter((f) => f.privateKey || f.secret)).toEqual([]);
    expect(scanned).toContain(path.join("__tests__", "stacks", "__snapshots__", "stacks.test.ts.snap"));
  });
});
