import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { App, LocalBackend, TerraformOutput, TerraformStack, Testing } from "cdktf";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkReferencesWhenSynthesized, danglingReferences, skipPreparingResolve } from "../../stacks/references";
import { loadExample, synthStacks, tempDir } from "../helpers";

/**
 * The preparing resolve pass of cdktf is skipped (stacks/references.ts): output must not change,
 * and a reference to another stack's resource, which that pass would have turned into remote
 * state, must fail the synth instead of being written as a dangling address.
 */

function twoStacks(app: App) {
  const a = new TerraformStack(app, "a");
  new AzurermProvider(a, "azurerm", { features: [{}] });
  new LocalBackend(a, { path: "a.tfstate" });
  const group = new ResourceGroup(a, "Group", { name: "rg", location: "eastus" });
  const b = new TerraformStack(app, "b");
  new AzurermProvider(b, "azurerm", { features: [{}] });
  new LocalBackend(b, { path: "b.tfstate" });
  new ResourceGroup(b, "Other", { name: "rg2", location: "eastus", tags: { from: "literal" } });
  return { a, b, group };
}

describe("danglingReferences", () => {
  it("finds a reference to another stack's resource, in an expression and in depends_on", () => {
    const app = Testing.app();
    const { b, group } = twoStacks(app);
    new TerraformOutput(b, "leak", { value: group.id });
    new ResourceGroup(b, "Waits", { name: "rg3", location: "eastus", dependsOn: [group] });
    expect(danglingReferences(JSON.parse(Testing.synth(b)))).toEqual(["azurerm_resource_group.Group"]);
  });

  it("accepts references to the stack's own resources and data sources, escaped literals and quoted text", () => {
    const stack = {
      resource: {
        azurerm_resource_group: { G: { name: "rg" } },
        terraform_data: {
          T: {
            input: "${azurerm_resource_group.G.id}/$${not_a.reference}",
            lifecycle: {
              precondition: [{ condition: '${data.azurerm_client_config.C.tenant_id != ""}', error_message: '${format("see some_type.thing %s", "x")}' }],
            },
            depends_on: ["azurerm_resource_group.G"],
          },
        },
      },
      data: { azurerm_client_config: { C: {} } },
    };
    expect(danglingReferences(stack)).toEqual([]);
    stack.resource.terraform_data.T.depends_on.push("azurerm_role_assignment.Missing");
    expect(danglingReferences(stack)).toEqual(["azurerm_role_assignment.Missing"]);
  });

  it("finds nothing in any stack of the bundled examples", () => {
    for (const example of ["basic.yaml", "external-dns.yaml", "aro-hcp.yaml", "private.yaml", "kms.yaml", "adopt.yaml"]) {
      for (const [name, stack] of Object.entries(synthStacks(loadExample(example))))
        expect([example, name, danglingReferences(stack)]).toEqual([example, name, []]);
    }
  });
});

describe("skipPreparingResolve", () => {
  it("leaves what app.synth() writes unchanged for self-contained stacks", () => {
    const write = (skip: boolean) => {
      const outdir = tempDir("hcp-azure-prepare-");
      const app = new App({ outdir, skipValidation: true });
      const { a, b } = twoStacks(app);
      if (skip) skipPreparingResolve([a, b]);
      app.synth();
      const read = (stack: string) => fs.readFileSync(path.join(outdir, "stacks", stack, "cdk.tf.json"), "utf8");
      const result = [read("a"), read("b")];
      fs.rmSync(outdir, { recursive: true, force: true });
      return result;
    };
    expect(write(true)).toEqual(write(false));
  });
});

describe("checkReferencesWhenSynthesized", () => {
  it("collects each stack's dangling references while app.synth() writes them (the address the skipped pass lets through)", () => {
    const outdir = tempDir("hcp-azure-prepare-");
    try {
      const app = new App({ outdir, skipValidation: true });
      const { a, b, group } = twoStacks(app);
      new TerraformOutput(b, "leak", { value: group.id });
      skipPreparingResolve([a, b]);
      const problems = checkReferencesWhenSynthesized([a, b]);
      app.synth();
      expect(problems).toEqual(["b: azurerm_resource_group.Group"]);
      const written = JSON.parse(fs.readFileSync(path.join(outdir, "stacks", "b", "cdk.tf.json"), "utf8"));
      expect(danglingReferences(written)).toEqual(["azurerm_resource_group.Group"]);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});
