import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { parseClusterRecord, removedClusterIssues, writeClusterRecord } from "../../../config/deployed-clusters";
import { validateConfig } from "../../../config/load";
import { main } from "../../../main";
import { EXAMPLES, hostedClusterSpec, minimalConfig, tempDir } from "../../helpers";

/**
 * Remote backends (azurerm, cloud): the release rules of help/upgrades.md against the
 * `release: cluster-<name> <image>` line of the committed record (*.clusters.lock), which synth
 * writes only for a config it accepted.
 */

const image = (tag: string) => `quay.io/openshift-release-dev/ocp-release:${tag}-x86_64`;
const AZURERM = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate" };
const RECORD = "azurerm+acmetfstate+tfstate+hcp-azure%2Fdemo%2F.clusters.lock";
const STACKS = (name: string) => [`cluster-${name}`, `identities-${name}`, `infra-${name}`];

interface Cluster {
  readonly name: string;
  readonly release: string;
  readonly ack?: string;
  readonly retired?: boolean;
  readonly poolRelease?: string;
}

const clusterInput = (c: Cluster) => ({
  name: c.name,
  ...(c.retired ? { retired: true } : {}),
  hostedCluster: {
    ...hostedClusterSpec(),
    releaseImage: c.release.includes("@") ? c.release : image(c.release),
    pullSecretFile: path.join(EXAMPLES, "pull-secret.json"),
    nodePools: [{ name: `${c.name}-workers`, ...(c.poolRelease ? { releaseImage: image(c.poolRelease) } : {}) }],
    ...(c.ack ? { upgrade: { acknowledgeMinor: c.ack } } : {}),
  },
});

function load(dir: string, clusters: readonly Cluster[]) {
  const input = minimalConfig({
    serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") },
    managementCluster: { operator: { bundleFile: path.join(EXAMPLES, "operator/hypershift-operator.yaml") } },
    clusters: clusters.map(clusterInput),
    backend: AZURERM,
  });
  const loaded = validateConfig(input, dir, path.join(dir, "dev.yaml"));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

const issues = (dir: string, clusters: readonly Cluster[]) => removedClusterIssues(load(dir, clusters)).map((i) => `${i.path}: ${i.message}`);
const recordText = (dir: string) => fs.readFileSync(path.join(dir, RECORD), "utf8");
const releaseLines = (dir: string) =>
  recordText(dir)
    .split("\n")
    .filter((l) => l.startsWith("release:"));

describe("the record's release lines", () => {
  test("the first synth (no record) is judged by nothing; writing the record adds one release line per hosted cluster, not per pool", () => {
    const dir = tempDir();
    const clusters = [
      { name: "hc2", release: "4.22.3", poolRelease: "4.21.9" },
      { name: "hc1", release: "4.21.3" },
    ];
    expect(issues(dir, clusters)).toEqual([]);
    writeClusterRecord(load(dir, clusters));
    expect(releaseLines(dir)).toEqual([`release: cluster-hc1 ${image("4.21.3")}`, `release: cluster-hc2 ${image("4.22.3")}`]);
    expect(recordText(dir)).toContain("# release: each cluster's releaseImage as the last synth that accepted the config set it");
    const parsed = parseClusterRecord(recordText(dir));
    expect(parsed.ok && [...parsed.releases]).toEqual([
      ["cluster-hc1", image("4.21.3")],
      ["cluster-hc2", image("4.22.3")],
    ]);
  });

  test.each([
    ["a patch", "4.21.5", undefined, []],
    ["the same release", "4.21.3", undefined, []],
    ["an acknowledged minor", "4.22.1", "4.22", []],
    ["a downgrade", "4.20.5", undefined, [/releaseImage: downgrades the control plane from the recorded 4\.21\.3 to 4\.20\.5/]],
    ["a patch downgrade", "4.21.1", undefined, [/downgrades the control plane from the recorded 4\.21\.3 to 4\.21\.1/]],
    ["a skipped minor", "4.23.1", "4.23", [/skips a minor: the recorded release is 4\.21\.3.*path 4\.21 → 4\.22 → 4\.23/]],
    ["an unacknowledged minor", "4.22.1", undefined, [/upgrade\.acknowledgeMinor: must be "4\.22" to upgrade the recorded 4\.21\.3 to 4\.22\.1/]],
    ["a minor acknowledged for another", "4.22.1", "4.21", [/acknowledgeMinor: must be "4\.22"/]],
  ])("against the recorded 4.21.3: %s (%s, ack %s)", (_name, release, ack, expected) => {
    const dir = tempDir();
    writeClusterRecord(load(dir, [{ name: "hc1", release: "4.21.3" }]));
    // A minor whose pool follows the cluster is refused too (control-plane-first.test.ts): the pool stays.
    const poolRelease = release.startsWith("4.22.") ? "4.21.3" : undefined;
    const found = issues(dir, [{ name: "hc1", release, ack, poolRelease }]);
    expect(found).toHaveLength(expected.length);
    expected.forEach((pattern, i) => {
      expect(found[i]).toMatch(pattern);
      expect(found[i]).toContain(`The recorded release is the line "release: cluster-hc1 ${image("4.21.3")}" of `);
      expect(found[i]).toContain("If 4.21.3 was never deployed, restore that line from version control (or set it to the release the cluster runs)");
    });
  });

  test("a record from before release lines parses, judges nothing, and gains them at the next write", () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, RECORD),
      `backend: {"type":"azurerm","storageAccountName":"acmetfstate","containerName":"tfstate","keyPrefix":"hcp-azure/demo/"}\nconfigs: ["dev.yaml"]\n${STACKS("hc1").join("\n")}\n`,
    );
    const parsed = parseClusterRecord(recordText(dir));
    expect(parsed.ok && parsed.releases.size).toBe(0);
    expect(issues(dir, [{ name: "hc1", release: "4.20.1" }])).toEqual([]);
    writeClusterRecord(load(dir, [{ name: "hc1", release: "4.21.3" }]));
    expect(releaseLines(dir)).toEqual([`release: cluster-hc1 ${image("4.21.3")}`]);
    expect(issues(dir, [{ name: "hc1", release: "4.20.1" }])).toEqual([expect.stringContaining("downgrades")]);
  });

  test("a retired cluster is not judged; a release line whose stack line was deleted (cluster destroyed) judges no new cluster of that name and is dropped", () => {
    const dir = tempDir();
    writeClusterRecord(load(dir, [{ name: "hc1", release: "4.22.3" }]));
    expect(issues(dir, [{ name: "hc1", release: "4.21.3", retired: true }])).toEqual([]);
    // Destroyed and its stack lines deleted by hand (help/retire-cluster.md), the release line left behind.
    const file = path.join(dir, RECORD);
    fs.writeFileSync(file, recordText(dir).replace(/^(cluster|infra|identities)-hc1\n/gm, ""));
    expect(releaseLines(dir)).toHaveLength(1);
    expect(issues(dir, [{ name: "hc1", release: "4.21.3" }])).toEqual([]);
    writeClusterRecord(load(dir, [{ name: "hc9", release: "4.21.3" }]));
    expect(releaseLines(dir)).toEqual([`release: cluster-hc9 ${image("4.21.3")}`]);
  });

  test("neither a digest-only release nor a retirement carries a downgrade past the rules: the record keeps the versioned release", () => {
    const DIGEST = `quay.io/openshift-release-dev/ocp-release@sha256:${"ab".repeat(32)}`;
    const viaDigest = tempDir();
    writeClusterRecord(load(viaDigest, [{ name: "hc1", release: "4.22.1" }]));
    expect(issues(viaDigest, [{ name: "hc1", release: DIGEST }])).toEqual([]);
    writeClusterRecord(load(viaDigest, [{ name: "hc1", release: DIGEST }]));
    expect(releaseLines(viaDigest)).toEqual([`release: cluster-hc1 ${image("4.22.1")}`]);
    expect(issues(viaDigest, [{ name: "hc1", release: "4.21.0" }])).toEqual([expect.stringContaining("downgrades the control plane from the recorded 4.22.1")]);

    const viaRetirement = tempDir();
    writeClusterRecord(load(viaRetirement, [{ name: "hc1", release: "4.22.3" }]));
    expect(issues(viaRetirement, [{ name: "hc1", release: "4.21.3", retired: true }])).toEqual([]);
    writeClusterRecord(load(viaRetirement, [{ name: "hc1", release: "4.21.3", retired: true }]));
    expect(releaseLines(viaRetirement)).toEqual([`release: cluster-hc1 ${image("4.22.3")}`]);
    expect(issues(viaRetirement, [{ name: "hc1", release: "4.21.3" }])).toEqual([
      expect.stringContaining("downgrades the control plane from the recorded 4.22.3"),
    ]);
  });

  test("a malformed or repeated release line is an error naming the line", () => {
    const dir = tempDir();
    const file = path.join(dir, RECORD);
    for (const [line, problem] of [
      [`release: infra-hc1 ${image("4.21.3")}`, "must be release: cluster-<name> <release image>"],
      ["release: cluster-hc1", "must be release: cluster-<name> <release image>"],
      [`release: cluster-hc1 ${image("4.21.3")} extra`, "must be release: cluster-<name> <release image>"],
      [`release: cluster-hc1 ${image("4.21.3")}\nrelease: cluster-hc1 ${image("4.21.4")}`, "a second release: line for cluster-hc1"],
    ]) {
      fs.writeFileSync(file, `${STACKS("hc1").join("\n")}\n${line}\n`);
      expect(issues(dir, [{ name: "hc1", release: "4.21.3" }])).toEqual([expect.stringContaining(problem)]);
    }
  });
});

/** Through npm run synth (main): what writes the record and what does not. */
describe("npm run synth keeps the release of the last accepted config only", () => {
  const work = tempDir();
  const outdir = path.join(work, "cdktf.out");
  const config = path.join(work, "dev.yaml");
  const write = (release: string, ack?: string, poolRelease?: string) =>
    fs.writeFileSync(
      config,
      stringify(
        minimalConfig({
          serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") },
          managementCluster: { operator: { bundleFile: path.join(EXAMPLES, "operator/hypershift-operator.yaml") } },
          clusters: [clusterInput({ name: "hc1", release, ack, poolRelease })],
          backend: AZURERM,
          secrets: { source: "files", filesOnlyWhereTerraformRuns: true },
        }),
      ),
    );
  const run = (env: NodeJS.ProcessEnv = {}) => {
    const err: string[] = [];
    const code = main([config], { CDKTF_OUTDIR: outdir, ...env }, { out: () => undefined, err: (l) => err.push(l) });
    return { code, err: err.join("\n") };
  };

  test("accepted: recorded; refused: the record keeps the last accepted release; review mode neither refuses nor writes", () => {
    write("4.21.3");
    expect(run().code).toBe(0);
    expect(releaseLines(work)).toEqual([`release: cluster-hc1 ${image("4.21.3")}`]);

    write("4.22.1");
    const refused = run();
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/upgrade\.acknowledgeMinor: must be "4\.22" to upgrade the recorded 4\.21\.3 to 4\.22\.1/);
    expect(releaseLines(work)).toEqual([`release: cluster-hc1 ${image("4.21.3")}`]);

    const review = run({ HCP_AZURE_REVIEW: "1" });
    expect(review.code).toBe(0);
    expect(releaseLines(work)).toEqual([`release: cluster-hc1 ${image("4.21.3")}`]);

    write("4.22.1", "4.22", "4.21.3");
    expect(run().code).toBe(0);
    expect(releaseLines(work)).toEqual([`release: cluster-hc1 ${image("4.22.1")}`]);
  });
});
