import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { validateConfig } from "../../config/load";
import { checkManifestsEach, EXAMPLES, HAVE_CRDS, REPO, synthStacks, tempDir, ToolRun } from "../helpers";

/**
 * The HostedClusters and NodePools we render are valid for the HyperShift release the user runs
 * (`managementCluster.operator.hypershiftRelease`), against the CRDs that release's
 * `hypershift install` applies (vendored in __tests__/fixtures/hypershift-crds/, one folder per
 * branch), not only against main's. Every example is synthesized for each release; an example the
 * release refuses must be refused only by release gates (config/rules/hypershift-release.ts), and
 * is checked without the gated options. No error and no unknown field: the kubernetes provider
 * fails the plan on a field the CRD lacks (help/management-cluster.md#the-hypershift-release).
 * One check-manifests run per release; skipped where ../shared (the tool) is absent.
 */

const FIXTURES = path.join(REPO, "__tests__", "fixtures", "hypershift-crds");
const RELEASES = fs
  .readdirSync(FIXTURES)
  .filter((entry) => entry.startsWith("release-"))
  .map((entry) => entry.slice("release-".length));
const SCHEMA_FILES = ["hostedcluster.v1beta1.schema.json", "nodepool.v1beta1.schema.json"];

const example = (file: string) => parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8"));
/** The examples with a hosted cluster (isolated-clusters.yaml has none). */
const EXAMPLE_FILES = fs.readdirSync(EXAMPLES).filter((file) => file.endsWith(".yaml") && file !== "isolated-clusters.yaml");

/** Gated options no example uses, each on the example it fits. */
const EXTRA: Record<string, () => any> = {
  "basic.yaml with hostedCluster.monitoring": () => {
    const config = example("basic.yaml");
    config.clusters[0].hostedCluster.monitoring = { metricsSet: "SRE" };
    return config;
  },
  "aro-hcp.yaml with hostedCluster.kms (the ARO HCP form)": () => {
    const config = example("aro-hcp.yaml");
    config.clusters[0].hostedCluster.kms = { keyVault: { keyName: "etcd-encryption", network: { allowedIpRanges: ["203.0.113.7"] } } };
    return config;
  },
  "nodepool-options.yaml with autoscaling.min 0": () => {
    const config = example("nodepool-options.yaml");
    const pool = config.clusters[0].hostedCluster.nodePools.find((p: any) => p.autoscaling);
    pool.autoscaling.min = 0;
    return config;
  },
};
const INPUTS: Record<string, () => any> = { ...Object.fromEntries(EXAMPLE_FILES.map((file) => [file, () => example(file)])), ...EXTRA };

/** Removes the option at a config path (`a.b[0].c`; endpointAccess with its privateLink), or sets a NodePool's autoscaling.min to 1. */
function withoutOption(config: any, issuePath: string): void {
  const steps = issuePath.split(/\.|\[(\d+)\]/).filter((step) => step !== undefined && step !== "");
  const last = steps.pop()!;
  const parent = steps.reduce((node, step) => node[step], config);
  if (last === "min" && steps.at(-1) === "autoscaling") parent.min = 1;
  else delete parent[last];
  if (last === "endpointAccess") delete parent.privateLink;
}

interface Variant {
  readonly label: string;
  /** The paths the release refused (the options removed). */
  readonly refused: readonly string[];
  /** Release-gate messages that were not (should be empty). */
  readonly otherIssues: readonly string[];
  readonly stacks?: Record<string, any>;
}

/** `input` at `release`: as it is, or without the options the release gates refuse. */
function variant(label: string, input: any, release: string): Variant {
  input.managementCluster.operator.hypershiftRelease = release;
  const first = validateConfig(input, EXAMPLES);
  if (first.ok) return { label, refused: [], otherIssues: [], stacks: synthStacks(first, "cluster") };
  const refused = first.issues.map((issue) => issue.path);
  const otherIssues = first.issues.filter((issue) => !/^needs HyperShift \d+\.\d+ or later for /.test(issue.message)).map((i) => `${i.path}: ${i.message}`);
  if (otherIssues.length > 0) return { label, refused, otherIssues };
  for (const issuePath of refused) withoutOption(input, issuePath);
  const second = validateConfig(input, EXAMPLES);
  if (!second.ok) return { label, refused, otherIssues: second.issues.map((i) => `(without ${refused.join(", ")}) ${i.path}: ${i.message}`) };
  return { label, refused, otherIssues: [], stacks: synthStacks(second, "cluster") };
}

/** Writes the cluster stacks (the HostedClusters and NodePools) as `cdktf synth` lays them out. */
function writeClusterStacks(stacks: Record<string, any>, outdir: string): number {
  let hostedClusters = 0;
  for (const [name, json] of Object.entries(stacks)) {
    if (!name.startsWith("cluster-")) continue;
    fs.mkdirSync(path.join(outdir, "stacks", name), { recursive: true });
    fs.writeFileSync(path.join(outdir, "stacks", name, "cdk.tf.json"), JSON.stringify(json));
    hostedClusters += Object.values((json.resource?.kubernetes_manifest ?? {}) as Record<string, any>).filter(
      (r) => r.manifest.kind === "HostedCluster",
    ).length;
  }
  return hostedClusters;
}

describe("the vendored release CRDs (__tests__/fixtures/hypershift-crds/README.md)", () => {
  const readme = fs.readFileSync(path.join(FIXTURES, "README.md"), "utf8");
  it("hold 4.21, 4.22 and 4.23", () => expect(RELEASES).toEqual(["4.21", "4.22", "4.23"]));
  it.each(RELEASES.flatMap((release) => SCHEMA_FILES.map((file) => `release-${release}/${file}`)))("%s: its sha256 is the README's", (file) => {
    const sha256 = createHash("sha256")
      .update(fs.readFileSync(path.join(FIXTURES, file)))
      .digest("hex");
    const row = readme.split("\n").find((line) => line.startsWith(`| \`${file}\` |`));
    expect(row?.trim().endsWith(`| \`${sha256}\` |`)).toBe(true);
  });
  it("differ from main where our rendering depends on it (topology from 4.22; KMS workloadIdentity from 4.23; keyVaultType on none)", () => {
    const azure = (release: string) => {
      const spec = JSON.parse(fs.readFileSync(path.join(FIXTURES, `release-${release}`, SCHEMA_FILES[0]), "utf8")).properties.spec.properties;
      return {
        platform: Object.keys(spec.platform.properties.azure.properties),
        kms: Object.keys(spec.secretEncryption.properties.kms.properties.azure.properties),
      };
    };
    expect(RELEASES.map((release) => [release, azure(release).platform.includes("topology"), azure(release).kms.includes("workloadIdentity")])).toEqual([
      ["4.21", false, false],
      ["4.22", true, false],
      ["4.23", true, true],
    ]);
    expect(RELEASES.filter((release) => azure(release).kms.includes("keyVaultType"))).toEqual([]);
  });
});

(HAVE_CRDS ? describe : describe.skip)("every example against its release's CRDs (check-manifests --schemas)", () => {
  // In beforeAll, not in the describe body: jest runs a skipped describe's body too.
  const out = tempDir("hcp-azure-release-crds-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  const variants = new Map<string, Variant[]>();
  const hostedClusters = new Map<string, number>();
  const runs = new Map<string, ToolRun>();
  let mainOn421: ToolRun;
  beforeAll(async () => {
    for (const release of RELEASES) {
      const list = Object.entries(INPUTS).map(([label, input]) => variant(label, input(), release));
      variants.set(release, list);
      let count = 0;
      list.forEach((v, index) => v.stacks && (count += writeClusterStacks(v.stacks, path.join(out, release, String(index)))));
      hostedClusters.set(release, count);
    }
    // The control: basic.yaml rendered for HyperShift main (no release set) against release-4.21.
    const main = example("basic.yaml");
    const loaded = validateConfig(main, EXAMPLES);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    writeClusterStacks(synthStacks(loaded), path.join(out, "main"));
    const argvs = [
      ...RELEASES.map((release) => ["--schemas", path.join(FIXTURES, `release-${release}`), path.join(out, release)]),
      ["--schemas", path.join(FIXTURES, "release-4.21"), path.join(out, "main")],
    ];
    const results = await checkManifestsEach(argvs);
    RELEASES.forEach((release, index) => runs.set(release, results[index]));
    mainOn421 = results[RELEASES.length];
  });

  it("the check can fail: main's rendering (topology: Public) is refused by release-4.21's CRD", () => {
    expect(mainOn421.stdout).toMatch(/HostedCluster\/myprefix-hc spec\.platform\.azure\.topology: unknown field/);
    expect(mainOn421.status).toBe(1);
  });

  it.each(RELEASES)("release %s: every example is accepted, or refused only by release gates", (release) => {
    const list = variants.get(release)!;
    expect(list.filter((v) => v.otherIssues.length > 0).map((v) => [v.label, v.otherIssues])).toEqual([]);
    expect(list.every((v) => v.stacks)).toBe(true);
  });

  it.each(RELEASES)("release %s: 0 errors, no unknown field, no failed CEL rule, every HostedCluster checked", (release) => {
    const run = runs.get(release)!;
    expect(run.stderr).toBe("");
    expect(run.stdout).not.toMatch(/unknown field/);
    expect(run.stdout).not.toMatch(/\(\d*[1-9]\d* failed\)/);
    expect(run.stdout).toMatch(new RegExp(`^checked \\d+ manifests \\(HostedCluster: ${hostedClusters.get(release)}, NodePool: \\d+\\), 0 errors, `, "m"));
    expect(run.status).toBe(0);
  });

  it("what each release refuses is what its CRD lacks (the gates)", () => {
    const refused = (release: string) =>
      Object.fromEntries(
        variants
          .get(release)!
          .filter((v) => v.refused.length > 0)
          .map((v) => [v.label, v.refused]),
      );
    expect(refused("4.21")).toEqual({
      "all-options.yaml": ["clusters[0].identities.controlPlaneOperator", "clusters[0].hostedCluster.oauthPublishing"],
      "kms.yaml": ["clusters[0].hostedCluster.kms", "clusters[1].hostedCluster.kms"],
      "private.yaml": ["clusters[0].hostedCluster.endpointAccess", "clusters[1].hostedCluster.endpointAccess"],
      "production.yaml": ["clusters[0].hostedCluster.containerRegistry"],
      "basic.yaml with hostedCluster.monitoring": ["clusters[0].hostedCluster.monitoring"],
      "nodepool-options.yaml with autoscaling.min 0": [expect.stringMatching(/^clusters\[0\]\.hostedCluster\.nodePools\[\d+\]\.autoscaling\.min$/)],
    });
    expect(refused("4.22")).toEqual({
      "kms.yaml": ["clusters[0].hostedCluster.kms", "clusters[1].hostedCluster.kms"],
      "nodepool-options.yaml with autoscaling.min 0": [expect.stringMatching(/autoscaling\.min$/)],
    });
    expect(refused("4.23")).toEqual({});
  });
});
