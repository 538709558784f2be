import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { HOSTED_CLUSTER_IMMUTABLE_FIELDS } from "../../constructs/hosted-cluster/immutable-fields";
import { HyperShiftObject } from "../../constructs/hosted-cluster/hypershift-object";
import { EXAMPLES, HAVE_TERRAFORM, hostedClusterSpec, loadInline, minimalConfig, synthStacks, tempDir } from "../helpers";
import { moduleCaseOutcomes, writeModuleCases } from "../terraform-cases";

/**
 * The infra stack's creation guards, run by Terraform itself (built-in provider only): applied with
 * the first config, then planned with edits. `deploy '*'` applies infra-<name> a wave before
 * cluster-<name>, so a rename, another NAT subnet or another endpoint access must fail here,
 * before Azure resources under a running cluster are replaced or deleted.
 */

function config(network: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
  return minimalConfig({
    clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), network, nodePools: [{ name: "hc1" }] } }],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
    ...top,
  });
}

const PRIVATE_EXAMPLE = parse(fs.readFileSync(path.join(EXAMPLES, "private.yaml"), "utf8"));
// myprefix-private alone: the other cluster would only double each case's synth.
PRIVATE_EXAMPLE.clusters = PRIVATE_EXAMPLE.clusters.slice(0, 1);
/** examples/private.yaml with the hostedCluster of myprefix-private (clusters[0]) edited. */
function privateConfig(edit: (hostedCluster: any) => void = () => undefined) {
  const input = structuredClone(PRIVATE_EXAMPLE);
  edit(input.clusters[0].hostedCluster);
  return input;
}
const toPublic = (hc: any) => {
  hc.endpointAccess = "Public";
  delete hc.privateLink;
};
const MGMT_VNET = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mymgmt-infra-rg/providers/Microsoft.Network/virtualNetworks/mymgmt-vnet";

/** The infra stack's guards and their locals, as a built-in-only configuration (with `also`, those stacks too). */
function guardsOf(input: Record<string, unknown>, stack: string, also: string[] = []) {
  const stacks = synthStacks(loadInline(input), [stack, ...also]);
  const pick = (block: Record<string, any> = {}) => Object.fromEntries(Object.entries(block).filter(([name]) => name.startsWith("CreationGuard_")));
  const guards = pick(stacks[stack].resource.terraform_data);
  // Nothing else is referenced: the extracted configuration is exactly what the stack evaluates.
  expect(JSON.stringify(guards)).not.toMatch(/\b(data|var|module|azurerm_\w+)\./);
  return { config: { locals: pick(stacks[stack].locals), resource: { terraform_data: guards } }, guards, stacks };
}

/** The HostedCluster object a cluster stack renders. */
const hostedClusterOf = (stack: any): HyperShiftObject =>
  Object.values(stack.resource.kubernetes_manifest as Record<string, any>).find((m) => m.manifest.kind === "HostedCluster").manifest;
const localOf = (config: { locals: Record<string, Record<string, string>> }, guard: string) =>
  Object.entries(config.locals).find(([name]) => name.startsWith(`CreationGuard_${guard}Config_`))![1];
const ENDPOINT_ACCESS = ["spec.platform.azure.topology", "spec.platform.azure.private", "spec.platform.azure.private.privateLink.natSubnetID"];

describe("infra creation guard (synthesized)", () => {
  it("keeps the values the HostedCluster carries for the fields infra names decide, in two guards", () => {
    const { guards, config: hc1, stacks } = guardsOf(config(), "infra-hc1", ["cluster-hc1"]);
    expect(
      Object.keys(guards)
        .map((id) => id.replace(/_[0-9A-F]{8}$/, ""))
        .sort(),
    ).toEqual(["CreationGuard", "CreationGuard_EndpointAccess"]);
    for (const guard of Object.values(guards) as any[]) expect(guard.lifecycle.ignore_changes).toEqual(["input"]);
    const manifest = hostedClusterOf(stacks["cluster-hc1"]) as any;
    expect(localOf(hc1, "")).toEqual({
      "spec.infraID": manifest.spec.infraID,
      "spec.dns.privateZoneID": manifest.spec.dns.privateZoneID,
      "spec.platform.azure.location": manifest.spec.platform.azure.location,
      "spec.platform.azure.resourceGroup": manifest.spec.platform.azure.resourceGroup,
      "spec.platform.azure.vnetID": manifest.spec.platform.azure.vnetID,
      "spec.platform.azure.subnetID": manifest.spec.platform.azure.subnetID,
      "spec.platform.azure.securityGroupID": manifest.spec.platform.azure.securityGroupID,
    });
  });

  it.each([
    ["a Public cluster", config(), "infra-hc1", "cluster-hc1", { topology: "Public", private: "none", natSubnetID: "" }],
    [
      "a Private cluster",
      privateConfig(),
      "infra-myprefix-private",
      "cluster-myprefix-private",
      { topology: "PublicAndPrivate or Private", private: "PrivateLink", natSubnetID: `${MGMT_VNET}/subnets/myprefix-private-8b05d-pls-nat` },
    ],
  ] as const)(
    "%s: the endpoint access guard reads the HostedCluster's own fields with the cluster guard's readers",
    (_name, input, infra, cluster, expected) => {
      const { config: guard, stacks } = guardsOf(input, infra, [cluster]);
      const manifest = hostedClusterOf(stacks[cluster]);
      const read = Object.fromEntries(HOSTED_CLUSTER_IMMUTABLE_FIELDS.filter((f) => ENDPOINT_ACCESS.includes(f.path)).map((f) => [f.path, f.read(manifest)]));
      expect(localOf(guard, "EndpointAccess_")).toEqual(read);
      expect(Object.values(read)).toEqual(Object.values(expected));
    },
  );
});

/** Bases: each applied once (a module each, in one run); a case plans an edit against one of them. */
const BASES = { hc1: config(), private: privateConfig(), public: privateConfig(toPublic) };
const STACK = { hc1: "infra-hc1", private: "infra-myprefix-private", public: "infra-myprefix-private" } as const;
type Base = keyof typeof BASES;
/** A guard of a tool from before the endpoint access guard: its state holds only the names' guard. */
const olderTool = (resources: any[]) => resources.filter((r) => !r.name.startsWith("CreationGuard_EndpointAccess_"));

interface Case {
  readonly name: string;
  readonly base: Base;
  readonly input: Record<string, unknown>;
  /** The fields refused, or [] for a plan that must pass. */
  readonly refused: readonly string[];
  /** The config key(s) the messages name. */
  readonly key?: string;
  readonly state?: (resources: any[]) => any[];
}

const NAT = "spec.platform.azure.private.privateLink.natSubnetID";
const TOPOLOGY = ["spec.platform.azure.topology", "spec.platform.azure.private"];
const CASES: readonly Case[] = [
  { name: "hc1 unchanged", base: "hc1", input: config(), refused: [] },
  {
    name: "a renamed VNet",
    base: "hc1",
    input: config({ vnetName: "other-vnet" }),
    refused: ["spec.platform.azure.vnetID", "spec.platform.azure.subnetID"],
    key: "clusters[0].hostedCluster.network.vnetName",
  },
  {
    name: "a renamed managed resource group",
    base: "hc1",
    input: config({ resourceGroups: { managed: "other-rg" } }),
    refused: ["spec.dns.privateZoneID", "spec.platform.azure.resourceGroup"],
    key: "clusters[0].hostedCluster.network.resourceGroups.managed",
  },
  { name: "another location", base: "hc1", input: config({}, { location: "westeurope" }), refused: ["spec.platform.azure.location"], key: "location" },
  { name: "private unchanged", base: "private", input: privateConfig(), refused: [] },
  {
    name: "the NAT subnet in another VNet",
    base: "private",
    input: privateConfig((hc) => (hc.privateLink.natSubnet.vnetId = `${MGMT_VNET}2`)),
    refused: [NAT],
    key: "clusters[0].hostedCluster.privateLink.natSubnet",
  },
  {
    name: "an existing NAT subnet instead",
    base: "private",
    input: privateConfig((hc) => (hc.privateLink = { natSubnetId: `${MGMT_VNET}/subnets/pls-nat-subnet` })),
    refused: [NAT],
    key: "clusters[0].hostedCluster.privateLink.natSubnetId",
  },
  { name: "private made Public", base: "private", input: privateConfig(toPublic), refused: TOPOLOGY, key: "clusters[0].hostedCluster.endpointAccess" },
  { name: "Private to PublicAndPrivate", base: "private", input: privateConfig((hc) => (hc.endpointAccess = "PublicAndPrivate")), refused: [] },
  {
    name: "the default NAT subnet name written out",
    base: "private",
    input: privateConfig((hc) => (hc.privateLink.natSubnet.name = "myprefix-private-8b05d-pls-nat")),
    refused: [],
  },
  {
    name: "another allowed subscription",
    base: "private",
    input: privateConfig((hc) => (hc.privateLink.additionalAllowedSubscriptions = ["22222222-2222-2222-2222-222222222222"])),
    refused: [],
  },
  { name: "public unchanged", base: "public", input: privateConfig(toPublic), refused: [] },
  { name: "Public made private", base: "public", input: privateConfig(), refused: TOPOLOGY, key: "clusters[0].hostedCluster.endpointAccess" },
  { name: "upgraded, config unchanged", base: "private", input: privateConfig(), refused: [], state: olderTool },
  {
    name: "upgraded and edited in one apply",
    base: "private",
    input: privateConfig((hc) => (hc.privateLink.natSubnet.vnetId = `${MGMT_VNET}2`)),
    refused: [],
    state: olderTool,
  },
];

/** Runs a command without blocking, so two run at once (terraform mostly waits). */
function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile("terraform", args, { cwd, env, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    ),
  );
}

(HAVE_TERRAFORM ? describe : describe.skip)("infra creation guards, run by Terraform (needs terraform on PATH)", () => {
  let dir: string;
  const plans = new Map<string, { status: number; errors: string[] }>();
  const created = new Map<Base, Record<string, string>>();
  let destroy: { status: number | null; errors: string[] };
  // GOGC=400: Go collects garbage a quarter as often (as the cluster guards' test).
  const env = { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", GOGC: "400" };

  /**
   * Applies the bases in ONE run (a local module each, writeModuleCases with no state), then plans
   * every case against its base's state in ONE run (moduleCaseOutcomes: a case's status is what
   * `plan -detailed-exitcode` of that config alone returns), and beside it a destroy plan after a
   * refused edit (a run of its own: it proves the run's exit status).
   */
  beforeAll(async () => {
    dir = tempDir("hcp-azure-infra-guard-");
    const bases = Object.keys(BASES) as Base[];
    const configs = new Map(bases.map((base) => [base, guardsOf(BASES[base], STACK[base]).config]));
    const apply = path.join(dir, "created");
    writeModuleCases(
      apply,
      { resources: [] },
      bases.map((base) => ({ config: configs.get(base)! })),
    );
    fs.rmSync(path.join(apply, "terraform.tfstate"));
    const applied = await run(["apply", "-auto-approve", "-input=false", "-no-color"], apply, env);
    if (applied.status !== 0) throw new Error(`terraform apply failed:\n${applied.stdout}\n${applied.stderr}`);
    const state = JSON.parse(fs.readFileSync(path.join(apply, "terraform.tfstate"), "utf8"));
    const stateOf = (base: Base, edit: (resources: any[]) => any[] = (r) => r) => ({
      ...state,
      resources: edit(state.resources.filter((r: any) => r.module === `module.case_${bases.indexOf(base)}`).map(({ module: _, ...r }: any) => r)),
    });
    bases.forEach((base) => created.set(base, Object.assign({}, ...Object.values(configs.get(base)!.locals))));

    const each = path.join(dir, "plan-each");
    writeModuleCases(
      each,
      state,
      CASES.map((c) => ({ config: guardsOf(c.input, STACK[c.base]).config, state: stateOf(c.base, c.state) })),
    );
    const gone = path.join(dir, "destroy");
    fs.mkdirSync(gone);
    fs.writeFileSync(path.join(gone, "main.tf.json"), JSON.stringify(guardsOf(privateConfig(toPublic), STACK.private).config));
    fs.writeFileSync(path.join(gone, "terraform.tfstate"), JSON.stringify(stateOf("private")));
    const plan = ["plan", "-input=false", "-lock=false", "-detailed-exitcode", "-json"];
    const [planned, destroyed] = await Promise.all([run(plan, each, env), run([...plan, "-destroy"], gone, env)]);
    moduleCaseOutcomes(planned, CASES.length).forEach((outcome, i) => plans.set(CASES[i].name, outcome));
    destroy = {
      status: destroyed.status,
      errors: destroyed.stdout.split("\n").filter((line) => line.startsWith("{") && JSON.parse(line)["@level"] === "error"),
    };
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("the first apply creates both guards of each base", () => {
    const state = JSON.parse(fs.readFileSync(path.join(dir, "created", "terraform.tfstate"), "utf8"));
    const names = state.resources.map((r: any) => `${r.module}.${r.type}.${r.name}`.replace(/_[0-9A-F]{8}$/, "")).sort();
    expect(names).toEqual(
      [0, 1, 2].flatMap((i) => [`module.case_${i}.terraform_data.CreationGuard`, `module.case_${i}.terraform_data.CreationGuard_EndpointAccess`]),
    );
  });

  it.each(CASES.filter((c) => c.refused.length === 0 && !c.state).map((c) => [c.name] as const))("%s: plans no change and no error", (name) => {
    expect(plans.get(name)).toEqual({ status: 0, errors: [] });
  });

  it.each(CASES.filter((c) => c.refused.length > 0).map((c) => [c.name, c] as const))(
    "%s: fails the infra plan, naming the key, the created value and the fix",
    (name, { base, refused, key }) => {
      const { status, errors } = plans.get(name)!;
      expect(status).toBe(1);
      // Exactly the fields that changed, one message each.
      expect(errors.map((error) => /was created with (spec\.\S+) /.exec(error)?.[1]).sort()).toEqual([...refused].sort());
      for (const [error, field] of errors.map((e) => [e.replace(/\s+/g, " "), /was created with (spec\.\S+) /.exec(e)![1]] as const)) {
        expect(error).toMatch(/^Resource postcondition failed: /);
        expect(error).toContain(key);
        const value = created.get(base)![field];
        expect(error).toContain(
          `the Azure infrastructure of ${base === "hc1" ? "hc1" : "myprefix-private"} was created with ${field} ${value === "" ? "(not set)" : JSON.stringify(value)}`,
        );
        expect(error).toMatch(/Terraform would (replace|create or delete)/);
        expect(error).toContain("Put the created value back, or create a new cluster with the new value (a new clusters[] entry).");
      }
    },
  );

  it("the first plan after upgrading adds the endpoint access guard with the config's values, even an edited config's (help/private-clusters.md)", () => {
    expect(plans.get("upgraded, config unchanged")).toEqual({ status: 2, errors: [] });
    expect(plans.get("upgraded and edited in one apply")).toEqual({ status: 2, errors: [] });
  });

  it("does not stand in the way of destroying the stack, even after a refused edit", () => {
    expect(destroy).toEqual({ status: 2, errors: [] });
  });
});
