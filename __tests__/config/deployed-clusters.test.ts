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
        clusters: [
          {
            name: "hc1",
            retired: true,
            hostedCluster: {
              releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64",
              baseDomain: "example.com",
              publicZone: { resourceGroupName: "dns-rg" },
              pullSecretFile: "pull-secret.json",
            },
          },
        ],
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

  it("parses stack names, the retired marker, comments and blank lines", () => {
    const parsed = parseClusterRecord("# comment\n\nidentities-hc1\ninfra-hc2 retired\n  cluster-team-b  \n");
    expect(parsed.ok && [...parsed.record]).toEqual([
      ["identities-hc1", { retired: false }],
      ["infra-hc2", { retired: true }],
      ["cluster-team-b", { retired: false }],
    ]);
  });

  it("reports every malformed line at once", () => {
    expect(parseClusterRecord("infra-hc1\nhc2\nshared\ninfra-hc3 gone\ninfra-hc1\n")).toEqual({
      ok: false,
      problems: [
        'line 2: "hc2" must be a cluster\'s stack (identities-, infra- or cluster-<name>), optionally followed by "retired"',
        'line 3: "shared" must be a cluster\'s stack (identities-, infra- or cluster-<name>), optionally followed by "retired"',
        'line 4: "infra-hc3 gone" must be a cluster\'s stack (identities-, infra- or cluster-<name>), optionally followed by "retired"',
        "line 5: stack infra-hc1 appears twice",
      ],
    });
  });

  it("is rendered sorted, the stacks of retired clusters marked, and parses back", () => {
    const loaded = load(tempDir(), [{ name: "zeta" }, { name: "alpha", retired: true }], { backend: AZURERM });
    const text = renderClusterRecord(loaded);
    expect(text).toMatch(/^# Cluster stacks of dev\.yaml that may hold state in the azurerm backend\.\n/);
    expect(text.split("\n").filter((l) => l && !l.startsWith("#"))).toEqual(["identities-alpha retired", "identities-zeta"]);
    const parsed = parseClusterRecord(text);
    expect(parsed.ok && [...parsed.record.keys()]).toEqual(["identities-alpha", "identities-zeta"]);
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
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "identities-hc1\nidentities-hc2\ninfra-hc2\ncluster-hc2\n");
    const issues = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: "clusters", value: "hc2" });
    expect(issues[0].message).toContain(
      `was removed from the config, but its stacks may still hold state (cluster-hc2, infra-hc2, identities-hc2: listed in ${path.relative(process.cwd(), path.join(dir, "dev.clusters.lock"))}, azurerm backend)`,
    );
    expect(issues[0].message).toContain(
      "Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- cluster-hc2 infra-hc2 identities-hc2)",
    );
    expect(issues[0].message).toContain("Once the destroy has completed, delete their lines (cluster-hc2, infra-hc2, identities-hc2) from");
  });

  it("a removed hostedCluster whose stacks are recorded is an error at that cluster's hostedCluster", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "identities-hc1\ninfra-hc1 retired\ncluster-hc1 retired\n");
    const [issue, ...rest] = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    expect(rest).toEqual([]);
    expect(issue.path).toBe("clusters[0].hostedCluster");
    expect(issue.message).toContain(
      "was removed from the config, but cluster-hc1 and infra-hc1 may still hold state (cluster-hc1 retired, infra-hc1 retired: listed in",
    );
    expect(issue.message).toContain("Put hostedCluster back, synth, and destroy them (npm run destroy -- cluster-hc1 infra-hc1)");
  });

  it("no record, or a record matching the config, is no error; a malformed record is", () => {
    const dir = tempDir();
    const loaded = load(dir, [{ name: "hc1" }, { name: "hc2", retired: true }], { backend: AZURERM });
    expect(removedClusterIssues(loaded)).toEqual([]);
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "identities-hc1\nidentities-hc2 retired\n");
    expect(removedClusterIssues(loaded)).toEqual([]);
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "identities-hc1 deployed\n");
    expect(removedClusterIssues(loaded).map((i) => i.message)).toEqual([
      expect.stringContaining('line 1: "identities-hc1 deployed" must be a cluster\'s stack'),
    ]);
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
    expect(issues[0].message).toContain(`its stacks may still hold state (${files[1]}: 12 resources, ${files[0]}: 1 resource)`);
    expect(issues[0].message).toContain(
      "Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- cluster-hc2 infra-hc2 identities-hc2)",
    );
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

  it("a removed hostedCluster whose infra state holds resources is an error at that cluster", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(stateDir(dir), "infra-hc1.tfstate"), state(4));
    fs.writeFileSync(path.join(stateDir(dir), "identities-hc1.tfstate"), state(19));
    const issues = removedClusterIssues(load(dir, [{ name: "hc1" }]));
    expect(issues.map((i) => i.path)).toEqual(["clusters[0].hostedCluster"]);
    expect(issues[0].message).toContain("infra-hc1 may still hold state");
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
