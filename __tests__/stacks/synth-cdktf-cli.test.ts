import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { configWithClusters } from "../../scripts/bench";
import { REPO, tempDir } from "../helpers";

/**
 * The output folder under the cdktf CLI (`npm run deploy|diff|cdktf`): the CLI's own synth step
 * (cdktf-cli 0.21's SynthStack.synth, which `cdktf synth|diff|deploy` run) runs our app as
 * cdktf.json says, reads `<out>/manifest.json` and the stacks, then removes every folder of
 * `<out>/stacks` it listed before running the app that is not in the new manifest; a folder
 * already gone made it fail (ENOENT, when synth had removed a removed cluster's folders itself).
 * Run in a child: the CLI's modules load there, not in the test worker.
 */
const RUN = path.join(REPO, "scripts", "run.js");

/**
 * In the child, before the CLI loads: two modules its synth step loads but never calls here load
 * on first use instead (placeholders in the module cache; a call loads the real one, so the step
 * runs unchanged): @cdktf/hcl-tools, whose load starts a Go WebAssembly runtime (~0.25 CPU-s) for
 * `cdktf synth --hcl` only, and cdktf's zip library (runtime/lazy-archiver.js, as the bundles and
 * jest's workers have it).
 */
const lazyUnusedModules = `
  const placeholder = (file, exports) => {
    const module = new Module(file);
    module.filename = file;
    module.loaded = true;
    module.exports = exports;
    Module._cache[file] = module;
  };
  const hcl = require.resolve("@cdktf/hcl-tools", { paths: [path.dirname(require.resolve("@cdktf/cli-core/package.json"))] });
  placeholder(hcl, { __esModule: true, get format() { return require(path.join(path.dirname(hcl), "bridge.js")).format; } });
  const archiver = require.resolve("archiver/package.json", { paths: [path.dirname(require.resolve("cdktf/package.json"))] });
  placeholder(path.join(path.dirname(archiver), require(archiver).main ?? "index.js"), require(${JSON.stringify(path.join(REPO, "runtime", "lazy-archiver.js"))}));`;

describe("synth under the cdktf CLI", () => {
  const work = tempDir("hcp-azure-cli-");
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("after a cluster is removed: no failure, the removed cluster's folders go, Terraform's files stay", () => {
    const two = path.join(work, "two.yaml");
    const one = path.join(work, "one.yaml");
    fs.writeFileSync(two, stringify(configWithClusters(2)));
    const fewer = configWithClusters(2);
    fewer.clusters.pop();
    fs.writeFileSync(one, stringify(fewer));
    const outdir = path.join(work, "cdktf.out");
    const result = path.join(work, "stacks.json");
    // Two CLI synths in one process: two clusters, then (Terraform's lock file and a user's folder added) one.
    const driver = `
      const fs = require("node:fs");
      const Module = require("node:module");
      const path = require("node:path");
      ${lazyUnusedModules}
      const { SynthStack } = require("@cdktf/cli-core/src/lib/synth-stack");
      const outdir = ${JSON.stringify(outdir)};
      (async () => {
        const synth = async (config) => {
          process.env.HCP_AZURE_CONFIG = config;
          const stacks = await SynthStack.synth(new AbortController().signal, ${JSON.stringify(`node ${RUN} main`)}, outdir, ${JSON.stringify(REPO)}, true);
          return stacks.map((stack) => stack.name).sort();
        };
        const names = [await synth(${JSON.stringify(two)})];
        fs.writeFileSync(path.join(outdir, "stacks", "shared", ".terraform.lock.hcl"), "# lock\\n");
        fs.mkdirSync(path.join(outdir, "stacks", "my-notes"));
        names.push(await synth(${JSON.stringify(one)}));
        fs.writeFileSync(${JSON.stringify(result)}, JSON.stringify(names)); // stdout also has cdktf's log
      })().catch((error) => {
        console.error(error);
        process.exit(1);
      });`;
    const env: NodeJS.ProcessEnv = { ...process.env, CHECKPOINT_DISABLE: "1", DISABLE_VERSION_CHECK: "1", CDKTF_DISABLE_PLUGIN_CACHE_ENV: "1" };
    delete env.CDKTF_CONTEXT_JSON;
    const cli = spawnSync(process.execPath, ["-e", driver], { cwd: REPO, env, encoding: "utf8", timeout: 120_000 });
    expect({ status: cli.status, signal: cli.signal, stderr: cli.status === 0 ? "" : cli.stderr }).toEqual({ status: 0, signal: null, stderr: "" });
    const stacksOf = (clusters: string[]) =>
      ["management", "shared", ...clusters.flatMap((cluster) => ["cluster", "identities", "infra"].map((kind) => `${kind}-${cluster}`))].sort();
    expect(JSON.parse(fs.readFileSync(result, "utf8"))).toEqual([stacksOf(["myprefix-hc-001", "myprefix-hc-002"]), stacksOf(["myprefix-hc-001"])]);
    // cdktf itself then removes every folder not in the manifest, a user's too (synth keeps those: app.test.ts).
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual(stacksOf(["myprefix-hc-001"]));
    expect(fs.readFileSync(path.join(outdir, "stacks", "shared", ".terraform.lock.hcl"), "utf8")).toBe("# lock\n");
    // Beside the configs only the output and, under the CLI, the record of protected resources in the
    // environment's state folder (config/protected-resources.ts): no leftover of the output swap.
    expect(fs.readdirSync(work).sort()).toEqual(["cdktf.out", "one.yaml", "stacks.json", "terraform-state", "two.yaml"]);
    const stateFiles = fs.readdirSync(path.join(work, "terraform-state"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(stateFiles.map((e) => e.name)).toEqual(["protected-resources.lock"]);
  });
});
