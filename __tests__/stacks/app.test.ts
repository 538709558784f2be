import { TerraformStack, Testing } from "cdktf";
import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import * as fs from "node:fs";
import * as path from "node:path";
import { assertProvidersPresent, removeStaleStacks, synthesize } from "../../stacks/app";
import { loadExample, tempDir } from "../helpers";

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

  it("are removed with Terraform's caches in them; current stacks keep theirs", () => {
    synthesize(loadExample("basic.yaml"), outdir);
    const stale = path.join(outdir, "stacks", "infra-gone");
    fs.mkdirSync(path.join(stale, ".terraform"), { recursive: true });
    fs.writeFileSync(path.join(stale, ".terraform.lock.hcl"), "# lock\n");
    fs.writeFileSync(path.join(stale, "cdk.tf.json"), "{}");
    const lock = path.join(outdir, "stacks", "shared", ".terraform.lock.hcl");
    fs.writeFileSync(lock, "# lock\n");
    synthesize(loadExample("basic.yaml"), outdir);
    expect(folders()).toEqual(["cluster-myprefix-hc", "identities-myprefix-hc", "infra-myprefix-hc", "management", "shared"]);
    expect(fs.readFileSync(lock, "utf8")).toBe("# lock\n");
  });

  it("switching configs leaves only the new config's stacks", () => {
    synthesize(loadExample("external-dns.yaml"), outdir);
    expect(folders()).toContain("infra-myprefix-dev");
    synthesize(loadExample("isolated-clusters.yaml"), outdir);
    expect(folders()).toEqual(["identities-team-a", "identities-team-b", "shared"]);
  });

  it("a folder holding a terraform.tfstate of its own is kept (state is never deleted)", () => {
    synthesize(loadExample("basic.yaml"), outdir);
    const withState = path.join(outdir, "stacks", "legacy");
    fs.mkdirSync(withState);
    fs.writeFileSync(path.join(withState, "terraform.tfstate"), "{}");
    synthesize(loadExample("basic.yaml"), outdir);
    expect(folders()).toContain("legacy");
  });

  it("removeStaleStacks reports what it removed, and ignores files and a missing stacks folder", () => {
    const scratch = path.join(work, "scratch");
    fs.mkdirSync(path.join(scratch, "stacks", "shared"), { recursive: true });
    expect(removeStaleStacks(outdir, scratch)).toEqual([]);
    fs.mkdirSync(path.join(outdir, "stacks", "old"), { recursive: true });
    fs.mkdirSync(path.join(outdir, "stacks", "shared"), { recursive: true });
    fs.writeFileSync(path.join(outdir, "stacks", "README"), "x");
    expect(removeStaleStacks(outdir, scratch)).toEqual(["old"]);
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual(["README", "shared"]);
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
