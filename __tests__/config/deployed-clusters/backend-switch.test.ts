import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { removedClusterIssues, writeClusterRecord } from "../../../config/deployed-clusters";
import { validateConfig } from "../../../config/load";
import { DEFAULT_STATE_DIRECTORY } from "../../../config/schema/backend";
import { backendSchema } from "../../../config/schema/backend";
import { main } from "../../../main";
import { EXAMPLES, hostedClusterSpec, minimalConfig, tempDir } from "../../helpers";

/**
 * A backend switched to or from `local` (help/terraform-cloud.md#switching-the-backend): the state
 * stays where it was, so synth refuses while the old side holds this environment's state and the
 * new side knows nothing of it.
 */

const AZURERM = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate" };
const CLOUD = { type: "cloud", organization: "acme" };
const RECORD = "azurerm+acmetfstate+tfstate+hcp-azure%2Fdemo%2F.clusters.lock";
const SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";

const input = (backend?: unknown) =>
  minimalConfig({
    serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") },
    managementCluster: { operator: { bundleFile: path.join(EXAMPLES, "operator/hypershift-operator.yaml") } },
    clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), pullSecretFile: path.join(EXAMPLES, "pull-secret.json") } }],
    ...(backend ? { backend } : {}),
    secrets: { source: "files", filesOnlyWhereTerraformRuns: true },
  });

function load(dir: string, backend?: unknown) {
  const loaded = validateConfig(input(backend), dir, path.join(dir, "dev.yaml"));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

const backendIssues = (dir: string, backend?: unknown) => removedClusterIssues(load(dir, backend)).filter((i) => i.path === "backend");

/** This environment's local state folder (the default backend.directory) with `<stack>: <resources>` state files. */
function localState(dir: string, files: Record<string, number>): string {
  const folder = path.join(dir, DEFAULT_STATE_DIRECTORY, SUBSCRIPTION, "demo");
  fs.mkdirSync(folder, { recursive: true });
  for (const [stack, count] of Object.entries(files)) {
    const instances = Array.from({ length: count }, (_, i) => ({ attributes: { id: String(i) } }));
    fs.writeFileSync(
      path.join(folder, `${stack}.tfstate`),
      JSON.stringify({ version: 4, resources: [{ mode: "managed", type: "terraform_data", name: "x", instances }] }),
    );
  }
  return folder;
}

test("DEFAULT_STATE_DIRECTORY is the schema's default backend.directory", () => {
  expect(backendSchema.parse(undefined)).toEqual({ type: "local", directory: DEFAULT_STATE_DIRECTORY });
});

describe("local → azurerm or cloud", () => {
  test.each([
    ["azurerm", AZURERM, RECORD],
    ["cloud", CLOUD, "cloud+app.terraform.io+acme+demo-.clusters.lock"],
  ])("%s with no record while the local folder holds this environment's state: refused, naming the files and the way forward", (_name, backend, record) => {
    const dir = tempDir();
    localState(dir, { shared: 5, "cluster-hc1": 30, "infra-hc1": 12, management: 0 });
    const issues = backendIssues(dir, backend);
    expect(issues).toHaveLength(1);
    expect(issues[0].value).toBe(backend.type);
    const { message } = issues[0];
    expect(message).toContain(`has no record of its cluster stacks yet (`);
    expect(message).toContain(`/${record})`);
    expect(message).toContain(
      `/terraform-state/${SUBSCRIPTION}/demo/ (prefix demo, subscriptionId ${SUBSCRIPTION}) holds state: cluster-hc1.tfstate: 30 resources, infra-hc1.tfstate: 12 resources, shared.tfstate: 5 resources.`,
    );
    expect(message).toContain("The backend changed from local");
    expect(message).toContain("Put the backend back (type: local)");
    expect(message).toMatch(
      new RegExp(
        `create the record with the cluster stacks that folder holds \\(printf '%s\\\\n' cluster-hc1 infra-hc1 > \\S*${record.replace(/[.+]/g, "\\$&")}\\)`,
      ),
    );
    expect(message).toContain("npm run deploy -- '*' --migrate-state");
    expect(message).toMatch(/If that state is stale \(an old trial whose resources no longer exist\), move \S+\/ away now\./);
    expect(message).toContain("help/terraform-cloud.md#switching-the-backend");
  });

  test("no refusal: a folder of empty state files, no folder, or a record created as the message says (it is then compared as usual)", () => {
    const empty = tempDir();
    localState(empty, { shared: 0 });
    expect(backendIssues(empty, AZURERM)).toEqual([]);
    expect(backendIssues(tempDir(), AZURERM)).toEqual([]);

    const migrating = tempDir();
    localState(migrating, { shared: 5, "cluster-hc1": 30, "infra-hc1": 12, "identities-hc2": 3 });
    fs.writeFileSync(path.join(migrating, RECORD), "cluster-hc1\ninfra-hc1\nidentities-hc2\n");
    // The record now drives the usual checks: hc2 left the config while its stack may hold state.
    expect(backendIssues(migrating, AZURERM)).toEqual([]);
    expect(removedClusterIssues(load(migrating, AZURERM))).toEqual([expect.objectContaining({ path: "clusters", value: "hc2" })]);
  });
});

describe("azurerm → local", () => {
  test("a record beside the config that lists it, and no local state: refused, naming the record, its backend and stacks, and the way forward", () => {
    const dir = tempDir();
    writeClusterRecord(load(dir, AZURERM));
    const issues = backendIssues(dir);
    expect(issues).toHaveLength(1);
    expect(issues[0].value).toBe("local");
    const { message } = issues[0];
    expect(message).toMatch(
      new RegExp(
        `^keeps state in \\S*terraform-state/${SUBSCRIPTION}/demo/, which holds none, but \\S*${RECORD.replace(/[.+]/g, "\\$&")}, the record of azurerm: storage account acmetfstate`,
      ),
    );
    expect(message).toContain("says dev.yaml deployed with that backend (cluster stacks: cluster-hc1, identities-hc1, infra-hc1)");
    expect(message).toContain("The backend changed to local");
    expect(message).toContain("Put the backend settings back");
    expect(message).toContain(`remove "dev.yaml" from the configs: line of`);
    expect(message).toContain("npm run deploy -- '*' --migrate-state");
  });

  test("no refusal: the local folder holds state, the record does not list this config, or it was removed from its configs line", () => {
    const withState = tempDir();
    writeClusterRecord(load(withState, AZURERM));
    localState(withState, { shared: 1 });
    expect(backendIssues(withState)).toEqual([]);

    const other = tempDir();
    writeClusterRecord(load(other, AZURERM));
    const file = path.join(other, RECORD);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('configs: ["dev.yaml"]', 'configs: ["prod.yaml"]'));
    expect(backendIssues(other)).toEqual([]);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('configs: ["prod.yaml"]', "configs: []"));
    expect(backendIssues(other)).toEqual([]);
  });
});

/** Through npm run synth: exit 1 and nothing written, either way. */
test("npm run synth refuses both switches and writes neither the output nor a record", () => {
  const work = tempDir();
  const config = path.join(work, "dev.yaml");
  const outdir = path.join(work, "cdktf.out");
  const synth = (backend?: unknown) => {
    fs.writeFileSync(config, stringify(input(backend)));
    const err: string[] = [];
    const code = main([config], { CDKTF_OUTDIR: outdir }, { out: () => undefined, err: (l) => err.push(l) });
    return { code, err: err.join("\n") };
  };
  expect(synth(AZURERM).code).toBe(0);
  fs.rmSync(outdir, { recursive: true });
  const toLocal = synth();
  expect(toLocal.code).toBe(1);
  expect(toLocal.err).toMatch(/^config error\(s\) in .*dev\.yaml:\n {2}backend: "local" keeps state in /);
  expect(toLocal.err).toMatch(/nothing was written\.$/);
  expect(fs.existsSync(outdir)).toBe(false);

  const fromLocal = tempDir();
  const config2 = path.join(fromLocal, "dev.yaml");
  localState(fromLocal, { shared: 2 });
  fs.writeFileSync(config2, stringify(input(AZURERM)));
  const err: string[] = [];
  expect(main([config2], { CDKTF_OUTDIR: path.join(fromLocal, "out") }, { out: () => undefined, err: (l) => err.push(l) })).toBe(1);
  expect(err.join("\n")).toContain(`backend: "azurerm" (azurerm: storage account acmetfstate`);
  expect(fs.existsSync(path.join(fromLocal, RECORD))).toBe(false);
  expect(fs.existsSync(path.join(fromLocal, "out"))).toBe(false);
});
