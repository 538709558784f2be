#!/usr/bin/env node
"use strict";
/**
 * `npm test`'s type-check: `tsc --noEmit`, not run again when nothing it reads has changed since
 * its last clean run in this checkout (as ESLint's and Prettier's --cache skip unchanged files).
 * What it reads is keyed by content, not by file times: every file tsconfig.json includes, the
 * tsconfig, package.json, package-lock.json, node_modules/.package-lock.json (npm rewrites it on
 * every install, update or ci: the dependencies' types), TypeScript's and Node's versions, and the
 * checkout's own path (checkouts that share node_modules keep one stamp each). An unchanged run
 * costs ~0.1 CPU-s instead of ~4.7; any change runs tsc in full, and a failed run stamps nothing,
 * so its errors are reported again until they are fixed. Without a key (an include pattern of
 * another shape) tsc always runs. `npm run typecheck` always runs tsc.
 *
 * Plain JavaScript: it runs before anything is compiled.
 */
const crypto = require("node:crypto");
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { includedFiles } = require("./run.js");

const ROOT = path.resolve(__dirname, "..");
const SHARED_INPUTS = ["tsconfig.json", "package.json", "package-lock.json", "node_modules/.package-lock.json", "node_modules/typescript/package.json"];

/** Every file tsconfig.json includes, relative to `root`, sorted; undefined for a pattern of another shape. */
function tsconfigFiles(root) {
  try {
    const include = JSON.parse(fs.readFileSync(path.join(root, "tsconfig.json"), "utf8")).include ?? [];
    return [...new Set(includedFiles(root, include, "tsconfig.json"))].sort();
  } catch {
    return undefined;
  }
}

/** The content key of everything the type-check reads, or undefined when it cannot be known. */
function inputsKey(root) {
  const files = tsconfigFiles(root);
  if (!files) return undefined;
  const hash = crypto.createHash("sha256").update(`${fs.realpathSync(root)}\0${process.version}\0`);
  for (const file of [...SHARED_INPUTS, ...files]) {
    let content;
    try {
      content = fs.readFileSync(path.join(root, file));
    } catch {
      content = "(missing)";
    }
    hash.update(`${file}\0`).update(content).update("\0");
  }
  return hash.digest("hex");
}

/** Where this checkout's key of its last clean type-check is kept. */
function stampFile(root) {
  const id = crypto.createHash("sha256").update(fs.realpathSync(root)).digest("hex").slice(0, 16);
  return path.join(root, "node_modules", ".cache", "hcp-azure", "typecheck", id);
}

/** Runs the checkout's `node_modules/.bin/tsc --noEmit` in `root`, its output shown; its exit code. */
function runTsc(root) {
  const tsc = fs.realpathSync(path.join(root, "node_modules", ".bin", "tsc"));
  const result = spawnSync(process.execPath, [tsc, "--noEmit"], { cwd: root, stdio: "inherit" });
  return result.status ?? 1;
}

/** The type-check of `root`: 0 when it passes (or nothing changed since it last passed), else tsc's code. `run`: how tsc runs (tests pass a stand-in). */
function typecheck(root = ROOT, run = runTsc) {
  const key = inputsKey(root);
  const stamp = stampFile(root);
  let last;
  try {
    last = fs.readFileSync(stamp, "utf8");
  } catch {
    last = undefined;
  }
  if (key !== undefined && last === key) return 0;
  const code = run(root);
  if (code === 0 && key !== undefined) {
    fs.mkdirSync(path.dirname(stamp), { recursive: true });
    fs.writeFileSync(stamp, key);
  }
  return code;
}

if (require.main === module) process.exitCode = typecheck();

module.exports = { typecheck, stampFile };
