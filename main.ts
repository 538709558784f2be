import * as path from "node:path";
import { removedClusterIssues, retiredClusterWarnings, writeClusterRecord } from "./config/deployed-clusters";
import { ConfigErrors, formatIssues, loadConfigFile } from "./config/load";
import { checkProtectedResources, deployedProtection, localNext, ProtectionCheck, writeLocalProtectedRecord } from "./config/protected-resources";
import { environmentWarnings, missingSecretFiles, secretFileIssues } from "./config/rules";
import { synthesize } from "./stacks/app";
import { OutputFolderError } from "./stacks/output-folder";

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
 * (config/deployed-clusters.ts). Returns the exit code: 0 synthesized, 1 config errors, a
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
  const loaded = loadConfigFile(configFile);
  // Facts of this machine and of the deployed state: secret files Terraform will read (files
  // mode); the protected resources the deployment holds (config/protected-resources.ts), and
  // clusters dropped from the config while their stacks hold state (they could no longer be
  // destroyed), both refused once synth has shown what the config declares.
  const deployed = loaded.ok ? deployedProtection(loaded) : undefined;
  const errors = loaded.ok
    ? {
        ok: false as const,
        file: configFile,
        issues: [
          ...missingSecretFiles(loaded.config, loaded.names),
          ...secretFileIssues(loaded.config, loaded.names, loaded.publicKeys),
          ...(deployed && "issues" in deployed ? deployed.issues : []),
        ],
      }
    : loaded;
  if (!loaded.ok || errors.issues.length > 0 || !deployed || "issues" in deployed) {
    io.err(formatIssues(errors));
    io.err("nothing was written.");
    return 1;
  }
  // Refused after the synth below, together with the protected resources the config drops (one report).
  const stateIssues = removedClusterIssues(loaded, { underCdktfCli: cli });
  let protection: ProtectionCheck | undefined;
  let stacks: ReturnType<typeof synthesize>;
  try {
    stacks = synthesize(loaded, outdir, {
      // Under the cdktf CLI a removed cluster's stack folders stay for the CLI to remove (it fails when one is gone).
      keepRemovedStacks: cli,
      // A config that drops a protected resource the deployment holds is refused before the output is replaced.
      beforeReplace: (synthesized) => {
        protection = checkProtectedResources(loaded, synthesized, deployed);
        const issues = [...stateIssues, ...protection.issues];
        if (issues.length > 0) throw new StateRefusal({ ok: false, file: configFile, issues });
      },
    });
  } catch (error) {
    if (error instanceof StateRefusal) {
      io.err(formatIssues(error.errors));
      io.err("nothing was written.");
      return 1;
    }
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
  const checked = protection as ProtectionCheck;
  writeLocalProtectedRecord(loaded, localNext(deployed, checked.next), cli);
  const record = writeClusterRecord(loaded, loaded.config.backend.type === "local" ? undefined : checked.next);
  const width = Math.max(...stacks.map((s) => s.name.length));
  io.out(`synthesized ${configFile} -> ${path.relative(process.cwd(), outdir) || "."}/`);
  for (const s of stacks) {
    io.out(`  ${s.name.padEnd(width)}  ${s.resources} resources, ${s.dataSources} data sources, ${s.outputs} outputs`);
  }
  io.out(`  workspaces.json: the variables, environment and run order each stack needs (help/terraform-cloud.md)`);
  for (const line of record.lines) io.out(line);
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
  if (!cli) io.out(`deploy: HCP_AZURE_CONFIG=${configFile} npm run deploy -- '*'   (needs Terraform and Azure credentials; help/getting-started.md)`);
  return 0;
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
