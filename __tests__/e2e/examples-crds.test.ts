import * as fs from "node:fs";
import * as path from "node:path";
import { synthesize } from "../../stacks/app";
import { checkManifestsEach, EXAMPLES, HAVE_CRDS, loadExample, tempDir, ToolRun } from "../helpers";

/**
 * Every example config's HostedClusters and NodePools pass HyperShift's real CRDs (schema and every
 * CEL rule the shared check-manifests tool evaluates), as the issue 13 "done" criterion asks.
 * Skipped where ../shared is absent.
 */
const allExamples = fs.readdirSync(EXAMPLES).filter((file) => file.endsWith(".yaml"));
/** The examples with at least one HostedCluster (the others render none to check). */
const examples = allExamples.filter((file) => loadExample(file).config.clusters.some((cluster) => cluster.hostedCluster));

(HAVE_CRDS ? describe : describe.skip)("examples against the HyperShift CRDs (../shared/tools/check-manifests.mjs)", () => {
  // In beforeAll, not in the describe body: jest runs a skipped describe's body too.
  const out = tempDir("hcp-azure-examples-crds-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  let runs: ToolRun[];
  beforeAll(async () => {
    const outdirs = examples.map((file) => {
      const outdir = path.join(out, path.basename(file, ".yaml"));
      synthesize(loadExample(file), outdir);
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
