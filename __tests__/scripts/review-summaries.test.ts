import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { Review, reviewChanges } from "../../scripts/change-review/review";
import { writeOutputFolder } from "../../scripts/change-review/sides";
import { EXAMPLES, loadInline, synthStacks, tempDir } from "../helpers";

/** What a reviewer reads first: new objects by kind, a headline per retired or removed cluster, guard internals hidden. */
type Config = Record<string, any>;
const basic = (): Config => parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8"));
const work = tempDir("hcp-azure-review-summaries-");
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function folder(name: string, edit: (config: Config) => void = () => undefined): string {
  const config = basic();
  edit(config);
  const dir = path.join(work, name);
  if (!fs.existsSync(dir)) writeOutputFolder(dir, synthStacks(loadInline(config)));
  return dir;
}
const review = (oldDir: string, newDir: string): Review =>
  reviewChanges({ oldLabel: "old", newLabel: "new", oldDir, newDir, checkManifests: path.join(work, "no-tool.mjs") });
const second = (c: Config) => {
  const copy = structuredClone(c.clusters[0]);
  copy.name = "hc2";
  copy.hostedCluster.nodePools[0].name = "hc2";
  c.clusters.push(copy);
};

test("a new NodePool is summarized: size, count, zone, release; its creation guard is not listed", () => {
  const pools = folder("pools", (c) =>
    c.clusters[0].hostedCluster.nodePools.push(
      { name: "extra", replicas: 3, vmSize: "Standard_D8s_v5", availabilityZone: "2" },
      { name: "auto", autoscaling: { min: 1, max: 5 } },
    ),
  );
  const r = review(folder("base"), pools);
  expect(r.markdown).toContain("— NodePool extra: Standard_D8s_v5, 3 replicas, zone 2, release 4.21.0-x86_64");
  expect(r.markdown).toMatch(/— NodePool auto: Standard_D4s_v5, autoscaling 1–5, (no zone|zone \d), release 4\.21\.0-x86_64/);
  expect(r.markdown).not.toMatch(/CreationGuard_/);
  expect(r.markdown).toContain("_Creation guards updated._");
  expect(r.markdown).toContain("| cluster-myprefix-hc | changed | 2 | 0 | 0 | 0 |");
});

test("a new cluster: its HostedCluster and role assignments are summarized", () => {
  const r = review(folder("base"), folder("two", second));
  expect(r.markdown).toMatch(/— HostedCluster hc2: release 4\.21\.0-x86_64, .*API server published by LoadBalancer/);
  expect(r.markdown).toMatch(/— role \S+.* on \/subscriptions\//);
});

test("a retirement has one headline and one finding per stack, not one per resource", () => {
  const r = review(
    folder("base"),
    folder("retired", (c) => (c.clusters[0].retired = true)),
  );
  const headline =
    "🗑️ **cluster myprefix-hc retired**: its 3 stacks will be destroyed (`npm run destroy -- cluster-myprefix-hc infra-myprefix-hc identities-myprefix-hc`); prevent_destroy lifted from 21 resources (help/retire-cluster.md).";
  expect(r.markdown).toContain(headline);
  expect(r.markdown.indexOf(headline)).toBeLessThan(r.markdown.indexOf("| Stack |"));
  const toReview = r.markdown.split("### ⚠️ To review")[1].split("_CRD check")[0].trim().split("\n");
  expect(toReview).toEqual(["- **identities-myprefix-hc**: lifts prevent_destroy from 21 resources (the retirement: the destroy deletes them)"]);
});

test("a removed cluster has a headline naming its stacks", () => {
  const r = review(folder("two", second), folder("base"));
  expect(r.markdown).toContain(
    "⛔ **cluster hc2 removed**: its 3 stacks (cluster-hc2, infra-hc2, identities-hc2) leave the configuration; what they hold stays in Azure, unmanaged.",
  );
  expect(r.dangerous).toBe(true);
});
