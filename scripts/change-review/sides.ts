import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REVIEW_MODE_ENV } from "../../config/review-mode";
import type { StackJson } from "./diff";

/** One side of a review: an output folder as synth writes it. */
export interface Side {
  /** What the user named (folder or git ref), for the report. */
  readonly label: string;
  /** The output folder (holds stacks/<name>/cdk.tf.json). */
  readonly dir: string;
  /** Removes what was made for this side (a temporary worktree and its output). */
  readonly cleanup: () => void;
  /**
   * For a git ref synthesized in a temporary worktree: the worktree and the repository it stands
   * in for (a path under `tree` means the same under `repo`). @default - the folder is where it is
   */
  readonly checkout?: Checkout;
  /** What synth said about review mode (placeholder keys), for the report. @default - none */
  readonly notes?: readonly string[];
}

/** A temporary worktree (`tree`) that stands in for the repository (`repo`). */
export interface Checkout {
  readonly tree: string;
  readonly repo: string;
}

/** Whether `dir` looks like synth's output folder. */
export function isOutputFolder(dir: string): boolean {
  return fs.existsSync(path.join(dir, "stacks")) && fs.statSync(path.join(dir, "stacks")).isDirectory();
}

/** Every stack of an output folder, by name (the folder names under stacks/). */
export function readOutputFolder(dir: string): Map<string, StackJson> {
  const stacks = new Map<string, StackJson>();
  const root = path.join(dir, "stacks");
  for (const entry of fs.readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = path.join(root, entry.name, "cdk.tf.json");
    if (entry.isDirectory() && fs.existsSync(file)) stacks.set(entry.name, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  return stacks;
}

/** Writes stacks as an output folder (stacks/<name>/cdk.tf.json): what the CRD check and a saved review read. */
export function writeOutputFolder(dir: string, stacks: Readonly<Record<string, StackJson>>): void {
  for (const [name, stack] of Object.entries(stacks)) {
    fs.mkdirSync(path.join(dir, "stacks", name), { recursive: true });
    fs.writeFileSync(path.join(dir, "stacks", name, "cdk.tf.json"), `${JSON.stringify(stack, null, 2)}\n`);
  }
}

/** The commit a git ref names in `repo`, or undefined. */
export function resolveCommit(repo: string, ref: string): string | undefined {
  if (ref.startsWith("-")) return undefined;
  const run = spawnSync("git", ["-C", repo, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { encoding: "utf8" });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** Whether `file` (repository-relative) is in the tree of `commit`. */
function inCommit(repo: string, commit: string, file: string): boolean {
  const spec = `${commit}:${file.split(path.sep).join("/")}`;
  return spawnSync("git", ["-C", repo, "cat-file", "-e", spec], { encoding: "utf8" }).status === 0;
}

/** The cleanups of the worktrees not yet removed: run by an interrupted review (scripts/review.ts). */
const LIVE = new Set<() => void>();

/** Removes every temporary worktree still there. */
export function cleanUpAllSides(): void {
  for (const cleanup of [...LIVE]) cleanup();
}

export interface SynthAtRefOptions {
  /** The repository whose history holds the ref (and whose node_modules the worktree uses). */
  readonly repo: string;
  readonly ref: string;
  /** The config argument of `npm run synth`, relative to the repository root or absolute. */
  readonly config: string;
}

/**
 * Synthesizes `config` as the commit `ref` names: a detached temporary worktree (sharing the
 * repository's node_modules), `node scripts/run.js main <config>` in it, written to the worktree's
 * cdktf.out. The caller's checkout is never touched. Throws with synth's own words when it fails.
 */
export function synthAtRef(options: SynthAtRefOptions): Side {
  const commit = resolveCommit(options.repo, options.ref);
  if (!commit) throw new Error(`${options.ref}: neither an output folder (with stacks/) nor a git commit of ${options.repo}`);
  if (!path.isAbsolute(options.config) && !inCommit(options.repo, commit, options.config))
    throw new Error(
      `${options.config} is not in ${options.ref}: a config inside the repository is read as each ref has it; commit it, or pass a path outside the repository`,
    );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "hcp-azure-review-"));
  const tree = path.join(work, "src");
  // Where `npm run synth` writes in a checkout (paths.ts maps its paths back into `repo`).
  const outdir = path.join(tree, "cdktf.out");
  const cleanup = () => {
    LIVE.delete(cleanup);
    spawnSync("git", ["-C", options.repo, "worktree", "remove", "--force", tree], { encoding: "utf8" });
    fs.rmSync(work, { recursive: true, force: true });
    spawnSync("git", ["-C", options.repo, "worktree", "prune"], { encoding: "utf8" });
  };
  LIVE.add(cleanup);
  try {
    const add = spawnSync("git", ["-C", options.repo, "worktree", "add", "--detach", "--quiet", tree, commit], { encoding: "utf8" });
    if (add.status !== 0) throw new Error(`git worktree add ${options.ref} failed: ${add.stderr.trim()}`);
    const modules = path.join(options.repo, "node_modules");
    if (fs.existsSync(modules)) fs.symlinkSync(modules, path.join(tree, "node_modules"), "dir");
    // Review mode: no secret file, signing key or kubeconfig is needed on the runner (config/review-mode.ts).
    const env: NodeJS.ProcessEnv = { ...process.env, CDKTF_OUTDIR: outdir, [REVIEW_MODE_ENV]: "1" };
    delete env.HCP_AZURE_CONFIG;
    delete env.CDKTF_CONTEXT_JSON;
    const synth = spawnSync(process.execPath, [path.join(tree, "scripts", "run.js"), "main", options.config], { cwd: tree, env, encoding: "utf8" });
    if (synth.status !== 0)
      throw new Error(`synth of ${options.config} at ${options.ref} failed (exit ${synth.status ?? synth.signal}):\n${synth.stderr.trim()}`);
    if (!isOutputFolder(outdir)) throw new Error(`synth of ${options.config} at ${options.ref} wrote no stacks/ in ${outdir}`);
    const notes = synth.stderr
      .split("\n")
      .filter((line) => line.startsWith("warning: review mode: "))
      .map((line) => line.slice("warning: ".length));
    return { label: `${options.ref} (${commit.slice(0, 12)})`, dir: outdir, cleanup, checkout: { tree, repo: path.resolve(options.repo) }, notes };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** A side named on the command line: an output folder as is, else a git ref synthesized in a temporary worktree. */
export function resolveSide(arg: string, repo: string, config: string): Side {
  if (isOutputFolder(arg)) return { label: arg, dir: path.resolve(arg), cleanup: () => undefined };
  return synthAtRef({ repo, ref: arg, config });
}
