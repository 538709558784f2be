import { Testing } from "cdktf";
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { validateConfig } from "../../config/load";
import { configWithClusters } from "../../scripts/bench";
import { flagProblems, runBootstrap } from "../../scripts/tfc-bootstrap";
import { BootstrapOptions, bootstrapWorkspaces, StackFootprint } from "../../stacks/tfc-bootstrap-plan";
import { TfcBootstrapStack } from "../../stacks/tfc-bootstrap-stack";
import { WorkspacesDocument } from "../../stacks/workspaces";
import { EXAMPLES, resources, tempDir } from "../helpers";

/**
 * Names and flags of `npm run tfc-bootstrap` are data, never Terraform code (review of session 11:
 * `organization: "acme${file(\"/etc/passwd\")}"` reached the tfe provider, the project, every
 * workspace and the federated credential subjects as a live template). Two layers: the config and
 * the flags refuse what HCP Terraform and git would refuse; and were a value to get past them, the
 * constructs still write it as a literal.
 */

const ORGANIZATION = 'acme${file("/etc/passwd")}';
const PROJECT = "p${path.cwd}";

/** Every `${...}` / `%{...}` Terraform would evaluate in the JSON (keys too), except references to our own resources. */
function liveTemplates(json: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      const live = value.replace(/\$\$\{|%%\{/g, "").match(/[$%]\{[^}]*\}?/g) ?? [];
      found.push(...live.filter((t) => !/^\$\{(data\.)?[a-z_]+\.[A-Za-z0-9_-]+\.[a-z_]+\}$/.test(t)));
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => (visit(k), visit(v)));
  };
  visit(json);
  return found;
}

/** What Terraform reads from an escaped JSON string. */
const readBack = (text: string) => text.replace(/([$%])\1\{/g, "$1{");

describe("the config refuses HCP Terraform names that are not names", () => {
  const issues = (backend: object) => {
    const loaded = validateConfig({ ...configWithClusters(1), backend: { type: "cloud", ...backend } }, EXAMPLES, "test.yaml");
    return loaded.ok ? [] : loaded.issues.map((i) => `${i.path}: ${JSON.stringify(i.value)} ${i.message}`);
  };

  it("the reviewer's organization, project and hostname: each named with its value, the rule and the fix", () => {
    expect(issues({ organization: ORGANIZATION, project: PROJECT, hostname: "tfe${path.cwd}" })).toEqual([
      expect.stringMatching(/^backend\.organization: "acme\$\{file.*letters, digits, '-' or '_' only\. Use the organization's name/),
      expect.stringMatching(/^backend\.hostname: "tfe\$\{path\.cwd\}" must be a DNS host name, optionally with :<port>/),
      expect.stringMatching(/^backend\.project: "p\$\{path\.cwd\}" must be an HCP Terraform project name: 3-40 letters, digits, spaces/),
    ]);
  });

  it.each([
    ["organization", "acme-corp_2", true],
    ["organization", "acme corp", false],
    ["organization", "acme%{if true}", false],
    ["project", "Default Project", true],
    ["project", "x".repeat(40), true],
    ["project", "x".repeat(41), false],
    ["project", "ab", false],
    ["project", " leading-space", false],
    ["project", "it's", false],
    ["hostname", "app.eu.terraform.io", true],
    ["hostname", "tfe.example.com:8443", true],
    ["hostname", "tfe.example.com:65536", false],
    ["hostname", "https://app.terraform.io", false],
    ["hostname", "tfe.example.com/path", false],
  ])("%s %j: accepted %s", (field, value, ok) => {
    const backend = { organization: "acme", project: "hosted-clusters", [field]: value };
    expect(issues(backend).length === 0).toBe(ok);
  });
});

describe("npm run tfc-bootstrap refuses flags that are not what they name, writing nothing", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["vcs-repo", "acme/${path.cwd}", /^--vcs-repo: "acme\/\$\{path\.cwd\}" must be <owner>\/<repository>/],
    ["vcs-repo", "acme", /must be <owner>\/<repository>/],
    ["vcs-oauth-token-id", 'ot-${file("x")}', /^--vcs-oauth-token-id: .* must be the OAuth token ID .*: ot- followed by letters and digits/],
    ["vcs-branch", "main\u0007", /^--vcs-branch: "main\\u0007" must be a git branch name \(git check-ref-format --branch\)/],
    ["vcs-branch", "a..b", /must be a git branch name/],
    ["vcs-branch", "-x", /must be a git branch name/],
    ["vcs-directory", "../elsewhere", /^--vcs-directory: "\.\.\/elsewhere" must be a relative path in the repository/],
    ["vcs-directory", "/abs", /must be a relative path/],
    ["vcs-directory", "out${path.cwd}", /must be a relative path/],
    ["terraform-version", '${file("/etc/passwd")}', /^--terraform-version: .* must be a Terraform version or version constraint/],
    ["agent-pool", "pool\n", /^--agent-pool: "pool\\n" must be the name of an existing agent pool/],
  ];
  const base: Record<string, string> = { "vcs-repo": "acme/hcp-fleet", "vcs-oauth-token-id": "ot-abc123", "execution-mode": "agent", "agent-pool": "pool-1" };

  it.each(cases)("--%s %j", (flag, value, message) => {
    expect(flagProblems(base)).toEqual([]);
    expect(flagProblems({ ...base, [flag]: value })).toEqual([expect.stringMatching(message)]);
  });

  it("accepts what git and HCP Terraform accept: a branch with '$' or '{' (written escaped), an Azure DevOps repository, a version constraint", () => {
    const good = {
      ...base,
      "vcs-branch": "release/v1.2-${x}",
      "vcs-repo": "org/My Project/_git/repo",
      "vcs-directory": "deploy/hcp",
      "terraform-version": "~> 1.11.0, != 1.11.2",
    };
    expect(flagProblems(good)).toEqual([]);
    expect(flagProblems({ "vcs-branch": "main" })).toEqual([expect.stringMatching(/^--vcs-branch and --vcs-directory: only with --vcs-repo/)]);
  });

  it("the reviewer's config and injected flags: exit 1, every problem listed, no output folder", () => {
    const work = tempDir("hcp-azure-tfc-injection-");
    try {
      const write = (name: string, backend: object) => {
        fs.writeFileSync(path.join(work, name), stringify({ ...configWithClusters(1), backend: { type: "cloud", ...backend } }));
        return path.join(work, name);
      };
      const run = (file: string, args: string[]) => {
        const errors: string[] = [];
        const outdir = path.join(work, `out-${path.basename(file)}`);
        const code = runBootstrap([file, "--outdir", outdir, ...args], { out: () => {}, err: (l) => errors.push(l) });
        return { code, errors: errors.join("\n"), wrote: fs.existsSync(outdir) };
      };
      const config = run(write("be2.yaml", { organization: ORGANIZATION, project: PROJECT }), []);
      expect(config).toMatchObject({ code: 1, wrote: false });
      expect(config.errors).toMatch(/backend\.organization: "acme\$\{file.*\n.*backend\.project: "p\$\{path\.cwd\}"/);
      const flags = run(write("ok.yaml", { organization: "acme", project: "hosted-clusters" }), [
        ...["--vcs-repo", "acme/hcp-fleet", "--vcs-oauth-token-id", "ot-abc123"],
        ...["--vcs-branch", "b r", "--vcs-directory", "d/${path.cwd}"],
      ]);
      expect(flags).toMatchObject({ code: 1, wrote: false });
      expect(flags.errors).toMatch(
        /cannot bootstrap .*\n {2}--vcs-branch: "b r" must be .*\n {2}--vcs-directory: "d\/\$\{path\.cwd\}" must be .*\nnothing was written\./,
      );
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

/** Past the validation (the plan and the constructs called directly): every string is still a literal. */
describe("the bootstrap stack writes config and flag text as literals", () => {
  const evil = (label: string) => `${label}\${file("/etc/passwd")}%{if true}x%{endif}`;
  const options = (flexible: boolean): BootstrapOptions => ({
    organization: ORGANIZATION,
    hostname: evil("host"),
    project: PROJECT,
    subscriptionId: "00000000-0000-0000-0000-000000000000",
    location: evil("loc"),
    identityResourceGroup: evil("rg"),
    terraformVersion: evil("tv"),
    executionMode: "agent",
    agentPool: evil("pool"),
    vcs: { identifier: `acme/${evil("repo")}`, branch: evil("branch"), oauthTokenId: `ot-${evil("")}`, directory: evil("dir") },
    flexibleCredentials: flexible,
    tags: { [evil("tag")]: evil("value") },
    connectionVariableSet: evil("set"),
  });
  const variable = (name: string, value?: string) => ({ name, category: "env" as const, sensitive: false, required: true, description: evil("d"), value });
  const document: WorkspacesDocument = {
    backend: "cloud",
    secretsSource: "variables",
    runOrder: [["shared"], ["management"]],
    workspaces: [
      {
        stack: "shared",
        state: evil("ws"),
        dependsOn: [],
        readsStateOf: [],
        files: [],
        variables: [variable("TFC_AZURE_RUN_CLIENT_ID"), variable(evil("K"), evil("v"))],
      },
      { stack: "management", state: "ws-m", dependsOn: ["shared"], readsStateOf: ["shared"], files: [], variables: [variable("KUBE_HOST")] },
    ],
  };
  const footprint: StackFootprint = { azurerm: true, azuread: true, creates: [evil("group")], uses: [], assignsRoles: true, writes: true };
  const synth = (flexible: boolean) => {
    const opts = options(flexible);
    const workspaces = bootstrapWorkspaces(
      document,
      new Map([
        ["shared", footprint],
        ["management", { ...footprint, azurerm: false }],
      ]),
      opts,
    );
    const config = { subscriptionId: opts.subscriptionId, tenantId: "11111111-1111-1111-1111-111111111111", cloud: "AzurePublicCloud" as const };
    return JSON.parse(Testing.synth(new TfcBootstrapStack(Testing.app(), { config, options: opts, workspaces })));
  };
  const managed = synth(false);
  const flexible = synth(true);

  it("no live template anywhere, whatever the organization, project, host, flags, prefix-derived names, tags and variables hold", () => {
    expect(liveTemplates(managed)).toEqual([]);
    expect(liveTemplates(flexible)).toEqual([]);
  });

  it("and Terraform reads each value back as given", () => {
    const [credential] = resources(managed, "azurerm_federated_identity_credential");
    expect(readBack(credential.subject)).toMatch(/^organization:acme\$\{file\("\/etc\/passwd"\)\}:project:p\$\{path\.cwd\}:workspace:ws\$\{file/);
    expect(readBack(credential.issuer)).toBe(`https://${evil("host")}`);
    expect(readBack(managed.provider.tfe[0].organization)).toBe(ORGANIZATION);
    expect(readBack(resources(managed, "tfe_project")[0].name)).toBe(PROJECT);
    const workspace = resources(managed, "tfe_workspace").find((w) => readBack(w.name) === evil("ws"));
    expect(readBack(workspace.working_directory)).toBe(`${evil("dir")}/stacks/shared`);
    expect(readBack(workspace.vcs_repo.branch)).toBe(evil("branch"));
    expect(readBack(resources(flexible, "azuread_application_flexible_federated_identity_credential")[0].claims_matching_expression)).toContain(
      `:project:${PROJECT}:workspace:`,
    );
  });

  it("a quote in a flexible credential's subject is refused (it would end Entra's quoted string)", () => {
    const opts = { ...options(true), project: "it's" };
    const workspaces = bootstrapWorkspaces(
      document,
      new Map([
        ["shared", footprint],
        ["management", footprint],
      ]),
      opts,
    );
    const config = { subscriptionId: opts.subscriptionId, tenantId: "11111111-1111-1111-1111-111111111111", cloud: "AzurePublicCloud" as const };
    expect(() => new TfcBootstrapStack(Testing.app(), { config, options: opts, workspaces })).toThrow(/holds a quote or backslash/);
  });
});
