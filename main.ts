import * as path from "node:path";
import { controlPlaneFirstWarnings, removedClusterIssues, retiredClusterWarnings, writeClusterRecord } from "./config/deployed-clusters";
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
import { OUTPUT_FOLDER_FIX, outputFolderOf, outputFolderRefusal } from "./stacks/output-location";
import { deployHint, stacksLeftOutOfDeploy } from "./stacks/retired-stacks";

/** The bundled example: `npm run synth` with no argument synthesizes it. */
export const DEFAULT_CONFIG = "examples/basic.yaml";

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `usage: npm run synth -- [config.yaml]
  config: argument, else $HCP_AZURE_CONFIG, else ${DEFAULT_CONFIG}
  output: $CDKTF_OUTDIR, else cdktf.out (a folder of its own: synth replaces it whole)
  under the cdktf CLI (cdktf synth|diff|deploy|destroy|list|output) $HCP_AZURE_CONFIG is required`;

/**
 * The cdktf CLI runs the app with CDKTF_CONTEXT_JSON set. It has no way to pass arguments, and
 * prints everything the app writes to stderr as `[ERROR]`.
 */
export function underCdktfCli(env: NodeJS.ProcessEnv): boolean {
  return env.CDKTF_CONTEXT_JSON !== undefined;
}

/** Set to 1 to print the stack trace of an error synth does not expect (a bug) after its message. */
export const DEBUG_ENV = "HCP_AZURE_DEBUG";

/** What synth is doing, for the message of an error it does not expect (`unexpectedErrorLines`). */
export interface Step {
  doing: string;
  /** Secret files are being read: an error's message may quote them (JSON.parse does), so it is not shown. */
  readingSecrets: boolean;
  /** What became of the output when this step fails. */
  output: string;
}

/**
 * Validates the config and synthesizes every stack; with a remote backend, records the clusters
 * (config/deployed-clusters/). Returns the exit code: 0 synthesized, 1 config errors, a
 * removed cluster whose stacks hold state, state synth would miss, an output folder synth must
 * not replace, or an error synth does not expect (a bug, said in one paragraph; nothing written), 2 usage.
 */
export function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): number {
  const step: Step = { doing: "starting", readingSecrets: false, output: "nothing was written" };
  try {
    return synth(argv, env, io, step);
  } catch (error) {
    for (const line of unexpectedErrorLines(error, step, env[DEBUG_ENV] === "1")) io.err(line);
    return 1;
  }
}

/**
 * An error synth does not expect (a bug: config errors are reported as such), as one paragraph:
 * what failed, whom to tell, what became of the output; with `debug`, the stack frames after it.
 * While secret files are read the error's message is not shown (it may quote them).
 */
export function unexpectedErrorLines(error: unknown, step: Step, debug: boolean): string[] {
  const name = error instanceof Error ? error.name : typeof error;
  const firstLine = error instanceof Error ? error.message.split("\n")[0] : String(error).split("\n")[0];
  const shown = step.readingSecrets
    ? `${name}, its message not shown: it may quote a secret file`
    : `${name}: ${firstLine.length > 300 ? `${firstLine.slice(0, 297)}...` : firstLine}`;
  const lines = [
    `synth failed while ${step.doing} with an error it does not expect (${shown}). This is a bug in hcp-azure, please report it with your config (not your secret files) (help/troubleshooting.md#synth-says-this-is-a-bug-in-hcp-azure). ${step.output[0].toUpperCase()}${step.output.slice(1)}. ${debug ? "Its stack trace:" : `Set ${DEBUG_ENV}=1 to print its stack trace.`}`,
  ];
  const frames = error instanceof Error ? (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line)) : [];
  return debug ? [...lines, ...frames] : lines;
}

function synth(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io, step: Step): number {
  const usage = usageRefusal(argv, env, io);
  if (usage !== undefined) return usage;
  const cli = underCdktfCli(env);
  const configFile = argv[0] ?? env.HCP_AZURE_CONFIG ?? DEFAULT_CONFIG;
  const outdir = outputFolderOf(env);
  const refusal = outputFolderRefusal(outdir, configFile);
  if (refusal) {
    io.err(`cannot write the output folder ${outdir}: it ${refusal}; ${OUTPUT_FOLDER_FIX}`);
    io.err("nothing was written.");
    return 1;
  }
  // Review mode (config/review-mode.ts): for `npm run review` on a runner without secrets; never deployed.
  const review = isReviewMode(env);
  step.doing = "loading the config";
  const loaded = loadConfigFile(configFile, review);
  // Facts of this machine and of the deployed state: secret files Terraform will read (files
  // mode); the protected resources the deployment holds (config/protected-resources/), and
  // clusters dropped from the config while their stacks hold state (they could no longer be
  // destroyed), both refused once synth has shown what the config declares.
  if (!loaded.ok) return refuse(io, loaded);
  step.doing = "reading the deployed state";
  const deployed: ReturnType<typeof deployedProtection> = review ? { held: new Map(), source: "review mode", unrecorded: true } : deployedProtection(loaded);
  Object.assign(step, { doing: "checking the secret files", readingSecrets: true });
  const issues = [
    ...(review ? [] : missingSecretFiles(loaded.config, loaded.names)),
    ...(review ? [] : secretFileIssues(loaded.config, loaded.names, loaded.publicKeys)),
    ...("issues" in deployed ? deployed.issues : []),
  ];
  Object.assign(step, { doing: "building and writing the stacks", readingSecrets: false, output: "the previous output was not replaced" });
  if (issues.length > 0 || "issues" in deployed) return refuse(io, { ok: false, file: configFile, issues });
  const result = synthesizeChecked(loaded, configFile, outdir, deployed, cli, io, review, stacksLeftOutOfDeploy(loaded, cli, env));
  if (typeof result === "number") return result;
  const { stacks, checked } = result;
  Object.assign(step, { doing: "recording what was synthesized", output: "the new output was written; synthesize again once it is fixed" });
  // Read before the record is written: it then holds the new release (control-plane-first.ts).
  const upgradeWarnings = review ? [] : controlPlaneFirstWarnings(loaded);
  if (!review) writeLocalProtectedRecord(loaded, localNext(deployed, checked.next), cli);
  const record = review ? { lines: [], warnings: [] } : writeClusterRecord(loaded, loaded.config.backend.type === "local" ? undefined : checked.next);
  printSummary(io, configFile, outdir, stacks, record.lines);
  // Under the cdktf CLI, stderr is shown as [ERROR]: warnings go to stdout there.
  const warn = cli ? io.out : io.err;
  for (const warning of [
    ...loaded.warnings,
    ...environmentWarnings(loaded.config, env),
    ...retiredClusterWarnings(loaded),
    ...upgradeWarnings,
    ...checked.warnings,
    ...record.warnings,
  ])
    warn(`warning: ${warning}`);
  if (!cli && !review) io.out(deployHint(configFile, loaded));
  return 0;
}

/** --help, extra arguments, the cdktf CLI without a config or in review mode: the exit code, after printing why; undefined when none. */
function usageRefusal(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): number | undefined {
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
  if (isReviewMode(env) && cli) {
    io.err(`${REVIEW_MODE_ENV} is set: review-mode output is for npm run review only and cannot be deployed. Unset it.`);
    io.err("nothing was written.");
    return 2;
  }
  return undefined;
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
    // said plainly. Anything else is a bug: main says so.
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
