import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The output folder (cdktf.out) is replaced whole or not at all. A synth writes the new output into
 * a folder beside it, copies into that folder what the old output holds beyond synth's own files
 * (Terraform's `.terraform/`, lock files, a user's files), by hard links, then swaps the two by
 * renames (one directory each, so on the same file system):
 *
 *     .<out>.new-XXXXXX   the new output being written (removed when synth fails)
 *     .<out>.ready        the new output, complete
 *     <out>               the old output, untouched until ...
 *     .<out>.old-XXXXXX   ... it is renamed aside, the ready one renamed in its place, and the old one removed
 *     .<out>.lock         held while a synth changes any of these (one synth at a time)
 *
 * A synth killed at any point leaves the old output (every file as it was: hard links change no
 * byte) or the new one; between the two renames of the swap, only the complete `.<out>.ready`, which
 * the next synth renames into place before anything else (recoverOutput). Every synth first
 * removes what an interrupted one left beside the output. The folder stays a real directory where
 * it always was: the cdktf CLI, Terraform (which runs in `<out>/stacks/<stack>`, and reaches files
 * beside the config by relative paths: the generations are siblings, at the same depth), git and
 * Terraform Cloud's VCS runs see what they saw before.
 */

/** A problem of the output folder the user can fix (main.ts prints it without a stack trace). */
export class OutputFolderError extends Error {}

/** What synth writes at the top of the output folder; anything else there is carried over. */
const SYNTH_FILES = new Set(["manifest.json", "stacks", "workspaces.json"]);

export interface ReplaceOutputOptions {
  /**
   * Carry the stack folders the previous synth wrote and the new one has not (a removed cluster's)
   * into the new output instead of removing them. The cdktf CLI lists `<out>/stacks` before it runs
   * the app and removes, after it, every folder there that is not in the new manifest; a folder
   * already gone makes it fail (ENOENT).
   * @default false
   */
  readonly keepRemovedStacks?: boolean;
}

/** The folders beside `outdir` a synth uses. */
function siblings(outdir: string) {
  const parent = path.dirname(outdir);
  const base = path.basename(outdir);
  return {
    parent,
    ready: path.join(parent, `.${base}.ready`),
    lock: path.join(parent, `.${base}.lock`),
    newPrefix: `.${base}.new-`,
    oldPrefix: `.${base}.old-`,
    /** The scratch folders of synths before generations (`.<out>-XXXXXX`, mkdtemp's six characters). */
    legacyScratch: new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-[A-Za-z0-9]{6}$`),
  };
}

/** The folder synth replaces: `outdir` itself, or where it points when it is a symlink (the swap happens there, beside the real folder). */
function realOutdir(outdir: string): string {
  const absolute = path.resolve(outdir);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(absolute);
  } catch {
    return absolute;
  }
  if (stat.isSymbolicLink()) return fs.realpathSync(absolute);
  if (!stat.isDirectory())
    throw new OutputFolderError(`${outdir} is not a folder: the output folder must be a folder (or absent); set CDKTF_OUTDIR to a folder`);
  return absolute;
}

/**
 * Writes a new output with `write(folder)` (an empty folder beside `outdir`) and puts it in place of
 * `outdir`, with what the old output holds beyond synth's own files; returns what `write` returned.
 * When `write` throws, the old output is untouched and nothing is left beside it.
 */
export function replaceOutput<T>(outdir: string, write: (folder: string) => T, options: ReplaceOutputOptions = {}): T {
  const target = realOutdir(outdir);
  const names = siblings(target);
  fs.mkdirSync(names.parent, { recursive: true });
  return withLock(target, () => {
    recover(target);
    // mkdir (the mode the umask gives, as for any new folder; mkdtemp's is 0700); the lock keeps the name ours.
    const fresh = uniqueSibling(names.parent, names.newPrefix);
    fs.mkdirSync(fresh);
    let result: T;
    try {
      result = write(fresh);
      if (fs.existsSync(target)) {
        carryOver(target, fresh, options);
        // The folder keeps its mode (a user's chmod); a first output has what mkdir gives here (the umask).
        fs.chmodSync(fresh, fs.statSync(target).mode & 0o7777);
      }
      fs.renameSync(fresh, names.ready);
    } catch (error) {
      removeBestEffort(fresh);
      throw error;
    }
    // The swap. Killed between the two renames: no output, and the ready one the next synth puts in place.
    const old = fs.existsSync(target) ? uniqueSibling(names.parent, names.oldPrefix) : undefined;
    if (old) fs.renameSync(target, old);
    try {
      fs.renameSync(names.ready, target);
    } catch (error) {
      if (old) fs.renameSync(old, target);
      throw error;
    }
    if (old) removeBestEffort(old);
    return result;
  });
}

/**
 * What every synth does first, and what a killed synth leaves undone: a complete output waiting
 * beside a missing `outdir` is put in place, and every other folder synth made beside it is
 * removed (a half-written output, one that was never swapped in, an old one half removed).
 */
export function recoverOutput(outdir: string): void {
  const target = realOutdir(outdir);
  if (!fs.existsSync(path.dirname(target))) return;
  withLock(target, () => recover(target));
}

function recover(target: string): void {
  const names = siblings(target);
  if (fs.existsSync(names.ready)) {
    if (fs.existsSync(target)) fs.renameSync(names.ready, uniqueSibling(names.parent, names.oldPrefix));
    else fs.renameSync(names.ready, target);
  }
  for (const entry of fs.readdirSync(names.parent, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const ours =
      entry.name.startsWith(names.newPrefix) ||
      entry.name.startsWith(names.oldPrefix) ||
      (names.legacyScratch.test(entry.name) && isSynthOutput(path.join(names.parent, entry.name)));
    if (ours) removeBestEffort(path.join(names.parent, entry.name));
  }
}

/**
 * Removes a folder synth left beside the output; one it cannot remove (a read-only folder a user
 * put in the output) stays, for the next synth to try again, rather than failing this one.
 */
function removeBestEffort(folder: string): void {
  try {
    fs.rmSync(folder, { recursive: true, force: true });
  } catch {
    // Left for the next synth.
  }
}

/** A folder holding only what synth writes (an earlier version's scratch folder, before generations). */
function isSynthOutput(folder: string): boolean {
  return fs.readdirSync(folder).every((entry) => SYNTH_FILES.has(entry));
}

/** A name beside the output that does not exist yet (renames must not land on a folder). */
function uniqueSibling(parent: string, prefix: string): string {
  for (;;) {
    const candidate = path.join(parent, `${prefix}${Math.random().toString(36).slice(2, 8).padEnd(6, "0")}`);
    if (!fs.existsSync(candidate)) return candidate;
  }
}

/**
 * Runs `fn` holding `.<out>.lock` (created exclusively, holding this process's ID). A lock whose
 * process is gone (a killed synth) is taken over; a live one is an error naming the process.
 */
function withLock<T>(target: string, fn: () => T): T {
  const { lock } = siblings(target);
  let fd: number | undefined;
  for (let attempt = 0; fd === undefined; attempt++) {
    try {
      fd = fs.openSync(lock, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const holder = Number.parseInt(readOr(lock, ""), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new OutputFolderError(
          `another synth (process ${holder}) is writing ${target}; wait for it, or delete ${lock} if no synth is running (help/troubleshooting.md#another-synth-is-writing-the-output-folder)`,
        );
      }
      fs.rmSync(lock, { force: true });
    }
  }
  try {
    fs.writeSync(fd, `${process.pid}\n`);
    fs.closeSync(fd);
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The stack folders the synth that wrote `output` listed in its manifest (none when it has no readable manifest). */
function stacksWritten(output: string): Set<string> {
  let manifest: { stacks?: Record<string, { workingDirectory?: string }> };
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(output, "manifest.json"), "utf8"));
  } catch {
    return new Set();
  }
  const folders = Object.values(manifest.stacks ?? {}).map((stack) => stack.workingDirectory?.split(/[\\/]/) ?? []);
  return new Set(folders.filter((parts) => parts.length === 2 && parts[0] === "stacks").map((parts) => parts[1]));
}

/**
 * Copies into the new output `next` (by hard links) what the old output `previous` holds and the
 * new synth did not write: Terraform's files in the stack folders, a user's files and folders. Of
 * the stack folders the previous synth wrote (its manifest) and this one did not, only one holding
 * a `terraform.tfstate` of its own is carried (state is never deleted), or all with
 * `keepRemovedStacks`. Returns the stack folders left behind.
 */
export function carryOver(previous: string, next: string, options: ReplaceOutputOptions = {}): string[] {
  const written = stacksWritten(previous);
  const removed: string[] = [];
  for (const entry of fs.readdirSync(previous, { withFileTypes: true })) {
    if (entry.name !== "stacks" || !entry.isDirectory()) {
      mergeInto(path.join(previous, entry.name), path.join(next, entry.name), entry);
      continue;
    }
    fs.mkdirSync(path.join(next, "stacks"), { recursive: true });
    for (const stack of fs.readdirSync(path.join(previous, "stacks"), { withFileTypes: true })) {
      const from = path.join(previous, "stacks", stack.name);
      const to = path.join(next, "stacks", stack.name);
      const dropped =
        stack.isDirectory() &&
        written.has(stack.name) &&
        !options.keepRemovedStacks &&
        !fs.existsSync(to) &&
        !fs.existsSync(path.join(from, "terraform.tfstate"));
      if (dropped) removed.push(stack.name);
      else mergeInto(from, to, stack);
    }
  }
  return removed.sort();
}

/**
 * `from` (of type `kind`) into `to` as a recursive copy would place it over what `to` holds: what
 * `to` has wins, folders present in both are merged. `to`'s parent exists.
 */
function mergeInto(from: string, to: string, kind: fs.Dirent | fs.Stats): void {
  let existing: fs.Stats | undefined;
  try {
    existing = fs.lstatSync(to);
  } catch {
    existing = undefined;
  }
  if (!existing) linkTree(from, to, kind);
  else if (existing.isDirectory() && kind.isDirectory()) {
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) mergeInto(path.join(from, entry.name), path.join(to, entry.name), entry);
  }
}

/**
 * A copy of `from` (of type `kind`) at `to` whose files are hard links (no byte copied; a copy
 * where the file system has none), symlinks recreated, folder modes kept. Sockets, FIFOs and
 * devices are not output: not carried.
 */
function linkTree(from: string, to: string, kind: fs.Dirent | fs.Stats): void {
  if (kind.isSymbolicLink()) {
    fs.symlinkSync(fs.readlinkSync(from), to);
  } else if (kind.isDirectory()) {
    fs.mkdirSync(to);
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) linkTree(path.join(from, entry.name), path.join(to, entry.name), entry);
    fs.chmodSync(to, fs.statSync(from).mode & 0o7777);
  } else if (kind.isFile()) {
    try {
      fs.linkSync(from, to);
    } catch {
      fs.copyFileSync(from, to);
      fs.chmodSync(to, fs.statSync(from).mode & 0o7777);
    }
  }
}
