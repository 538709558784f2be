import { App, Testing, TerraformStack } from "cdktf";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { formatIssues, LoadedConfig, loadConfigFile } from "../config/load";
import { addStacks } from "../stacks/app";
import { manualSteps, ManualSteps } from "../stacks/tfc-bootstrap-manual";
import { BootstrapOptions, BootstrapWorkspace, bootstrapWorkspaces, ExecutionMode, stackFootprint } from "../stacks/tfc-bootstrap-plan";
import { TFC_BOOTSTRAP_STACK, TfcBootstrapStack } from "../stacks/tfc-bootstrap-stack";
import { describeWorkspaces } from "../stacks/workspaces";

/**
 * `npm run tfc-bootstrap -- <config> [options]`: synthesizes, into its own folder (default
 * tfc-bootstrap.out), one stack that creates the Terraform Cloud project, a workspace per stack of
 * the deployment and each workspace's Azure run identity (help/terraform-cloud.md "Bootstrap").
 * Opt-in, run once by an administrator (`cd <outdir>/stacks/tfc-bootstrap && terraform init &&
 * terraform apply`); never part of the deployment's `deploy '*'`.
 */

export const USAGE = `usage: npm run tfc-bootstrap -- <config.yaml> [options]
  --outdir DIR               output folder (default tfc-bootstrap.out)
  --execution-mode MODE      remote (default), agent or local
  --agent-pool NAME          existing agent pool (execution mode agent)
  --terraform-version V      workspaces' Terraform version or constraint (default ">= 1.11.0")
  --vcs-repo OWNER/REPO      VCS-driven runs from this repository (with --vcs-oauth-token-id)
  --vcs-oauth-token-id ID    the organization's VCS connection token ID (ot-...)
  --vcs-branch BRANCH        default: the repository's default branch
  --vcs-directory DIR        folder of the committed output in the repository (default: its root)
  --flexible-credentials     one Entra application per workspace with one flexible federated
                             credential, instead of a managed identity with two (HCP Terraform only)`;

export const DEFAULT_OUTDIR = "tfc-bootstrap.out";
/** Hosts whose tokens Entra's flexible federated credentials accept (terraform-cloud-facts.md §3.3). */
const FLEXIBLE_HOSTS = ["app.terraform.io", "app.eu.terraform.io"];

export interface BootstrapResult {
  readonly outdir: string;
  readonly workspaces: readonly BootstrapWorkspace[];
  readonly manual: ManualSteps;
  readonly options: BootstrapOptions;
  readonly stack: TfcBootstrapStack;
}

/** Parses the command line into the config file, output folder and options; a string is a usage error. */
export function parseBootstrapArgs(
  argv: readonly string[],
): { configFile: string; outdir: string; flags: Record<string, string | boolean | undefined> } | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        outdir: { type: "string" },
        "execution-mode": { type: "string" },
        "agent-pool": { type: "string" },
        "terraform-version": { type: "string" },
        "vcs-repo": { type: "string" },
        "vcs-oauth-token-id": { type: "string" },
        "vcs-branch": { type: "string" },
        "vcs-directory": { type: "string" },
        "flexible-credentials": { type: "boolean" },
      },
    });
  } catch (error) {
    return (error as Error).message;
  }
  if (parsed.positionals.length !== 1) return "exactly one config file is required";
  return { configFile: parsed.positionals[0], outdir: parsed.values.outdir ?? DEFAULT_OUTDIR, flags: parsed.values };
}

/**
 * The git rules of a branch name (`git check-ref-format --branch`): what `--vcs-branch` may be.
 * `$`, `{` and `%` are allowed there, so a branch reaches Terraform only escaped (constructs/tfc).
 */
// eslint-disable-next-line no-control-regex
const NOT_IN_BRANCH = /[\u0000-\u0020\u007f~^:?*[\\]|\.\.|@\{|\/\/|^[-/]|[/.]$|(^|\/)\.|\.lock($|\/)|^@$|^HEAD$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** `<owner>/<repository>`, GitLab subgroups, or Azure DevOps' `<organization>/<project>/_git/<repository>` (a space inside a project name). */
const VCS_REPO = /^[A-Za-z0-9_.-]+( [A-Za-z0-9_.-]+)*(\/[A-Za-z0-9_.-]+( [A-Za-z0-9_.-]+)*)+$/;
const RELATIVE_DIRECTORY = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;
/** A version (1.11.4, 1.12.0-beta1) or constraints of them (`>= 1.11.0`, `~> 1.11.0, != 1.11.2`), or latest. */
const TERRAFORM_VERSION =
  /^(latest|\s*(=|!=|>=?|<=?|~>)?\s*v?\d+(\.\d+){0,2}(-[0-9A-Za-z.]+)?(\+[0-9A-Za-z.]+)?\s*(,\s*(=|!=|>=?|<=?|~>)?\s*v?\d+(\.\d+){0,2}(-[0-9A-Za-z.]+)?(\+[0-9A-Za-z.]+)?\s*)*)$/;

/**
 * What is wrong with the flags that reach the bootstrap's Terraform JSON: each problem names the
 * flag, shows the value (JSON-quoted: a control character is shown escaped), states the rule and the fix.
 */
export function flagProblems(flags: Record<string, string | boolean | undefined>): string[] {
  const problems: string[] = [];
  const text = (flag: string) => flags[flag] as string | undefined;
  const check = (flag: string, ok: (value: string) => boolean, rule: string) => {
    const value = text(flag);
    if (value !== undefined && !ok(value)) problems.push(`--${flag}: ${JSON.stringify(value)} ${rule}`);
  };
  const mode = text("execution-mode") ?? "remote";
  if (!["remote", "agent", "local"].includes(mode)) problems.push(`--execution-mode: ${JSON.stringify(mode)} must be remote, agent or local.`);
  if ((mode === "agent") !== (flags["agent-pool"] !== undefined)) problems.push("--agent-pool: required with --execution-mode agent, and only with it.");
  check("agent-pool", (v) => v.trim() !== "" && !CONTROL.test(v), "must be the name of an existing agent pool: not blank, no control characters.");
  check("terraform-version", (v) => TERRAFORM_VERSION.test(v), 'must be a Terraform version or version constraint, e.g. 1.11.4, ">= 1.11.0" or "~> 1.11.0".');
  const repo = text("vcs-repo");
  if ((repo === undefined) !== (text("vcs-oauth-token-id") === undefined))
    problems.push("--vcs-repo and --vcs-oauth-token-id: give both (VCS-driven runs) or neither (CLI-driven).");
  if (repo === undefined && (text("vcs-branch") ?? text("vcs-directory")) !== undefined)
    problems.push("--vcs-branch and --vcs-directory: only with --vcs-repo (VCS-driven runs); leave them out for CLI-driven runs.");
  check(
    "vcs-repo",
    (v) => VCS_REPO.test(v) && !v.split("/").some((s) => s === "." || s === ".."),
    "must be <owner>/<repository> (GitLab: <group>/<subgroup>/<repository>; Azure DevOps: <organization>/<project>/_git/<repository>): names of letters, digits, '.', '_' or '-' separated by '/', e.g. acme/hcp-fleet.",
  );
  check(
    "vcs-oauth-token-id",
    (v) => /^ot-[A-Za-z0-9]+$/.test(v),
    "must be the OAuth token ID of the organization's VCS connection: ot- followed by letters and digits (Settings > Providers, or tfe_oauth_client's oauth_token_id).",
  );
  check(
    "vcs-branch",
    (v) => v !== "" && !NOT_IN_BRANCH.test(v),
    "must be a git branch name (git check-ref-format --branch): no space, control character, ~ ^ : ? * [ \\, '..', '@{' or '//'; no leading '-' or '/', no trailing '/' or '.', no part starting with '.' or ending with '.lock'. Leave it out for the repository's default branch.",
  );
  check(
    "vcs-directory",
    (v) => v === "" || (RELATIVE_DIRECTORY.test(v) && !v.split("/").some((s) => s === "." || s === "..")),
    "must be a relative path in the repository: folders of letters, digits, '.', '_' or '-' separated by '/', without '.' or '..' and without a leading or trailing '/', e.g. deploy/hcp (leave it out for the repository's root).",
  );
  return problems;
}

/** The bootstrap's options from the config (backend cloud) and the flags; a list of problems when they do not fit. */
export function bootstrapOptions(loaded: LoadedConfig, flags: Record<string, string | boolean | undefined>): BootstrapOptions | string[] {
  const { config } = loaded;
  const backend = config.backend;
  if (backend.type !== "cloud") return [`backend.type: ${JSON.stringify(backend.type)} must be "cloud": the bootstrap creates Terraform Cloud workspaces.`];
  const problems = flagProblems(flags);
  if (!backend.project)
    problems.unshift(
      "backend.project: not set; the bootstrap creates the project, whose name is part of every federated credential subject. Set it, e.g. hosted-clusters.",
    );
  if (flags["flexible-credentials"] && !FLEXIBLE_HOSTS.includes(backend.hostname))
    problems.push(`--flexible-credentials: Entra accepts flexible federated credentials only for ${FLEXIBLE_HOSTS.join(" and ")}, not ${backend.hostname}.`);
  const mode = (flags["execution-mode"] ?? "remote") as string;
  const repo = flags["vcs-repo"] as string | undefined;
  const token = flags["vcs-oauth-token-id"] as string | undefined;
  if (problems.length > 0 || !backend.project) return problems;
  return {
    organization: backend.organization,
    hostname: backend.hostname,
    project: backend.project,
    subscriptionId: config.subscriptionId,
    location: config.location,
    identityResourceGroup: `${config.prefix}-tfc-run-identities`,
    terraformVersion: (flags["terraform-version"] as string | undefined) ?? ">= 1.11.0",
    executionMode: mode as ExecutionMode,
    agentPool: flags["agent-pool"] as string | undefined,
    vcs:
      repo && token
        ? {
            identifier: repo,
            oauthTokenId: token,
            branch: flags["vcs-branch"] as string | undefined,
            directory: (flags["vcs-directory"] as string | undefined) ?? "",
          }
        : undefined,
    flexibleCredentials: flags["flexible-credentials"] === true,
    tags: { "hcp-azure": config.prefix },
    connectionVariableSet: `${config.prefix}-management-cluster`,
  };
}

/** The deployment's workspaces as the bootstrap sees them: workspaces.json's document and each stack's footprint. */
export function deploymentWorkspaces(loaded: LoadedConfig, options: BootstrapOptions): BootstrapWorkspace[] {
  // The deployment's stacks, built in memory as synth builds them (nothing written).
  const outdir = path.resolve("cdktf.out");
  const app = new App({ outdir, skipValidation: true });
  const stacks: TerraformStack[] = addStacks(app, loaded, outdir);
  const document = describeWorkspaces(loaded, stacks, outdir);
  const footprints = new Map(stacks.map((stack) => [stack.node.id, stackFootprint(JSON.parse(Testing.synth(stack)))]));
  return bootstrapWorkspaces(document, footprints, options);
}

/** Synthesizes the bootstrap into `outdir` (cdktf rewrites its files; the terraform.tfstate of an earlier apply beside them stays). */
export function synthesizeBootstrap(loaded: LoadedConfig, options: BootstrapOptions, outdir: string): BootstrapResult {
  const workspaces = deploymentWorkspaces(loaded, options);
  const app = new App({ outdir, skipValidation: true });
  const stack = new TfcBootstrapStack(app, { config: loaded.config, options, workspaces });
  app.synth();
  const manual = manualSteps(workspaces, options);
  const summary = { options, manualSteps: manual, workspaces };
  fs.writeFileSync(path.join(outdir, "tfc-bootstrap.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return { outdir, workspaces, manual, options, stack };
}

/** What the command prints: counts, then the manual steps before and after the apply. */
export function report(result: BootstrapResult): string[] {
  const identities = [...result.stack.identities.values()];
  const credentials = identities.reduce((sum, i) => sum + i.credentials, 0);
  const triggers = result.workspaces.reduce((sum, w) => sum + w.runTriggerSources.length, 0);
  const variables = result.workspaces.reduce((sum, w) => sum + w.variables.length, 0);
  const connection = new Set(result.workspaces.flatMap((w) => w.connectionVariables.map((v) => v.name))).size;
  const roles = result.workspaces.reduce((sum, w) => sum + w.roles.length, 0);
  const folder = path.join(result.outdir, "stacks", TFC_BOOTSTRAP_STACK);
  return [
    `synthesized ${folder}: 1 project, ${result.workspaces.length} workspaces, ${variables} workspace variables, ${connection} in the variable set ${result.options.connectionVariableSet}, ${identities.length} run identities, ${credentials} federated credentials, ${roles} role assignments, ${triggers} run triggers`,
    "",
    "before the apply (manual):",
    ...result.manual.before.map((s, i) => `  ${i + 1}. ${s}`),
    `then: cd ${folder} && terraform init && terraform apply   (keep its terraform.tfstate: it is the record of what the bootstrap created)`,
    "",
    "after the apply (manual):",
    ...result.manual.after.map((s, i) => `  ${i + 1}. ${s}`),
  ];
}

export function runBootstrap(argv: readonly string[], io: { out(line: string): void; err(line: string): void }): number {
  const args = parseBootstrapArgs(argv);
  if (typeof args === "string") {
    io.err(`tfc-bootstrap: ${args}\n${USAGE}`);
    return 2;
  }
  const loaded = loadConfigFile(args.configFile);
  if (!loaded.ok) {
    io.err(formatIssues(loaded));
    return 1;
  }
  const options = bootstrapOptions(loaded, args.flags);
  if (Array.isArray(options)) {
    io.err([`tfc-bootstrap: cannot bootstrap ${args.configFile}:`, ...options.map((p) => `  ${p}`), "nothing was written."].join("\n"));
    return 1;
  }
  report(synthesizeBootstrap(loaded, options, path.resolve(args.outdir))).forEach((line) => io.out(line));
  return 0;
}

if (require.main === module) {
  process.exitCode = runBootstrap(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) });
}
