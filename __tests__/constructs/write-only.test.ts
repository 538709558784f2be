import { Fn, TerraformOutput, TerraformStack, TerraformVariable, Testing } from "cdktf";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { OperatorSecret } from "../../constructs/hypershift-operator/operator-secret";
import { WRITE_ONLY_TERRAFORM_VERSION, writeOnlyRevision } from "../../constructs/write-only/write-only";
import { HAVE_TERRAFORM, tempDir, TERRAFORM_VERSION } from "../helpers";
import { caseDiagnostics, caseOutput, combineCases } from "../terraform-cases";

const ENV = { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

/** The revision as writeOnlyRevision defines it, computed here without Terraform. */
function expectedRevision(label: string, data: Record<string, string>): number {
  // Terraform's jsonencode of a string map: keys sorted, no spaces (values here need no escaping).
  const json = JSON.stringify(Object.fromEntries(Object.entries(data).sort(([a], [b]) => a.localeCompare(b))));
  return 1 + parseInt(createHash("sha256").update(`${label}\n${json}`).digest("hex").slice(0, 13), 16);
}

/** A stack of built-in things only: the revision of a sensitive variable, as an output. */
function revisionConfig(label: string): Record<string, any> {
  const stack = new TerraformStack(Testing.app(), "s");
  const secret = new TerraformVariable(stack, "secret", { type: "string", sensitive: true });
  secret.overrideLogicalId("secret");
  new TerraformOutput(stack, "revision", { value: writeOnlyRevision(label, { key: secret.stringValue, other: "x" }), sensitive: true });
  return JSON.parse(Testing.synth(stack));
}

describe("writeOnlyRevision", () => {
  it("refuses a label that is empty or a template", () => {
    expect(() => writeOnlyRevision("", "${var.x}")).toThrow(/label "" must be non-empty plain text/);
    expect(() => writeOnlyRevision("a${b}", "${var.x}")).toThrow(/must be non-empty plain text/);
  });
});

/** The OperatorSecret's check block, its Secret replaced by a terraform_data whose output stands for `data`. */
function checkConfig(data: string): { id: string; config: Record<string, any> } {
  const json = JSON.parse(
    Testing.synthScope((scope) => void new OperatorSecret(scope, "S", { name: "pull-secret", namespace: "hypershift", data: { k: Fn.file("pull.json") } })),
  );
  const [id] = Object.keys(json.resource.kubernetes_secret_v1);
  const check = JSON.parse(JSON.stringify(json.check).replaceAll(`kubernetes_secret_v1.${id}.data`, "terraform_data.secret.output"));
  for (const block of Object.values<any>(check)) expect(block.assert[0].condition).not.toContain("kubernetes_secret_v1");
  return { id, config: { resource: { terraform_data: { secret: { input: data } } }, check } };
}

const installed = TERRAFORM_VERSION;
const [major, minor] = installed.split(".").map(Number);
const supportsWriteOnly = major > 1 || (major === 1 && minor >= 11);

/**
 * One `terraform apply` evaluates the revisions and the data-in-state warnings below (combineCases:
 * each case's names prefixed `<case>__`) under required_version WRITE_ONLY_TERRAFORM_VERSION.
 */
const REVISIONS = { pull_first: ["pull-secret", "first"], pull_second: ["pull-secret", "second"], other_first: ["other-secret", "first"] } as const;
const STALE = { stale: '${sensitive({".dockerconfigjson" = "TOP-SECRET-VALUE"})}', null_data: "${null}", empty_data: "${{}}" } as const;

(HAVE_TERRAFORM ? describe : describe.skip)("evaluated by Terraform", () => {
  let applied: { status: number | null; stdout: string; stderr: string; output: string; outputs: Record<string, any>; id: string };

  beforeAll(() => {
    const dir = tempDir("write-only");
    const checks = Object.fromEntries(Object.entries(STALE).map(([name, data]) => [name, checkConfig(data)]));
    const combined = combineCases({
      ...Object.fromEntries(Object.entries(REVISIONS).map(([name, [label]]) => [name, revisionConfig(label)])),
      ...Object.fromEntries(Object.entries(checks).map(([name, { config }]) => [name, config])),
    });
    // Two files: Terraform quotes the source line of a failed check, which must not be the stand-in's value.
    fs.writeFileSync(path.join(dir, "secret.tf.json"), JSON.stringify({ resource: combined.resource }, null, 2));
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ ...combined, resource: undefined }, null, 2));
    // Where the installed Terraform refuses the constraint, its test runs it alone.
    if (supportsWriteOnly)
      fs.writeFileSync(path.join(dir, "versions.tf.json"), JSON.stringify({ terraform: { required_version: WRITE_ONLY_TERRAFORM_VERSION } }));
    const env = { ...ENV, ...Object.fromEntries(Object.entries(REVISIONS).map(([name, [, value]]) => [`TF_VAR_${name}__secret`, value])) };
    const run = spawnSync("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], { cwd: dir, env, encoding: "utf8" });
    // The outputs as Terraform stored them (what `terraform output` prints), by case.
    const state = fs.existsSync(path.join(dir, "terraform.tfstate"))
      ? JSON.parse(fs.readFileSync(path.join(dir, "terraform.tfstate"), "utf8"))
      : { outputs: {} };
    const outputs = Object.fromEntries(Object.entries<any>(state.outputs).map(([name, output]) => [name, output.value]));
    const ids = new Set(Object.values(checks).map((c) => c.id));
    expect(ids.size).toBe(1);
    applied = { status: run.status, stdout: run.stdout, stderr: run.stderr, output: `${run.stdout}${run.stderr}`, outputs, id: [...ids][0] };
  }, 60_000);

  describe("writeOnlyRevision", () => {
    const revisions = new Map<string, number>();

    beforeAll(() => {
      expect({ status: applied.status, stderr: applied.stderr }).toMatchObject({ status: 0 });
      for (const [name, [label, value]] of Object.entries(REVISIONS)) revisions.set(`${label}/${value}`, applied.outputs[`${name}__revision`]);
    });

    it("is 1 + the first 52 bits of SHA-256 over the label, a newline and the JSON of the data", () => {
      expect(revisions.size).toBe(3);
      for (const [key, revision] of revisions) {
        const [label, value] = key.split("/");
        expect(revision).toBe(expectedRevision(label, { key: value, other: "x" }));
        expect(Number.isSafeInteger(revision)).toBe(true);
        expect(revision).toBeGreaterThanOrEqual(1); // the providers' minimum
        expect(revision).toBeLessThanOrEqual(2 ** 52);
      }
    });

    it("changes with the value (so a rotated secret is written) and with the label (equal values in two Secrets do not show)", () => {
      expect(revisions.get("pull-secret/second")).not.toBe(revisions.get("pull-secret/first"));
      expect(revisions.get("other-secret/first")).not.toBe(revisions.get("pull-secret/first"));
    });
  });

  describe("the data-in-state warning of a write-only Secret", () => {
    const names = [...Object.keys(REVISIONS), ...Object.keys(STALE)];
    /** What an apply of the case alone would print: the other cases' warnings cut out. */
    const alone = (name: keyof typeof STALE) => {
      expect(applied.status).toBe(0); // a warning, never an error
      expect(caseDiagnostics(applied.output, names).filter((d) => d.case === undefined && /Check block/.test(d.text))).toEqual([]);
      return caseOutput(applied.output, names, name);
    };

    it("warns, with the replace command and without the value, while data holds the old value", () => {
      const output = alone("stale");
      expect(output).toContain("Warning: Check block assertion failed");
      expect(output.replace(/\s+/g, " ")).toContain(`terraform apply -replace=kubernetes_secret_v1.${applied.id} `);
      expect(applied.output).not.toContain("TOP-SECRET-VALUE");
    });

    it("is silent when data is null or empty (a Secret created or replaced with data_wo)", () => {
      for (const name of ["null_data", "empty_data"] as const) expect(alone(name)).not.toContain("Warning: Check block assertion failed");
    });
  });

  describe(`required_version ${WRITE_ONLY_TERRAFORM_VERSION}, as Terraform reads it`, () => {
    const run = (requiredVersion: string, command: string) => {
      const dir = tempDir("required-version");
      fs.writeFileSync(
        path.join(dir, "main.tf.json"),
        JSON.stringify({ terraform: { required_version: requiredVersion }, resource: { terraform_data: { x: {} } } }),
      );
      return spawnSync("terraform", [command, "-input=false", "-no-color"], { cwd: dir, env: ENV, encoding: "utf8" });
    };

    // Each refusal is a whole run's exit status, of its own command: a run each.
    it("a Terraform older than the constraint refuses init and plan, saying which version it is (shown with >= 99)", () => {
      for (const command of ["init", "plan"]) {
        const refused = run(">= 99", command);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toContain("Error: Unsupported Terraform Core version");
        expect(refused.stderr.replace(/\s+/g, " ")).toContain(`This configuration does not support Terraform version ${installed}`);
      }
    });

    it(`Terraform ${installed} ${supportsWriteOnly ? "accepts" : "refuses"} ${WRITE_ONLY_TERRAFORM_VERSION}`, () => {
      // Where it accepts it, the apply above ran under it.
      const result = supportsWriteOnly ? applied : run(WRITE_ONLY_TERRAFORM_VERSION, "plan");
      expect({ status: result.status, stderr: result.stderr.includes("Unsupported Terraform Core version") }).toEqual(
        supportsWriteOnly ? { status: 0, stderr: false } : { status: 1, stderr: true },
      );
    });
  });
});
