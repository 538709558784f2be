import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { controlPlaneFirstWarnings, removedClusterIssues, writeClusterRecord } from "../../../config/deployed-clusters";
import { validateConfig } from "../../../config/load";
import { controlPlaneWaitKind } from "../../../config/release-change";
import { controlPlaneWait } from "../../../constructs/hosted-cluster/upgrade-waits";
import { main } from "../../../main";
import { EXAMPLES, hostedClusterSpec, minimalConfig, tempDir } from "../../helpers";

/**
 * The NodePools roll after the control plane only where the HostedCluster waits for a release
 * history; where it waits for Available (azurerm/cloud with a 4.20/4.21 release or an operator
 * before 4.22; a release naming no version), synth warns of a patch and refuses a minor while a
 * pool follows the cluster's release (help/upgrades.md#when-the-nodepools-roll-with-the-control-plane).
 */

const image = (tag: string) => `quay.io/openshift-release-dev/ocp-release:${tag}-x86_64`;
const AZURERM = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate" };
const MIRROR = "mirror.example.com/ocp/release:stable";

interface Cluster {
  readonly release: string;
  readonly ack?: string;
  /** Per pool: its own release (a tag), or undefined to follow the cluster's. */
  readonly pools?: ReadonlyArray<string | undefined>;
  readonly operator?: string;
  readonly local?: boolean;
}

function input(c: Cluster) {
  const releaseImage = c.release.includes("/") ? c.release : image(c.release);
  return minimalConfig({
    serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") },
    managementCluster: {
      operator: { bundleFile: path.join(EXAMPLES, "operator/hypershift-operator.yaml"), ...(c.operator ? { hypershiftRelease: c.operator } : {}) },
    },
    clusters: [
      {
        name: "hc1",
        hostedCluster: {
          ...hostedClusterSpec(),
          releaseImage,
          pullSecretFile: path.join(EXAMPLES, "pull-secret.json"),
          nodePools: (c.pools ?? [undefined]).map((pool, i) => ({ name: `pool${i}`, ...(pool ? { releaseImage: image(pool) } : {}) })),
          ...(c.ack ? { upgrade: { acknowledgeMinor: c.ack } } : {}),
        },
      },
    ],
    ...(c.local ? {} : { backend: AZURERM }),
  });
}

function load(dir: string, c: Cluster) {
  const loaded = validateConfig(input(c), dir, path.join(dir, "dev.yaml"));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

/** The findings after a record of `recorded` (azurerm): warnings and the issues of the staged-upgrade rule. */
function afterRecorded(recorded: Cluster, now: Cluster) {
  const dir = tempDir();
  writeClusterRecord(load(dir, recorded));
  const loaded = load(dir, now);
  return {
    warnings: controlPlaneFirstWarnings(loaded),
    issues: removedClusterIssues(loaded)
      .filter((i) => i.path.endsWith(".nodePools"))
      .map((i) => `${i.path}: ${i.message}`),
  };
}

describe("azurerm: the recorded release against the configured one", () => {
  test("a patch with a pool that follows: a warning naming the cluster, both releases, why, and the staged upgrade; no refusal", () => {
    const { warnings, issues } = afterRecorded({ release: "4.21.0" }, { release: "4.21.5", pools: [undefined, "4.21.0"] });
    expect(issues).toEqual([]);
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning).toMatch(
      /^the release of cluster hc1 changes from 4\.21\.0 \(the recorded release, the line "release: cluster-hc1 .*4\.21\.0-x86_64" of .*\.clusters\.lock\) to 4\.21\.5/,
    );
    expect(warning).toContain(
      "waits only for its Available condition (on the azurerm backend it cannot wait for status.controlPlaneVersion: a 4.21 release may not report it",
    );
    expect(warning).toContain("which stays True during an upgrade");
    // pool1 is pinned: only pool0 follows.
    expect(warning).toContain("the NodePools that follow the cluster's release (pool0) as soon as the HostedCluster's patch returns");
    expect(warning).toContain(`Upgrade in stages: set clusters[0].hostedCluster.nodePools[0].releaseImage to ${image("4.21.0")}, deploy`);
    expect(warning).toContain("then remove those releaseImage lines and deploy again (help/upgrades.md#staged-pool-upgrades-nodepoolsreleaseimage)");
    expect(warning).toContain("Synth says this once: the record now holds 4.21.5.");
  });

  test.each<[string, Cluster | undefined, Cluster]>([
    ["every pool pinned to the recorded release (the staged upgrade)", { release: "4.21.0" }, { release: "4.21.5", pools: ["4.21.0"] }],
    ["the release unchanged", { release: "4.21.5" }, { release: "4.21.5" }],
    ["no record yet (the first synth)", undefined, { release: "4.21.5" }],
    [
      "operator 4.22 and a 4.22 release: the wait is the control plane's own history",
      { release: "4.22.1", operator: "4.22" },
      { release: "4.22.3", operator: "4.22" },
    ],
    ["a downgrade (refused by the release rules, not here)", { release: "4.21.5" }, { release: "4.21.1" }],
  ])("nothing: %s", (_name, recorded, now) => {
    const dir = tempDir();
    if (recorded) writeClusterRecord(load(dir, recorded));
    const loaded = load(dir, now);
    expect(controlPlaneFirstWarnings(loaded)).toEqual([]);
    expect(removedClusterIssues(loaded).filter((i) => i.path.endsWith(".nodePools"))).toEqual([]);
  });

  test("an acknowledged minor with a following pool is refused (nodes ahead break the Kubernetes skew policy); pinned, or with the operator's release known, it is not", () => {
    const refused = afterRecorded({ release: "4.21.3" }, { release: "4.22.1", ack: "4.22" });
    expect(refused.warnings).toEqual([]);
    expect(refused.issues).toHaveLength(1);
    expect(refused.issues[0]).toMatch(
      /^clusters\[0\]\.hostedCluster\.nodePools: would upgrade to a new minor together with the control plane: the release of cluster hc1 changes from 4\.21\.3 /,
    );
    expect(refused.issues[0]).toContain("managementCluster.operator.hypershiftRelease is not set");
    expect(refused.issues[0]).toContain("breaks the Kubernetes version skew policy (a kubelet must not be newer than the API server)");
    expect(refused.issues[0]).toContain(`set clusters[0].hostedCluster.nodePools[0].releaseImage to ${image("4.21.3")}, deploy`);
    expect(refused.issues[0]).toContain("If the operator runs HyperShift 4.22 or later, set managementCluster.operator.hypershiftRelease instead");

    expect(afterRecorded({ release: "4.21.3" }, { release: "4.22.1", ack: "4.22", pools: ["4.21.3"] })).toEqual({ warnings: [], issues: [] });
    expect(afterRecorded({ release: "4.21.3" }, { release: "4.22.1", ack: "4.22", operator: "4.22" })).toEqual({ warnings: [], issues: [] });
  });
});

test("local backend: a deployed release and a releaseImage that names no version (the wait is Available) warns too", () => {
  const dir = tempDir();
  const loaded = load(dir, { release: MIRROR, local: true });
  const stateFile = loaded.names.stateLocation("cluster-hc1");
  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
  const manifest = { kind: "HostedCluster", spec: { release: { image: image("4.21.3") } } };
  const instances = [{ attributes: { manifest: { value: manifest, type: "dynamic" } } }];
  fs.writeFileSync(
    stateFile,
    JSON.stringify({ version: 4, resources: [{ mode: "managed", type: "kubernetes_manifest", name: "HostedCluster_1", instances }] }),
  );
  const warnings = controlPlaneFirstWarnings(loaded);
  expect(warnings).toEqual([expect.stringContaining(`changes from 4.21.3 (the deployed release, in `)]);
  expect(warnings[0]).toContain("waits only for its Available condition (its releaseImage names no version to wait for)");
  expect(warnings[0]).toContain("Synth cannot tell how far this change goes");
  // A versioned release with that state waits for the version history: nothing to say.
  expect(controlPlaneFirstWarnings(load(dir, { release: "4.21.5", local: true }))).toEqual([]);
});

test("controlPlaneWaitKind is Available exactly where the construct's wait is", () => {
  const digest = `quay.io/openshift-release-dev/ocp-release@sha256:${"b".repeat(64)}`;
  const releases = [image("4.21.5"), image("4.22.3"), image("4.22.0-rc.1"), image("5.0.1"), digest, MIRROR];
  for (const releaseImage of releases)
    for (const local of [true, false])
      for (const deployedRelease of local ? [undefined, image("4.21.3")] : [undefined])
        for (const operatorRelease of [undefined, "4.21", "4.22", "5.0"]) {
          const kind = controlPlaneWaitKind({ local, deployedRelease, operatorRelease, releaseImage });
          const wait = controlPlaneWait(releaseImage, { deployedRelease, waitForControlPlaneVersion: kind === "controlPlaneVersion" });
          expect([releaseImage, local, deployedRelease, operatorRelease, "condition" in wait]).toEqual([
            releaseImage,
            local,
            deployedRelease,
            operatorRelease,
            kind === "available",
          ]);
        }
});

/** Through npm run synth: the warning is read before the record takes the new release, and the output waits for Available. */
test("npm run synth warns once, on the synth that changes the recorded release", () => {
  const work = tempDir();
  const config = path.join(work, "dev.yaml");
  const outdir = path.join(work, "cdktf.out");
  const synth = (release: string) => {
    fs.writeFileSync(config, stringify({ ...input({ release }), secrets: { source: "files", filesOnlyWhereTerraformRuns: true } }));
    const err: string[] = [];
    const code = main([config], { CDKTF_OUTDIR: outdir }, { out: () => undefined, err: (l) => err.push(l) });
    return { code, warnings: err.filter((l) => l.includes("the release of cluster hc1 changes")) };
  };
  expect(synth("4.21.0")).toEqual({ code: 0, warnings: [] });
  const changed = synth("4.21.5");
  expect(changed.code).toBe(0);
  expect(changed.warnings).toEqual([expect.stringMatching(/^warning: the release of cluster hc1 changes from 4\.21\.0 .* to 4\.21\.5/)]);
  const stack = JSON.parse(fs.readFileSync(path.join(outdir, "stacks/cluster-hc1/cdk.tf.json"), "utf8"));
  const hostedCluster = Object.values(stack.resource.kubernetes_manifest as Record<string, any>).find((r) => r.manifest.kind === "HostedCluster");
  expect(hostedCluster.wait).toEqual({ condition: [{ type: "Available", status: "True" }] });
  expect(synth("4.21.5")).toEqual({ code: 0, warnings: [] });
});
