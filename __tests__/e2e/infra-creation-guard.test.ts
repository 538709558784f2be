import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { HAVE_TERRAFORM, hostedClusterSpec, loadInline, minimalConfig, synthStacks, tempDir, terraformApply } from "../helpers";

/**
 * The infra stack's creation guard, run by Terraform itself (built-in provider only): applied with
 * the first config, then planned with edits. `deploy '*'` applies infra-<name> a wave before
 * cluster-<name>, so a rename must fail here, before Azure resources under a running cluster are
 * replaced.
 */

function config(network: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
  return minimalConfig({
    clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), network, nodePools: [{ name: "hc1" }] } }],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
    ...top,
  });
}

/** The guard's terraform_data and local of the infra stack, as a built-in-only configuration. */
function guardOnly(input: Record<string, unknown>) {
  const stacks = synthStacks(loadInline(input));
  const infra = stacks["infra-hc1"];
  const guards = Object.fromEntries(Object.entries(infra.resource.terraform_data as Record<string, any>).filter(([id]) => id.startsWith("CreationGuard_")));
  return { config: { locals: infra.locals, resource: { terraform_data: guards } }, guards, hostedCluster: stacks["cluster-hc1"] };
}

describe("infra creation guard (synthesized)", () => {
  const { guards, hostedCluster } = guardOnly(config());

  it("keeps the values the HostedCluster carries for the fields infra names decide", () => {
    expect(Object.keys(guards)).toHaveLength(1);
    const [guard] = Object.values(guards) as any[];
    expect(guard.lifecycle.ignore_changes).toEqual(["input"]);
    const local = (Object.values(guardOnly(config()).config.locals) as Record<string, string>[])[0];
    const manifest = Object.values(hostedCluster.resource.kubernetes_manifest as Record<string, any>).find((m) => m.manifest.kind === "HostedCluster").manifest;
    expect(local).toEqual({
      "spec.infraID": manifest.spec.infraID,
      "spec.dns.privateZoneID": manifest.spec.dns.privateZoneID,
      "spec.platform.azure.location": manifest.spec.platform.azure.location,
      "spec.platform.azure.resourceGroup": manifest.spec.platform.azure.resourceGroup,
      "spec.platform.azure.vnetID": manifest.spec.platform.azure.vnetID,
      "spec.platform.azure.subnetID": manifest.spec.platform.azure.subnetID,
      "spec.platform.azure.securityGroupID": manifest.spec.platform.azure.securityGroupID,
    });
  });
});

(HAVE_TERRAFORM ? describe : describe.skip)("infra creation guard, run by Terraform (needs terraform on PATH)", () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir("hcp-azure-infra-guard-");
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(guardOnly(config()).config));
    terraformApply(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function plan(input: Record<string, unknown>) {
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(guardOnly(input).config));
    const run = spawnSync("terraform", ["plan", "-input=false", "-no-color", "-detailed-exitcode"], { cwd: dir, encoding: "utf8" });
    return { status: run.status, prose: `${run.stdout}${run.stderr}`.replace(/[│╷╵]/g, " ").replace(/\s+/g, " ") };
  }

  it("an unchanged config plans with no change", () => {
    expect(plan(config()).status).toBe(0);
  });

  it.each([
    ["a renamed VNet", { vnetName: "other-vnet" }, {}, "clusters[0].hostedCluster.network.vnetName", "spec.platform.azure.vnetID"],
    [
      "a renamed managed resource group",
      { resourceGroups: { managed: "other-rg" } },
      {},
      "clusters[0].hostedCluster.network.resourceGroups.managed",
      "spec.platform.azure.resourceGroup",
    ],
    ["another location", {}, { location: "westeurope" }, "location", "spec.platform.azure.location"],
  ])("%s fails the infra plan, naming the key", (_name, network, top, key, field) => {
    const result = plan(config(network, top));
    expect(result.status).toBe(1);
    expect(result.prose).toContain("Resource postcondition failed");
    expect(result.prose).toContain(`${key}`);
    expect(result.prose).toContain(`the Azure infrastructure of hc1 was created with ${field}`);
    expect(result.prose).toContain("Terraform would replace the cluster's Azure resources named by it under the running cluster");
  });
});
