import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { EXAMPLES, HAVE_TERRAFORM, loadInline, synthStacks, tempDir } from "../helpers";

/**
 * The lifecycle synth writes, run by the real Terraform binary (built-in terraform_data only, no
 * provider): what `destroy` and a replacement do with it, and what they do without it.
 */

const ENV = { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

/** The lifecycle of the OIDC storage account in examples/basic.yaml's shared stack, with overrides. */
function storageAccountLifecycle(overrides: Record<string, unknown> = {}): unknown {
  const input = { ...parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8")), ...overrides };
  const shared = synthStacks(loadInline(input)).shared;
  return (Object.values(shared.resource.azurerm_storage_account)[0] as any).lifecycle;
}

function terraform(dir: string, ...args: string[]) {
  // `state` subcommands take no -input.
  const flags = args[0] === "state" ? [] : ["-input=false", "-no-color"];
  const run = spawnSync("terraform", [...args, ...flags], { cwd: dir, env: ENV, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, output: `${run.stdout}\n${run.stderr}` };
}

/** A configuration of a persistent resource with `lifecycle`, and an unprotected sibling. */
function writeConfig(dir: string, lifecycle: unknown, generation = "1", withPersistent = true): void {
  const resource: Record<string, unknown> = { sibling: { input: "sibling" } };
  if (withPersistent) resource.persistent = { input: "persistent", triggers_replace: [generation], ...(lifecycle ? { lifecycle } : {}) };
  fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ resource: { terraform_data: resource } }));
}

function applied(lifecycle: unknown): string {
  const dir = tempDir("hcp-azure-prevent-destroy-");
  writeConfig(dir, lifecycle);
  // Built-in terraform_data only: no init needed.
  expect(terraform(dir, "apply", "-auto-approve")).toMatchObject({ status: 0 });
  return dir;
}

(HAVE_TERRAFORM ? describe : describe.skip)("prevent_destroy as synthesized, run by Terraform (needs terraform)", () => {
  const dirs: string[] = [];
  const setUp = (lifecycle: unknown) => {
    const dir = applied(lifecycle);
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it("synth writes prevent_destroy by default and no lifecycle with protection.preventDestroy: false", () => {
    expect(storageAccountLifecycle()).toEqual({ prevent_destroy: true });
    expect(storageAccountLifecycle({ protection: { preventDestroy: false } })).toBeUndefined();
  });

  it("default: destroy fails at plan and destroys nothing, not even the unprotected sibling", () => {
    const dir = setUp(storageAccountLifecycle());
    const destroy = terraform(dir, "destroy", "-auto-approve");
    expect(destroy.status).not.toBe(0);
    expect(destroy.output).toMatch(/Instance cannot be destroyed/);
    expect(destroy.output).toContain("terraform_data.persistent");
    expect(terraform(dir, "state", "list").stdout.split("\n").filter(Boolean).sort()).toEqual(["terraform_data.persistent", "terraform_data.sibling"]);
  }, 60_000);

  it("default: a change that replaces the resource fails at plan too (why rotated credentials stay unprotected)", () => {
    const dir = setUp(storageAccountLifecycle());
    writeConfig(dir, storageAccountLifecycle(), "2");
    const plan = terraform(dir, "plan");
    expect(plan.status).not.toBe(0);
    expect(plan.output).toMatch(/Instance cannot be destroyed/);
  }, 60_000);

  it("protection.preventDestroy: false then destroys everything, though the state was applied protected (no deploy needed)", () => {
    const dir = setUp(storageAccountLifecycle());
    writeConfig(dir, storageAccountLifecycle({ protection: { preventDestroy: false } }));
    expect(terraform(dir, "destroy", "-auto-approve")).toMatchObject({ status: 0 });
    expect(terraform(dir, "state", "list").stdout.trim()).toBe("");
  }, 60_000);

  it("a resource removed from the configuration loses its protection: the plan deletes it without error", () => {
    const dir = setUp(storageAccountLifecycle());
    writeConfig(dir, undefined, "1", false);
    const plan = terraform(dir, "plan", "-detailed-exitcode");
    // 2: succeeded with changes.
    expect(plan.status).toBe(2);
    expect(plan.output).toMatch(/terraform_data\.persistent will be destroyed/);
  }, 60_000);
});
