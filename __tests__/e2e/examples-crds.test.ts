import * as fs from "node:fs";
import * as path from "node:path";
import { checkManifestsEach, EXAMPLES, HAVE_CRDS, loadExample, synthStacks, tempDir, ToolRun } from "../helpers";

/**
 * Every example config's HostedClusters and NodePools pass HyperShift's real CRDs (schema and every
 * CEL rule the shared check-manifests tool evaluates), as the issue 13 "done" criterion asks.
 * Skipped where ../shared is absent.
 */
const allExamples = fs.readdirSync(EXAMPLES).filter((file) => file.endsWith(".yaml"));
/** Each example, loaded once. */
const loadedExamples = new Map(allExamples.map((file) => [file, loadExample(file)]));
/** The examples with at least one HostedCluster (the others render none to check). */
const examples = allExamples.filter((file) => loadedExamples.get(file)!.config.clusters.some((cluster) => cluster.hostedCluster));

(HAVE_CRDS ? describe : describe.skip)("examples against the HyperShift CRDs (../shared/tools/check-manifests.mjs)", () => {
  // In beforeAll, not in the describe body: jest runs a skipped describe's body too.
  const out = tempDir("hcp-azure-examples-crds-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  let runs: ToolRun[];
  beforeAll(async () => {
    // The cluster stacks (the only ones holding HostedClusters and NodePools), written as
    // `npm run synth` lays them out for the tool to read.
    const outdirs = examples.map((file) => {
      const outdir = path.join(out, path.basename(file, ".yaml"));
      for (const [stack, json] of Object.entries(synthStacks(loadedExamples.get(file)!, "cluster"))) {
        fs.mkdirSync(path.join(outdir, "stacks", stack), { recursive: true });
        fs.writeFileSync(path.join(outdir, "stacks", stack, "cdk.tf.json"), JSON.stringify(json));
      }
      return outdir;
    });
    runs = await checkManifestsEach(outdirs.map((dir) => [dir]));
  });

  it("covers every example with a hosted cluster, all-options.yaml included", () => {
    expect(examples).toEqual(expect.arrayContaining(["all-options.yaml", "basic.yaml", "external-dns.yaml", "aro-hcp.yaml"]));
    expect(allExamples.filter((file) => !examples.includes(file))).toEqual(["isolated-clusters.yaml"]);
  });

  it.each(examples.map((file, index) => ({ file, index })))("examples/$file: 0 errors, no failed CEL rule", ({ file, index }) => {
    const run = runs[index];
    expect([file, run.stderr]).toEqual([file, ""]);
    expect(run.stdout).not.toMatch(/\(\d*[1-9]\d* failed\)/);
    expect(run.stdout).toMatch(/^checked \d+ manifests \(HostedCluster: \d+, NodePool: \d+\), 0 errors, /m);
    expect(run.status).toBe(0);
  });
});
