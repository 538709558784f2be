import * as fs from "node:fs";
import * as path from "node:path";
import { readLimitedFile } from "../config/read-file";

/**
 * Where synth may put its output. Synth replaces the output folder whole (output-folder.ts): a
 * new folder takes its place, holding hard links to what the old one held beyond synth's own
 * files, so pointing it at a project folder would swap that folder for a copy (its mode, FIFOs
 * and sockets lost, the output mixed in, a shell inside it left in a removed folder). Refused,
 * before anything is written, is a folder that:
 * - is the current directory or holds it (`CDKTF_OUTDIR=.`, `..`, `/`, `~`);
 * - holds the config file (a config folder);
 * - holds a `package.json` or `cdktf.json` at its top, or a `.git` entry but no `stacks/` folder,
 *   without being an earlier output (no cdktf `manifest.json`): a project or repository. (A
 *   repository of outputs, as Terraform Cloud's VCS-driven runs read, holds `stacks/`.)
 * A real output folder is none of these: synth writes `manifest.json` and `stacks/` into it, and a
 * user's own files in an earlier output (Terraform's, a `.git`) come with that manifest.
 */

/** The output folder `env` names: CDKTF_OUTDIR (empty means unset), else cdktf.out, absolute. */
export function outputFolderOf(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.CDKTF_OUTDIR || "cdktf.out");
}

/** Why synth must not replace `outdir` (see above), or undefined; the sentence completes "the output folder <outdir> ...". */
export function outputFolderRefusal(outdir: string, configFile: string, cwd: string = process.cwd()): string | undefined {
  const target = realPath(outdir);
  const here = realPath(cwd);
  if (target === here) return "is the current directory";
  if (isWithin(here, target)) return "holds the current directory";
  if (isWithin(realPath(configFile), target)) return `holds the config file ${configFile}`;
  if (isEarlierOutput(target)) return undefined;
  const marker =
    ["package.json", "cdktf.json"].find((entry) => exists(path.join(target, entry))) ??
    (exists(path.join(target, ".git")) && !exists(path.join(target, "stacks")) ? ".git" : undefined);
  return marker ? `holds ${marker} and is not an earlier output (no cdktf manifest.json): a project folder, not an output` : undefined;
}

/** The fix printed after a refusal. */
export const OUTPUT_FOLDER_FIX =
  "synth replaces the output folder whole, so it must be a folder of its own: set CDKTF_OUTDIR to one (unset, it is cdktf.out in the current directory) (help/configuration.md#what-is-checked-where)";

/** `file` with symlinks resolved, as far as it exists (the rest appended). */
export function realPath(file: string): string {
  const absolute = path.resolve(file);
  const rest: string[] = [];
  for (let at = absolute; ; at = path.dirname(at)) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return absolute;
      rest.push(path.basename(at));
    }
  }
}

/** Whether `child` is inside `parent` (not equal to it). */
export function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Whether `folder` holds the manifest.json a synth writes (a JSON object with `stacks`). */
export function isEarlierOutput(folder: string): boolean {
  const read = readLimitedFile(path.join(folder, "manifest.json"), "record");
  if (!read.ok) return false;
  try {
    const manifest = JSON.parse(read.text) as unknown;
    return typeof manifest === "object" && manifest !== null && typeof (manifest as { stacks?: unknown }).stacks === "object";
  } catch {
    return false;
  }
}
