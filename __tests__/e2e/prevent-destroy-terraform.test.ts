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
  const run = spawnSync("terraform", [...args, "-input=false", "-no-color"], { cwd: dir, env: ENV, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, output: `${run.stdout}\n${run.stderr}` };
}

/** A configuration of a persistent resource with `lifecycle`, and an unprotected sibling. */
function writeConfig(dir: string, lifecycle: unknown, generation = "1", withPersistent = true): void {
  const resource: Record<string, unknown> = { sibling: { input: "sibling" } };
  if (withPersistent) resource.persistent = { input: "persistent", triggers_replace: [generation], ...(lifecycle ? { lifecycle } : {}) };
  fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ resource: { terraform_data: resource } }));
}

/**
 * What `terraform state list` prints, read from the local state file it reads: the address of every
 * resource instance (terraform_data has no count or for_each here; an index would show as `[key]`).
 */
function stateList(dir: string): string[] {
  const state = JSON.parse(fs.readFileSync(path.join(dir, "terraform.tfstate"), "utf8"));
  return state.resources.flatMap((r: any) =>
    r.instances.map((instance: any) => `${r.type}.${r.name}${instance.index_key === undefined ? "" : `[${JSON.stringify(instance.index_key)}]`}`),
  );
}

(HAVE_TERRAFORM ? describe : describe.skip)("prevent_destroy as synthesized, run by Terraform (needs terraform)", () => {
  let protectedLifecycle: unknown;
  let unprotectedLifecycle: unknown;
  let applied: string;
  beforeAll(() => {
    protectedLifecycle = storageAccountLifecycle();
    unprotectedLifecycle = storageAccountLifecycle({ protection: { preventDestroy: false } });
    // One apply of the default (protected) configuration; each test works on a copy of its folder
    // (configuration and the state Terraform wrote), as if it had applied it itself.
    applied = tempDir("hcp-azure-prevent-destroy-");
    writeConfig(applied, protectedLifecycle);
    // Built-in terraform_data only: no init needed.
    expect(terraform(applied, "apply", "-auto-approve")).toMatchObject({ status: 0 });
  });
  const dirs: string[] = [];
  const setUp = () => {
    const dir = tempDir("hcp-azure-prevent-destroy-");
    for (const file of ["main.tf.json", "terraform.tfstate"]) fs.copyFileSync(path.join(applied, file), path.join(dir, file));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => [applied, ...dirs].forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it("synth writes prevent_destroy by default and no lifecycle with protection.preventDestroy: false", () => {
    expect(protectedLifecycle).toEqual({ prevent_destroy: true });
    expect(unprotectedLifecycle).toBeUndefined();
  });

  it("default: destroy fails at plan and destroys nothing, not even the unprotected sibling", () => {
    const dir = setUp();
    const destroy = terraform(dir, "destroy", "-auto-approve");
    expect(destroy.status).not.toBe(0);
    expect(destroy.output).toMatch(/Instance cannot be destroyed/);
    expect(destroy.output).toContain("terraform_data.persistent");
    expect(stateList(dir).sort()).toEqual(["terraform_data.persistent", "terraform_data.sibling"]);
  }, 60_000);

  it("default: a change that replaces the resource fails at plan too (why rotated credentials stay unprotected)", () => {
    const dir = setUp();
    writeConfig(dir, protectedLifecycle, "2");
    const plan = terraform(dir, "plan");
    expect(plan.status).not.toBe(0);
    expect(plan.output).toMatch(/Instance cannot be destroyed/);
  }, 60_000);

  it("protection.preventDestroy: false then destroys everything, though the state was applied protected (no deploy needed)", () => {
    const dir = setUp();
    writeConfig(dir, unprotectedLifecycle);
    expect(terraform(dir, "destroy", "-auto-approve")).toMatchObject({ status: 0 });
    expect(stateList(dir)).toEqual([]);
  }, 60_000);

  it("a resource removed from the configuration loses its protection: the plan deletes it without error", () => {
    const dir = setUp();
    writeConfig(dir, undefined, "1", false);
    const plan = terraform(dir, "plan", "-detailed-exitcode");
    // 2: succeeded with changes.
    expect(plan.status).toBe(2);
    expect(plan.output).toMatch(/terraform_data\.persistent will be destroyed/);
  }, 60_000);
});
