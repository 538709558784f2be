import * as path from "node:path";
import { formatIssues, loadConfigFile } from "./config/load";
import { environmentWarnings } from "./config/rules";
import { synthesize } from "./stacks/app";

/** The bundled example: `npm run synth` with no argument synthesizes it. */
export const DEFAULT_CONFIG = "examples/basic.yaml";

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `usage: npm run synth -- [config.yaml]
  config: argument, else $HCP_AZURE_CONFIG, else ${DEFAULT_CONFIG}
  output: $CDKTF_OUTDIR, else cdktf.out`;

/**
 * Validates the config and synthesizes every stack. Returns the exit code: 0 synthesized,
 * 1 config errors (nothing written), 2 usage.
 */
export function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): number {
  if (argv.includes("--help") || argv.includes("-h") || argv.length > 1) {
    io.err(USAGE);
    return argv.length > 1 ? 2 : 0;
  }
  const configFile = argv[0] ?? env.HCP_AZURE_CONFIG ?? DEFAULT_CONFIG;
  const outdir = path.resolve(env.CDKTF_OUTDIR ?? "cdktf.out");
  const loaded = loadConfigFile(configFile);
  if (!loaded.ok) {
    io.err(formatIssues(loaded));
    io.err("nothing was written.");
    return 1;
  }
  const stacks = synthesize(loaded, outdir);
  const width = Math.max(...stacks.map((s) => s.name.length));
  io.out(`synthesized ${configFile} -> ${path.relative(process.cwd(), outdir) || "."}/`);
  for (const s of stacks) {
    io.out(`  ${s.name.padEnd(width)}  ${s.resources} resources, ${s.dataSources} data sources, ${s.outputs} outputs`);
  }
  for (const warning of [...loaded.warnings, ...environmentWarnings(loaded.config, env)]) io.err(`warning: ${warning}`);
  io.out(`deploy: HCP_AZURE_CONFIG=${configFile} npm run deploy -- '*'   (needs Terraform and Azure credentials; help/getting-started.md)`);
  return 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
