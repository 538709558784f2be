import * as path from "node:path";
import { removedClusterIssues, retiredClusterWarnings, writeClusterRecord } from "./config/deployed-clusters";
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
 * Validates the config and synthesizes every stack; with a remote backend, records the clusters
 * (config/deployed-clusters.ts). Returns the exit code: 0 synthesized, 1 config errors or a
 * removed cluster whose stacks hold state (nothing written), 2 usage.
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
  // A cluster dropped from the config while its stacks hold state could no longer be destroyed.
  const removed = removedClusterIssues(loaded);
  if (removed.length > 0) {
    io.err(formatIssues({ ok: false, file: configFile, issues: removed }));
    io.err("nothing was written.");
    return 1;
  }
  const stacks = synthesize(loaded, outdir);
  const record = writeClusterRecord(loaded);
  const width = Math.max(...stacks.map((s) => s.name.length));
  io.out(`synthesized ${configFile} -> ${path.relative(process.cwd(), outdir) || "."}/`);
  for (const s of stacks) {
    io.out(`  ${s.name.padEnd(width)}  ${s.resources} resources, ${s.dataSources} data sources, ${s.outputs} outputs`);
  }
  if (record) io.out(`recorded the cluster stacks in ${path.relative(process.cwd(), record) || record} (commit it; help/retire-cluster.md)`);
  for (const warning of [...loaded.warnings, ...environmentWarnings(loaded.config, env), ...retiredClusterWarnings(loaded)]) io.err(`warning: ${warning}`);
  io.out(`deploy: HCP_AZURE_CONFIG=${configFile} npm run deploy -- '*'   (needs Terraform and Azure credentials; help/getting-started.md)`);
  return 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
