import { TerraformOutput, TerraformStack, Testing } from "cdktf";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { kubernetesInputs, pullSecretInput, sshPublicKeyInput } from "../../config/plan-time-inputs";
import { PlanTimeInput, PlanTimeInputProps } from "../../constructs/plan-time-input/plan-time-input";
import { HAVE_TERRAFORM, tempDir } from "../helpers";

/** Synthesizes one input whose value an output uses, as a stack's resources would. */
function synth(props: PlanTimeInputProps, id = "PullSecretInput") {
  const stack = new TerraformStack(Testing.app(), "s");
  const input = new PlanTimeInput(stack, id, props);
  new TerraformOutput(stack, "value", { value: input.value, sensitive: true });
  const json = JSON.parse(Testing.synth(stack));
  return { input, json, value: json.output.value.value as string };
}

describe("PlanTimeInput", () => {
  const pull = pullSecretInput("the HostedCluster hc1", "clusters[0].hostedCluster.pullSecretFile", "pull-secret.json");

  it("files mode: the value is file() of the path, sensitive for a secret; no variable, no check", () => {
    const { input, json, value } = synth({ spec: pull, source: "files", file: "../../../pull-secret.json" });
    expect(value).toBe('${sensitive(file("../../../pull-secret.json"))}');
    expect(input.variable).toBeUndefined();
    expect(input.check).toBeUndefined();
    expect(input.file).toBe("../../../pull-secret.json");
    expect(json.variable).toBeUndefined();
    expect(json.resource).toBeUndefined();
    expect(synth({ spec: sshPublicKeyInput("hc1", "k", "id.pub"), source: "files", file: "id.pub" }, "Ssh").value).toBe('${file("id.pub")}');
  });

  it("files mode: any path reaches file() as a literal (quotes, backslashes, templates)", () => {
    expect(synth({ spec: pull, source: "files", file: 'a"b\\c${d}.json' }).value).toBe('${sensitive(file("a\\"b\\\\c$${d}.json"))}');
  });

  it("variables mode: a variable named by the spec (never a derived logical ID), sensitive, required, checked by a precondition", () => {
    const { json, value } = synth({ spec: pull, source: "variables" });
    expect(value).toBe("${var.pull_secret}");
    expect(Object.keys(json.variable)).toEqual(["pull_secret"]);
    expect(json.variable.pull_secret).toEqual({ type: "string", description: pull.description, sensitive: true, nullable: false });
    const checks = Object.values(json.resource.terraform_data as Record<string, any>);
    expect(checks).toEqual([{ lifecycle: { precondition: [{ condition: pull.validations[0].condition, error_message: pull.validations[0].errorMessage }] } }]);
  });

  it("variables mode, non-secret: validation blocks on the variable, no precondition", () => {
    const host = kubernetesInputs().find((s) => s.variable === "kube_host")!;
    const { json } = synth({ spec: host, source: "variables" }, "Host");
    expect(json.variable.kube_host.validation).toEqual([{ condition: host.validations[0].condition, error_message: host.validations[0].errorMessage }]);
    expect(json.variable.kube_host.sensitive).toBeUndefined();
    expect(json.resource).toBeUndefined();
  });

  it("an optional variable defaults to null and is nullable", () => {
    const token = kubernetesInputs().find((s) => s.variable === "kube_token")!;
    const { json } = synth({ spec: token, source: "variables" }, "Token");
    expect(json.variable.kube_token).toMatchObject({ default: null, nullable: true, sensitive: true });
  });

  it("config text in the description stays as written: Terraform reads descriptions as plain text", () => {
    const spec = pullSecretInput("x", "k", 'secrets/${file("/etc/passwd")}%{if true}.json');
    const { json } = synth({ spec, source: "variables" });
    expect(json.variable.pull_secret.description).toContain('secrets/${file("/etc/passwd")}%{if true}.json');
    if (!HAVE_TERRAFORM) return; // the proof below needs terraform
    // Terraform plans it without evaluating the description (a template there would fail: no file, bad directive).
    const dir = tempDir("hcp-azure-description-");
    try {
      fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ variable: json.variable }));
      const env = { PATH: process.env.PATH, HOME: dir, TF_VAR_pull_secret: '{"auths":{"r":{}}}' };
      // Variables only: no init needed.
      const run = spawnSync("terraform", ["plan", "-input=false", "-no-color"], { cwd: dir, env, encoding: "utf8" });
      expect({ status: run.status, output: run.status === 0 ? "" : `${run.stdout}${run.stderr}` }).toEqual({ status: 0, output: "" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a bad variable name and files mode without a file", () => {
    expect(() => synth({ spec: { ...pull, variable: "Pull-Secret" }, source: "variables" })).toThrow(/lower snake case/);
    expect(() => synth({ spec: pull, source: "files" })).toThrow(/files mode needs the file Terraform reads \(pull_secret\)/);
  });
});
