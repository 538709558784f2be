import { TerraformStack, Testing } from "cdktf";
import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { assertProvidersPresent, synthesize } from "../../stacks/app";
import { carryOver, recoverOutput, replaceOutput } from "../../stacks/output-folder";
import { LoadedConfig } from "../../config/load";
import { EXAMPLES, loadExample, loadInline, tempDir, tree } from "../helpers";

// These tests are about the output folder, not the config: each config is validated once.
const loadedConfigs = new Map<string, LoadedConfig>();
function example(file: string): LoadedConfig {
  if (!loadedConfigs.has(file)) loadedConfigs.set(file, loadExample(file));
  return loadedConfigs.get(file)!;
}

/** examples/basic.yaml with a second cluster, `myprefix-gone`, which basic.yaml then drops. */
function withGoneCluster(): LoadedConfig {
  if (!loadedConfigs.has("gone")) {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8"));
    const gone = structuredClone(config.clusters[0]);
    gone.name = "myprefix-gone";
    gone.hostedCluster.nodePools[0].name = "myprefix-gone";
    config.clusters.push(gone);
    loadedConfigs.set("gone", loadInline(config));
  }
  return loadedConfigs.get("gone")!;
}

const firstOutputs = new Map<string, string>();
/**
 * Puts at `outdir` the output an earlier synth of examples/basic.yaml (`basic`) or of
 * withGoneCluster() (`gone`) left: a copy of one real synth per config, shared by the tests that
 * start from an existing output, made at the same depth as theirs (its relative paths hold there).
 */
function existingOutput(config: "basic" | "gone", outdir: string): void {
  if (!firstOutputs.has(config)) {
    const first = path.join(tempDir(), "cdktf.out");
    synthesize(config === "basic" ? example("basic.yaml") : withGoneCluster(), first);
    firstOutputs.set(config, first);
  }
  fs.cpSync(firstOutputs.get(config)!, outdir, { recursive: true });
}

/** synthesize(): what it leaves in the output folder besides the new synthesis. */
describe("synthesize: stack folders no longer in the app", () => {
  let work: string;
  let outdir: string;
  beforeEach(() => {
    work = tempDir();
    outdir = path.join(work, "cdktf.out");
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));
  const folders = () => fs.readdirSync(path.join(outdir, "stacks")).sort();
  const BASIC_STACKS = ["cluster-myprefix-hc", "identities-myprefix-hc", "infra-myprefix-hc", "management", "shared"];
  const GONE_STACKS = ["cluster-myprefix-gone", "identities-myprefix-gone", "infra-myprefix-gone"];
  // Adapted: the stale folder comes from a real earlier synth (it was hand-made, which is now a user's folder, kept).
  it("those the previous synth wrote are removed with Terraform's caches in them; current stacks keep theirs", () => {
    existingOutput("gone", outdir);
    expect(folders()).toEqual([...BASIC_STACKS, ...GONE_STACKS].sort());
    const stale = path.join(outdir, "stacks", "infra-myprefix-gone");
    fs.mkdirSync(path.join(stale, ".terraform"), { recursive: true });
    fs.writeFileSync(path.join(stale, ".terraform.lock.hcl"), "# lock\n");
    const lock = path.join(outdir, "stacks", "shared", ".terraform.lock.hcl");
    fs.writeFileSync(lock, "# lock\n");
    synthesize(example("basic.yaml"), outdir);
    expect(folders()).toEqual(BASIC_STACKS);
    expect(fs.readFileSync(lock, "utf8")).toBe("# lock\n");
  });

  it("switching configs leaves only the new config's stacks", () => {
    synthesize(example("external-dns.yaml"), outdir);
    expect(folders()).toContain("infra-myprefix-dev");
    synthesize(example("isolated-clusters.yaml"), outdir);
    expect(folders()).toEqual(["identities-team-a", "identities-team-b", "shared"]);
  });

  // Adapted: the folder is a removed cluster's (a hand-made one is now kept whatever it holds).
  it("a removed stack's folder holding a terraform.tfstate of its own is kept (state is never deleted)", () => {
    existingOutput("gone", outdir);
    fs.writeFileSync(path.join(outdir, "stacks", "infra-myprefix-gone", "terraform.tfstate"), "{}");
    synthesize(example("basic.yaml"), outdir);
    expect(folders()).toEqual([...BASIC_STACKS, "infra-myprefix-gone"].sort());
    expect(fs.readFileSync(path.join(outdir, "stacks", "infra-myprefix-gone", "terraform.tfstate"), "utf8")).toBe("{}");
  });

  it("a folder the previous synth did not write (a user's) stays, whatever it holds, and so do a user's files beside the stacks", () => {
    existingOutput("basic", outdir);
    const mine = path.join(outdir, "stacks", "my-notes");
    fs.mkdirSync(path.join(mine, ".terraform"), { recursive: true });
    fs.writeFileSync(path.join(mine, "cdk.tf.json"), "{}");
    fs.writeFileSync(path.join(mine, "README.md"), "mine\n");
    fs.writeFileSync(path.join(outdir, "stacks", "README"), "x");
    fs.writeFileSync(path.join(outdir, "NOTES.md"), "notes\n");
    synthesize(example("isolated-clusters.yaml"), outdir);
    expect(folders()).toEqual(["README", "identities-team-a", "identities-team-b", "my-notes", "shared"]);
    expect(tree(mine)).toEqual({ "README.md": expect.any(String), "cdk.tf.json": expect.any(String) });
    expect(fs.existsSync(path.join(mine, ".terraform"))).toBe(true);
    expect(fs.readFileSync(path.join(outdir, "NOTES.md"), "utf8")).toBe("notes\n");
  });

  it("with keepRemovedStacks (under the cdktf CLI, which removes them itself) every old folder stays", () => {
    existingOutput("gone", outdir);
    synthesize(example("basic.yaml"), outdir, { keepRemovedStacks: true });
    expect(folders()).toEqual([...BASIC_STACKS, ...GONE_STACKS].sort());
  });

  it("carryOver reports what it left behind, and ignores files and a missing stacks folder", () => {
    const previous = path.join(work, "previous");
    const next = path.join(work, "next");
    fs.mkdirSync(path.join(next, "stacks", "shared"), { recursive: true });
    fs.mkdirSync(previous);
    expect(carryOver(previous, next)).toEqual([]);
    fs.mkdirSync(path.join(previous, "stacks", "old"), { recursive: true });
    fs.mkdirSync(path.join(previous, "stacks", "mine"), { recursive: true });
    fs.mkdirSync(path.join(previous, "stacks", "shared"), { recursive: true });
    fs.writeFileSync(path.join(previous, "stacks", "README"), "x");
    const manifest = { stacks: { old: { workingDirectory: "stacks/old" }, shared: { workingDirectory: "stacks/shared" } } };
    fs.writeFileSync(path.join(previous, "manifest.json"), JSON.stringify(manifest));
    expect(carryOver(previous, next)).toEqual(["old"]);
    expect(fs.readdirSync(path.join(next, "stacks")).sort()).toEqual(["README", "mine", "shared"]);
    // Without a readable manifest, nothing is known to be synth's: nothing is left behind.
    fs.writeFileSync(path.join(previous, "manifest.json"), "{");
    fs.rmSync(next, { recursive: true });
    fs.mkdirSync(next);
    expect(carryOver(previous, next)).toEqual([]);
    expect(fs.readdirSync(path.join(next, "stacks")).sort()).toEqual(["README", "mine", "old", "shared"]);
  });
});

describe("synthesize: the output folder is replaced whole (stacks/output-folder.ts)", () => {
  let work: string;
  let outdir: string;
  beforeEach(() => {
    work = tempDir();
    outdir = path.join(work, "cdktf.out");
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  it("is a new folder each time, with Terraform's files carried by hard links (no byte copied), and nothing left beside it", () => {
    existingOutput("basic", outdir);
    const provider = path.join(outdir, "stacks", "shared", ".terraform", "providers", "terraform-provider-azurerm");
    fs.mkdirSync(path.dirname(provider), { recursive: true });
    fs.writeFileSync(provider, "\x7fELF", { mode: 0o755 });
    fs.symlinkSync("/plugin-cache/azurerm", path.join(path.dirname(provider), "cached"));
    const before = { folder: fs.statSync(outdir).ino, provider: fs.statSync(provider).ino, manifest: fs.statSync(path.join(outdir, "manifest.json")).ino };
    synthesize(example("basic.yaml"), outdir);
    expect(fs.statSync(outdir).ino).not.toBe(before.folder);
    expect(fs.statSync(path.join(outdir, "manifest.json")).ino).not.toBe(before.manifest);
    expect(fs.statSync(provider)).toMatchObject({ ino: before.provider, nlink: 1 });
    expect(fs.statSync(provider).mode & 0o777).toBe(0o755);
    expect(fs.readlinkSync(path.join(path.dirname(provider), "cached"))).toBe("/plugin-cache/azurerm");
    expect(fs.readdirSync(work)).toEqual(["cdktf.out"]);
  });

  it("keeps the folder's mode (a user's chmod); a first output gets the mode mkdir gives here, not mkdtemp's 0700", () => {
    const write = (folder: string) => fs.writeFileSync(path.join(folder, "manifest.json"), "{}");
    replaceOutput(outdir, write);
    const probe = path.join(work, "probe");
    fs.mkdirSync(probe);
    expect(fs.statSync(outdir).mode & 0o7777).toBe(fs.statSync(probe).mode & 0o7777);
    for (const mode of [0o755, 0o750, 0o700, 0o2775]) {
      fs.chmodSync(outdir, mode);
      replaceOutput(outdir, write);
      expect([mode, fs.statSync(outdir).mode & 0o7777]).toEqual([mode, mode]);
    }
  });

  it("migrates an output folder of the versions before (a plain folder, and their interrupted synths' scratch folders)", () => {
    // What the versions before left: cdktf.out written in place, and a scratch folder `.cdktf.out-XXXXXX` of a killed synth.
    fs.mkdirSync(path.join(outdir, "stacks", "shared", ".terraform"), { recursive: true });
    fs.writeFileSync(path.join(outdir, "manifest.json"), JSON.stringify({ stacks: { shared: { workingDirectory: "stacks/shared" } } }));
    fs.writeFileSync(path.join(outdir, "stacks", "shared", "cdk.tf.json"), "{}");
    fs.writeFileSync(path.join(outdir, "stacks", "shared", ".terraform.lock.hcl"), "# lock\n");
    const scratch = path.join(work, ".cdktf.out-Ab12Cd");
    fs.mkdirSync(path.join(scratch, "stacks", "management"), { recursive: true });
    fs.writeFileSync(path.join(scratch, "manifest.json"), "{}");
    // A user's folder of the same shape holding something else is not synth's.
    const mine = path.join(work, ".cdktf.out-backup");
    fs.mkdirSync(mine);
    fs.writeFileSync(path.join(mine, "notes"), "mine\n");
    synthesize(example("basic.yaml"), outdir);
    expect(fs.readdirSync(work).sort()).toEqual([".cdktf.out-backup", "cdktf.out"]);
    expect(fs.readFileSync(path.join(outdir, "stacks", "shared", ".terraform.lock.hcl"), "utf8")).toBe("# lock\n");
    expect(fs.existsSync(path.join(outdir, "stacks", "shared", ".terraform"))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(outdir, "stacks", "shared", "cdk.tf.json"), "utf8"))).toHaveProperty("resource");
  });

  it("the next synth after a kill between the two renames puts the complete new output in place; one never swapped in is dropped", () => {
    existingOutput("basic", outdir);
    const complete = tree(outdir);
    // Killed between the renames: no output, the complete new one ready beside it.
    fs.renameSync(outdir, path.join(work, ".cdktf.out.old-abc123"));
    fs.cpSync(path.join(work, ".cdktf.out.old-abc123"), path.join(work, ".cdktf.out.ready"), { recursive: true });
    fs.writeFileSync(path.join(work, ".cdktf.out.lock"), "999999999\n"); // the killed synth's lock
    recoverOutput(outdir);
    expect(fs.readdirSync(work)).toEqual(["cdktf.out"]);
    expect(tree(outdir)).toEqual(complete);
    // Killed before the first rename: the old output in place, a ready one beside it, and a half-written one.
    fs.cpSync(outdir, path.join(work, ".cdktf.out.ready"), { recursive: true });
    fs.writeFileSync(path.join(work, ".cdktf.out.ready", "manifest.json"), "{}");
    fs.mkdirSync(path.join(work, ".cdktf.out.new-x1y2z3", "stacks"), { recursive: true });
    recoverOutput(outdir);
    expect(fs.readdirSync(work)).toEqual(["cdktf.out"]);
    expect(tree(outdir)).toEqual(complete);
  });

  it("refuses while another live synth holds the lock, and leaves everything as it was", () => {
    existingOutput("basic", outdir);
    const before = tree(outdir);
    const lock = path.join(work, ".cdktf.out.lock");
    fs.writeFileSync(lock, `${process.ppid}\n`); // a live process other than this one
    expect(() => synthesize(example("isolated-clusters.yaml"), outdir)).toThrow(`another synth (process ${process.ppid}) is writing ${outdir}`);
    expect(tree(outdir)).toEqual(before);
    expect(fs.readdirSync(work).sort()).toEqual([".cdktf.out.lock", "cdktf.out"]);
  });

  it("through a symlinked output folder: replaces the folder it points to, beside it, and keeps the symlink", () => {
    const real = path.join(work, "elsewhere", "out");
    fs.mkdirSync(real, { recursive: true });
    fs.symlinkSync(real, outdir);
    synthesize(example("basic.yaml"), outdir);
    synthesize(example("isolated-clusters.yaml"), outdir);
    expect(fs.lstatSync(outdir).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(path.join(real, "stacks")).sort()).toEqual(["identities-team-a", "identities-team-b", "shared"]);
    expect(fs.readdirSync(path.dirname(real))).toEqual(["out"]);
  });

  it("refuses an output path that is a file", () => {
    fs.writeFileSync(outdir, "not a folder");
    expect(() => synthesize(example("basic.yaml"), outdir)).toThrow(`${outdir} is not a folder`);
    expect(fs.readFileSync(outdir, "utf8")).toBe("not a folder");
  });
});

describe("synthesize: validation", () => {
  it("runs no Terraform (cdktf's version checks spawn `terraform version` per terraform_data; synth needs no Terraform)", () => {
    const work = tempDir();
    // The CommonJS module object, which cdktf's `require("child_process")` also gets.
    const spawned = jest.spyOn(require("node:child_process") as typeof import("node:child_process"), "execSync");
    let commands: unknown[] = [];
    try {
      synthesize(loadExample("basic.yaml"), path.join(work, "cdktf.out"));
      commands = spawned.mock.calls.map((call) => call[0]);
    } finally {
      spawned.mockRestore();
      fs.rmSync(work, { recursive: true, force: true });
    }
    expect(commands).toEqual([]);
  });

  it("still refuses a stack with a resource whose provider it does not configure", () => {
    const stack = new TerraformStack(Testing.app(), "no-provider");
    new ResourceGroup(stack, "group", { name: "rg", location: "eastus" });
    expect(() => assertProvidersPresent([stack])).toThrow(/stack 'no-provider' for the following providers: azurerm/);
  });
});
