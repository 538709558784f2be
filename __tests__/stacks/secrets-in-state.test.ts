import * as fs from "node:fs";
import * as path from "node:path";
import { WRITE_ONLY_TERRAFORM_VERSION } from "../../constructs/write-only/write-only";
import { EXAMPLES, loadExample, REPO, synthStacks } from "../helpers";
import { appSecretArguments, otherSecretCopies, SecretArgument } from "./secrets-in-state";

/**
 * Issue 22, item 4: which secret values each example's Terraform keeps in state. Every argument
 * of a Kubernetes Secret or Key Vault secret fed from a secret input (a sensitive file or
 * variable, another stack's state, a generated key) is listed; a write-only one (data_wo,
 * value_wo) never reaches plan or state. The table in help/terraform-cloud.md is this test's.
 */

const examples = fs
  .readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort();
const measured = new Map<string, SecretArgument[]>(examples.map((file) => [file, appSecretArguments(synthStacks(loadExample(file)))]));
/** Other resources, data sources and outputs that keep a secret in state (the remainder help explains). */
const others = new Map(
  examples.map((file) => [file, Object.entries(synthStacks(loadExample(file))).flatMap(([name, stack]) => otherSecretCopies(name, stack))]),
);

const describeEntry = (a: SecretArgument) => `\`${a.stack}\` ${a.secret}${a.writeOnly ? "" : ` (${a.source})`}`;

/** The table of help/terraform-cloud.md: per example, the secret values, and those still in state. */
function table(): string {
  const rows = examples.map((file) => {
    const all = measured.get(file) ?? [];
    const stored = all.filter((a) => !a.writeOnly);
    const written = all.filter((a) => a.writeOnly);
    const copies = (others.get(file) ?? []).map((c) => `\`${c.stack}\` ${c.label} (${c.source})`);
    return `| \`${file}\` | ${all.length} | ${stored.length} | ${written.map(describeEntry).join("<br>") || "none"} | ${stored.map(describeEntry).join("<br>") || "none"} | ${copies.join("<br>") || "none"} |`;
  });
  return [
    "| Example | Secret values written to Secrets and Key Vault (before: all in state) | Of them in state now | Write-only now (out of plan and state) | Still in state (source) | Other copies in state, unchanged (source) |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

describe("secret values in state, per example", () => {
  it("no value from a plan-time input or another stack's state is stored: only values generated in this state remain", () => {
    for (const [file, args] of measured) {
      const stored = args.filter((a) => !a.writeOnly && a.source !== "generated in state");
      expect({ file, stored }).toEqual({ file, stored: [] });
    }
  });

  it("every plan-time and remote-state secret reaches its Secret write-only (none was dropped)", () => {
    for (const [, args] of measured) for (const a of args) if (a.source !== "generated in state") expect(a.argument).toMatch(/_wo$/);
    // Each example with a HostedCluster writes its pull secret and signing key.
    const written = [...measured.values()].flat().filter((a) => a.writeOnly);
    expect(written.some((a) => a.secret.endsWith("-pull-secret[.dockerconfigjson]"))).toBe(true);
    expect(written.some((a) => a.secret.endsWith("sa-token-issuer-key[key]"))).toBe(true);
  });

  it(`every stack with a write-only argument requires Terraform ${WRITE_ONLY_TERRAFORM_VERSION}`, () => {
    for (const file of examples) {
      const stacks = synthStacks(loadExample(file));
      for (const [name, stack] of Object.entries<any>(stacks)) {
        const text = JSON.stringify(stack.resource ?? {});
        const writeOnly = /"(data_wo|binary_data_wo|value_wo)":/.test(text);
        if (writeOnly) expect({ file, name, required: stack.terraform?.required_version }).toEqual({ file, name, required: WRITE_ONLY_TERRAFORM_VERSION });
      }
    }
  });

  it("help/terraform-cloud.md shows this table", () => {
    const help = fs.readFileSync(path.join(REPO, "help", "terraform-cloud.md"), "utf8");
    const expected = table();
    if (!help.includes(expected)) throw new Error(`help/terraform-cloud.md ("Secrets in state") must hold this table:\n\n${expected}\n`);
  });
});
