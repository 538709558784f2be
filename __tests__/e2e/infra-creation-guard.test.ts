import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { HAVE_TERRAFORM, hostedClusterSpec, loadInline, minimalConfig, synthStacks, tempDir, terraformApply } from "../helpers";
import { moduleCaseOutcomes, writeModuleCases } from "../terraform-cases";

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

const REFUSED = [
  ["a renamed VNet", { vnetName: "other-vnet" }, {}, "clusters[0].hostedCluster.network.vnetName", "spec.platform.azure.vnetID"],
  [
    "a renamed managed resource group",
    { resourceGroups: { managed: "other-rg" } },
    {},
    "clusters[0].hostedCluster.network.resourceGroups.managed",
    "spec.platform.azure.resourceGroup",
  ],
  ["another location", {}, { location: "westeurope" }, "location", "spec.platform.azure.location"],
] as const;

(HAVE_TERRAFORM ? describe : describe.skip)("infra creation guard, run by Terraform (needs terraform on PATH)", () => {
  let dir: string;
  const plans = new Map<string, { status: number; prose: string }>();
  const env = { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

  /**
   * Applies the first config, then plans every case against its state in ONE Terraform run: each
   * case is a local module (its folder holds the guard config, its resources in the state are the
   * applied ones under its module address; the modules' manifest is written here, as `terraform
   * init` would). A case's errors are the diagnostics from its folder, its changes the
   * planned_change messages of its module; its status what `plan -detailed-exitcode` of that
   * config alone returns: 1 with an error, 2 with a change, else 0.
   */
  beforeAll(() => {
    dir = tempDir("hcp-azure-infra-guard-");
    const created = path.join(dir, "created");
    fs.mkdirSync(created);
    fs.writeFileSync(path.join(created, "main.tf.json"), JSON.stringify(guardOnly(config()).config));
    terraformApply(created, env);
    const cases = [{ name: "an unchanged config", network: {}, top: {} }, ...REFUSED.map(([name, network, top]) => ({ name, network, top }))];
    const applied = JSON.parse(fs.readFileSync(path.join(created, "terraform.tfstate"), "utf8"));
    const each = path.join(dir, "plan-each");
    writeModuleCases(
      each,
      applied,
      cases.map(({ network, top }) => ({ config: guardOnly(config(network, top)).config })),
    );
    const run = spawnSync("terraform", ["plan", "-input=false", "-lock=false", "-detailed-exitcode", "-json"], { cwd: each, env, encoding: "utf8" });
    moduleCaseOutcomes(run, cases.length).forEach(({ status, errors }, i) =>
      plans.set(cases[i].name, { status, prose: errors.join(" ").replace(/\s+/g, " ") }),
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("an unchanged config plans with no change", () => {
    expect(plans.get("an unchanged config")!.status).toBe(0);
  });

  it.each(REFUSED)("%s fails the infra plan, naming the key", (name, _network, _top, key, field) => {
    const result = plans.get(name)!;
    expect(result.status).toBe(1);
    expect(result.prose).toContain("Resource postcondition failed");
    expect(result.prose).toContain(`${key}`);
    expect(result.prose).toContain(`the Azure infrastructure of hc1 was created with ${field}`);
    expect(result.prose).toContain("Terraform would replace the cluster's Azure resources named by it under the running cluster");
  });
});
