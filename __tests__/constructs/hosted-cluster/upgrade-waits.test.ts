import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { validateConfig } from "../../../config/load";
import { deployedHostedClusterRelease } from "../../../config/deployed-clusters/deployed-release";
import { controlPlaneWait, nodePoolWait } from "../../../constructs/hosted-cluster/upgrade-waits";
import { releaseChangeIssues } from "../../../config/rules/upgrades";
import { releaseFindings } from "../../../scripts/change-review/releases";
import { EXAMPLES, HAVE_CRDS, HAVE_TERRAFORM, hostedClusterSpec, minimalConfig, SHARED, synthStacks, terraformApply } from "../../helpers";
import { creationTimeline, entry, firstAccepted, NEW_DIGEST, upgradeTimeline, waitAccepts } from "./manifest-wait";

const image = (tag: string) => `quay.io/openshift-release-dev/ocp-release:${tag}-x86_64`;

/** A one-cluster config in its own folder (absolute key and pull secret paths), its state folder writable. */
function loadIn(dir: string, release: string, upgrade: Record<string, unknown> = {}) {
  const spec = {
    ...hostedClusterSpec(),
    releaseImage: image(release),
    pullSecretFile: path.join(EXAMPLES, "pull-secret.json"),
    nodePools: [{ name: "workers", replicas: 2 }],
    upgrade,
  };
  const config = minimalConfig({
    serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") },
    managementCluster: { operator: { bundleFile: path.join(EXAMPLES, "operator/hypershift-operator.yaml") } },
    clusters: [{ name: "hc1", hostedCluster: spec }],
  });
  const loaded = validateConfig(config, dir);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

/** A local state file in which cluster-<name> applied a HostedCluster of `release`. */
function writeState(file: string, release: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const manifest = { apiVersion: "hypershift.openshift.io/v1beta1", kind: "HostedCluster", spec: { release: { image: image(release) } } };
  const state = {
    version: 4,
    resources: [
      {
        mode: "managed",
        type: "kubernetes_manifest",
        name: "HostedCluster_1",
        instances: [{ attributes: { manifest: { value: manifest, type: "dynamic" } } }],
      },
    ],
  };
  fs.writeFileSync(file, JSON.stringify(state));
}

const manifests = (stack: any) => stack.resource.kubernetes_manifest as Record<string, any>;
const hostedCluster = (stack: any) => Object.values(manifests(stack)).find((r: any) => r.manifest.kind === "HostedCluster");
const nodePools = (stack: any) => Object.entries(manifests(stack)).filter(([, r]: [string, any]) => r.manifest.kind === "NodePool");

describe("ordered upgrades", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hcp-upgrade-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("a deployed cluster whose release changes: the HostedCluster waits for the completed release, the NodePools depend on it and wait for theirs", () => {
    const before = loadIn(dir, "4.21.3");
    writeState(before.names.stateLocation("cluster-hc1"), "4.21.3");
    const loaded = loadIn(dir, "4.21.5");
    const stack = synthStacks(loaded)["cluster-hc1"];
    fs.rmSync(before.names.stateLocation("cluster-hc1"), { force: true });
    const hc = hostedCluster(stack);
    // No image: HyperShift records it resolved to its digest, never the configured tag (upgrade-waits.ts).
    expect(hc.wait).toEqual({
      fields: {
        "status.version.history[0].state": "^Completed$",
        "status.version.history[0].version": "^4\\.21\\.5$",
      },
    });
    expect(hc.timeouts).toEqual({ create: "45m", update: "90m", delete: "45m" });
    const hcAddress = `kubernetes_manifest.${Object.entries(manifests(stack)).find(([, r]) => r === hc)![0]}`;
    for (const [, pool] of nodePools(stack)) {
      expect(pool.depends_on).toContain(hcAddress);
      expect(pool.wait).toEqual({ fields: { "status.version": "^4\\.21\\.5$" } });
      expect(pool.timeouts).toEqual({ create: "60m", update: "60m", delete: "45m" });
    }
  });

  test("creation (no deployed state) waits for Available: the version history completes only once workers run", () => {
    const stack = synthStacks(loadIn(dir, "4.21.3"))["cluster-hc1"];
    expect(hostedCluster(stack).wait).toEqual({ condition: [{ type: "Available", status: "True" }] });
  });

  test("the plan checks the release against the operator's supported-versions ConfigMap", () => {
    const stack = synthStacks(loadIn(dir, "4.21.3"))["cluster-hc1"];
    expect(Object.values(stack.data.kubernetes_config_map_v1)).toEqual([
      expect.objectContaining({ metadata: { name: "supported-versions", namespace: "hypershift" } }),
    ]);
    const [precondition] = hostedCluster(stack).lifecycle.precondition;
    expect(precondition.condition).toContain("contains(try(jsondecode(data.kubernetes_config_map_v1.SupportedVersions_ConfigMap");
    expect(precondition.condition).toContain('"4.21")');
    expect(precondition.error_message).toMatch(/releaseImage 4\.21\.3 .* which offers \$\{join\(", ", /);
  });

  test("synth refuses a downgrade, a skipped minor and an unacknowledged minor against the deployed state", () => {
    const before = loadIn(dir, "4.21.3");
    writeState(before.names.stateLocation("cluster-hc1"), "4.21.3");
    try {
      const { removedClusterIssues } = require("../../../config/deployed-clusters") as typeof import("../../../config/deployed-clusters");
      const issues = (release: string, ack?: string) =>
        removedClusterIssues(loadIn(dir, release, ack ? { acknowledgeMinor: ack } : {})).map((i) => `${i.path}: ${i.message}`);
      expect(issues("4.20.5").join()).toMatch(/releaseImage: downgrades the control plane from the deployed 4\.21\.3 to 4\.20\.5/);
      expect(issues("4.23.1").join()).toMatch(
        /skips a minor.*path 4\.21 → 4\.22 → 4\.23: set releaseImage to the latest 4\.22\.z release with upgrade\.acknowledgeMinor: "4\.22"/,
      );
      expect(issues("4.22.1").join()).toMatch(/upgrade\.acknowledgeMinor: must be "4\.22"/);
      expect(issues("4.22.1", "4.22")).toEqual([]);
      expect(issues("4.21.9")).toEqual([]);
    } finally {
      fs.rmSync(before.names.stateLocation("cluster-hc1"), { force: true });
    }
  });
});

describe("which status each HostedCluster wait accepts (the provider's matching, HyperShift's status shapes)", () => {
  const to = image("4.22.5");
  const byDigest = `quay.io/openshift-release-dev/ocp-release@${NEW_DIGEST}`;
  const steps = (wait: any, timeline: any[]) => timeline[firstAccepted(wait, timeline)]?.step ?? "never";
  test.each([
    ["deployed (local state): the whole cluster's release", { deployedRelease: image("4.22.3") }, to, "cluster version completed"],
    [
      "unknown deployed state, operator and release report it: the control plane's release",
      { waitForControlPlaneVersion: true },
      to,
      "control plane completed, cluster version rolling",
    ],
    ["unknown deployed state otherwise: Available, at once", {}, to, "patched, nothing moved yet"],
    ["deployed, by digest: the digest, whatever the repository", { deployedRelease: image("4.22.3") }, byDigest, "cluster version completed"],
  ])("upgrade, %s", (_name, upgrade, release, expected) => {
    expect(steps(controlPlaneWait(release, upgrade), upgradeTimeline("4.22.3", "4.22.5"))).toBe(expected);
  });
  test.each([
    ["the control plane's release completes without workers", { waitForControlPlaneVersion: true }, "control plane completed, no workers"],
    ["Available", {}, "available, control plane rolling"],
    ["the whole cluster's release never completes before the workers exist (why a creation never waits on it)", { deployedRelease: image("4.22.5") }, "never"],
  ])("creation: %s", (_name, upgrade, expected) => {
    expect(steps(controlPlaneWait(to, upgrade), creationTimeline("4.22.5"))).toBe(expected);
  });
  test("a digest through a mirror matches by its digest; a tag that names no version falls back to Available", () => {
    const mirrored = { status: { version: { history: [entry("4.22.5", NEW_DIGEST, "Completed", "mirror.example.com/ocp/release")] } } };
    expect(waitAccepts(controlPlaneWait(byDigest, { deployedRelease: byDigest }), mirrored)).toBe(true);
    expect(waitAccepts(controlPlaneWait(byDigest.replace(/b+$/, "c".repeat(64)), { deployedRelease: byDigest }), mirrored)).toBe(false);
    expect(controlPlaneWait("registry.example.com/ocp/release:latest", { waitForControlPlaneVersion: true })).toEqual({
      condition: [{ type: "Available", status: "True" }],
    });
    expect(nodePoolWait(byDigest)).toEqual({ condition: [{ type: "Ready", status: "True" }] });
  });
  (HAVE_CRDS ? test : test.skip)("every field a wait names is in the HostedCluster CRD (status.controlPlaneVersion and status.version)", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(SHARED, "reference", "hypershift-crds", "hostedcluster.v1beta1.schema.json"), "utf8"));
    const fields = [
      ...Object.keys(controlPlaneWait(byDigest, { waitForControlPlaneVersion: true, deployedRelease: byDigest }).fields ?? {}),
      ...Object.keys(controlPlaneWait(to, { waitForControlPlaneVersion: true }).fields ?? {}),
    ];
    expect(fields).toContain("status.controlPlaneVersion.history[0].version");
    for (const field of fields) {
      let node = schema;
      for (const step of field.split(/\.|(?=\[)/)) node = /^\[\d+\]$/.test(step) ? node.items : node.properties?.[step];
      expect([field, node?.type]).toEqual([field, "string"]);
    }
  });
});

test.each([
  ["4.21.3", "4.21.5", undefined, []],
  ["4.21.3", "4.20.5", undefined, ["downgrades"]],
  ["4.22.3", "4.22.1", undefined, ["downgrades"]],
  ["4.21.3", "4.23.0", undefined, ["skips a minor"]],
  ["4.22.3", "5.0.0", undefined, ["acknowledgeMinor"]], // 5.0 is 4.23
  ["4.22.3", "5.1.0", "5.1", ["skips a minor"]],
  ["4.23.3", "5.1.0", "5.1", []],
  ["4.21.3", "4.22.0", "4.21", ["acknowledgeMinor"]],
])("release rule %s → %s (ack %s)", (from, to, ack, expected) => {
  const messages = releaseChangeIssues("c", image(from), image(to), ack).map((i) => `${i.path} ${i.message}`);
  expect(messages.length).toBe(expected.length);
  expected.forEach((text, i) => expect(messages[i]).toContain(text));
});

test("deployedHostedClusterRelease: none without a state file or a HostedCluster", () => {
  expect(deployedHostedClusterRelease(path.join(os.tmpdir(), "no-such-state.tfstate"))).toBeUndefined();
});

describe("the review classifies every release change", () => {
  const manifest = (kind: string, name: string, tag: string) => ({
    manifest: { kind, metadata: { namespace: "clusters", name }, spec: { release: { image: image(tag) } } },
  });
  const update = (kind: string, name: string, was: string, now: string) => ({
    address: `kubernetes_manifest.${name}`,
    type: "kubernetes_manifest",
    action: "update" as const,
    before: manifest(kind, name, was),
    after: manifest(kind, name, now),
    attributes: [],
  });
  const review = (changes: any[], ack?: string, backend: object = { azurerm: {} }) =>
    releaseFindings({
      stack: "cluster-hc1",
      status: "changed",
      resources: changes,
      blocks: [],
      after: { terraform: { backend }, ...(ack ? { locals: { upgrade_acknowledged_minor: ack } } : {}) },
    }).map((f) => `${f.severity}: ${f.message}`);
  const AVAILABLE_ONLY = { condition: [{ type: "Available", status: "True" }] };
  const CONTROL_PLANE_COMPLETED = { fields: { "status.controlPlaneVersion.history[0].state": "^Completed$" } };
  const waiting = (change: ReturnType<typeof update>, wait: object) => ({ ...change, after: { ...change.after, wait } });
  test.each([
    ["patch", [update("HostedCluster", "hc1", "4.21.3", "4.21.5")], undefined, /^review: patch upgrade of HostedCluster clusters\/hc1: 4\.21\.3 → 4\.21\.5$/],
    ["minor, acknowledged", [update("HostedCluster", "hc1", "4.21.3", "4.22.0")], "4.22", /^review: minor upgrade .* acknowledged/],
    [
      "minor, not acknowledged",
      [update("HostedCluster", "hc1", "4.21.3", "4.22.0")],
      undefined,
      /^danger: minor upgrade .* not acknowledged \(set upgrade\.acknowledgeMinor: "4\.22"\)/,
    ],
    ["skipped minor", [update("HostedCluster", "hc1", "4.21.3", "4.23.0")], undefined, /^danger: skipped minor .*4\.21 → 4\.22 → 4\.23/],
    ["downgrade", [update("HostedCluster", "hc1", "4.21.3", "4.20.5")], undefined, /^danger: downgrade of HostedCluster clusters\/hc1: 4\.21\.3 → 4\.20\.5/],
    [
      "pool-only",
      [update("NodePool", "workers", "4.20.3", "4.21.3")],
      undefined,
      /^review: pool-only minor upgrade of NodePool clusters\/workers: 4\.20\.3 → 4\.21\.3 \(the control plane stays\)$/,
    ],
  ])("%s", (_name, changes, ack, expected) => {
    expect(review(changes, ack)).toEqual([expect.stringMatching(expected)]);
  });
  test("with an Available-only wait (remote backend, older operator or release), the NodePools are said to follow the patch, not the completion", () => {
    const availableOnly = waiting(update("HostedCluster", "hc1", "4.21.3", "4.21.5"), AVAILABLE_ONLY);
    expect(review([update("NodePool", "workers", "4.21.3", "4.21.5"), availableOnly])[0]).toBe(
      "review: patch upgrade of NodePool clusters/workers: 4.21.3 → 4.21.5, as soon as the HostedCluster's patch returns (its wait is Available only: help/upgrades.md#which-wait)",
    );
  });
  test.each([
    ["a completed-release wait (remote backend, 4.22+)", CONTROL_PLANE_COMPLETED, { azurerm: {} }],
    ["the local backend, whose deploy reads the state the review's synth does not (it shows Available)", AVAILABLE_ONLY, { local: { path: "x.tfstate" } }],
  ])("a NodePool that follows the HostedCluster is said to wait for the completed control plane: %s", (_name, wait, backend) => {
    const hostedCluster = waiting(update("HostedCluster", "hc1", "4.21.3", "4.21.5"), wait);
    expect(review([update("NodePool", "workers", "4.21.3", "4.21.5"), hostedCluster], undefined, backend)).toEqual([
      "review: patch upgrade of NodePool clusters/workers: 4.21.3 → 4.21.5, once the control plane has completed its release (it waits on the HostedCluster)",
      "review: patch upgrade of HostedCluster clusters/hc1: 4.21.3 → 4.21.5",
    ]);
  });
});

/**
 * The ordering in real Terraform: the synthesized cluster stack's kubernetes_manifest blocks as
 * terraform_data stand-ins with the same depends_on, each recording when it is applied (the
 * HostedCluster's stand-in taking a second, as its wait does); the NodePools must come after it.
 */
(HAVE_TERRAFORM ? test : test.skip)("Terraform applies the NodePools only after the HostedCluster's wait returned", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hcp-upgrade-tf-"));
  try {
    const stack = synthStacks(loadIn(dir, "4.21.3"))["cluster-hc1"];
    const log = path.join(dir, "order.log");
    const standIns: Record<string, any> = {};
    for (const [name, body] of Object.entries<any>(manifests(stack))) {
      const kind = body.manifest.kind;
      const command = `${kind === "HostedCluster" ? "sleep 1; " : ""}echo ${kind} >> ${JSON.stringify(log)}`;
      const dependsOn = (body.depends_on ?? [])
        .filter((d: string) => d.startsWith("kubernetes_manifest."))
        .map((d: string) => d.replace("kubernetes_manifest.", "terraform_data."));
      standIns[name] = { input: body.manifest.spec?.release?.image ?? "", depends_on: dependsOn, provisioner: [{ "local-exec": { command } }] };
    }
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ resource: { terraform_data: standIns } }));
    terraformApply(dir);
    const order = fs.readFileSync(log, "utf8").trim().split("\n");
    expect(order[0]).toBe("HostedCluster");
    expect(order.slice(1).every((k) => k === "NodePool")).toBe(true);
    expect(order.length).toBe(1 + nodePools(stack).length);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
