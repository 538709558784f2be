import * as fs from "node:fs";
import * as path from "node:path";
import {
  clusterRecordFile,
  parseClusterRecord,
  removedClusterIssues,
  renderClusterRecord,
  retiredClusterWarnings,
  writeClusterRecord,
} from "../../config/deployed-clusters";
import { LoadedConfig, validateConfig } from "../../config/load";
import { EXAMPLES, minimalConfig, tempDir as makeTempDir } from "../helpers";

const made: string[] = [];
const tempDir = () => {
  const dir = makeTempDir();
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const AZURERM = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate" };

/** A config file in `dir` (its name is what the record is named after), loaded. */
function load(dir: string, clusters: unknown[], overrides: Record<string, unknown> = {}): LoadedConfig {
  const input = minimalConfig({ serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") }, clusters, ...overrides });
  const loaded = validateConfig(input, dir, path.join(dir, "dev.yaml"));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded;
}

/** A Terraform state file with `count` managed resources (and one data source, which does not count). */
function state(count: number): string {
  const managed = Array.from({ length: count }, (_, i) => ({ mode: "managed", type: "terraform_data", name: `r${i}`, instances: [{ attributes: {} }] }));
  return JSON.stringify({ version: 4, resources: [...managed, { mode: "data", type: "azurerm_client_config", name: "d", instances: [{}] }] });
}

describe("clusters[].retired in the config", () => {
  it("defaults to false and is exposed in the derived names with the cluster's stacks", () => {
    const dir = tempDir();
    const loaded = load(dir, [{ name: "hc1" }, { name: "hc2", retired: true }]);
    expect(loaded.config.clusters.map((c) => c.retired)).toEqual([false, true]);
    expect(loaded.names.clusters.map((c) => [c.name, c.retired, c.stacks])).toEqual([
      ["hc1", false, ["identities-hc1"]],
      ["hc2", true, ["identities-hc2"]],
    ]);
  });

  it("lists cluster-, infra- and identities- stacks, in destroy order, for a hosted cluster", () => {
    const loaded = validateConfig(
      minimalConfig({
        clusters: [{ name: "hc1", retired: true, hostedCluster: { releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64", baseDomain: "example.com", publicZone: { resourceGroupName: "dns-rg" }, pullSecretFile: "pull-secret.json" } }],
        managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
      }),
      EXAMPLES,
    );
    expect(loaded.ok && loaded.names.clusters[0].stacks).toEqual(["cluster-hc1", "infra-hc1", "identities-hc1"]);
  });

  it("rejects a value that is not a boolean, naming the field", () => {
    const loaded = validateConfig(minimalConfig({ clusters: [{ name: "hc1", retired: "yes" }] }), EXAMPLES);
    expect(loaded.ok).toBe(false);
    expect(!loaded.ok && loaded.issues).toEqual([{ path: "clusters[0].retired", value: "yes", message: "must be a boolean, got string" }]);
  });

  it("synth warns what to do next for each retired cluster", () => {
    const loaded = load(tempDir(), [{ name: "hc1" }, { name: "hc2", retired: true }]);
    expect(retiredClusterWarnings(loaded)).toEqual([
      "clusters[1] (hc2) is retired: its stacks plan only to be destroyed. Run npm run destroy -- identities-hc2, then remove the cluster from the config (help/retire-cluster.md).",
    ]);
  });
});

describe("the record of deployed clusters (remote backends)", () => {
  it("sits beside the config, named after it", () => {
    expect(clusterRecordFile("/work/envs/prod.yaml")).toBe("/work/envs/prod.clusters.lock");
    expect(clusterRecordFile("/work/envs/prod.yml")).toBe("/work/envs/prod.clusters.lock");
    expect(clusterRecordFile("/work/envs/prod")).toBe("/work/envs/prod.clusters.lock");
  });

  it("parses names, the retired marker, comments and blank lines", () => {
    const parsed = parseClusterRecord("# comment\n\nhc1\nhc2 retired\n  team-b  \n");
    expect(parsed.ok && [...parsed.record]).toEqual([
      ["hc1", { retired: false }],
      ["hc2", { retired: true }],
      ["team-b", { retired: false }],
    ]);
  });

  it("reports every malformed line at once", () => {
    expect(parseClusterRecord("hc1\nHC_2\nhc3 gone\nhc1\n")).toEqual({
      ok: false,
      problems: [
        'line 2: "HC_2" must be a cluster name, optionally followed by "retired"',
        'line 3: "hc3 gone" must be a cluster name, optionally followed by "retired"',
        "line 4: cluster hc1 appears twice",
      ],
    });
  });

  it("is rendered sorted by name, retired clusters marked, and parses back", () => {
    const loaded = load(tempDir(), [{ name: "zeta" }, { name: "alpha", retired: true }], { backend: AZURERM });
    const text = renderClusterRecord(loaded);
    expect(text).toMatch(/^# Clusters of dev\.yaml whose stacks may hold state in the azurerm backend\.\n/);
    expect(text.split("\n").filter((l) => l && !l.startsWith("#"))).toEqual(["alpha retired", "zeta"]);
    const parsed = parseClusterRecord(text);
    expect(parsed.ok && [...parsed.record.keys()]).toEqual(["alpha", "zeta"]);
  });

  it("is written for azurerm and cloud backends only, and only when it changes", () => {
    const dir = tempDir();
    expect(writeClusterRecord(load(dir, [{ name: "hc1" }]))).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual([]);
    const remote = load(dir, [{ name: "hc1" }], { backend: { type: "cloud", organization: "acme" } });
    expect(writeClusterRecord(remote)).toBe(path.join(dir, "dev.clusters.lock"));
    const mtime = fs.statSync(path.join(dir, "dev.clusters.lock")).mtimeMs;
    expect(writeClusterRecord(remote)).toBeUndefined();
    expect(fs.statSync(path.join(dir, "dev.clusters.lock")).mtimeMs).toBe(mtime);
    expect(fs.readdirSync(dir)).toEqual(["dev.clusters.lock"]);
  });

  it("a cluster in the record but not in the config is an error with the recovery", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "hc1\nhc2\n");
    const issues = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: "clusters", value: "hc2" });
    expect(issues[0].message).toContain("lists it as deployed (azurerm backend): its stacks may still hold state");
    expect(issues[0].message).toContain("Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- cluster-hc2 infra-hc2 identities-hc2)");
    expect(issues[0].message).toContain("Once they are destroyed, delete its line from");
  });

  it("a removed cluster the record saw retired: the error says to delete its line once the destroy completed", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "hc1\nhc2 retired\n");
    const [issue] = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    expect(issue.message).toContain("It was retired: once npm run destroy -- cluster-hc2 infra-hc2 identities-hc2 has completed, delete its line from");
  });

  it("no record, or a record matching the config, is no error; a malformed record is", () => {
    const dir = tempDir();
    const loaded = load(dir, [{ name: "hc1" }, { name: "hc2", retired: true }], { backend: AZURERM });
    expect(removedClusterIssues(loaded)).toEqual([]);
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "hc1\nhc2\n");
    expect(removedClusterIssues(loaded)).toEqual([]);
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "hc1 deployed\n");
    expect(removedClusterIssues(loaded).map((i) => i.message)).toEqual([expect.stringContaining('line 1: "hc1 deployed" must be a cluster name')]);
  });
});

describe("removed clusters with the local backend: the state files", () => {
  const stateDir = (dir: string) => {
    fs.mkdirSync(path.join(dir, "terraform-state"), { recursive: true });
    return path.join(dir, "terraform-state");
  };

  it("a removed cluster whose stacks hold resources is an error naming each state file, its count and the recovery", () => {
    const dir = tempDir();
    const states = stateDir(dir);
    fs.writeFileSync(path.join(states, "infra-hc2.tfstate"), state(12));
    fs.writeFileSync(path.join(states, "identities-hc2.tfstate"), state(1));
    fs.writeFileSync(path.join(states, "cluster-hc2.tfstate"), state(0));
    fs.writeFileSync(path.join(states, "identities-hc1.tfstate"), state(19));
    fs.writeFileSync(path.join(states, "shared.tfstate"), state(5));
    const issues = removedClusterIssues(load(dir, [{ name: "hc1" }]));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: "clusters", value: "hc2" });
    const files = [path.join(states, "identities-hc2.tfstate"), path.join(states, "infra-hc2.tfstate")].map((f) => path.relative(process.cwd(), f));
    expect(issues[0].message).toContain(`its stacks still hold state (${files[0]}: 1 resource, ${files[1]}: 12 resources)`);
    expect(issues[0].message).toContain("Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- cluster-hc2 infra-hc2 identities-hc2)");
  });

  it("state files emptied by a destroy, another config's stray files and a missing folder are no error", () => {
    const dir = tempDir();
    expect(removedClusterIssues(load(dir, [{ name: "hc1" }]))).toEqual([]);
    const states = stateDir(dir);
    fs.writeFileSync(path.join(states, "infra-hc2.tfstate"), state(0));
    fs.writeFileSync(path.join(states, "infra-hc2.tfstate.backup"), state(12));
    fs.writeFileSync(path.join(states, "notes.txt"), "x");
    expect(removedClusterIssues(load(dir, [{ name: "hc1" }]))).toEqual([]);
  });

  it("a state file that cannot be read as state counts as holding state", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(stateDir(dir), "cluster-hc2.tfstate"), "{ not json");
    const [issue] = removedClusterIssues(load(dir, [{ name: "hc1" }]));
    expect(issue.message).toContain("cluster-hc2.tfstate: unreadable");
  });

  it("follows backend.directory, and ignores the record", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "state"));
    fs.writeFileSync(path.join(dir, "state", "infra-hc2.tfstate"), state(3));
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "hc1\nhc3\n");
    const issues = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: { type: "local", directory: "state" } }));
    expect(issues.map((i) => i.value)).toEqual(["hc2"]);
  });
});
