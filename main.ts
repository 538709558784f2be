import * as path from "node:path";
import { removedClusterIssues, retiredClusterWarnings, writeClusterRecord } from "./config/deployed-clusters";
import { ConfigErrors, formatIssues, LoadedConfig, loadConfigFile } from "./config/load";
import {
  checkProtectedResources,
  DeployedProtection,
  deployedProtection,
  localNext,
  ProtectionCheck,
  writeLocalProtectedRecord,
} from "./config/protected-resources";
import { environmentWarnings, missingSecretFiles, secretFileIssues } from "./config/rules";
import { isReviewMode, REVIEW_MODE_ENV } from "./config/review-mode";
import { StackSummary, synthesize } from "./stacks/app";
import { OutputFolderError } from "./stacks/output-folder";
import { deployHint, stacksLeftOutOfDeploy } from "./stacks/retired-stacks";

/** The bundled example: `npm run synth` with no argument synthesizes it. */
export const DEFAULT_CONFIG = "examples/basic.yaml";

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `usage: npm run synth -- [config.yaml]
  config: argument, else $HCP_AZURE_CONFIG, else ${DEFAULT_CONFIG}
  output: $CDKTF_OUTDIR, else cdktf.out
  under the cdktf CLI (cdktf synth|diff|deploy|destroy|list|output) $HCP_AZURE_CONFIG is required`;

/**
 * The cdktf CLI runs the app with CDKTF_CONTEXT_JSON set. It has no way to pass arguments, and
 * prints everything the app writes to stderr as `[ERROR]`.
 */
export function underCdktfCli(env: NodeJS.ProcessEnv): boolean {
  return env.CDKTF_CONTEXT_JSON !== undefined;
}

/**
 * Validates the config and synthesizes every stack; with a remote backend, records the clusters
 * (config/deployed-clusters/). Returns the exit code: 0 synthesized, 1 config errors, a
 * removed cluster whose stacks hold state, or state synth would miss (nothing written), 2 usage.
 */
export function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): number {
  if (argv.includes("--help") || argv.includes("-h") || argv.length > 1) {
    io.err(USAGE);
    return argv.length > 1 ? 2 : 0;
  }
  const cli = underCdktfCli(env);
  if (cli && !argv[0] && !env.HCP_AZURE_CONFIG) {
    // Synthesizing the bundled example here would make the command act on stacks the user never
    // configured (or fail later with "Could not find stack").
    io.err(
      "HCP_AZURE_CONFIG is not set: the cdktf CLI synthesizes the config it names. Run e.g. HCP_AZURE_CONFIG=my-env.yaml npm run deploy -- '*' (help/getting-started.md).",
    );
    io.err("nothing was written.");
    return 2;
  }
  const configFile = argv[0] ?? env.HCP_AZURE_CONFIG ?? DEFAULT_CONFIG;
  const outdir = path.resolve(env.CDKTF_OUTDIR ?? "cdktf.out");
  // Review mode (config/review-mode.ts): for `npm run review` on a runner without secrets; never deployed.
  const review = isReviewMode(env);
  if (review && cli) {
    io.err(`${REVIEW_MODE_ENV} is set: review-mode output is for npm run review only and cannot be deployed. Unset it.`);
    io.err("nothing was written.");
    return 2;
  }
  const loaded = loadConfigFile(configFile, review);
  // Facts of this machine and of the deployed state: secret files Terraform will read (files
  // mode); the protected resources the deployment holds (config/protected-resources/), and
  // clusters dropped from the config while their stacks hold state (they could no longer be
  // destroyed), both refused once synth has shown what the config declares.
  if (!loaded.ok) return refuse(io, loaded);
  const deployed: ReturnType<typeof deployedProtection> = review ? { held: new Map(), source: "review mode", unrecorded: true } : deployedProtection(loaded);
  const issues = [
    ...(review ? [] : missingSecretFiles(loaded.config, loaded.names)),
    ...(review ? [] : secretFileIssues(loaded.config, loaded.names, loaded.publicKeys)),
    ...("issues" in deployed ? deployed.issues : []),
  ];
  if (issues.length > 0 || "issues" in deployed) return refuse(io, { ok: false, file: configFile, issues });
  const result = synthesizeChecked(loaded, configFile, outdir, deployed, cli, io, review, stacksLeftOutOfDeploy(loaded, cli, env));
  if (typeof result === "number") return result;
  const { stacks, checked } = result;
  if (!review) writeLocalProtectedRecord(loaded, localNext(deployed, checked.next), cli);
  const record = review ? { lines: [], warnings: [] } : writeClusterRecord(loaded, loaded.config.backend.type === "local" ? undefined : checked.next);
  printSummary(io, configFile, outdir, stacks, record.lines);
  // Under the cdktf CLI, stderr is shown as [ERROR]: warnings go to stdout there.
  const warn = cli ? io.out : io.err;
  for (const warning of [
    ...loaded.warnings,
    ...environmentWarnings(loaded.config, env),
    ...retiredClusterWarnings(loaded),
    ...checked.warnings,
    ...record.warnings,
  ])
    warn(`warning: ${warning}`);
  if (!cli && !review) io.out(deployHint(configFile, loaded));
  return 0;
}

/** Prints config errors and that nothing was written; returns exit code 1. */
function refuse(io: Io, errors: ConfigErrors): number {
  io.err(formatIssues(errors));
  io.err("nothing was written.");
  return 1;
}

/**
 * Synthesizes into `outdir`, refusing before the output is replaced when the deployed state forbids
 * the config (removed clusters, dropped protected resources). Returns the stacks and the protection
 * check, or the exit code of a refusal or of an output folder synth cannot write.
 */
function synthesizeChecked(
  loaded: LoadedConfig,
  configFile: string,
  outdir: string,
  deployed: DeployedProtection,
  cli: boolean,
  io: Io,
  review = false,
  leaveOut: readonly string[] = [],
): number | { stacks: StackSummary[]; checked: ProtectionCheck } {
  // Refused after the synth below, together with the protected resources the config drops (one report).
  const stateIssues = review ? [] : removedClusterIssues(loaded, { underCdktfCli: cli });
  let protection: ProtectionCheck | undefined;
  try {
    const stacks = synthesize(loaded, outdir, {
      // Under the cdktf CLI a removed cluster's stack folders stay for the CLI to remove (it fails when one is gone).
      keepRemovedStacks: cli,
      // Under `cdktf deploy`, a retired cluster's stacks (they only ever destroy) are not for `deploy '*'` to select.
      leaveOutOfManifest: leaveOut,
      // A config that drops a protected resource the deployment holds is refused before the output is replaced.
      beforeReplace: (synthesized) => {
        protection = checkProtectedResources(loaded, synthesized, deployed);
        const issues = [...stateIssues, ...protection.issues];
        if (issues.length > 0) throw new StateRefusal({ ok: false, file: configFile, issues });
      },
    });
    return { stacks, checked: protection as ProtectionCheck };
  } catch (error) {
    if (error instanceof StateRefusal) return refuse(io, error.errors);
    // The output folder's own problems (not a folder, another synth, no permission, a full disk):
    // said plainly. Anything else is a bug and keeps its stack trace.
    const code = (error as NodeJS.ErrnoException).code;
    if (!(error instanceof OutputFolderError) && !(code && (error as NodeJS.ErrnoException).syscall)) throw error;
    io.err(
      `cannot write the output folder ${path.relative(process.cwd(), outdir) || outdir}: ${error instanceof OutputFolderError ? error.message : `${code} (${(error as Error).message})`}`,
    );
    io.err("the previous output was not replaced.");
    return 1;
  }
}

/** What synth wrote: each stack with its counts, workspaces.json, the record lines. */
function printSummary(io: Io, configFile: string, outdir: string, stacks: readonly StackSummary[], recordLines: readonly string[]): void {
  const width = Math.max(...stacks.map((s) => s.name.length));
  io.out(`synthesized ${configFile} -> ${path.relative(process.cwd(), outdir) || "."}/`);
  for (const s of stacks) {
    io.out(`  ${s.name.padEnd(width)}  ${s.resources} resources, ${s.dataSources} data sources, ${s.outputs} outputs`);
  }
  io.out(`  workspaces.json: the variables, environment and run order each stack needs (help/terraform-cloud.md)`);
  for (const line of recordLines) io.out(line);
}

/** Thrown from inside synth to abandon the new output: the deployed state forbids the config (removed clusters, dropped protected resources). */
class StateRefusal extends Error {
  constructor(readonly errors: ConfigErrors) {
    super("the deployed state forbids this config");
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
