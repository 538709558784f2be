import * as fs from "node:fs";
import * as path from "node:path";
import { reviewChanges } from "./change-review/review";
import { Side, cleanUpAllSides, resolveSide } from "./change-review/sides";
import { isWithin, realPath } from "../stacks/output-location";

/**
 * `npm run review -- [--config <file>] [--allow-dangerous] [--output <file>] <old> <new>`: what a
 * change means, per stack (help/review.md). Each side is an output folder (cdktf.out) or a git
 * ref, synthesized with the config in a temporary worktree. Prints Markdown for a pull-request
 * comment. Exit 0: nothing dangerous (or --allow-dangerous); 1: dangerous changes; 2: usage, a
 * side that cannot be read or synthesized.
 */

/** The repository root (this file runs as dist/scripts/review.js). */
const REPO = path.resolve(__dirname, "..", "..");
const DEFAULT_CONFIG = "examples/basic.yaml";

const USAGE = `usage: npm run review -- [--config <file>] [--allow-dangerous] [--output <file>] <old> <new>
  <old>, <new>       an output folder (with stacks/, e.g. cdktf.out) or a git ref (commit, branch, tag)
  --config <file>    config synthesized at each git ref (default: $HCP_AZURE_CONFIG, else ${DEFAULT_CONFIG})
  --allow-dangerous  exit 0 even when dangerous changes are found
  --output <file>    also write the Markdown to <file> (e.g. for a pull-request comment)
  exit: 0 nothing dangerous, 1 dangerous changes, 2 usage or synth error (help/review.md)`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export interface ReviewOptions {
  readonly sides: readonly string[];
  readonly config: string;
  readonly allowDangerous: boolean;
  readonly output?: string;
}

/** Parses the arguments; a string is the usage error. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ReviewOptions | string {
  const sides: string[] = [];
  let config = env.HCP_AZURE_CONFIG ?? DEFAULT_CONFIG;
  let allowDangerous = false;
  let output: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--allow-dangerous") allowDangerous = true;
    else if (arg === "--config" || arg === "--output") {
      const value = argv[++i];
      if (value === undefined || value.startsWith("--")) return `${arg} needs a value`;
      if (arg === "--config") config = value;
      else output = value;
    } else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else sides.push(arg);
  }
  if (sides.length !== 2) return `expected two sides (old and new), got ${sides.length}`;
  return { sides, config, allowDangerous, output };
}

/**
 * The config argument as the synth in a worktree of `repo` must see it: repository-relative when
 * inside it (read as each ref has it), else absolute (the same file for both refs). Both are
 * compared as real paths: a config spelled through a symlink is still inside.
 */
export function configForWorktree(config: string, repo: string): string {
  const [absolute, root] = [realPath(config), realPath(repo)];
  return isWithin(absolute, root) ? path.relative(root, absolute) : absolute;
}

/** Said in the report when both sides are refs and the config is outside the repository. */
const outsideConfigNote = (config: string) =>
  `the config ${config} is outside the repository: both refs were synthesized with this same file, so config changes are not compared between them (only the code's)`;

/**
 * Interrupted (SIGINT, SIGTERM): the temporary worktrees are removed, then exit 130 or 143. The
 * review runs synchronously, so a handler runs once the event loop turns (the CLI turns it once
 * after main): with handlers, the signal no longer kills the process in the middle of a synth;
 * Ctrl-C also stops the running synth (its process group), so main fails fast and cleans up.
 */
export function cleanUpOnSignals(proc: Pick<NodeJS.Process, "once" | "exit">): void {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)
    proc.once(signal, () => {
      cleanUpAllSides();
      proc.exit(code);
    });
}

/** Where check-manifests.mjs is: $HCP_AZURE_CHECK_MANIFESTS, else ../shared/tools beside the repository. */
export function checkManifestsPath(env: NodeJS.ProcessEnv, repo = REPO): string {
  return env.HCP_AZURE_CHECK_MANIFESTS ?? path.resolve(repo, "..", "shared", "tools", "check-manifests.mjs");
}

export function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io, repo = REPO): number {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(USAGE);
    return 0;
  }
  const options = parseArgs(argv, env);
  if (typeof options === "string") {
    io.err(`${options}\n${USAGE}`);
    return 2;
  }
  const config = configForWorktree(options.config, repo);
  const sides: Side[] = [];
  try {
    for (const arg of options.sides) sides.push(resolveSide(arg, repo, config));
    const [before, after] = sides;
    const outside = path.isAbsolute(config) && before.checkout && after.checkout ? [outsideConfigNote(config)] : [];
    const review = reviewChanges({
      oldLabel: before.label,
      newLabel: after.label,
      oldDir: before.dir,
      newDir: after.dir,
      oldCheckout: before.checkout,
      newCheckout: after.checkout,
      checkManifests: checkManifestsPath(env, repo),
      notes: [...outside, ...new Set(sides.flatMap((side) => side.notes ?? []))],
    });
    io.out(review.markdown);
    if (options.output) fs.writeFileSync(options.output, review.markdown);
    if (!review.dangerous) return 0;
    io.err(
      options.allowDangerous ? "dangerous changes found; --allow-dangerous: exit 0" : "dangerous changes found: exit 1 (--allow-dangerous to accept them)",
    );
    return options.allowDangerous ? 0 : 1;
  } catch (error) {
    io.err(`review: ${(error as Error).message}`);
    return 2;
  } finally {
    for (const side of sides) side.cleanup();
  }
}

if (require.main === module) {
  cleanUpOnSignals(process);
  process.exitCode = main(process.argv.slice(2), process.env, {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
  // One turn of the event loop: a signal received during main runs its handler (exit 130/143).
  setImmediate(() => undefined);
}
