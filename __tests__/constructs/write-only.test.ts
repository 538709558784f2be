import { Fn, TerraformOutput, TerraformStack, TerraformVariable, Testing } from "cdktf";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { OperatorSecret } from "../../constructs/hypershift-operator/operator-secret";
import { WRITE_ONLY_TERRAFORM_VERSION, writeOnlyRevision } from "../../constructs/write-only/write-only";
import { HAVE_TERRAFORM, tempDir, terraformApply } from "../helpers";

const ENV = { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

/** The revision as writeOnlyRevision defines it, computed here without Terraform. */
function expectedRevision(label: string, data: Record<string, string>): number {
  // Terraform's jsonencode of a string map: keys sorted, no spaces (values here need no escaping).
  const json = JSON.stringify(Object.fromEntries(Object.entries(data).sort(([a], [b]) => a.localeCompare(b))));
  return 1 + parseInt(createHash("sha256").update(`${label}\n${json}`).digest("hex").slice(0, 13), 16);
}

/** A stack of built-in things only: the revision of a sensitive variable, as an output. */
function revisionConfig(label: string): string {
  const stack = new TerraformStack(Testing.app(), "s");
  const secret = new TerraformVariable(stack, "secret", { type: "string", sensitive: true });
  secret.overrideLogicalId("secret");
  new TerraformOutput(stack, "revision", { value: writeOnlyRevision(label, { key: secret.stringValue, other: "x" }), sensitive: true });
  return Testing.synth(stack);
}

describe("writeOnlyRevision", () => {
  it("refuses a label that is empty or a template", () => {
    expect(() => writeOnlyRevision("", "${var.x}")).toThrow(/label "" must be non-empty plain text/);
    expect(() => writeOnlyRevision("a${b}", "${var.x}")).toThrow(/must be non-empty plain text/);
  });
});

(HAVE_TERRAFORM ? describe : describe.skip)("writeOnlyRevision, evaluated by Terraform", () => {
  const revisions = new Map<string, number>();

  beforeAll(() => {
    for (const [label, value] of [
      ["pull-secret", "first"],
      ["pull-secret", "second"],
      ["other-secret", "first"],
    ]) {
      const dir = tempDir("revision");
      fs.writeFileSync(path.join(dir, "main.tf.json"), revisionConfig(label));
      terraformApply(dir, { ...ENV, TF_VAR_secret: value });
      const run = spawnSync("terraform", ["output", "-json", "revision"], { cwd: dir, env: ENV, encoding: "utf8" });
      revisions.set(`${label}/${value}`, JSON.parse(run.stdout));
    }
  }, 60_000);

  it("is 1 + the first 52 bits of SHA-256 over the label, a newline and the JSON of the data", () => {
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

(HAVE_TERRAFORM ? describe : describe.skip)("the data-in-state warning of a write-only Secret, evaluated by Terraform", () => {
  /** The OperatorSecret's check block, its Secret replaced by a terraform_data whose output stands for `data`. */
  function checkConfig(data: string): { id: string; stateData: string; check: string } {
    const json = JSON.parse(
      Testing.synthScope((scope) => void new OperatorSecret(scope, "S", { name: "pull-secret", namespace: "hypershift", data: { k: Fn.file("pull.json") } })),
    );
    const [id] = Object.keys(json.resource.kubernetes_secret_v1);
    const check = JSON.parse(JSON.stringify(json.check).replaceAll(`kubernetes_secret_v1.${id}.data`, "terraform_data.secret.output"));
    for (const block of Object.values<any>(check)) expect(block.assert[0].condition).not.toContain("kubernetes_secret_v1");
    // Two files: Terraform quotes the source line of a failed check, which must not be the stand-in's value.
    return { id, stateData: JSON.stringify({ resource: { terraform_data: { secret: { input: data } } } }), check: JSON.stringify({ check }) };
  }

  const apply = (data: string) => {
    const dir = tempDir("stale-data");
    const { id, stateData, check } = checkConfig(data);
    fs.writeFileSync(path.join(dir, "secret.tf.json"), stateData);
    fs.writeFileSync(path.join(dir, "main.tf.json"), check);
    const run = spawnSync("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], { cwd: dir, env: ENV, encoding: "utf8" });
    expect(run.status).toBe(0); // a warning, never an error
    return { id, output: `${run.stdout}${run.stderr}` };
  };

  it("warns, with the replace command and without the value, while data holds the old value", () => {
    const { id, output } = apply('${sensitive({".dockerconfigjson" = "TOP-SECRET-VALUE"})}');
    expect(output).toContain("Warning: Check block assertion failed");
    expect(output.replace(/\s+/g, " ")).toContain(`terraform apply -replace=kubernetes_secret_v1.${id} `);
    expect(output).not.toContain("TOP-SECRET-VALUE");
  });

  it("is silent when data is null or empty (a Secret created or replaced with data_wo)", () => {
    for (const data of ["${null}", "${{}}"]) expect(apply(data).output).not.toContain("Warning: Check block assertion failed");
  });
});

(HAVE_TERRAFORM ? describe : describe.skip)(`required_version ${WRITE_ONLY_TERRAFORM_VERSION}, as Terraform reads it`, () => {
  const run = (requiredVersion: string, command: string) => {
    const dir = tempDir("required-version");
    fs.writeFileSync(
      path.join(dir, "main.tf.json"),
      JSON.stringify({ terraform: { required_version: requiredVersion }, resource: { terraform_data: { x: {} } } }),
    );
    return spawnSync("terraform", [command, "-input=false", "-no-color"], { cwd: dir, env: ENV, encoding: "utf8" });
  };
  const installed = JSON.parse(spawnSync("terraform", ["version", "-json"], { encoding: "utf8" }).stdout).terraform_version as string;
  const [major, minor] = installed.split(".").map(Number);
  const supportsWriteOnly = major > 1 || (major === 1 && minor >= 11);

  it("a Terraform older than the constraint refuses init and plan, saying which version it is (shown with >= 99)", () => {
    for (const command of ["init", "plan"]) {
      const refused = run(">= 99", command);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain("Error: Unsupported Terraform Core version");
      expect(refused.stderr.replace(/\s+/g, " ")).toContain(`This configuration does not support Terraform version ${installed}`);
    }
  });

  it(`Terraform ${installed} ${supportsWriteOnly ? "accepts" : "refuses"} ${WRITE_ONLY_TERRAFORM_VERSION}`, () => {
    const result = run(WRITE_ONLY_TERRAFORM_VERSION, "plan");
    expect({ status: result.status, stderr: result.stderr.includes("Unsupported Terraform Core version") }).toEqual(
      supportsWriteOnly ? { status: 0, stderr: false } : { status: 1, stderr: true },
    );
  });
});
