import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { fleetCapacity, fleetCollisions, Stamp } from "../../config/fleet";
import { loadConfigFile } from "../../config/load";
import { main } from "../../main";
import { fleet, FLEET_WORKSPACES, SynthRunner } from "../../scripts/fleet";
import { EXAMPLES, hostedClusterSpec, minimalConfig, tree } from "../helpers";
import { tempDir } from "../temp-dir";

/** A stamp config: `prefix`, clusters named `<cluster>` or `<cluster>1..n`, an azurerm backend and a kubeconfig. */
function stampConfig(prefix: string, options: { clusters?: string[]; keyPrefix?: string; kubeconfig?: string; context?: string } = {}) {
  return minimalConfig({
    prefix,
    serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") },
    backend: { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate", keyPrefix: options.keyPrefix },
    managementCluster: {
      kubeconfig: { path: options.kubeconfig ?? "~/.kube/mgmt", ...(options.context ? { context: options.context } : {}) },
      operator: { bundleFile: path.join(EXAMPLES, "operator/hypershift-operator.yaml") },
    },
    secrets: { filesOnlyWhereTerraformRuns: true },
    clusters: (options.clusters ?? ["hc1"]).map((name) => ({ name, hostedCluster: hostedClusterSpec() })),
  });
}

/** Writes each config as `<dir>/<name>.yaml`; returns the files. */
function writeStamps(dir: string, configs: Record<string, object>): string[] {
  return Object.entries(configs).map(([name, config]) => {
    const file = path.join(dir, `${name}.yaml`);
    // Relative paths of hostedClusterSpec (the pull secret) resolve beside the config; it is never read at synth.
    fs.writeFileSync(file, stringify(config));
    return file;
  });
}

function stampsOf(files: string[]): Stamp[] {
  return files.map((file) => {
    const loaded = loadConfigFile(file);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    return { name: path.basename(file, ".yaml"), loaded };
  });
}

function run(files: string[], outdir: string, synth?: SynthRunner) {
  const out: string[] = [];
  const err: string[] = [];
  const code = fleet(files, { CDKTF_OUTDIR: outdir }, { out: (l) => out.push(l), err: (l) => err.push(l) }, synth);
  return { code, out, err };
}

/** The same synth as `npm run synth`, in this process. */
const inProcess: SynthRunner = (file, outdir, io) => main([file], { CDKTF_OUTDIR: outdir }, io);

const range = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name}${i + 1}`);

describe("npm run fleet", () => {
  test("two stamps with one prefix, backend, management cluster and cluster name: every collision, both stamps named, nothing written", () => {
    const dir = tempDir();
    const files = writeStamps(dir, { dev: stampConfig("acme", { keyPrefix: "" }), prod: stampConfig("acme", { keyPrefix: "" }) });
    const collisions = fleetCollisions(stampsOf(files));
    expect(collisions.every((c) => c.stamps.join() === "dev,prod")).toBe(true);
    const kinds = collisions.map((c) => c.what);
    expect([...new Set(kinds)]).toEqual([
      "prefix",
      "backend (the same state and cluster record)",
      "state of a stack (azurerm)",
      "management cluster",
      "resource group",
      "storage account (a global name)",
      "user-assigned identity",
      "VNet",
      "subnet",
      "network security group",
      "private DNS zone",
    ]);
    expect(kinds.filter((k) => k === "state of a stack (azurerm)")).toHaveLength(5);
    expect(kinds.filter((k) => k === "user-assigned identity")).toHaveLength(8);
    expect(collisions.find((c) => c.what === "management cluster")?.value).toBe("kubeconfig ~/.kube/mgmt, context (its current context)");
    const outdir = path.join(dir, "out");
    const result = run(files, outdir, inProcess);
    expect(result.code).toBe(1);
    expect(result.err[0]).toBe(`${collisions.length} collisions between stamps:`);
    const dev = `dev (${files[0]})`;
    const prod = `prod (${files[1]})`;
    expect(result.err).toContain(`  prefix: stamps ${dev} and ${prod} both use "acme"`);
    expect(result.err).toContainEqual(expect.stringContaining(`  user-assigned identity (8): stamps ${dev} and ${prod} both use "/subscriptions/`));
    for (const c of collisions) expect(result.err.join("\n")).toContain(`"${c.value}"`);
    expect(result.err.at(-1)).toBe("nothing was written.");
    expect(fs.existsSync(outdir)).toBe(false);
  });

  test("dev and prod with a cluster hc1 in one subscription, on different backends and management clusters: the cluster's Azure names collide", () => {
    const dir = tempDir();
    const files = writeStamps(dir, {
      dev: stampConfig("dev", { keyPrefix: "dev/", kubeconfig: "~/.kube/dev" }),
      prod: stampConfig("prod", { keyPrefix: "prod/", kubeconfig: "~/.kube/mgmt", context: "prod" }),
    });
    const kinds = [...new Set(fleetCollisions(stampsOf(files)).map((c) => c.what))];
    expect(kinds).toEqual(["resource group", "VNet", "subnet", "network security group", "private DNS zone"]);
  });

  test("two stamps that share nothing: each synthesized into <outdir>/<stamp>/, one fleet-workspaces.json", () => {
    const dir = tempDir();
    const files = writeStamps(dir, {
      "dev-eastus": stampConfig("dev", { keyPrefix: "dev/", kubeconfig: "~/.kube/dev", clusters: ["dev1"] }),
      "prod-eastus": stampConfig("prod", { keyPrefix: "prod/", kubeconfig: "~/.kube/prod", clusters: ["prod1"] }),
    });
    expect(fleetCollisions(stampsOf(files))).toEqual([]);
    const outdir = path.join(dir, "out");
    const result = run(files, outdir, inProcess);
    expect(result.err.filter((l) => !l.includes("warning:"))).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.out[0]).toBe(`fleet: 2 stamps: dev-eastus (${files[0]}), prod-eastus (${files[1]})`);
    expect(result.out).toContainEqual(expect.stringMatching(/^\[prod-eastus\] synthesized .*prod-eastus\.yaml/));
    for (const stamp of ["dev-eastus", "prod-eastus"]) expect(fs.existsSync(path.join(outdir, stamp, "stacks", "shared", "cdk.tf.json"))).toBe(true);
    const workspaces = JSON.parse(fs.readFileSync(path.join(outdir, FLEET_WORKSPACES), "utf8"));
    expect(workspaces.stamps.map((s: any) => [s.stamp, s.backend.keyPrefix])).toEqual([
      ["dev-eastus", "dev/"],
      ["prod-eastus", "prod/"],
    ]);
    expect(workspaces.stamps[1].workspaces.map((w: any) => `${w.stamp} ${w.stack} ${w.state}`)).toContain(
      "prod-eastus cluster-prod1 prod/cluster-prod1.tfstate",
    );
  });

  test("limits summed over the stamps of one subscription: 2 × 100 clusters warn (3,600 role assignments), 3 × 100 are refused (5,400 > 4,000)", () => {
    const dir = tempDir();
    const config = (p: string) => stampConfig(p, { keyPrefix: `${p}/`, kubeconfig: `~/.kube/${p}`, clusters: range(p, 100) });
    const stamps = stampsOf(writeStamps(dir, { a: config("a"), b: config("b"), c: config("c") }));
    expect(fleetCollisions(stamps)).toEqual([]);
    const two = fleetCapacity(stamps.slice(0, 2));
    expect(two.errors).toEqual([]);
    expect(two.warnings).toEqual([
      expect.stringMatching(
        /^capacity: stamps a and b together create 3600 role assignments in subscription 00000000-0000-0000-0000-000000000000 \(a 1800, b 1800\), 90 % of the limit of 4000\. .*Way out: put the next clusters in a stamp on another subscription/,
      ),
    ]);
    const three = fleetCapacity(stamps);
    expect(three.errors).toEqual([
      expect.stringMatching(/^capacity: stamps a, b and c together create 5400 role assignments .*over the limit of 4000: apply would fail part-way/),
    ]);
    // 3 × (100 clusters × 3 groups + the persistent group).
    expect(three.warnings).toEqual([
      expect.stringMatching(/^capacity: stamps a, b and c together create 903 resource groups .*\(a 301, b 301, c 301\), 92 % of the limit of 980\./),
    ]);
    expect(
      run(
        stamps.map((s) => s.loaded.file),
        path.join(dir, "out"),
      ).code,
    ).toBe(1);
  });

  test("usage: no config, or two stamps named alike", () => {
    expect(run([], "x").code).toBe(2);
    const result = run(["a/dev.yaml", "b/dev.yml"], "x");
    expect(result.code).toBe(2);
    expect(result.err).toEqual([
      "stamp names must be unique, ignoring case (each is a folder, one for Prod and prod on a case-insensitive file system): dev (a/dev.yaml), dev (b/dev.yml). Rename the file (a stamp is named after its file, without .yaml or .yml).",
      "nothing was written.",
    ]);
  });

  test.each([
    ["envs/.yaml", '"" ("envs/.yaml"): its name is empty: its folder would be the output folder itself or outside it'],
    ["envs/..yaml", '"." ("envs/..yaml"): its name is ".": its folder would be the output folder itself or outside it'],
    ["envs/...yaml", '".." ("envs/...yaml"): its name is "..": its folder would be the output folder itself or outside it'],
    [
      "envs/fleet-workspaces.json.yaml",
      '"fleet-workspaces.json" ("envs/fleet-workspaces.json.yaml"): its name is fleet-workspaces.json, the fleet\'s list of workspaces',
    ],
    [
      "envs/Fleet-Workspaces.JSON.yml",
      '"Fleet-Workspaces.JSON" ("envs/Fleet-Workspaces.JSON.yml"): its name is fleet-workspaces.json, the fleet\'s list of workspaces',
    ],
    ["envs/a\\b.yaml", '"a\\\\b" ("envs/a\\\\b.yaml"): its name holds a path separator'],
    ["envs/a\nb.yaml", '"a\\nb" ("envs/a\\nb.yaml"): its name holds a control character'],
  ])("refuses the stamp name of %j, before reading any config or writing", (file, error) => {
    const dir = tempDir();
    const before = tree(dir);
    const result = run([file], dir, () => {
      throw new Error("synthesized a stamp with a refused name");
    });
    expect(result).toEqual({
      code: 2,
      out: [],
      err: [`stamp ${error}. Rename the file (a stamp is named after its file, without .yaml or .yml).`, "nothing was written."],
    });
    expect(tree(dir)).toEqual(before);
  });

  test("refuses stamp names that differ only in case (one folder on a case-insensitive file system)", () => {
    const result = run(["envs/Prod.yaml", "envs/prod.yml", "envs/dev.yaml"], "x");
    expect(result.code).toBe(2);
    expect(result.err[0]).toMatch(/^stamp names must be unique, ignoring case .*: Prod \(envs\/Prod\.yaml\), prod \(envs\/prod\.yml\)\. Rename the file/);
    expect(result.err).toHaveLength(2);
  });
});

describe("npm run fleet: where it writes", () => {
  const neverSynth: SynthRunner = () => {
    throw new Error("synthesized although the output folder was refused");
  };

  test("refuses an output root that holds a stamp's config (as synth refuses it), writing nothing", () => {
    const dir = tempDir();
    const files = writeStamps(dir, { dev: stampConfig("acme", { keyPrefix: "dev" }) });
    const before = tree(dir);
    const result = run(files, dir, neverSynth);
    expect(result.code).toBe(1);
    expect(result.err.join("\n")).toMatch(
      /cannot write the fleet's output folder .*: it holds the config file .*dev\.yaml; synth replaces the output folder whole/,
    );
    expect(result.err.at(-1)).toBe("nothing was written.");
    expect(tree(dir)).toEqual(before);
  });

  test("refuses a stamp folder that holds files but no earlier output (a folder named like the stamp's file); accepts an earlier output", () => {
    const dir = tempDir();
    const files = writeStamps(dir, { scripts: stampConfig("acme", { keyPrefix: "s" }) });
    const outdir = path.join(dir, "out");
    fs.mkdirSync(path.join(outdir, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(outdir, "scripts", "deploy.sh"), "echo mine\n");
    const result = run(files, outdir, neverSynth);
    expect(result.code).toBe(1);
    expect(result.err[0]).toMatch(/^stamp scripts: .*scripts holds files but no earlier output \(no cdktf manifest\.json\); synth would replace it whole/);
    expect(fs.readdirSync(path.join(outdir, "scripts"))).toEqual(["deploy.sh"]);
    fs.writeFileSync(path.join(outdir, "scripts", "manifest.json"), JSON.stringify({ version: "0.21.0", stacks: {} }));
    const synthesized: string[] = [];
    expect(run(files, outdir, (_file, folder) => (synthesized.push(folder), 1)).code).toBe(1);
    expect(synthesized).toEqual([path.join(outdir, "scripts")]);
  });
});
