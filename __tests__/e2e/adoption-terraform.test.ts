import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { EXAMPLES, HAVE_TERRAFORM, loadInline, synthStacks, tempDir } from "../helpers";
import { combineCases } from "../terraform-cases";

/**
 * Adoption's Terraform constructs, run by the real Terraform binary with the built-in
 * terraform_data standing in for the Azure resources (no provider here): the import blocks as cdktf
 * renders them are accepted and plan as imports only, an import whose address matches nothing
 * fails the plan, and the adopted OIDC documents are kept until their content changes. The import
 * cases are planned together (combineCases), in the plan that shows the documents replaced.
 */

const ENV = { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
const adoptYaml = parse(fs.readFileSync(path.join(EXAMPLES, "adopt.yaml"), "utf8"));

function terraform(dir: string, ...args: string[]) {
  const run = spawnSync("terraform", [...args, "-input=false", "-no-color"], { cwd: dir, env: ENV, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

function workspace(config: unknown): string {
  const dir = tempDir("hcp-azure-adopt-");
  // Built-in terraform_data only (with moved and import blocks): no init needed.
  fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(config));
  return dir;
}

/** A stack's import blocks verbatim, each `to` pointing at a terraform_data of the same name. */
function standIn(stack: any): { resource: unknown; import: Array<{ to: string; id: string }> } {
  const blocks: Array<{ to: string; id: string }> = stack.import;
  const local = (to: string) => `terraform_data.${to.replace(".", "__")}`;
  return {
    resource: { terraform_data: Object.fromEntries(blocks.map((b) => [local(b.to).split(".")[1], {}])) },
    import: blocks.map((b) => ({ ...b, to: local(b.to) })),
  };
}

(HAVE_TERRAFORM ? describe : describe.skip)("adoption run by Terraform (needs terraform)", () => {
  const stacks = synthStacks(loadInline(adoptYaml));
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  const setUp = (config: unknown) => {
    const dir = workspace(config);
    dirs.push(dir);
    return dir;
  };

  // The guide run with the release-4.21 CLI (help/adopt.md#the-hypershift-release): its private zone and role assignment names.
  const withCli421 = {
    ...adoptYaml,
    managementCluster: { ...adoptYaml.managementCluster, operator: { ...adoptYaml.managementCluster.operator, hypershiftRelease: "4.21" } },
  };
  const stacks421 = synthStacks(loadInline(withCli421));
  const IMPORT_CASES = [
    ["main", "shared"],
    ["main", "identities-myprefix-hc"],
    ["main", "infra-myprefix-hc"],
    ["4.21", "identities-myprefix-hc"],
    ["4.21", "infra-myprefix-hc"],
    ["4.21", "cluster-myprefix-hc"],
  ] as const;
  /** An import case's name in the combined configuration (combineCases). */
  const caseName = (release: string, name: string) => `cli_${release.replace(".", "")}_${name.replace(/-/g, "_")}`;
  const importCases = Object.fromEntries(
    IMPORT_CASES.map(([release, name]) => [caseName(release, name), standIn((release === "4.21" ? stacks421 : stacks)[name])]),
  );
  /**
   * The documents' runs (across runs: state carried): ccoctl's blob as the import leaves it in state
   * (an apply), the first deploy (an apply), a key rotation (a plan, with the import cases beside it).
   */
  let runs: Record<"imported" | "first" | "rotated", { status: number | null; output: string }>;
  beforeAll(() => {
    const dir = setUp({ resource: { terraform_data: { jwks: { input: "ccoctl's jwks" } } } });
    const imported = terraform(dir, "apply", "-auto-approve");
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(documents(stacks.shared, "our jwks")));
    const first = terraform(dir, "apply", "-auto-approve");
    // A key rotation: the same config with another public key.
    const rotated = synthStacks(loadInline({ ...adoptYaml, serviceAccountSigningKey: { publicKeyFile: "keys/cluster-a-signer.public" } }));
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(documents(rotated.shared, "rotated jwks")));
    fs.writeFileSync(path.join(dir, "imports.tf.json"), JSON.stringify(combineCases(importCases), null, 2));
    runs = { imported, first, rotated: terraform(dir, "plan") };
  });

  it.each(IMPORT_CASES)(
    "CLI %s, %s: Terraform accepts the import blocks and plans imports only (N to import, 0 to add, 0 to change, 0 to destroy)",
    (release, name) => {
      const prefix = caseName(release, name);
      const config = importCases[prefix];
      const plan = runs.rotated;
      expect(plan.status).toBe(0);
      // Every stand-in of the case is imported, and nothing else of the case planned.
      const actions = [...plan.output.matchAll(new RegExp(`^\\s*# terraform_data\\.${prefix}__(\\S+) (.*)$`, "gm"))].map((m) => `${m[1]} ${m[2]}`);
      expect(actions.sort()).toEqual(config.import.map((b) => `${b.to.split(".")[1]} will be imported`).sort());
      expect(actions).toHaveLength(config.import.length);
    },
  );

  it("the import cases' plan: all of them imports, beside the documents' replacement (1 to add, 1 to change, 1 to destroy)", () => {
    const imports = Object.values(importCases).reduce((n, c) => n + c.import.length, 0);
    expect(runs.rotated.output).toContain(`Plan: ${imports} to import, 1 to add, 1 to change, 1 to destroy.`);
  });

  it("4.21, cluster-myprefix-hc: every Kubernetes object the stack keeps is an import target, so the stand-in plan covers them all", () => {
    // What would be added besides: only built-in terraform_data (creation guards, input checks), no key generation.
    const stack = stacks421["cluster-myprefix-hc"];
    const kinds = ["kubernetes_manifest", "kubernetes_secret_v1"];
    const kept = kinds.flatMap((type) => Object.keys(stack.resource[type] ?? {}).map((name) => `${type}.${name}`));
    expect(stack.import.map((b: { to: string }) => b.to).sort()).toEqual(kept.sort());
    expect(Object.keys(stack.resource).sort()).toEqual([...kinds, "terraform_data"].sort());
  });

  it("an import block whose address matches no resource fails the plan (what the address test guards)", () => {
    const config = standIn(stacks.shared);
    config.import.push({ to: "terraform_data.not_declared", id: "x" });
    const plan = terraform(setUp(config), "plan");
    expect(plan.status).not.toBe(0);
    expect(plan.output).toMatch(/Configuration for import target does not exist/);
  });

  /** The Jwks blob with its synthesized lifecycle, and the terraform_data of its content hash, verbatim. */
  function documents(stack: any, blobInput: string): unknown {
    const blob: any = Object.values(stack.resource.azurerm_storage_blob).find((b: any) => b.name === "openid/v1/jwks");
    const [trigger] = blob.lifecycle.replace_triggered_by;
    const hashName = trigger.split(".")[1];
    return {
      resource: {
        terraform_data: {
          [hashName]: stack.resource.terraform_data[hashName],
          // The blob: content ignored as azurerm's source_content is (input stands for it).
          jwks: { input: blobInput, lifecycle: { ignore_changes: ["input"], replace_triggered_by: blob.lifecycle.replace_triggered_by } },
        },
      },
    };
  }

  it("ccoctl's documents stay on the first deploy, and are replaced when the key changes", () => {
    expect(runs.imported).toMatchObject({ status: 0 });
    expect(runs.first.status).toBe(0);
    expect(runs.first.output).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    expect(runs.rotated.status).toBe(0);
    expect(runs.rotated.output).toContain("terraform_data.jwks will be replaced due to changes in replace_triggered_by");
  });

  it("Terraform's JSON syntax rejects cdktf's \"${...}\" form in replace_triggered_by, hence the plain address", () => {
    const dir = tempDir("hcp-azure-adopt-");
    dirs.push(dir);
    const config = {
      resource: { terraform_data: { hash: { input: "a" }, blob: { input: "b", lifecycle: { replace_triggered_by: ["${terraform_data.hash}"] } } } },
    };
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(config));
    // init already parses the configuration.
    const init = terraform(dir, "init");
    expect(init.status).not.toBe(0);
    expect(init.output).toMatch(/Invalid character/);
  });
});
