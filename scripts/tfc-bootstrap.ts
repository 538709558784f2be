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

/** The bootstrap's options from the config (backend cloud) and the flags; a list of problems when they do not fit. */
export function bootstrapOptions(loaded: LoadedConfig, flags: Record<string, string | boolean | undefined>): BootstrapOptions | string[] {
  const { config } = loaded;
  const backend = config.backend;
  const problems: string[] = [];
  if (backend.type !== "cloud") return [`backend.type: ${JSON.stringify(backend.type)} must be "cloud": the bootstrap creates Terraform Cloud workspaces.`];
  if (!backend.project)
    problems.push(
      "backend.project: not set; the bootstrap creates the project, whose name is part of every federated credential subject. Set it, e.g. hosted-clusters.",
    );
  const mode = (flags["execution-mode"] ?? "remote") as string;
  if (!["remote", "agent", "local"].includes(mode)) problems.push(`--execution-mode: ${JSON.stringify(mode)} must be remote, agent or local.`);
  if ((mode === "agent") !== (flags["agent-pool"] !== undefined)) problems.push("--agent-pool: required with --execution-mode agent, and only with it.");
  const repo = flags["vcs-repo"] as string | undefined;
  const token = flags["vcs-oauth-token-id"] as string | undefined;
  if ((repo === undefined) !== (token === undefined))
    problems.push("--vcs-repo and --vcs-oauth-token-id: give both (VCS-driven runs) or neither (CLI-driven).");
  if (repo !== undefined && !/^[^/\s]+\/[^\s]+$/.test(repo)) problems.push(`--vcs-repo: ${JSON.stringify(repo)} must be <owner>/<repository>.`);
  if (flags["flexible-credentials"] && !FLEXIBLE_HOSTS.includes(backend.hostname))
    problems.push(`--flexible-credentials: Entra accepts flexible federated credentials only for ${FLEXIBLE_HOSTS.join(" and ")}, not ${backend.hostname}.`);
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
