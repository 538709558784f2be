import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { main } from "../main";
import { EXAMPLES, hostedClusterSpec, tempDir } from "./helpers";

/**
 * Retiring a cluster end to end through `npm run synth` (main): synth with the cluster, synth it
 * retired, synth it removed → refused while its stacks hold state; accepted once they are empty.
 * Local backend (state files on disk) and azurerm (the committed record beside the config).
 */

const SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";

function run(config: string, outdir: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  // Under the cdktf CLI (CDKTF_CONTEXT_JSON set) the config comes from HCP_AZURE_CONFIG and warnings go to stdout.
  const argv = env.CDKTF_CONTEXT_JSON ? [] : [config];
  const code = main(argv, { CDKTF_OUTDIR: outdir, ...env }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const manifestStacks = (outdir: string) => Object.keys(JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8")).stacks).sort();
const stackJson = (outdir: string, stack: string) => JSON.parse(fs.readFileSync(path.join(outdir, "stacks", stack, "cdk.tf.json"), "utf8"));
const stackFolders = (outdir: string) => fs.readdirSync(path.join(outdir, "stacks")).sort();

describe("retiring a cluster (npm run synth)", () => {
  let work: string;
  let outdir: string;
  let config: string;
  beforeEach(() => {
    work = tempDir();
    outdir = path.join(work, "cdktf.out");
    config = path.join(work, "dev.yaml");
    fs.copyFileSync(path.join(EXAMPLES, "keys", "example-signer.public"), path.join(work, "signer.public"));
    fs.copyFileSync(path.join(EXAMPLES, "operator", "hypershift-operator.yaml"), path.join(work, "bundle.yaml"));
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  const cluster = (name: string, extra: Record<string, unknown> = {}) => ({ name, hostedCluster: { ...hostedClusterSpec(), nodePools: [{ name }] }, ...extra });
  const writeConfig = (clusters: unknown[], backend?: unknown) =>
    fs.writeFileSync(
      config,
      stringify({
        prefix: "demo",
        subscriptionId: SUBSCRIPTION,
        tenantId: "11111111-1111-1111-1111-111111111111",
        location: "eastus",
        serviceAccountSigningKey: { publicKeyFile: "signer.public" },
        clusters,
        managementCluster: { operator: { bundleFile: "bundle.yaml" } },
        // The pull secret and signing key are read only where Terraform runs (not in this test).
        secrets: { source: "files", filesOnlyWhereTerraformRuns: true },
        ...(backend ? { backend } : {}),
      }),
    );
  const hc2Stacks = ["cluster-hc2", "identities-hc2", "infra-hc2"];
  /** The stack without any prevent_destroy (what retirement lifts). */
  const withoutPreventDestroy = (json: any) =>
    JSON.parse(JSON.stringify(json), (_key, value) => {
      if (value && typeof value === "object" && !Array.isArray(value) && value.lifecycle?.prevent_destroy) {
        const { prevent_destroy: _lifted, ...lifecycle } = value.lifecycle;
        const { lifecycle: _old, ...rest } = value;
        return Object.keys(lifecycle).length > 0 ? { ...rest, lifecycle } : rest;
      }
      return value;
    });
  const withoutGuard = (json: any) => {
    const copy = JSON.parse(JSON.stringify(json));
    for (const id of Object.keys(copy.resource.terraform_data ?? {})) if (id.startsWith("RetiredClusterGuard")) delete copy.resource.terraform_data[id];
    if (copy.resource.terraform_data && Object.keys(copy.resource.terraform_data).length === 0) delete copy.resource.terraform_data;
    delete copy.locals;
    return copy;
  };

  it("local backend: with the cluster, retired, removed while its state holds resources (refused), removed once destroyed", () => {
    // 1. Both clusters.
    writeConfig([cluster("hc1"), cluster("hc2")]);
    expect(run(config, outdir).code).toBe(0);
    expect(manifestStacks(outdir)).toEqual([
      "cluster-hc1",
      "cluster-hc2",
      "identities-hc1",
      "identities-hc2",
      "infra-hc1",
      "infra-hc2",
      "management",
      "shared",
    ]);
    const before = Object.fromEntries(hc2Stacks.map((s) => [s, stackJson(outdir, s)]));
    // What a deploy leaves: state files beside the config, in the environment's folder.
    const states = path.join(work, "terraform-state", SUBSCRIPTION, "demo");
    fs.mkdirSync(states, { recursive: true });
    const state = (count: number) =>
      JSON.stringify({ version: 4, resources: Array.from({ length: count }, (_, i) => ({ mode: "managed", type: "t", name: `r${i}`, instances: [{}] })) });
    for (const [stack, count] of [
      ["identities-hc2", 19],
      ["infra-hc2", 12],
      ["cluster-hc2", 7],
      ["shared", 5],
    ] as const)
      fs.writeFileSync(path.join(states, `${stack}.tfstate`), state(count));

    // 2. hc2 retired: its stacks are still synthesized, unchanged but for the guard and the lifted
    // prevent_destroy of its identities, and synth says what to do next.
    writeConfig([cluster("hc1"), cluster("hc2", { retired: true })]);
    const retired = run(config, outdir);
    expect(retired.code).toBe(0);
    expect(retired.err).toContain(
      "warning: clusters[1] (hc2) is retired: its stacks plan only to be destroyed. Run npm run destroy -- cluster-hc2 infra-hc2 identities-hc2",
    );
    expect(manifestStacks(outdir)).toContain("infra-hc2");
    for (const stack of hc2Stacks) {
      const json = stackJson(outdir, stack);
      expect(Object.keys(json.resource.terraform_data).filter((id) => id.startsWith("RetiredClusterGuard"))).toHaveLength(1);
      expect(withoutGuard(json)).toEqual(withoutGuard(withoutPreventDestroy(before[stack])));
      expect(JSON.stringify(json)).not.toContain("prevent_destroy");
    }
    expect(JSON.stringify(before["identities-hc2"])).toContain("prevent_destroy");
    // The cluster that stays has no retirement guard.
    const infraHc1 = stackJson(outdir, "infra-hc1");
    expect(Object.keys({ ...infraHc1.locals, ...infraHc1.resource.terraform_data }).filter((id) => id.startsWith("RetiredClusterGuard"))).toEqual([]);

    // 3. hc2 removed while its state holds resources: refused, nothing written.
    writeConfig([cluster("hc1")]);
    const manifestBefore = fs.readFileSync(path.join(outdir, "manifest.json"), "utf8");
    const refused = run(config, outdir);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`config error(s) in ${config}:`);
    expect(refused.err).toMatch(
      /^ {2}clusters: "hc2" was removed from the config, but its stacks may still hold state \(.*cluster-hc2\.tfstate: 7 resources, .*infra-hc2\.tfstate: 12 resources, .*identities-hc2\.tfstate: 19 resources\)\. Put it back with retired: true/m,
    );
    expect(refused.err).toContain("nothing was written");
    expect(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8")).toBe(manifestBefore);
    expect(stackFolders(outdir)).toEqual(expect.arrayContaining(hc2Stacks));

    // 4. After `npm run destroy -- cluster-hc2 infra-hc2 identities-hc2`: empty states, removal accepted, stale folders gone.
    for (const stack of hc2Stacks) fs.writeFileSync(path.join(states, `${stack}.tfstate`), state(0));
    const removed = run(config, outdir);
    expect(removed.code).toBe(0);
    expect(manifestStacks(outdir)).toEqual(["cluster-hc1", "identities-hc1", "infra-hc1", "management", "shared"]);
    expect(stackFolders(outdir)).toEqual(["cluster-hc1", "identities-hc1", "infra-hc1", "management", "shared"]);
    expect(fs.readdirSync(work).sort()).toEqual(["bundle.yaml", "cdktf.out", "dev.yaml", "signer.public", "terraform-state"]); // no record with the local backend
  });

  it("azurerm backend: synth records the clusters; removing one is refused until its line leaves the record", () => {
    const backend = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "demotfstate", containerName: "tfstate" };
    const record = path.join(work, "azurerm+demotfstate+tfstate+hcp-azure%2Fdemo%2F.clusters.lock");
    const lines = () =>
      fs
        .readFileSync(record, "utf8")
        .split("\n")
        .filter((l) => l && !/^(#|backend:|configs:|protected:|release:)/.test(l));

    writeConfig([cluster("hc2"), cluster("hc1")], backend);
    // deploy, diff and destroy (the cdktf CLI) need the record: without one they act on a backend
    // whose clusters synth cannot know.
    const cli = run(config, outdir, { CDKTF_CONTEXT_JSON: "{}", HCP_AZURE_CONFIG: config });
    expect(cli.code).toBe(1);
    expect(cli.err).toMatch(
      /^ {2}backend: has no record of the cluster stacks in this backend \(azurerm: storage account demotfstate, container tfstate, blobs hcp-azure\/demo\/<stack>\.tfstate\): \S+ is missing\./m,
    );
    expect(fs.existsSync(record)).toBe(false);
    // A plain synth creates it, and says so.
    const first = run(config, outdir);
    expect(first.code).toBe(0);
    expect(first.out).toContain("recorded the cluster stacks in");
    expect(first.err).toMatch(/^warning: \S+\.clusters\.lock is new: there was no record of this backend's cluster stacks beside the config\./m);
    expect(lines()).toEqual(["cluster-hc1", "cluster-hc2", "identities-hc1", "identities-hc2", "infra-hc1", "infra-hc2"]);
    expect(run(config, outdir).out).not.toContain("recorded the cluster stacks"); // unchanged: not rewritten

    writeConfig([cluster("hc1"), cluster("hc2", { retired: true })], backend);
    expect(run(config, outdir).code).toBe(0);
    expect(lines()).toEqual(["cluster-hc1", "cluster-hc2 retired", "identities-hc1", "identities-hc2 retired", "infra-hc1", "infra-hc2 retired"]);

    writeConfig([cluster("hc1")], backend);
    const refused = run(config, outdir);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('clusters: "hc2" was removed from the config, but');
    expect(refused.err).toMatch(
      /its stacks may still hold state \(cluster-hc2 retired, infra-hc2 retired, identities-hc2 retired: listed in \S*azurerm\+demotfstate\+tfstate\+hcp-azure%2Fdemo%2F\.clusters\.lock, azurerm backend\)/,
    );
    expect(refused.err).toContain("Once the destroy has completed, delete their lines (cluster-hc2, infra-hc2, identities-hc2) from");
    expect(lines()).toEqual(["cluster-hc1", "cluster-hc2 retired", "identities-hc1", "identities-hc2 retired", "infra-hc1", "infra-hc2 retired"]);
    expect(manifestStacks(outdir)).toContain("infra-hc2");

    // The operator confirms the destroy by deleting the lines (reviewed in the same change as the config).
    fs.writeFileSync(record, fs.readFileSync(record, "utf8").replace(/^.*-hc2 retired\n/gm, ""));
    expect(run(config, outdir).code).toBe(0);
    expect(lines()).toEqual(["cluster-hc1", "identities-hc1", "infra-hc1"]);
    expect(stackFolders(outdir)).not.toContain("infra-hc2");
  });
});

/**
 * Issue 21, item 6: state and the record are keyed by the environment, never by the config's file
 * name. Two configs in one folder: on main they planned against the same terraform-state/shared.tfstate,
 * and prod was told to retire dev's cluster.
 */
describe("no accidental sharing between environments (npm run synth)", () => {
  let work: string;
  beforeEach(() => {
    work = tempDir();
    fs.copyFileSync(path.join(EXAMPLES, "keys", "example-signer.public"), path.join(work, "signer.public"));
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  /** A config without hostedCluster: one identities- stack per cluster (fast to synthesize). */
  const writeConfig = (file: string, prefix: string, clusters: string[], extra: Record<string, unknown> = {}) => {
    const config = path.join(work, file);
    fs.writeFileSync(
      config,
      stringify({
        prefix,
        subscriptionId: SUBSCRIPTION,
        tenantId: "11111111-1111-1111-1111-111111111111",
        location: "eastus",
        serviceAccountSigningKey: { publicKeyFile: "signer.public" },
        clusters: clusters.map((name) => ({ name })),
        ...extra,
      }),
    );
    return config;
  };
  const outOf = (config: string) => path.join(work, `${path.basename(config, ".yaml")}.out`);
  /** The state file a synthesized stack's local backend names, absolute (Terraform resolves it from the stack's folder). */
  const backendFile = (config: string, stack: string) =>
    path.resolve(outOf(config), "stacks", stack, stackJson(outOf(config), stack).terraform.backend.local.path);
  const holding = (count: number) =>
    JSON.stringify({ version: 4, resources: Array.from({ length: count }, (_, i) => ({ mode: "managed", type: "t", name: `r${i}`, instances: [{}] })) });

  it("two configs of different environments in one folder: separate state files, and one's clusters never refuse the other", () => {
    const dev = writeConfig("dev.yaml", "dev", ["hc1"]);
    const prod = writeConfig("prod.yaml", "prod", ["hc2"]);
    expect(run(dev, outOf(dev)).code).toBe(0);
    expect(run(prod, outOf(prod)).code).toBe(0);
    expect(backendFile(dev, "shared")).toBe(path.join(work, "terraform-state", SUBSCRIPTION, "dev", "shared.tfstate"));
    expect(backendFile(prod, "shared")).toBe(path.join(work, "terraform-state", SUBSCRIPTION, "prod", "shared.tfstate"));
    // dev deploys hc1; prod, which never had it, synthesizes as before.
    fs.mkdirSync(path.dirname(backendFile(dev, "shared")), { recursive: true });
    fs.writeFileSync(backendFile(dev, "identities-hc1"), holding(19));
    expect(run(prod, outOf(prod))).toMatchObject({ code: 0, err: "" });
    // A copy of dev (same prefix and subscription: the same environment) shares its state, on purpose.
    const copy = writeConfig("dev-copy.yaml", "dev", ["hc3"]);
    const refused = run(copy, outOf(copy));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('clusters: "hc1" was removed from the config, but its stacks may still hold state');
  });

  it("existing local state in the old layout: refused with the exact commands, never planned from empty state; after them, the stacks use the moved state", () => {
    const config = writeConfig("dev.yaml", "dev", ["hc1"]);
    // What a deploy before this change left: <config dir>/terraform-state/<stack>.tfstate.
    const old = path.join(work, "terraform-state");
    fs.mkdirSync(old);
    fs.writeFileSync(path.join(old, "shared.tfstate"), holding(5));
    fs.writeFileSync(path.join(old, "identities-hc1.tfstate"), holding(19));
    const outdir = outOf(config);
    const refused = run(config, outdir);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^ {2}backend\.directory: "terraform-state" holds state files where every config beside it kept its state before/m);
    expect(refused.err).toContain("nothing was written");
    expect(fs.existsSync(outdir)).toBe(false);
    expect(fs.readdirSync(old).sort()).toEqual(["identities-hc1.tfstate", "shared.tfstate"]); // synth moved nothing

    const command = /^ {6}(mkdir -p .*)$/m.exec(refused.err)?.[1] as string;
    expect(spawnSync("sh", ["-c", command], { encoding: "utf8" }).status).toBe(0);
    const moved = run(config, outdir);
    expect(moved.code).toBe(0);
    for (const [stack, count] of [
      ["shared", 5],
      ["identities-hc1", 19],
    ] as const)
      expect(JSON.parse(fs.readFileSync(backendFile(config, stack), "utf8")).resources).toHaveLength(count);
    expect(fs.readdirSync(old)).toEqual([SUBSCRIPTION]);
  });

  it("a remote backend's record from before (<config>.clusters.lock) keeps refusing a dropped cluster, then moves to the backend's name", () => {
    const backend = { type: "cloud", organization: "acme" };
    const config = writeConfig("dev.yaml", "dev", ["hc1"], { backend });
    const legacy = path.join(work, "dev.clusters.lock");
    fs.writeFileSync(legacy, "identities-hc1\nidentities-hc2\n");
    const refused = run(config, outOf(config));
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /clusters: "hc2" was removed from the config, but its stacks may still hold state \(identities-hc2: listed in \S*dev\.clusters\.lock, cloud backend\)/,
    );

    writeConfig("dev.yaml", "dev", ["hc1", "hc2"], { backend });
    const moved = run(config, outOf(config));
    expect(moved.code).toBe(0);
    expect(moved.out).toMatch(/^moved the record \S*dev\.clusters\.lock to \S*cloud\+app\.terraform\.io\+acme\+dev-\.clusters\.lock: /m);
    expect(fs.readdirSync(work).filter((f) => f.endsWith(".clusters.lock"))).toEqual(["cloud+app.terraform.io+acme+dev-.clusters.lock"]);
    // Renamed, the config still finds it: dropping hc2 stays refused.
    fs.renameSync(config, path.join(work, "development.yaml"));
    writeConfig("development.yaml", "dev", ["hc1"], { backend });
    expect(run(path.join(work, "development.yaml"), outOf(config)).err).toContain('clusters: "hc2" was removed from the config');
  });
});
