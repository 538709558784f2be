import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import {
  clusterRecordFile,
  legacyClusterRecordFile,
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

const AZURERM_RECORD = "azurerm+acmetfstate+tfstate+hcp-azure%2Fdemo%2F.clusters.lock";
const SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";

/** A config file `file` in `dir`, loaded (its prefix and subscription key the local state; its backend, the record). */
function load(dir: string, clusters: unknown[], overrides: Record<string, unknown> = {}, file = "dev.yaml"): LoadedConfig {
  const input = minimalConfig({ serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") }, clusters, ...overrides });
  const loaded = validateConfig(input, dir, path.join(dir, file));
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
  const record = (dir: string) => path.join(dir, AZURERM_RECORD);
  const stackLines = (file: string) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l && !/^(#|backend:|configs:)/.test(l));

  it("sits beside the config, named after the backend it describes (not the config file)", () => {
    const dir = tempDir();
    expect(clusterRecordFile(load(dir, [{ name: "hc1" }], { backend: AZURERM }))).toBe(record(dir));
    expect(clusterRecordFile(load(dir, [{ name: "hc1" }], { backend: AZURERM }, "renamed.yml"))).toBe(record(dir));
    expect(clusterRecordFile(load(dir, [{ name: "hc1" }], { backend: { type: "cloud", organization: "acme" } }))).toBe(
      path.join(dir, "cloud+app.terraform.io+acme+demo-.clusters.lock"),
    );
    expect(clusterRecordFile(load(dir, [{ name: "hc1" }]))).toBeUndefined();
    // Where it was before: named after the config.
    expect(legacyClusterRecordFile("/work/envs/prod.yaml")).toBe("/work/envs/prod.clusters.lock");
    expect(legacyClusterRecordFile("/work/envs/prod.yml")).toBe("/work/envs/prod.clusters.lock");
  });

  it("parses stack names, the retired marker, the backend and configs lines, comments and blank lines", () => {
    const parsed = parseClusterRecord(
      '# comment\n\nbackend: {"type":"cloud","organization":"o","hostname":"h","workspacePrefix":""}\nconfigs: ["a.yaml"]\nidentities-hc1\ninfra-hc2 retired\n  cluster-team-b  \n',
    );
    expect(parsed.ok && [...parsed.record]).toEqual([
      ["identities-hc1", { retired: false }],
      ["infra-hc2", { retired: true }],
      ["cluster-team-b", { retired: false }],
    ]);
    // Keys sorted: a hand-edited line compares equal whatever its order.
    expect(parsed.ok && parsed.backend).toBe('{"hostname":"h","organization":"o","type":"cloud","workspacePrefix":""}');
    expect(parsed.ok && parsed.configs).toEqual(["a.yaml"]);
    expect(parseClusterRecord("identities-hc1\n")).toEqual({
      ok: true,
      backend: undefined,
      configs: [],
      record: new Map([["identities-hc1", { retired: false }]]),
      protected: new Map(),
      releases: new Map(),
    });
  });

  it("reports every malformed line at once", () => {
    expect(parseClusterRecord('infra-hc1\nhc2\nshared\ninfra-hc3 gone\ninfra-hc1\nbackend: azurerm\nconfigs: ["a", 1]\nbackend: {}\nbackend: {}\n')).toEqual({
      ok: false,
      problems: [
        'line 2: "hc2" must be a cluster\'s stack (identities-, infra- or cluster-<name>), optionally followed by "retired"',
        'line 3: "shared" must be a cluster\'s stack (identities-, infra- or cluster-<name>), optionally followed by "retired"',
        'line 4: "infra-hc3 gone" must be a cluster\'s stack (identities-, infra- or cluster-<name>), optionally followed by "retired"',
        "line 5: stack infra-hc1 appears twice",
        'line 6: "backend: azurerm" must be backend: followed by the backend\'s identity in JSON, as synth writes it',
        'line 7: "configs: ["a", 1]" must be configs: followed by a JSON list of config file names',
        'line 9: a second "backend:" line',
      ],
    });
  });

  it("is rendered with its backend, the configs that wrote it and the stacks sorted (retired ones marked), and parses back", () => {
    const loaded = load(tempDir(), [{ name: "zeta" }, { name: "alpha", retired: true }], { backend: AZURERM });
    const text = renderClusterRecord(loaded, ["other.yaml"]);
    expect(text).toMatch(/^# Cluster stacks that may hold state in the azurerm backend below/);
    expect(text).toContain('\nbackend: {"type":"azurerm","storageAccountName":"acmetfstate","containerName":"tfstate","keyPrefix":"hcp-azure/demo/"}\n');
    expect(text).toContain('\nconfigs: ["dev.yaml","other.yaml"]\n');
    expect(text.split("\n").filter((l) => l && !/^(#|backend:|configs:)/.test(l))).toEqual(["identities-alpha retired", "identities-zeta"]);
    const parsed = parseClusterRecord(text);
    expect(parsed.ok && [...parsed.record.keys()]).toEqual(["identities-alpha", "identities-zeta"]);
  });

  it("is written for azurerm and cloud backends only, and only when it changes; a new one comes with a warning", () => {
    const dir = tempDir();
    expect(writeClusterRecord(load(dir, [{ name: "hc1" }]))).toEqual({ lines: [], warnings: [] });
    expect(fs.readdirSync(dir)).toEqual([]);
    const remote = load(dir, [{ name: "hc1" }], { backend: { type: "cloud", organization: "acme" } });
    const file = path.join(dir, "cloud+app.terraform.io+acme+demo-.clusters.lock");
    const first = writeClusterRecord(remote);
    expect(first.lines).toEqual([`recorded the cluster stacks in ${path.relative(process.cwd(), file)} (commit it; help/retire-cluster.md)`]);
    expect(first.warnings).toEqual([expect.stringContaining("is new: there was no record of this backend's cluster stacks beside the config.")]);
    const mtime = fs.statSync(file).mtimeMs;
    expect(writeClusterRecord(remote)).toEqual({ lines: [], warnings: [] });
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    expect(fs.readdirSync(dir)).toEqual([path.basename(file)]);
    // Another config of the same backend adds its name, and keeps the first one's.
    writeClusterRecord(load(dir, [{ name: "hc1" }], { backend: { type: "cloud", organization: "acme" } }, "copy.yaml"));
    expect(fs.readFileSync(file, "utf8")).toContain('configs: ["copy.yaml","dev.yaml"]');
  });

  it("a cluster in the record but not in the config is an error with the recovery", () => {
    const dir = tempDir();
    fs.writeFileSync(record(dir), "identities-hc1\nidentities-hc2\ninfra-hc2\ncluster-hc2\n");
    const issues = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: "clusters", value: "hc2" });
    expect(issues[0].message).toContain(
      `was removed from the config, but its stacks may still hold state (cluster-hc2, infra-hc2, identities-hc2: listed in ${path.relative(process.cwd(), record(dir))}, azurerm backend)`,
    );
    expect(issues[0].message).toContain(
      "Put it back with retired: true, synth, and destroy its stacks (npm run destroy -- cluster-hc2 infra-hc2 identities-hc2)",
    );
    expect(issues[0].message).toContain("Once the destroy has completed, delete their lines (cluster-hc2, infra-hc2, identities-hc2) from");
  });

  it("a removed hostedCluster whose stacks are recorded is an error at that cluster's hostedCluster", () => {
    const dir = tempDir();
    fs.writeFileSync(record(dir), "identities-hc1\ninfra-hc1 retired\ncluster-hc1 retired\n");
    const [issue, ...rest] = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    expect(rest).toEqual([]);
    expect(issue.path).toBe("clusters[0].hostedCluster");
    expect(issue.message).toContain(
      "was removed from the config, but cluster-hc1 and infra-hc1 may still hold state (cluster-hc1 retired, infra-hc1 retired: listed in",
    );
    expect(issue.message).toContain("Put hostedCluster back, synth, and destroy them (npm run destroy -- cluster-hc1 infra-hc1)");
  });

  it("no record (plain synth), or a record matching the config, is no error; a malformed record is", () => {
    const dir = tempDir();
    const loaded = load(dir, [{ name: "hc1" }, { name: "hc2", retired: true }], { backend: AZURERM });
    expect(removedClusterIssues(loaded)).toEqual([]);
    fs.writeFileSync(record(dir), "identities-hc1\nidentities-hc2 retired\n");
    expect(removedClusterIssues(loaded)).toEqual([]);
    fs.writeFileSync(record(dir), "identities-hc1 deployed\n");
    expect(removedClusterIssues(loaded).map((i) => i.message)).toEqual([
      expect.stringContaining('line 1: "identities-hc1 deployed" must be a cluster\'s stack'),
    ]);
  });

  it("renaming or copying the config keeps the record: a dropped cluster is still refused (it was dropped silently when records were named after the config)", () => {
    const dir = tempDir();
    const before = load(dir, [{ name: "hc1" }, { name: "hc2" }], { backend: AZURERM }, "dev.yaml");
    writeClusterRecord(before);
    for (const file of ["development.yaml", "copy-of-dev.yml"]) {
      const issues = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }, file));
      expect(issues.map((i) => [i.path, i.value])).toEqual([["clusters", "hc2"]]);
    }
  });

  it("configs of different backends in one folder keep separate records; one's clusters never refuse the other", () => {
    const dir = tempDir();
    writeClusterRecord(load(dir, [{ name: "hc1" }, { name: "hc2" }], { backend: AZURERM }, "dev.yaml"));
    const prod = load(dir, [{ name: "hc3" }], { prefix: "prod", backend: AZURERM }, "prod.yaml");
    expect(removedClusterIssues(prod)).toEqual([]);
    writeClusterRecord(prod);
    expect(stackLines(record(dir))).toEqual(["identities-hc1", "identities-hc2"]);
    expect(stackLines(path.join(dir, "azurerm+acmetfstate+tfstate+hcp-azure%2Fprod%2F.clusters.lock"))).toEqual(["identities-hc3"]);
  });

  it("a record from before (<config>.clusters.lock) is still checked, then moved to the backend's name by the next synth", () => {
    const dir = tempDir();
    const legacy = path.join(dir, "dev.clusters.lock");
    fs.writeFileSync(legacy, "# Cluster stacks of dev.yaml that may hold state in the azurerm backend.\nidentities-hc1\nidentities-hc2\n");
    const dropped = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    expect(dropped.map((i) => i.value)).toEqual(["hc2"]);
    expect(dropped[0].message).toContain(`listed in ${path.relative(process.cwd(), legacy)}, azurerm backend`);

    const loaded = load(dir, [{ name: "hc1" }, { name: "hc2" }], { backend: AZURERM });
    expect(removedClusterIssues(loaded)).toEqual([]);
    const report = writeClusterRecord(loaded);
    expect(report.lines).toEqual([
      expect.stringMatching(/^moved the record \S*dev\.clusters\.lock to \S*azurerm\+acmetfstate\+tfstate\+hcp-azure%2Fdemo%2F\.clusters\.lock: /),
    ]);
    expect(report.warnings).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([AZURERM_RECORD]);
    expect(stackLines(record(dir))).toEqual(["identities-hc1", "identities-hc2"]);
  });

  it("both the record and one from before: an error naming both files and the fix", () => {
    const dir = tempDir();
    fs.writeFileSync(record(dir), "identities-hc1\n");
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "identities-hc1\nidentities-hc2\n");
    const issues = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    expect(issues).toEqual([
      { path: "backend", message: expect.stringMatching(/^both \S+%2Fdemo%2F\.clusters\.lock and \S*dev\.clusters\.lock \(a record from before/) },
    ]);
    expect(issues[0].message).toContain("copy any stack line of");
  });

  it("a missing record with evidence of one is an error, even in a plain synth", () => {
    const dir = tempDir();
    // The backend changed (here the prefix its default key prefix derives from): the record of
    // the old backend says dev.yaml wrote it.
    writeClusterRecord(load(dir, [{ name: "hc1" }], { backend: AZURERM }));
    const moved = removedClusterIssues(load(dir, [{ name: "hc1" }], { prefix: "demo2", backend: AZURERM }));
    expect(moved).toEqual([{ path: "backend", message: expect.stringContaining(`but ${path.relative(process.cwd(), record(dir))}, the record of `) }]);
    expect(moved[0].message).toContain("says dev.yaml wrote it: this config's backend changed");
    expect(moved[0].message).toContain("Put the backend settings back; or, if you moved the state to the new place yourself, rename the record");
    // Another config of that backend (dev.yaml not among its writers) is no evidence.
    expect(removedClusterIssues(load(dir, [{ name: "hc1" }], { prefix: "demo2", backend: AZURERM }, "other.yaml"))).toEqual([]);

    // A record from before whose config is gone: probably this config's, renamed.
    const orphan = tempDir();
    fs.writeFileSync(path.join(orphan, "old-name.clusters.lock"), "identities-hc1\n");
    const renamed = removedClusterIssues(load(orphan, [{ name: "hc1" }], { backend: AZURERM }));
    expect(renamed).toEqual([
      {
        path: "backend",
        message: expect.stringContaining("is a record from before records were named after the backend, and its config old-name.yaml is not beside it"),
      },
    ]);
    expect(renamed[0].message).toContain(`git mv ${path.relative(process.cwd(), path.join(orphan, "old-name.clusters.lock"))} `);
    fs.writeFileSync(path.join(orphan, "old-name.yaml"), "");
    expect(removedClusterIssues(load(orphan, [{ name: "hc1" }], { backend: AZURERM }))).toEqual([]);

    // This backend's record under another name.
    const misnamed = tempDir();
    fs.writeFileSync(path.join(misnamed, "mine.clusters.lock"), renderClusterRecord(load(misnamed, [{ name: "hc1" }], { backend: AZURERM })));
    expect(removedClusterIssues(load(misnamed, [{ name: "hc1" }], { backend: AZURERM }))).toEqual([
      { path: "backend", message: expect.stringContaining("mine.clusters.lock records this backend: rename it") },
    ]);
  });

  it("a record whose backend line names another backend is an error", () => {
    const dir = tempDir();
    fs.writeFileSync(record(dir), 'backend: {"type":"cloud","hostname":"h","organization":"o","workspacePrefix":""}\nidentities-hc1\n');
    expect(removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }))).toEqual([
      { path: "backend", message: expect.stringContaining("is named after this config's backend") },
    ]);
  });

  it("under the cdktf CLI a missing record is an error naming the field, the file, how to check the backend and the fix", () => {
    const dir = tempDir();
    const [issue, ...rest] = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }), { underCdktfCli: true });
    expect(rest).toEqual([]);
    expect(issue.path).toBe("backend");
    expect(issue.message).toContain(`${path.relative(process.cwd(), record(dir))} is missing`);
    expect(issue.message).toContain("az storage blob list --auth-mode login --account-name acmetfstate --container-name tfstate --prefix hcp-azure/demo/");
    expect(issue.message).toContain(`create the record with npm run synth -- ${path.relative(process.cwd(), path.join(dir, "dev.yaml"))} and commit it`);
    const cloud = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: { type: "cloud", organization: "acme" } }), { underCdktfCli: true });
    expect(cloud[0].message).toContain("the workspaces named demo-* in organization acme on app.terraform.io");
    // Once the record exists (an empty file states there is nothing else), the CLI goes on.
    fs.writeFileSync(record(dir), "");
    expect(removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: AZURERM }), { underCdktfCli: true })).toEqual([]);
  });
});

describe("removed clusters with the local backend: the state files", () => {
  const stateDir = (dir: string, prefix = "demo") => {
    const states = path.join(dir, "terraform-state", SUBSCRIPTION, prefix);
    fs.mkdirSync(states, { recursive: true });
    return states;
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

  it("follows backend.directory, and ignores any record", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "state", SUBSCRIPTION, "demo"), { recursive: true });
    fs.writeFileSync(path.join(dir, "state", SUBSCRIPTION, "demo", "infra-hc2.tfstate"), state(3));
    fs.writeFileSync(path.join(dir, "dev.clusters.lock"), "hc1\nhc3\n");
    const issues = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: { type: "local", directory: "state" } }));
    expect(issues.map((i) => i.value)).toEqual(["hc2"]);
  });

  it("another environment's state beside it (another prefix or subscription) is not this config's: no retirement asked", () => {
    const dir = tempDir();
    // dev deployed hc1; prod, in the same folder, never had it.
    fs.writeFileSync(path.join(stateDir(dir, "dev"), "identities-hc1.tfstate"), state(19));
    expect(removedClusterIssues(load(dir, [{ name: "hc2" }], { prefix: "prod" }, "prod.yaml"))).toEqual([]);
    expect(removedClusterIssues(load(dir, [{ name: "hc2" }], { prefix: "dev", subscriptionId: "33333333-3333-3333-3333-333333333333" }, "prod.yaml"))).toEqual(
      [],
    );
    // A config of the same environment (a copy) sees it, on purpose.
    expect(removedClusterIssues(load(dir, [{ name: "hc2" }], { prefix: "dev" }, "dev-copy.yaml")).map((i) => i.value)).toEqual(["hc1"]);
  });
});

describe("local state from before environments had their own folder", () => {
  /** The old layout: `<dir>/terraform-state/<stack>.tfstate`, shared by every config in `dir`. */
  const oldLayout = (dir: string, files: Record<string, string>) => {
    fs.mkdirSync(path.join(dir, "terraform-state"), { recursive: true });
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, "terraform-state", name), text);
  };
  const sharedState = (resourceGroupId: string) =>
    JSON.stringify({
      version: 4,
      resources: [{ mode: "managed", type: "azurerm_resource_group", name: "rg", instances: [{ attributes: { id: resourceGroupId } }] }],
    });
  const OURS = `/subscriptions/${SUBSCRIPTION}/resourceGroups/demo-hcp-persistent`;

  it("refuses while a file there holds resources, naming the field, the files and the exact commands; the commands make it go through with the state in place", () => {
    const dir = tempDir();
    oldLayout(dir, {
      "shared.tfstate": sharedState(OURS),
      "shared.tfstate.backup": sharedState(OURS),
      "identities-hc1.tfstate": state(19),
      "identities-hc2.tfstate": state(3),
      "notes.tfstate": state(1), // not a stack of this project: left alone
    });
    const loaded = load(dir, [{ name: "hc1" }]);
    const issues = removedClusterIssues(loaded);
    expect(issues).toHaveLength(1);
    const [issue] = issues;
    expect(issue).toMatchObject({ path: "backend.directory", value: "terraform-state" });
    const rel = (...parts: string[]) => path.relative(process.cwd(), path.join(dir, "terraform-state", ...parts));
    expect(issue.message).toContain(
      `holds state files where every config beside it kept its state before each environment got its own folder: ${rel("identities-hc1.tfstate")}: 19 resources, ${rel("identities-hc2.tfstate")}: 3 resources, ${rel("shared.tfstate")}: 1 resource (resource group ${OURS}: this config's).`,
    );
    expect(issue.message).toContain(`This config's state (prefix demo, subscriptionId ${SUBSCRIPTION}) is now ${rel(SUBSCRIPTION, "demo")}/`);
    const command = `mkdir -p ${rel(SUBSCRIPTION, "demo")} && mv ${rel("identities-hc1.tfstate")} ${rel("identities-hc2.tfstate")} ${rel("shared.tfstate")} ${rel("shared.tfstate.backup")} ${rel(SUBSCRIPTION, "demo")}/`;
    expect(issue.message).toContain(`If they are this environment's state, move them:\n      ${command}\n`);
    expect(issue.message).toContain("npm run deploy -- '*' --migrate-state");

    // The user runs the command: nothing is missed, and the moved state is what the stacks use.
    const run = spawnSync("sh", ["-c", command], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(fs.readdirSync(path.join(dir, "terraform-state")).sort()).toEqual([SUBSCRIPTION, "notes.tfstate"]);
    expect(loaded.names.stateLocation("identities-hc2")).toBe(path.join(dir, "terraform-state", SUBSCRIPTION, "demo", "identities-hc2.tfstate"));
    expect(JSON.parse(fs.readFileSync(loaded.names.stateLocation("shared"), "utf8")).resources).toHaveLength(1);
    // Now the state is found where it belongs: the cluster missing from the config is caught.
    expect(removedClusterIssues(loaded).map((i) => [i.path, i.value])).toEqual([["clusters", "hc2"]]);
    expect(removedClusterIssues(load(dir, [{ name: "hc1" }, { name: "hc2" }]))).toEqual([]);
  });

  it("says when the old shared state is another environment's, and names a file already in the new folder instead of overwriting it", () => {
    const dir = tempDir();
    const theirs = `/subscriptions/${SUBSCRIPTION}/resourceGroups/prod-hcp-persistent`;
    oldLayout(dir, { "shared.tfstate": sharedState(theirs), "identities-hc1.tfstate": state(2) });
    const newDir = path.join(dir, "terraform-state", SUBSCRIPTION, "demo");
    fs.mkdirSync(newDir, { recursive: true });
    fs.writeFileSync(path.join(newDir, "identities-hc1.tfstate"), state(2));
    const [issue] = removedClusterIssues(load(dir, [{ name: "hc1" }]));
    expect(issue.message).toContain(`(resource group ${theirs}: not this config's ${OURS}, so probably another config's state)`);
    expect(issue.message).toMatch(/mv \S*terraform-state\/shared\.tfstate \S+\/demo\/\n/);
    expect(issue.message).toContain(`${path.relative(process.cwd(), path.join(newDir, "identities-hc1.tfstate"))} exists in both places`);
  });

  it("files there that hold nothing (destroyed, or only data sources) do not stop synth", () => {
    const dir = tempDir();
    oldLayout(dir, { "shared.tfstate": state(0), "cluster-hc1.tfstate": state(0) });
    expect(removedClusterIssues(load(dir, [{ name: "hc1" }]))).toEqual([]);
  });

  it("applies to an explicit backend.directory the same way, and quotes paths for the shell", () => {
    const dir = path.join(tempDir(), "my envs");
    fs.mkdirSync(path.join(dir, "st"), { recursive: true });
    fs.writeFileSync(path.join(dir, "st", "management.tfstate"), "not json");
    const [issue] = removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: { type: "local", directory: "st" } }));
    expect(issue).toMatchObject({ path: "backend.directory", value: "st" });
    expect(issue.message).toContain("management.tfstate: unreadable");
    const command = /\n {6}(.*)\n/.exec(issue.message)?.[1] as string;
    expect(command).toMatch(/^mkdir -p '.*my envs\/st\/0{8}-0{4}-0{4}-0{4}-0{12}\/demo' && mv '.*my envs\/st\/management\.tfstate' '.*\/demo\/'$/);
    expect(spawnSync("sh", ["-c", command]).status).toBe(0);
    expect(removedClusterIssues(load(dir, [{ name: "hc1" }], { backend: { type: "local", directory: "st" } }))).toEqual([]);
  });
});
