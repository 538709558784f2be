import * as fs from "node:fs";
import * as path from "node:path";
import { parse, stringify } from "yaml";
import { LoadedConfig, validateConfig } from "../../config/load";
import { configWithClusters } from "../../scripts/bench";
import { bootstrapOptions, runBootstrap, synthesizeBootstrap } from "../../scripts/tfc-bootstrap";
import { synthesize } from "../../stacks/app";
import { BootstrapOptions } from "../../stacks/tfc-bootstrap-plan";
import { WorkspacesDocument, WORKSPACES_FILE } from "../../stacks/workspaces";
import { EXAMPLES, resources, tempDir } from "../helpers";

/**
 * `npm run tfc-bootstrap`: one stack, in its own folder, that creates exactly the workspaces
 * workspaces.json describes (variables, state sharing, run triggers) and a run identity per Azure
 * stack; no secret value anywhere in what it writes.
 */

const CLOUD = { type: "cloud", organization: "acme", project: "hosted-clusters" };
const CANARY = "canary-secret-7f3a9c1e";

function load(raw: Record<string, any>): LoadedConfig {
  const loaded = validateConfig(raw, EXAMPLES, "test.yaml");
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

function optionsOf(loaded: LoadedConfig, flags: Record<string, string | boolean> = {}): BootstrapOptions {
  const options = bootstrapOptions(loaded, flags);
  if (Array.isArray(options)) throw new Error(options.join("\n"));
  return options;
}

/**
 * The bootstrap's output (every file, as text, its stack's JSON and the result), with what
 * `deployment(loaded, work)` adds, run in a folder of its own.
 */
function runIn<T extends object>(raw: Record<string, any>, flags: Record<string, string | boolean>, deployment: (loaded: LoadedConfig, work: string) => T) {
  const loaded = load(raw);
  const work = tempDir("hcp-azure-tfc-bootstrap-");
  // Credentials in the environment must never reach the output.
  const saved = { TFE_TOKEN: process.env.TFE_TOKEN, ARM_CLIENT_SECRET: process.env.ARM_CLIENT_SECRET };
  Object.assign(process.env, { TFE_TOKEN: CANARY, ARM_CLIENT_SECRET: CANARY });
  try {
    const result = synthesizeBootstrap(loaded, optionsOf(loaded, flags), path.join(work, "boot"));
    const deployed = deployment(loaded, work);
    const read = (file: string) => fs.readFileSync(path.join(work, "boot", file), "utf8");
    const files = fs
      .readdirSync(path.join(work, "boot"), { recursive: true, encoding: "utf8" })
      .filter((f) => fs.statSync(path.join(work, "boot", f)).isFile());
    return {
      result,
      texts: Object.fromEntries(files.map((f) => [f, read(f)])),
      json: JSON.parse(read("stacks/tfc-bootstrap/cdk.tf.json")),
      ...deployed,
    };
  } finally {
    Object.assign(process.env, saved);
    for (const [key, value] of Object.entries(saved)) if (value === undefined) delete process.env[key];
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The bootstrap's output and the deployment's own workspaces.json and manifest, from a real synth of the deployment. */
function run(raw: Record<string, any>, flags: Record<string, string | boolean> = {}) {
  return runIn(raw, flags, (loaded, work) => {
    const outdir = path.join(work, "cdktf.out");
    synthesize(loaded, outdir);
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(outdir, file), "utf8"));
    return { document: read(WORKSPACES_FILE) as WorkspacesDocument, manifest: read("manifest.json") };
  });
}

/** The bootstrap's output alone (for tests that compare it with no synth of the deployment). */
const bootstrap = (raw: Record<string, any>, flags: Record<string, string | boolean> = {}) => runIn(raw, flags, () => ({}));

function expectNoSecrets(texts: Record<string, string>): void {
  for (const [file, text] of Object.entries(texts)) {
    expect({ file, canary: text.includes(CANARY) }).toEqual({ file, canary: false });
    expect(text).not.toMatch(/PRIVATE KEY|"auths"|client_secret|"token"|"password"/);
  }
}

/** The resource address a `${type.name.attr}` reference points at. */
const address = (reference: string) => /^\$\{([^.]+\.[^.]+)\./.exec(reference)?.[1];

function workspacesByAddress(json: any): Map<string, string> {
  return new Map(Object.entries<any>(json.resource.tfe_workspace).map(([id, w]) => [`tfe_workspace.${id}`, w.name]));
}

describe("tfc-bootstrap for 20 hosted clusters", () => {
  const raw: Record<string, any> = { ...configWithClusters(20), backend: CLOUD };
  const { result, texts, json, document, manifest } = run(raw);
  const names = workspacesByAddress(json);

  it("creates one workspace per stack, exactly workspaces.json's", () => {
    expect(
      resources(json, "tfe_workspace")
        .map((w) => w.name)
        .sort(),
    ).toEqual(document.workspaces.map((w) => w.state).sort());
    expect(document.workspaces).toHaveLength(62);
    expect(resources(json, "tfe_project")).toEqual([expect.objectContaining({ name: "hosted-clusters", organization: "acme" })]);
    for (const w of resources(json, "tfe_workspace")) {
      expect(w).toMatchObject({ terraform_version: ">= 1.11.0", queue_all_runs: false, force_delete: false, project_id: "${tfe_project.Project.id}" });
      expect(w.vcs_repo).toBeUndefined();
    }
    expect(resources(json, "tfe_workspace_settings").every((s) => s.execution_mode === "remote" && s.global_remote_state === false)).toBe(true);
  });

  it("gives each workspace its stack's variables: the required ones created (the connection in one set), the optional ones listed", () => {
    const owners = new Map([...names, ...Object.keys(json.resource.tfe_variable_set).map((id) => [`tfe_variable_set.${id}`, "(set)"] as const)]);
    const byOwner = new Map<string, any[]>();
    for (const v of resources(json, "tfe_variable")) {
      const owner = owners.get(address(v.workspace_id ?? v.variable_set_id)!)!;
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), v]);
    }
    const attached = new Set(resources(json, "tfe_workspace_variable_set").map((a) => names.get(address(a.workspace_id)!)));
    const spec = (v: any) => ({ name: v.key ?? v.name, category: v.category, sensitive: v.sensitive });
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    for (const entry of document.workspaces) {
      const own = (byOwner.get(entry.state) ?? []).map(spec);
      const fromSet = attached.has(entry.state) ? byOwner.get("(set)")!.map(spec) : [];
      expect([...own, ...fromSet].sort(byName)).toEqual(
        entry.variables
          .filter((v) => v.required)
          .map(spec)
          .sort(byName),
      );
      const listed = result.workspaces.find((w) => w.stack === entry.stack)!.optionalVariables;
      expect(listed).toEqual(entry.variables.filter((v) => !v.required));
    }
    expect(resources(json, "tfe_variable_set")).toEqual([
      expect.objectContaining({ name: "myprefix-management-cluster", parent_project_id: "${tfe_project.Project.id}" }),
    ]);
    expect(attached.size).toBe(21);
  });

  it("sets only fixed values and the run identity's client ID; every other variable is an empty slot it never resets", () => {
    for (const v of resources(json, "tfe_variable")) {
      if (v.key === "TFC_AZURE_PROVIDER_AUTH") expect(v.value).toBe("true");
      else if (v.key === "TFC_AZURE_RUN_CLIENT_ID") expect(v.value).toMatch(/^\$\{azurerm_user_assigned_identity\.[^.]+\.client_id\}$/);
      else {
        expect(v).not.toHaveProperty("value");
        expect(v.lifecycle).toEqual({ ignore_changes: ["value"] });
      }
      if (v.sensitive) expect(v).not.toHaveProperty("value");
    }
  });

  it("shares state exactly along readsStateOf and adds no run trigger without VCS", () => {
    for (const settings of resources(json, "tfe_workspace_settings")) {
      const own = names.get(address(settings.workspace_id)!)!;
      const stack = document.workspaces.find((w) => w.state === own)!.stack;
      const expected = document.workspaces.filter((w) => w.readsStateOf.includes(stack)).map((w) => w.state);
      expect(settings.remote_state_consumer_ids.map((id: string) => names.get(address(id)!)).sort()).toEqual(expected.sort());
    }
    expect(resources(json, "tfe_run_trigger")).toEqual([]);
  });

  it("gives every Azure stack its own identity with two federated credentials (at most 20 per identity)", () => {
    const azure = document.workspaces.filter((w) => w.variables.some((v) => v.name === "TFC_AZURE_RUN_CLIENT_ID"));
    expect(resources(json, "azurerm_user_assigned_identity")).toHaveLength(azure.length);
    const perIdentity = new Map<string, any[]>();
    for (const c of resources(json, "azurerm_federated_identity_credential")) perIdentity.set(c.parent_id, [...(perIdentity.get(c.parent_id) ?? []), c]);
    expect(perIdentity.size).toBe(azure.length);
    const identityNames = new Map(
      Object.entries<any>(json.resource.azurerm_user_assigned_identity).map(([id, i]) => [`azurerm_user_assigned_identity.${id}`, i.name]),
    );
    for (const [parent, credentials] of perIdentity) {
      expect(credentials.length).toBeLessThanOrEqual(20);
      const workspace = identityNames.get(address(parent)!)!.replace(/^id-tfc-/, "");
      expect(credentials.map((c) => c.subject).sort()).toEqual(
        ["apply", "plan"].map((phase) => `organization:acme:project:hosted-clusters:workspace:${workspace}:run_phase:${phase}`),
      );
      expect(credentials.every((c) => c.issuer === "https://app.terraform.io" && c.audience.join() === "api://AzureADTokenExchange")).toBe(true);
    }
    expect(resources(json, "azurerm_federated_identity_credential")).toHaveLength(122);
  });

  it("grants each identity roles at the scopes its stack touches", () => {
    const roles = (stack: string) => result.workspaces.find((w) => w.stack === stack)!.roles.map((r) => `${r.role} ${r.scope}`);
    const subscription = `/subscriptions/${raw.subscriptionId}`;
    expect(roles("infra-myprefix-hc-001")).toEqual([`Contributor ${subscription}`, `Role Based Access Control Administrator ${subscription}`]);
    expect(roles("identities-myprefix-hc-001")).toEqual([`Contributor ${subscription}/resourceGroups/os4-common`]);
    expect(roles("cluster-myprefix-hc-001")).toEqual([`Reader ${subscription}/resourceGroups/os4-common`]);
    expect(roles("management")).toEqual([]);
    expect(resources(json, "azurerm_role_assignment").every((r) => r.principal_type === "ServicePrincipal")).toBe(true);
  });

  it("writes no secret value anywhere, and no credential from the environment", () => {
    expectNoSecrets(texts);
    expect(resources(json, "tfe_variable").filter((v) => v.sensitive && "value" in v)).toEqual([]);
    expect(json.provider.tfe).toEqual([{ hostname: "app.terraform.io", organization: "acme" }]);
  });

  it("is never part of the deployment: its own folder, not in the deployment's manifest", () => {
    expect(Object.keys(manifest.stacks)).not.toContain("tfc-bootstrap");
    expect(Object.keys(texts).sort()).toEqual(["manifest.json", "stacks/tfc-bootstrap/cdk.tf.json", "tfc-bootstrap.json"]);
  });

  it("lists the manual steps", () => {
    expect(result.manual.after.join("\n")).toContain("Set 40 sensitive variable values the bootstrap created empty (pull_secret, service_account_signing_key)");
    expect(result.manual.after.join("\n")).toContain("Set 2 non-secret values the bootstrap cannot know (KUBE_CLUSTER_CA_CERT_DATA, KUBE_HOST)");
    expect(result.manual.before.join("\n")).toMatch(/TFE_TOKEN.*\n.*az login/);
  });
});

describe("tfc-bootstrap with remote state, VCS-driven runs and flexible credentials (aro-hcp)", () => {
  const raw = { ...parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8")), backend: CLOUD };
  const flags = { "vcs-repo": "acme/hcp-fleet", "vcs-oauth-token-id": "ot-abc123", "vcs-directory": "out", "flexible-credentials": true };
  const { json, document, result, texts } = run(raw, flags);
  const names = workspacesByAddress(json);

  it("writes no secret value anywhere", () => expectNoSecrets(texts));

  it("triggers runs exactly where state is read, and points each workspace at its stack's folder", () => {
    const triggers = resources(json, "tfe_run_trigger").map((t) => `${names.get(address(t.sourceable_id)!)} -> ${names.get(address(t.workspace_id)!)}`);
    const expected = document.workspaces.flatMap((w) => w.readsStateOf.map((s) => `${document.workspaces.find((p) => p.stack === s)!.state} -> ${w.state}`));
    expect(expected.length).toBeGreaterThan(0);
    expect(triggers.sort()).toEqual(expected.sort());
    for (const w of resources(json, "tfe_workspace")) {
      const stack = document.workspaces.find((d) => d.state === w.name)!.stack;
      expect(w.working_directory).toBe(`out/stacks/${stack}`);
      expect(w.vcs_repo).toEqual({ identifier: "acme/hcp-fleet", oauth_token_id: "ot-abc123" });
    }
  });

  it("uses one application with one flexible credential per workspace", () => {
    const credentials = resources(json, "azuread_application_flexible_federated_identity_credential");
    expect(credentials).toHaveLength(resources(json, "azuread_application").length);
    expect(resources(json, "azurerm_user_assigned_identity")).toEqual([]);
    const shared = document.workspaces.find((w) => w.stack === "shared")!.state;
    expect(credentials.map((c) => c.claims_matching_expression)).toContain(
      `claims['sub'] matches 'organization:acme:project:hosted-clusters:workspace:${shared}:run_phase:*'`,
    );
  });

  it("lists Graph consent for the stacks that use azuread", () => {
    const graph = document.workspaces.filter((w) => result.workspaces.find((b) => b.stack === w.stack)!.graph);
    expect(graph.length).toBeGreaterThan(0);
    expect(result.manual.after.join("\n")).toContain(`Grant Microsoft Graph application permissions`);
  });
});

describe("tfc-bootstrap with a created persistent group and the connection as Terraform variables", () => {
  const base = configWithClusters(2);
  const raw: Record<string, any> = {
    ...base,
    backend: CLOUD,
    resourceGroup: { name: "os4-common", create: true },
    managementCluster: { ...base.managementCluster, credentialsFromVariables: true },
  };
  const { json, result, texts } = bootstrap(raw);
  const subscription = `/subscriptions/${raw.subscriptionId}`;

  it("grants subscription-wide roles to stacks that use a group another stack creates", () => {
    const roles = (stack: string) => result.workspaces.find((w) => w.stack === stack)!.roles.map((r) => `${r.role} ${r.scope}`);
    expect(roles("shared")).toEqual([`Contributor ${subscription}`, `Role Based Access Control Administrator ${subscription}`]);
    expect(roles("identities-myprefix-hc-001")).toEqual([`Contributor ${subscription}`]);
    expect(result.workspaces.find((w) => w.stack === "identities-myprefix-hc-001")!.roles[0].why).toBe("uses os4-common, created by another stack");
  });

  it("puts the sensitive kube_* variables in the set as empty slots", () => {
    const inSet = resources(json, "tfe_variable").filter((v) => v.variable_set_id);
    expect(inSet.map((v) => v.key).sort()).toEqual(["kube_cluster_ca_certificate", "kube_host"]);
    expect(inSet.every((v) => v.sensitive && !("value" in v) && v.category === "terraform")).toBe(true);
    expectNoSecrets(texts);
  });
});

describe("npm run tfc-bootstrap refuses what it cannot bootstrap, writing nothing", () => {
  const work = tempDir("hcp-azure-tfc-bootstrap-args-");
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  const write = (name: string, config: Record<string, any>) => {
    const file = path.join(work, name);
    fs.writeFileSync(file, stringify(config));
    return file;
  };
  const basic = configWithClusters(1);
  const cases: Array<[string, Record<string, any>, string[], RegExp]> = [
    ["a local backend", basic, [], /backend\.type: "local" must be "cloud"/],
    ["no project", { ...basic, backend: { type: "cloud", organization: "acme" } }, [], /backend\.project: not set/],
    ["agent mode without a pool", { ...basic, backend: CLOUD }, ["--execution-mode", "agent"], /--agent-pool: required/],
    [
      "flexible credentials on Terraform Enterprise",
      { ...basic, backend: { ...CLOUD, hostname: "tfe.example.com" } },
      ["--flexible-credentials"],
      /only for app\.terraform\.io/,
    ],
    ["half a VCS connection", { ...basic, backend: CLOUD }, ["--vcs-repo", "acme/x"], /give both/],
  ];

  it.each(cases)("%s", (label, config, args, message) => {
    const errors: string[] = [];
    const outdir = path.join(work, `out-${label.replace(/\W+/g, "-")}`);
    const code = runBootstrap([write(`${label.replace(/\W+/g, "-")}.yaml`, config), "--outdir", outdir, ...args], {
      out: () => {},
      err: (l) => errors.push(l),
    });
    expect(code).toBe(1);
    expect(errors.join("\n")).toMatch(message);
    expect(fs.existsSync(outdir)).toBe(false);
  });

  it("prints the counts and the manual steps", () => {
    const lines: string[] = [];
    const code = runBootstrap([write("ok.yaml", { ...basic, backend: CLOUD }), "--outdir", path.join(work, "ok")], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/1 project, 5 workspaces, .* 4 run identities, 8 federated credentials/);
    expect(lines).toContain("before the apply (manual):");
    expect(lines).toContain("after the apply (manual):");
  });
});
