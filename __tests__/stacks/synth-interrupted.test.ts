import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { loadConfigFile, LoadedConfig } from "../../config/load";
import { configWithClusters } from "../../scripts/bench";
import { synthesize } from "../../stacks/app";
import { recoverOutput } from "../../stacks/output-folder";
import { REPO, tempDir } from "../helpers";

/**
 * Whole output or none: a real synth (`node scripts/run.js main`, what `npm run synth` and the
 * cdktf CLI run, with its code cache) of a config dropping a cluster over an earlier output,
 * killed with SIGKILL at deterministic points spread over its run, leaves the earlier output
 * exactly (every file's bytes, mode and symlink) or the complete new one, never a mix. A preload
 * (__tests__/fixtures/kill-at-change.js) counts the changes the child makes under its folder and
 * kills it just before change n: n spread over the whole run, plus each of the last changes (where
 * the new output replaces the old).
 */
const run: { ensureBuilt(root: string, entry: string): boolean } = require("../../scripts/run.js");
const RUN = path.join(REPO, "scripts", "run.js");
const PRELOAD = path.join(REPO, "__tests__", "fixtures", "kill-at-change.js");
/**
 * Clusters in the old config; the new one drops the last (three kept clusters' stacks change, the
 * removed one's go, one kept for its state). The cluster count costs no measurable CPU: each
 * child is ~0.4 CPU-s of start-up and bundle load, whatever the config.
 */
const CLUSTERS = 4;
/** Kill points: SPREAD spread evenly over the run's changes, and each of its LAST changes (11 children killed: ~0.4 CPU-seconds each). */
const SPREAD = 7;
const LAST = 4;

/** Every entry under `dir` (files: mode and SHA-256; folders: mode; symlinks: target), by relative path; undefined when `dir` is absent. */
function snapshot(dir: string): Record<string, string> | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const entries: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const full = path.join(d, name);
      const rel = path.relative(dir, full);
      const stat = fs.lstatSync(full);
      if (stat.isSymbolicLink()) entries[rel] = `link ${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        entries[rel] = `dir ${(stat.mode & 0o7777).toString(8)}`;
        walk(full);
      } else entries[rel] = `file ${(stat.mode & 0o7777).toString(8)} ${createHash("sha256").update(fs.readFileSync(full)).digest("hex")}`;
    }
  };
  walk(dir);
  return entries;
}

/** What `dir` holds compared with the old and the new output: "old", "new", or how it mixes them. */
function classify(dir: string, oldOutput: Record<string, string>, newOutput: Record<string, string>): string {
  const now = snapshot(dir);
  if (now === undefined) return "absent";
  const same = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(a) === JSON.stringify(b);
  if (same(now, oldOutput)) return "old";
  if (same(now, newOutput)) return "new";
  const paths = Object.keys(now);
  const onlyOld = paths.filter((p) => now[p] === oldOutput[p] && now[p] !== newOutput[p]).length;
  const onlyNew = paths.filter((p) => now[p] === newOutput[p] && now[p] !== oldOutput[p]).length;
  const neither = paths.filter((p) => now[p] !== oldOutput[p] && now[p] !== newOutput[p]).length;
  const missing = [...new Set([...Object.keys(oldOutput), ...Object.keys(newOutput)])].filter((p) => !(p in now)).length;
  return `mixed: ${onlyOld} entries of the old output, ${onlyNew} of the new, ${neither} of neither, ${missing} missing`;
}

const root = tempDir("hcp-azure-interrupted-");
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const oldConfig = path.join(root, "old.yaml");
const newConfig = path.join(root, "new.yaml");
/** Each run's own folder, all at the same depth (stacks refer to files beside the config by relative paths). */
const folder = (name: string) => path.join(root, name);
const outdirOf = (work: string) => path.join(work, "cdktf.out");

/** `node -r kill-at-change.js scripts/run.js main <config>` into `<work>/cdktf.out`. */
function synthChild(work: string, config: string, extraEnv: Record<string, string>) {
  // With the code cache, as users run it (the first child writes it under dist/ when a build emptied it, outside KILL_DIR).
  const env: NodeJS.ProcessEnv = { ...process.env, CDKTF_OUTDIR: outdirOf(work), KILL_DIR: work, ...extraEnv };
  delete env.HCP_AZURE_CODE_CACHE;
  delete env.HCP_AZURE_CONFIG;
  delete env.CDKTF_CONTEXT_JSON;
  return spawnSync(process.execPath, ["-r", PRELOAD, RUN, "main", config], { cwd: work, env, encoding: "utf8", timeout: 60_000 });
}

/** The earlier output: the old config's synth (here, in the test's thread), plus what Terraform and a user put in it. */
function writeEarlierOutput(work: string): void {
  fs.mkdirSync(work);
  synthesize(loadConfigFile(oldConfig) as LoadedConfig, outdirOf(work));
  const stacks = path.join(outdirOf(work), "stacks");
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(stacks, file)), { recursive: true });
    fs.writeFileSync(path.join(stacks, file), text);
  };
  // Terraform's files in current stacks: a provider, the backend record, the lock file, a plugin-cache symlink, an empty folder.
  put("shared/.terraform/providers/registry.terraform.io/hashicorp/azurerm/4.0.0/linux_amd64/terraform-provider-azurerm_v4.0.0", "\x7fELF provider");
  fs.chmodSync(
    path.join(stacks, "shared/.terraform/providers/registry.terraform.io/hashicorp/azurerm/4.0.0/linux_amd64/terraform-provider-azurerm_v4.0.0"),
    0o755,
  );
  put("shared/.terraform/terraform.tfstate", '{"backend":{"type":"local"}}\n');
  put("shared/.terraform.lock.hcl", "# lock\n");
  put("cluster-myprefix-hc-001/.terraform.lock.hcl", "# lock 001\n");
  fs.mkdirSync(path.join(stacks, "cluster-myprefix-hc-001/.terraform/providers"), { recursive: true });
  fs.symlinkSync("/plugin-cache/registry.terraform.io/hashicorp/kubernetes", path.join(stacks, "cluster-myprefix-hc-001/.terraform/providers/kubernetes"));
  fs.mkdirSync(path.join(stacks, "management/.terraform/modules"), { recursive: true });
  // The removed cluster's stacks: Terraform's caches (removed with them) and, in one, a state of its own (kept).
  put(`identities-myprefix-hc-00${CLUSTERS}/.terraform.lock.hcl`, "# lock\n");
  put(`infra-myprefix-hc-00${CLUSTERS}/terraform.tfstate`, '{"version":4}\n');
  // A user's folder under stacks/ and a user's file beside them: never synth output.
  put("notes/README.md", "my notes\n");
  fs.writeFileSync(path.join(outdirOf(work), "NOTES.md"), "mine\n");
}

describe("a synth killed at any point (SIGKILL)", () => {
  let oldOutput: Record<string, string>;
  let newOutput: Record<string, string>;
  let changes: number;
  let killPoints: number[];
  beforeAll(() => {
    run.ensureBuilt(REPO, path.join(REPO, "dist", "main.js"));
    const old = configWithClusters(CLUSTERS);
    fs.writeFileSync(oldConfig, stringify(old));
    // The new config: the last cluster removed, and a change in every stack's JSON (tags, the operator's rollout timeout, the release).
    const next = configWithClusters(CLUSTERS);
    next.clusters.pop();
    next.tags = { ...next.tags, owner: "another-team" };
    next.managementCluster.operator.rolloutTimeout = "11m";
    for (const cluster of next.clusters) cluster.hostedCluster.releaseImage = cluster.hostedCluster.releaseImage.replace("4.21.0", "4.21.1");
    fs.writeFileSync(newConfig, stringify(next));
    writeEarlierOutput(folder("earlier"));
    oldOutput = snapshot(outdirOf(folder("earlier")))!;
    // The uninterrupted run, from a copy of the earlier output: the complete new output, and how many changes it makes.
    const reference = folder("reference");
    fs.cpSync(folder("earlier"), reference, { recursive: true, verbatimSymlinks: true });
    const countFile = path.join(root, "changes");
    const complete = synthChild(reference, newConfig, { KILL_COUNT_FILE: countFile });
    if (complete.status !== 0) throw new Error(`synth of the new config failed (${complete.status ?? complete.signal}):\n${complete.stderr}`);
    newOutput = snapshot(outdirOf(reference))!;
    changes = Number(fs.readFileSync(countFile, "utf8"));
    killPoints = [
      ...new Set([
        ...Array.from({ length: SPREAD }, (_, i) => Math.ceil(((i + 1) * changes) / (SPREAD + 1))),
        ...Array.from({ length: LAST }, (_, i) => changes - LAST + 1 + i),
      ]),
    ]
      .filter((n) => n >= 1)
      .sort((a, b) => a - b);
  }, 120_000);

  it("the complete new output: the new stacks, Terraform's and the user's files carried, the removed cluster's stacks gone unless they hold state", () => {
    const stacks = Object.keys(JSON.parse(fs.readFileSync(path.join(outdirOf(folder("reference")), "manifest.json"), "utf8")).stacks);
    expect(stacks).toHaveLength(3 * (CLUSTERS - 1) + 2);
    for (const stack of stacks) expect(newOutput[`stacks/${stack}/cdk.tf.json`]).not.toEqual(oldOutput[`stacks/${stack}/cdk.tf.json`]);
    const carried = Object.keys(oldOutput).filter(
      (p) =>
        /(^|\/)(\.terraform|\.terraform\.lock\.hcl|terraform\.tfstate|notes|NOTES\.md)(\/|$)/.test(p) && !p.includes(`identities-myprefix-hc-00${CLUSTERS}`),
    );
    expect(carried.length).toBeGreaterThan(10);
    for (const p of carried) expect([p, newOutput[p]]).toEqual([p, oldOutput[p]]);
    const folders = Object.keys(newOutput).filter((p) => /^stacks\/[^/]+$/.test(p));
    expect(folders.sort()).toEqual([...stacks, "notes", `infra-myprefix-hc-00${CLUSTERS}`].map((s) => `stacks/${s}`).sort());
    expect(fs.readdirSync(folder("reference"))).toEqual(["cdktf.out"]);
  });

  it("leaves the earlier output or the complete new one at every kill point, and the next synth starts clean", () => {
    expect(killPoints.length).toBeGreaterThanOrEqual(10);
    const states: string[] = [];
    for (const point of killPoints) {
      const work = folder(`killed-${point}`);
      fs.cpSync(folder("earlier"), work, { recursive: true, verbatimSymlinks: true });
      expect(snapshot(outdirOf(work))).toEqual(oldOutput);
      const killed = synthChild(work, newConfig, { KILL_AT: String(point) });
      expect({ point, signal: killed.signal, stderr: killed.stderr }).toMatchObject({ point, signal: "SIGKILL" });
      const state = classify(outdirOf(work), oldOutput, newOutput);
      // Between the two renames that swap the outputs: the complete new output waits beside it, and the next start puts it in place.
      const ready = path.join(work, ".cdktf.out.ready");
      states.push(state === "absent" && JSON.stringify(snapshot(ready)) === JSON.stringify(newOutput) ? "absent, the new output ready" : state);
    }
    const table = killPoints.map((point, i) => `before change ${point} of ${changes}: ${states[i]}`);
    expect(table.filter((line) => !/: (old|new|absent, the new output ready)$/.test(line))).toEqual([]);
    // The next start: the interrupted run's leftovers go, and a ready output is put in place
    // (recoverOutput, the first step of every synth); where the new output was left ready, a whole next synth.
    const loaded = loadConfigFile(newConfig) as LoadedConfig;
    const ready = states.indexOf("absent, the new output ready");
    const synthesizedNext = new Set([killPoints[ready >= 0 ? ready : Math.floor(killPoints.length / 2)]]);
    for (const [i, point] of killPoints.entries()) {
      const outdir = outdirOf(folder(`killed-${point}`));
      if (synthesizedNext.has(point)) synthesize(loaded, outdir);
      else recoverOutput(outdir);
      const expected = synthesizedNext.has(point) || states[i] !== "old" ? "new" : "old";
      expect([point, fs.readdirSync(path.dirname(outdir)), classify(outdir, oldOutput, newOutput)]).toEqual([point, ["cdktf.out"], expected]);
    }
  });
});
