import * as path from "node:path";
import type { StackJson, Synth } from "./diff";
import type { Checkout } from "./sides";

/**
 * Paths Terraform resolves from the stack folder it runs in: the local backend's state file,
 * `file("...")` (and filebase64, templatefile) arguments, the kubernetes provider's `config_path`.
 * Synth writes them relative to the stack folder, so the same file is spelled differently by output
 * folders synthesized in different places, and the same spelling names another file once an output
 * folder is copied. Two paths are the same when they resolve to the same file (absolute, a git
 * ref's temporary worktree mapped back into its repository) or, for an output folder that was
 * copied, when they name the same file relative to the folder the output folder stands in (its
 * parent; a worktree's checkout). Both sides are then given one spelling; paths that differ are
 * shown absolute.
 */

/** Where one side's output folder is, and what it stands for. */
export interface PathSide {
  readonly dir: string;
  readonly checkout?: Checkout;
  readonly stacks: Synth;
}

const FILE_CALL = /\b(file|filebase64|templatefile|filesha256|filemd5)\("([^"$]+)"/g;
const HAS_FILE_CALL = new RegExp(FILE_CALL.source);

/** The path `relative` written in stack `stack` of `side`: absolute (mapped into the repository), and relative to the side's home. */
function resolve(side: PathSide, stack: string, relative: string): { absolute: string; fromHome: string } {
  let absolute = path.resolve(side.dir, "stacks", stack, relative);
  const { checkout } = side;
  if (checkout && (absolute === checkout.tree || absolute.startsWith(checkout.tree + path.sep)))
    absolute = path.join(checkout.repo, path.relative(checkout.tree, absolute));
  const home = checkout ? path.join(checkout.repo, path.relative(checkout.tree, path.dirname(side.dir))) : path.dirname(side.dir);
  return { absolute, fromHome: path.relative(home, absolute) };
}

/** A string leaf with its paths resolved both ways (undefined: it holds no path). */
function spellings(side: PathSide, stack: string, keys: readonly string[], text: string): { absolute: string; fromHome: string } | undefined {
  const whole = keys.at(-1) === "config_path" || (keys.length === 4 && keys.join(".") === "terraform.backend.local.path");
  if (whole) return path.isAbsolute(text) || text.startsWith("~") ? undefined : resolve(side, stack, text);
  if (!HAS_FILE_CALL.test(text)) return undefined;
  const spell = (how: "absolute" | "fromHome") =>
    text.replace(FILE_CALL, (match, fn: string, file: string) =>
      path.isAbsolute(file) || file.startsWith("~") ? match : `${fn}("${resolve(side, stack, file)[how]}"`,
    );
  return { absolute: spell("absolute"), fromHome: spell("fromHome") };
}

/** Both stacks with their paths spelled alike where they name the same file (walked together, key by key). */
function alignValue(a: unknown, b: unknown, keys: string[], sides: [PathSide, PathSide], stack: string): [unknown, unknown] {
  if (typeof a === "string" || typeof b === "string") {
    const sa = typeof a === "string" ? spellings(sides[0], stack, keys, a) : undefined;
    const sb = typeof b === "string" ? spellings(sides[1], stack, keys, b) : undefined;
    if (sa && sb && (sa.absolute === sb.absolute || sa.fromHome === sb.fromHome)) return [sa.absolute, sa.absolute];
    return [sa ? sa.absolute : a, sb ? sb.absolute : b];
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
  if (!isObject(a) && !isObject(b)) return [a, b];
  const outA: any = Array.isArray(a) ? [] : isObject(a) ? {} : a;
  const outB: any = Array.isArray(b) ? [] : isObject(b) ? {} : b;
  const keysOf = (v: unknown) => (isObject(v) ? Object.keys(v) : []);
  for (const key of new Set([...keysOf(a), ...keysOf(b)])) {
    const va = isObject(a) ? a[key] : undefined;
    const vb = isObject(b) ? b[key] : undefined;
    const [na, nb] = alignValue(va, vb, [...keys, key], sides, stack);
    if (isObject(a) && key in a) outA[key] = na;
    if (isObject(b) && key in b) outB[key] = nb;
  }
  return [outA, outB];
}

/** The two sides' stacks with every stack-relative path spelled as the file it names (see above). */
export function alignPaths(before: PathSide, after: PathSide): [Map<string, StackJson>, Map<string, StackJson>] {
  const a = new Map<string, StackJson>();
  const b = new Map<string, StackJson>();
  for (const stack of new Set([...before.stacks.keys(), ...after.stacks.keys()])) {
    const [na, nb] = alignValue(before.stacks.get(stack), after.stacks.get(stack), [], [before, after], stack);
    if (before.stacks.has(stack)) a.set(stack, na as StackJson);
    if (after.stacks.has(stack)) b.set(stack, nb as StackJson);
  }
  return [a, b];
}
