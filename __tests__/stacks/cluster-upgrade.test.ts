import * as fs from "node:fs";
import * as path from "node:path";
import { validateConfig } from "../../config/load";
import { EXAMPLES, HAVE_TERRAFORM, hostedClusterSpec, minimalConfig, synthStacks, tempDir, terraformApply } from "../helpers";
import { firstAccepted, upgradeTimeline, waitAccepts } from "../constructs/hosted-cluster/manifest-wait";

/**
 * Which wait the cluster stack gives the HostedCluster (help/upgrades.md "Which wait"): a remote
 * backend (no deployed release at synth) waits on status.controlPlaneVersion where the operator
 * release and the cluster's release are both 4.22 or later, else on Available; a local backend's
 * creation keeps Available.
 */

const image = (tag: string) => `quay.io/openshift-release-dev/ocp-release:${tag}-x86_64`;
const AZURERM = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate" };
const CLOUD = { type: "cloud", organization: "acme" };
const AVAILABLE = { condition: [{ type: "Available", status: "True" }] };
const controlPlaneVersion = (version: string) => ({
  fields: {
    "status.controlPlaneVersion.history[0].state": "^Completed$",
    "status.controlPlaneVersion.history[0].version": `^${version.replace(/\./g, "\\.")}$`,
  },
});

/** A config of one cluster per release, in its own folder. */
function load(releases: Record<string, string>, backend: unknown, hypershiftRelease?: string) {
  const dir = tempDir();
  const clusters = Object.entries(releases).map(([name, releaseImage]) => ({
    name,
    hostedCluster: {
      ...hostedClusterSpec(),
      releaseImage,
      pullSecretFile: path.join(EXAMPLES, "pull-secret.json"),
      nodePools: [{ name: `${name}-workers`, replicas: 2 }],
    },
  }));
  const operator = { bundleFile: path.join(EXAMPLES, "operator/hypershift-operator.yaml"), ...(hypershiftRelease ? { hypershiftRelease } : {}) };
  const config = minimalConfig({
    serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") },
    managementCluster: { operator },
    clusters,
    ...(backend ? { backend } : {}),
  });
  const loaded = validateConfig(config, dir);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

const manifests = (stack: any) => stack.resource.kubernetes_manifest as Record<string, any>;
const hostedClusterWait = (stacks: Record<string, any>, name: string) =>
  Object.values(manifests(stacks[`cluster-${name}`])).find((r: any) => r.manifest.kind === "HostedCluster").wait;

describe("the HostedCluster's wait without a deployed release", () => {
  const digest = `quay.io/openshift-release-dev/ocp-release@sha256:${"b".repeat(64)}`;
  let remote422: Record<string, any>;
  beforeAll(() => {
    remote422 = synthStacks(load({ new: image("4.22.3"), old: image("4.21.9"), rc: image("4.22.0-rc.2"), digest }, AZURERM, "4.22"));
  });

  test.each([
    ["new", "a 4.22 release: the control plane's completed release", controlPlaneVersion("4.22.3")],
    ["old", "a 4.21 release (its control-plane operator may not report it): Available", AVAILABLE],
    ["rc", "a 4.22.0 pre-release (possibly an early build from main): Available", AVAILABLE],
    ["digest", "a release by digest (no version to know it by): Available", AVAILABLE],
  ])("operator 4.22, azurerm, cluster %s: %s", (name, _what, expected) => {
    expect(hostedClusterWait(remote422, name)).toEqual(expected);
  });

  test.each([
    // (A 4.21 operator takes releases up to 4.21: config/rules/hypershift-release.ts.)
    ["an operator before 4.22 (cloud backend)", CLOUD, "4.21", AVAILABLE, image("4.21.9")],
    ["an operator release synth does not know (neither set nor in the bundle)", AZURERM, undefined, AVAILABLE],
    ["the local backend, creating (no state): Available, as before", undefined, "4.22", AVAILABLE],
    ["the cloud backend, operator 5.0", CLOUD, "5.0", controlPlaneVersion("4.22.3")],
    // A 4.22 operator refuses 5.0 (its LatestSupportedVersion is 4.22.0; config/rules/hypershift-release.ts): a 5.0 operator.
    [
      "a 5.0 (4.23) release, operator 5.0, azurerm: the control plane's completed release",
      AZURERM,
      "5.0",
      controlPlaneVersion("5.0.1"),
      "quay.io/openshift-release-dev/ocp-release:5.0.1-multi",
    ],
  ])("%s", (_name, backend, operator, expected, releaseImage = image("4.22.3")) => {
    expect(hostedClusterWait(synthStacks(load({ hc1: releaseImage }, backend, operator)), "hc1")).toEqual(expected);
  });

  test("the control plane's wait returns once the control plane completed, not before and not only once the workers rolled", () => {
    const wait = hostedClusterWait(remote422, "new");
    const timeline = upgradeTimeline("4.22.1", "4.22.3");
    expect(timeline[firstAccepted(wait, timeline)].step).toBe("control plane completed, cluster version rolling");
  });

  /**
   * In real Terraform: the synthesized remote cluster stack's manifests as terraform_data stand-ins
   * with the same depends_on; the HostedCluster's stand-in walks the upgrade's statuses one per step,
   * checking the synthesized wait with the provider's matching (manifest-wait.ts, run in the
   * stand-in), and returns when it accepts one; each NodePool's stand-in (a shell: no node process
   * needed to read a line) records the step it saw.
   */
  (HAVE_TERRAFORM ? test : test.skip)("Terraform patches the NodePools only once the control plane's release completed", () => {
    const dir = tempDir();
    const stack = remote422["cluster-new"];
    /** The step of the status the HostedCluster shows now. */
    const step = path.join(dir, "step.txt");
    const log = path.join(dir, "order.log");
    const walker = path.join(dir, "control-plane.js");
    const wait = hostedClusterWait(remote422, "new");
    fs.writeFileSync(
      walker,
      [
        "const fs = require('node:fs');",
        `${waitAccepts.toString()}`,
        `const timeline = ${JSON.stringify(upgradeTimeline("4.22.1", "4.22.3"))};`,
        `const wait = ${JSON.stringify(wait)};`,
        "for (const object of timeline) {",
        `  fs.writeFileSync(${JSON.stringify(step)}, object.step);`,
        `  if (waitAccepts(wait, object)) { fs.appendFileSync(${JSON.stringify(log)}, 'HostedCluster ' + object.step + '\\n'); process.exit(0); }`,
        "}",
        "process.exit(1);",
      ].join("\n"),
    );
    const standIns: Record<string, any> = {};
    for (const [name, body] of Object.entries<any>(manifests(stack))) {
      const kind = body.manifest.kind;
      const command = kind === "HostedCluster" ? `node ${JSON.stringify(walker)}` : `echo "${kind} $(cat ${JSON.stringify(step)})" >> ${JSON.stringify(log)}`;
      const dependsOn = (body.depends_on ?? [])
        .filter((d: string) => d.startsWith("kubernetes_manifest."))
        .map((d: string) => d.replace("kubernetes_manifest.", "terraform_data."));
      const recorded = kind === "HostedCluster" || kind === "NodePool";
      standIns[name] = { input: kind, depends_on: dependsOn, ...(recorded ? { provisioner: [{ "local-exec": { command } }] } : {}) };
    }
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ resource: { terraform_data: standIns } }));
    terraformApply(dir);
    const lines = fs.readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toEqual([
      "HostedCluster control plane completed, cluster version rolling",
      ...Array(lines.length - 1).fill("NodePool control plane completed, cluster version rolling"),
    ]);
    expect(lines.length).toBeGreaterThan(1);
  });
});
