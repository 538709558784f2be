import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkManifestsEach, HAVE_CRDS, HAVE_TERRAFORM, loadInline, minimalConfig, RELEASE_IMAGE, tempDir, synthClusterStackInto } from "../helpers";
import { moduleCaseOutcomes, writeModuleCases } from "../terraform-cases";

/**
 * Issue 11 item 4, end to end: the creation guards of a real synthesized cluster stack, run by the
 * real terraform binary (built-in provider only, local state), refuse at plan every config edit
 * the HostedCluster/NodePool CRDs would refuse, and let everything else through; and each guarded
 * edit is one the CRDs really refuse (../shared/tools/check-manifests.mjs --old).
 */
if (!HAVE_TERRAFORM) console.warn("creation-guard e2e: terraform is not on PATH; the Terraform proof is skipped");
if (!HAVE_CRDS) console.warn("creation-guard e2e: ../shared is absent; the CRD transition check is skipped");

const AT = "clusters[0].hostedCluster";

/** A cluster with every guarded optional field set: ExternalDNS, machine network, etcd class, two NodePools. */
function baseConfig(): any {
  return minimalConfig({
    prefix: "myprefix",
    dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } },
    externalDns: {},
    clusters: [
      {
        name: "hc1",
        hostedCluster: {
          releaseImage: RELEASE_IMAGE,
          baseDomain: "example.com",
          pullSecretFile: "pull-secret.json",
          controllerAvailabilityPolicy: "HighlyAvailable",
          etcd: { storageSize: "16Gi", storageClassName: "managed-csi" },
          network: { machineNetwork: "10.0.0.0/16" },
          nodePools: [{ name: "pool-a" }, { name: "pool-b" }],
          capabilities: { disabled: ["ImageRegistry"] },
          featureSet: "TechPreviewNoUpgrade",
        },
      },
    ],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" } },
  });
}

interface Edit {
  readonly name: string;
  readonly edit: (config: any) => void;
  /** What the plan errors say: the config keys, and the object when it is a NodePool. */
  readonly keys: readonly string[];
  /** What check-manifests reports as refused transitions: `<Kind>/<name> <field>: <message start>`. */
  readonly refusals: readonly string[];
}

const hc = (config: any) => config.clusters[0].hostedCluster;
const network = (config: any) => (hc(config).network ??= {});

const NAT_SUBNET =
  "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mymgmt-infra-rg/providers/Microsoft.Network/virtualNetworks/mgmt/subnets/nat";
const POOL_SUBNET = "NodePool clusters/pool-b was created with spec.platform.azure.subnetID";

const REFUSED: readonly Edit[] = [
  {
    name: "serviceNetwork",
    edit: (c) => (network(c).serviceNetwork = "172.30.0.0/16"),
    keys: [`${AT}.network.serviceNetwork`],
    refusals: ["HostedCluster/hc1 spec.networking.serviceNetwork:"],
  },
  {
    name: "clusterNetwork",
    edit: (c) => (network(c).clusterNetwork = "10.128.0.0/14"),
    keys: [`${AT}.network.clusterNetwork`],
    refusals: ["HostedCluster/hc1 spec.networking.clusterNetwork:"],
  },
  {
    name: "machineNetwork",
    edit: (c) => (network(c).machineNetwork = "10.0.0.0/15"),
    keys: [`${AT}.network.machineNetwork`],
    refusals: ["HostedCluster/hc1 spec.networking.machineNetwork:"],
  },
  {
    name: "etcd size",
    edit: (c) => (hc(c).etcd.storageSize = "32Gi"),
    keys: [`${AT}.etcd.storageSize`],
    refusals: ["HostedCluster/hc1 spec.etcd.managed.storage.persistentVolume.size:"],
  },
  {
    name: "etcd class",
    edit: (c) => (hc(c).etcd.storageClassName = "managed-csi-premium"),
    keys: [`${AT}.etcd.storageClassName`],
    refusals: ["HostedCluster/hc1 spec.etcd.managed.storage.persistentVolume.storageClassName:"],
  },
  {
    name: "availability",
    edit: (c) => (hc(c).controllerAvailabilityPolicy = "SingleReplica"),
    keys: [`${AT}.controllerAvailabilityPolicy`],
    refusals: ["HostedCluster/hc1 spec.controllerAvailabilityPolicy:"],
  },
  {
    name: "baseDomain",
    edit: (c) => Object.assign(hc(c), { baseDomain: "example.org", publicZone: { resourceGroupName: "dns-rg" } }),
    keys: [`${AT}.baseDomain`],
    refusals: ["HostedCluster/hc1 spec.dns.baseDomain:", "HostedCluster/hc1 spec.dns.publicZoneID:", "HostedCluster/hc1 spec.dns.privateZoneID:"],
  },
  {
    name: "publicZone",
    edit: (c) => (hc(c).publicZone = { resourceGroupName: "other-dns-rg" }),
    keys: [`${AT}.publicZone`],
    refusals: ["HostedCluster/hc1 spec.dns.publicZoneID:"],
  },
  { name: "infraId", edit: (c) => (hc(c).infraId = "hc1-other"), keys: [`${AT}.infraId`], refusals: ["HostedCluster/hc1 spec.infraID:"] },
  { name: "issuer", edit: (c) => (c.oidc = { containerName: "issuer2" }), keys: ["oidc.containerName"], refusals: ["HostedCluster/hc1 spec.issuerURL:"] },
  { name: "location", edit: (c) => (c.location = "westus"), keys: ["location"], refusals: ["HostedCluster/hc1 spec.platform.azure.location:"] },
  {
    name: "subscription",
    edit: (c) => (c.subscriptionId = "22222222-2222-2222-2222-222222222222"),
    keys: ["subscriptionId"],
    refusals: ["HostedCluster/hc1 spec.platform.azure.subscriptionID:"],
  },
  {
    name: "managed group",
    edit: (c) => (network(c).resourceGroups = { managed: "hc1-rg2" }),
    keys: [`${AT}.network.resourceGroups.managed`],
    refusals: ["HostedCluster/hc1 spec.platform.azure.resourceGroup:", "HostedCluster/hc1 spec.dns.privateZoneID:"],
  },
  {
    name: "vnet",
    edit: (c) => (network(c).vnetName = "vnet2"),
    keys: [`${AT}.network.vnetName`, POOL_SUBNET],
    refusals: [
      "HostedCluster/hc1 spec.platform.azure.vnetID:",
      "HostedCluster/hc1 spec.platform.azure.subnetID:",
      "NodePool/pool-a spec.platform.azure.subnetID:",
    ],
  },
  {
    name: "subnet",
    edit: (c) => (network(c).subnetName = "subnet2"),
    keys: [`${AT}.network.subnetName`, POOL_SUBNET],
    refusals: [
      "HostedCluster/hc1 spec.platform.azure.subnetID:",
      "NodePool/pool-a spec.platform.azure.subnetID:",
      "NodePool/pool-b spec.platform.azure.subnetID:",
    ],
  },
  {
    name: "nsg",
    edit: (c) => (network(c).nsgName = "nsg2"),
    keys: [`${AT}.network.nsgName`],
    refusals: ["HostedCluster/hc1 spec.platform.azure.securityGroupID:"],
  },
  {
    name: "topology",
    edit: (c) => {
      Object.assign(c, { topology: "aroHcp", aroHcp: { keyVault: { name: "myprefix-hcp-kv", network: { allowedIpRanges: ["203.0.113.7"] } } } });
      c.managementCluster = { aks: {}, operator: { bundleFile: "operator/hypershift-operator-aro-hcp.yaml" } };
    },
    keys: [
      `topology, ${AT}.endpointAccess: HostedCluster clusters/hc1 was created with spec.platform.azure.topology "Public", and the config now gives (not set)`,
    ],
    refusals: ["HostedCluster/hc1 spec.platform.azure: topology cannot be removed once set"],
  },
  { name: "fips", edit: (c) => (hc(c).fips = true), keys: [`${AT}.fips`], refusals: ["HostedCluster/hc1 spec.fips:"] },
  {
    name: "olmCatalogPlacement",
    edit: (c) => (hc(c).olmCatalogPlacement = "guest"),
    keys: [`${AT}.olmCatalogPlacement`],
    refusals: ["HostedCluster/hc1 spec.olmCatalogPlacement:"],
  },
  {
    name: "capabilities",
    edit: (c) => (hc(c).capabilities = { disabled: ["ImageRegistry", "Insights"] }),
    keys: [`${AT}.capabilities`, `${AT}.capabilities.disabled`],
    refusals: ["HostedCluster/hc1 spec.capabilities:", "HostedCluster/hc1 spec.capabilities.disabled:"],
  },
  {
    name: "featureSet",
    edit: (c) => (hc(c).featureSet = "DevPreviewNoUpgrade"),
    keys: [`${AT}.featureSet`],
    refusals: ["HostedCluster/hc1 spec.configuration.featureGate.featureSet:"],
  },
  {
    name: "oauthPublishing",
    edit: (c) => (hc(c).oauthPublishing = "LoadBalancer"),
    keys: [`${AT}.oauthPublishing`],
    refusals: ["HostedCluster/hc1 spec: Services is immutable"],
  },
  {
    name: "endpointAccess Private",
    edit: (c) => {
      Object.assign(hc(c), { endpointAccess: "Private", privateLink: { natSubnetId: NAT_SUBNET } });
      c.clusters[0].identities = { controlPlaneOperator: true };
      c.managementCluster = { operator: { bundleFile: "operator/hypershift-operator-private.yaml" }, privateLink: { resourceGroupName: "mymgmt-infra-rg" } };
    },
    keys: [
      `topology, ${AT}.endpointAccess: HostedCluster clusters/hc1 was created with spec.platform.azure.topology "Public", and the config now gives "PublicAndPrivate or Private"`,
      `${AT}.endpointAccess: HostedCluster clusters/hc1 was created with spec.platform.azure.private "none", and the config now gives "PrivateLink"`,
    ],
    refusals: [
      "HostedCluster/hc1 spec.platform.azure: private cannot be added or removed after cluster creation",
      "HostedCluster/hc1 spec.platform.azure: transitions between Public and non-Public topology are not supported",
      "HostedCluster/hc1 spec: Services is immutable",
    ],
  },
  {
    name: "NodePool arch",
    edit: (c) => {
      hc(c).releaseImage = "quay.io/openshift-release-dev/ocp-release:4.21.0-multi";
      hc(c).nodePools[1].arch = "arm64";
    },
    keys: [`${AT}.nodePools[name: pool-b].arch`],
    refusals: ["NodePool/pool-b spec.arch:"],
  },
  {
    name: "NodePool upgradeType",
    edit: (c) => (hc(c).nodePools[1].upgradeType = "InPlace"),
    keys: [`${AT}.nodePools[name: pool-b].upgradeType`],
    refusals: ["NodePool/pool-b spec.management.upgradeType:"],
  },
  {
    name: "NodePool subnetId",
    edit: (c) =>
      (hc(c).nodePools[1].subnetId =
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/hc1-customer-vnet-rg/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet/subnets/workers-2"),
    keys: [`${AT}.nodePools[name: pool-b].subnetId`],
    refusals: ["NodePool/pool-b spec.platform.azure.subnetID:"],
  },
  {
    name: "externalDns off",
    edit: (c) => (hc(c).externalDns = false),
    keys: [`${AT}.externalDns`],
    refusals: ["HostedCluster/hc1 spec: Services is immutable"],
  },
];

/**
 * Edits the CRDs accept but HyperShift cannot carry out: only the guard stops them. AES-CBC to KMS:
 * the KMS encryption config has no AES-CBC provider for the Secrets already written.
 */
const GUARD_ONLY: readonly Omit<Edit, "refusals">[] = [
  {
    name: "AES-CBC to KMS",
    edit: (c) => (hc(c).kms = { keyVault: { network: { allowedIpRanges: ["203.0.113.7"] } } }),
    keys: [`${AT}.kms: HostedCluster clusters/hc1 was created with spec.secretEncryption.type "aescbc", and the config now gives "kms"`],
  },
];

/** Edits the CRDs accept: the guards must let them through. */
const ACCEPTED: readonly Omit<Edit, "keys" | "refusals">[] = [
  { name: "no edit", edit: () => undefined },
  { name: "remove a NodePool", edit: (c) => hc(c).nodePools.pop() },
  { name: "add a NodePool", edit: (c) => hc(c).nodePools.push({ name: "pool-c" }) },
  { name: "drop machineNetwork (the rule is on the field)", edit: (c) => delete network(c).machineNetwork },
  { name: "drop the etcd storage class (the rule is on the field)", edit: (c) => delete hc(c).etcd.storageClassName },
  {
    name: "the mutable HostedCluster options (DNS name, trust bundle, mirrors, scheduling, labels, infra availability, OLM sources)",
    edit: (c) =>
      Object.assign(hc(c), {
        apiServerDnsName: "api.hc1.example.com",
        additionalTrustBundleFile: "ca/example-ca-bundle.pem",
        imageContentSources: [{ source: "quay.io/openshift-release-dev/ocp-release", mirrors: ["mirror.example.com/ocp"] }],
        controlPlaneNodeSelector: { "node-role.kubernetes.io/infra": "" },
        controlPlaneTolerations: [{ key: "node-role.kubernetes.io/infra", operator: "Exists", effect: "NoSchedule" }],
        annotations: { "example.com/a": "b" },
        labels: { team: "platform" },
        infrastructureAvailabilityPolicy: "HighlyAvailable",
        olmDisableDefaultSources: true,
      }),
  },
  {
    name: "NodePool options the CRD lets change (autoscaling, timeouts, size, disk, image, pause, release)",
    edit: (c) =>
      Object.assign(hc(c).nodePools[1], {
        autoscaling: { min: 1, max: 4 },
        autoRepair: true,
        nodeDrainTimeout: "30m",
        vmSize: "Standard_D8ds_v5",
        osDisk: { sizeGiB: 100, persistence: "Ephemeral" },
        diagnostics: "Disabled",
        imageId: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/img-rg/providers/Microsoft.Compute/images/rhcos",
        pausedUntil: "true",
        releaseImage: "quay.io/openshift-release-dev/ocp-release:4.20.8-x86_64",
      }),
  },
];

const edited = (edit: (config: any) => void): Record<string, unknown> => {
  const config = structuredClone(baseConfig());
  edit(config);
  return config;
};

/** The guards and the locals they read, as a configuration the built-in provider runs alone. */
function guardsOnly(stack: any): object {
  const pick = (block: Record<string, unknown> = {}) => Object.fromEntries(Object.entries(block).filter(([name]) => name.startsWith("CreationGuard_")));
  const guards = pick(stack.resource.terraform_data);
  // Nothing else is referenced: the extracted configuration is exactly what the stack evaluates.
  expect(JSON.stringify(guards)).not.toMatch(/\b(data|var|module|kubernetes_\w+|azurerm_\w+)\./);
  return { locals: pick(stack.locals), resource: { terraform_data: guards } };
}

const out = tempDir("hcp-azure-guard-");
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

/**
 * Each config once (by its content: "no edit" is the base config, the destroy and older-guard
 * cases repeat refused edits): `<out>/synth/<slug of the first name>` holds its synthesized app
 * (for check-manifests), `stack` its stack.
 */
const slug = (name: string) => name.replace(/\W+/g, "-");
const synthesized = new Map<string, { dir: string; stack: any }>();
function synthOf(name: string, edit: (config: any) => void): { dir: string; stack: any } {
  const config = edited(edit);
  const key = JSON.stringify(config);
  if (!synthesized.has(key)) {
    const dir = path.join(out, "synth", slug(name));
    synthesized.set(key, { dir, stack: synthClusterStackInto(loadInline(config), dir) });
  }
  return synthesized.get(key)!;
}

/** Runs a command without blocking, so several run at once (terraform and node mostly wait). */
function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

const ALL = [...ACCEPTED, ...REFUSED, ...GUARD_ONLY];

/** The state of a guard that did not guard spec.services yet: its input (and output) without that field. */
function forgetServices(state: any): void {
  const guard = state.resources.find((r: any) => r.name.startsWith("CreationGuard_HostedCluster_"));
  for (const attribute of ["input", "output"]) {
    const { value, type } = guard.instances[0].attributes[attribute];
    delete value["spec.services"];
    delete type[1]["spec.services"];
  }
}

(HAVE_TERRAFORM ? describe : describe.skip)("creation guards with the real terraform binary", () => {
  // GOGC=400: Go's garbage collector runs a quarter as often; the plan of every case allocates
  // ~1.7 GB in all, and collecting it was ~0.8 of its ~4.5 CPU-seconds (its peak memory 120 -> 230 MB).
  const env = { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", GOGC: "400" };
  const created = path.join(out, "created");
  const plans = new Map<string, { status: number | null; errors: string[] }>();

  /** Plans a config's guards against the state of the created cluster, in a fresh folder. */
  async function plan(name: string, edit: (config: any) => void, state: (state: any) => void = () => undefined, extra: string[] = []) {
    const dir = path.join(out, "plan", slug(name));
    fs.mkdirSync(dir, { recursive: true });
    const tfstate = JSON.parse(fs.readFileSync(path.join(created, "terraform.tfstate"), "utf8"));
    state(tfstate);
    fs.writeFileSync(path.join(dir, "terraform.tfstate"), JSON.stringify(tfstate));
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(guardsOnly(synthOf(name, edit).stack)));
    const result = await run("terraform", ["plan", "-input=false", "-lock=false", "-detailed-exitcode", "-json", ...extra], { cwd: dir, env });
    const errors = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .filter((message) => message["@level"] === "error")
      .map((message) => `${message.diagnostic.summary}: ${message.diagnostic.detail}`);
    return { status: result.status, errors };
  }

  /**
   * Plans every case's guards against the state of the created cluster in ONE Terraform run (one
   * process instead of one per case): each case is a module of its own (its folder holds its guards
   * and locals, its resources in the state are the created ones under its module address). Modules
   * keep each case's names and expressions exactly as synthesized; one root module with every case's
   * guards renamed costs three times the CPU (Terraform's plan work grows faster than the number of
   * resources in one module: 5 cases 0.8 CPU-s, 20 4.6, all 37 13.5). A case's
   * errors are the diagnostics from its folder; its changes the planned_change messages of its
   * module (Terraform reports both for every module, whichever others fail). Its status is what
   * `plan -detailed-exitcode` of that module alone returns: 1 with an error, 2 with a change, else 0.
   */
  async function planEach(cases: ReadonlyArray<{ name: string; edit: (config: any) => void; state?: (state: any) => void }>) {
    const dir = path.join(out, "plan-each");
    const createdState = JSON.parse(fs.readFileSync(path.join(created, "terraform.tfstate"), "utf8"));
    writeModuleCases(
      dir,
      createdState,
      cases.map((e) => {
        const state = structuredClone(createdState);
        e.state?.(state);
        return { config: guardsOnly(synthOf(e.name, e.edit).stack), state };
      }),
    );
    const result = await run("terraform", ["plan", "-input=false", "-lock=false", "-detailed-exitcode", "-json"], { cwd: dir, env });
    return moduleCaseOutcomes(result, cases.length);
  }

  beforeAll(async () => {
    fs.mkdirSync(created, { recursive: true });
    fs.writeFileSync(path.join(created, "main.tf.json"), JSON.stringify(guardsOnly(synthOf("base", () => undefined).stack)));
    // Built-in terraform_data only: no init needed.
    const applied = await run("terraform", ["apply", "-auto-approve", "-input=false"], { cwd: created, env });
    if (applied.status !== 0) throw new Error(`terraform apply failed:\n${applied.stdout}\n${applied.stderr}`);
    const cases = [
      ...ALL,
      { name: "older guard", edit: (c: any) => (hc(c).externalDns = false), state: forgetServices },
      { name: "older guard, other edit", edit: (c: any) => (hc(c).etcd.storageSize = "32Gi"), state: forgetServices },
    ];
    const [results, destroy] = await Promise.all([
      planEach(cases),
      plan("destroy after an edit", (c: any) => (network(c).serviceNetwork = "172.30.0.0/16"), undefined, ["-destroy"]),
    ]);
    cases.forEach((e, i) => plans.set(e.name, results[i]));
    plans.set("destroy after an edit", destroy);
  }, 120_000);

  it("the first apply creates one guard for the HostedCluster and one per NodePool", () => {
    const state = JSON.parse(fs.readFileSync(path.join(created, "terraform.tfstate"), "utf8"));
    const names = state.resources.map((r: any) => `${r.type}.${r.name}`).sort();
    expect(names).toHaveLength(3);
    expect(names.join(" ")).toMatch(
      /^terraform_data\.CreationGuard_HostedCluster_\w+ terraform_data\.CreationGuard_NodePool_pool-a_\w+ terraform_data\.CreationGuard_NodePool_pool-b_\w+$/,
    );
  });

  it("an unedited config plans no change and no error", () => {
    expect(plans.get("no edit")).toEqual({ status: 0, errors: [] });
  });

  it.each(ACCEPTED.map((e) => [e.name] as const))("lets an accepted edit through: %s", (name) => {
    const result = plans.get(name)!;
    expect(result.errors).toEqual([]);
    expect([0, 2]).toContain(result.status);
  });

  it.each(REFUSED.map((e) => [e.name, e] as const))("refuses at plan an edit the API server would refuse: %s", (name, { keys }) => {
    const result = plans.get(name)!;
    expect(result.status).toBe(1);
    expect(result.errors.length).toBeGreaterThan(0);
    for (const error of result.errors) expect(error).toMatch(/^Resource postcondition failed: .* was created with spec\.\S+ ".*", and the config now gives /s);
    const text = result.errors.join("\n");
    for (const key of keys) expect(text).toContain(key);
    expect(text).toMatch(/Put the created value back, or (create a new cluster|add a NodePool under a new name)/);
  });

  it.each(GUARD_ONLY.map((e) => [e.name, e] as const))("refuses at plan an edit HyperShift cannot carry out: %s", (name, { keys }) => {
    const result = plans.get(name)!;
    expect(result.status).toBe(1);
    const text = result.errors.join("\n");
    for (const key of keys) expect(text).toContain(key);
    expect(text).toContain("HyperShift does not migrate between AES-CBC and KMS");
  });

  it("does not stand in the way of destroying the cluster, even after a refused edit", () => {
    expect(plans.get("destroy after an edit")).toEqual({ status: 2, errors: [] });
  });

  it("a guard created before a field was guarded lets that field through, and still checks the others", () => {
    expect(plans.get("older guard")).toEqual({ status: 0, errors: [] });
    const other = plans.get("older guard, other edit")!;
    expect(other.status).toBe(1);
    expect(other.errors).toEqual([expect.stringContaining(`${AT}.etcd.storageSize: HostedCluster clusters/hc1 was created with`)]);
  });

  it("names the config key, the value the cluster was created with, the new one and the way forward", () => {
    expect(plans.get("serviceNetwork")!.errors).toEqual([
      `Resource postcondition failed: ${AT}.network.serviceNetwork: HostedCluster clusters/hc1 was created with spec.networking.serviceNetwork "172.31.0.0/16", ` +
        'and the config now gives "172.30.0.0/16". The API server refuses this change (serviceNetwork is immutable and cannot be modified once set.), ' +
        "so the apply would fail halfway. Put the created value back, or create a new cluster with the new value (a new clusters[] entry).",
    ]);
  });
});

(HAVE_CRDS ? describe : describe.skip)("the guarded edits against the CRDs' transition rules (check-manifests --old)", () => {
  const checks = new Map<string, { status: number | null; stdout: string; stderr: string }>();
  beforeAll(async () => {
    const base = synthOf("base", () => undefined).dir;
    const results = await checkManifestsEach(ALL.map((e) => ["--old", base, synthOf(e.name, e.edit).dir]));
    ALL.forEach((e, i) => checks.set(e.name, results[i]));
  }, 120_000);

  it.each(REFUSED.map((e) => [e.name, e] as const))("the CRDs refuse the edit: %s", (name, { refusals }) => {
    const result = checks.get(name)!;
    expect(result.status).toBe(1);
    const lines = result.stdout.split("\n");
    for (const refusal of refusals) expect(lines.filter((line) => line.includes(refusal) && line.includes("(CEL transition rule"))).toHaveLength(1);
  });

  it.each(GUARD_ONLY.map((e) => [e.name] as const))("the CRDs accept it, so only the guard stops it: %s", (name) => {
    const result = checks.get(name)!;
    expect(result.stdout).toMatch(/ 0 errors, /);
    expect(result.status).toBe(0);
  });

  it.each(ACCEPTED.map((e) => [e.name] as const))("the CRDs accept the edit the guards let through: %s", (name) => {
    const result = checks.get(name)!;
    expect(result.stdout).toMatch(/ 0 errors, /);
    expect(result.status).toBe(0);
  });
});
