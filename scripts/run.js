#!/usr/bin/env node
"use strict";
/**
 * `node scripts/run.js <module> [args...]` (npm run synth|keygen|schema, and the cdktf.json app):
 * runs `dist/<module>.js` in this process, compiling first with `tsc -p tsconfig.build.json` only
 * when the compiled output is missing or was built from other sources. Unchanged sources are not
 * recompiled (tsc takes ~2 s even when incremental), and any edit is picked up: the build records
 * a hash of every compiled input (the sources tsconfig.build.json includes, both tsconfigs,
 * package-lock.json) and the next run compares it.
 *
 * Plain JavaScript: it must run before anything is compiled.
 */
const crypto = require("node:crypto");
const childProcess = require("node:child_process");
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const { installFastResolve } = require("./cdktf-fast-resolve.js");

const ROOT = path.resolve(__dirname, "..");
const BUILD_CONFIG = "tsconfig.build.json";
/** Written into the output folder after a successful build: the input hash it was built from. */
const STAMP = ".sources.sha256";

/** Every file whose content the compiled output depends on, sorted, relative to `root`. */
function buildInputs(root) {
  const config = JSON.parse(fs.readFileSync(path.join(root, BUILD_CONFIG), "utf8"));
  const files = new Set([BUILD_CONFIG, "tsconfig.json", "package-lock.json"].filter((f) => fs.existsSync(path.join(root, f))));
  for (const pattern of config.include) {
    // The two shapes tsconfig.build.json uses; anything else must be taught here, not ignored.
    const tree = /^([\w.-]+(?:\/[\w.-]+)*)\/\*\*\/\*\.ts$/.exec(pattern);
    if (tree) {
      const dir = path.join(root, tree[1]);
      if (!fs.existsSync(dir)) continue;
      for (const entry of fs.readdirSync(dir, { recursive: true })) {
        if (entry.endsWith(".ts")) files.add(path.join(tree[1], entry).split(path.sep).join("/"));
      }
    } else if (/^[\w./-]+\.ts$/.test(pattern)) {
      files.add(pattern);
    } else {
      throw new Error(`scripts/run.js: cannot expand the include pattern "${pattern}" of ${BUILD_CONFIG}`);
    }
  }
  return [...files].sort();
}

/** The hash of the inputs' names and contents. */
function inputsHash(root) {
  const hash = crypto.createHash("sha256");
  for (const file of buildInputs(root)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function outDir(root) {
  const config = JSON.parse(fs.readFileSync(path.join(root, BUILD_CONFIG), "utf8"));
  return path.join(root, config.compilerOptions.outDir);
}

/**
 * Compiles unless `<outDir>/<STAMP>` holds the current inputs' hash and `entry` exists. Returns
 * whether it compiled; throws when tsc fails (nothing is stamped then, so the next run retries).
 */
function ensureBuilt(root, entry, compile = defaultCompile) {
  const stamp = path.join(outDir(root), STAMP);
  const hash = inputsHash(root);
  // Every run: a checkout may have moved sources since the output was built (a few ms).
  removeStaleOutputs(root);
  if (fs.existsSync(entry) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash) return false;
  compile(root);
  removeStaleOutputs(root);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, hash);
  return true;
}

/**
 * tsc never deletes the output of a source that was moved or deleted, and a stale `dist/x.js`
 * shadows a new `dist/x/index.js` (require("./x") finds the file first). Removes every compiled
 * file whose source is gone.
 */
function removeStaleOutputs(root) {
  const out = outDir(root);
  if (!fs.existsSync(out)) return [];
  const removed = [];
  for (const entry of fs.readdirSync(out, { recursive: true })) {
    const match = /^(.*)\.(js|js\.map|d\.ts)$/.exec(entry);
    if (!match || fs.existsSync(path.join(root, `${match[1]}.ts`))) continue;
    fs.rmSync(path.join(out, entry), { force: true });
    removed.push(entry.split(path.sep).join("/"));
  }
  return removed.sort();
}

function defaultCompile(root) {
  const tsc = require.resolve("typescript/bin/tsc", { paths: [root] });
  const result = childProcess.spawnSync(process.execPath, [tsc, "-p", BUILD_CONFIG], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`tsc -p ${BUILD_CONFIG} failed (exit ${result.status ?? result.signal})`);
}

/** cdktf's `archiver`, loaded on first use (scripts/deferred-archiver.js). */
function deferArchiver(root) {
  let file;
  try {
    const manifest = require.resolve("archiver/package.json", { paths: [path.dirname(require.resolve("cdktf/package.json", { paths: [root] }))] });
    file = path.join(path.dirname(manifest), require(manifest).main ?? "index.js");
  } catch {
    return;
  }
  if (Module._cache[file]) return;
  const placeholder = new Module(file);
  placeholder.filename = file;
  placeholder.loaded = true;
  placeholder.exports = require("./deferred-archiver.js");
  Module._cache[file] = placeholder;
}

/**
 * cdktf records a full stack trace (Error.stackTraceLimit = MAX) for every token it creates, only
 * to quote it if that token later fails to resolve: a fifth of a 100-cluster synth. Skipped here
 * (the output is the same); HCP_AZURE_TOKEN_STACKS=1 keeps them for debugging such an error.
 */
function skipTokenCreationStacks(root, env) {
  if (env.HCP_AZURE_TOKEN_STACKS === "1") return;
  const stackTrace = require(require.resolve("cdktf/lib/tokens/private/stack-trace", { paths: [root] }));
  stackTrace.captureStackTrace = () => [];
}

function run(argv) {
  const [name, ...args] = argv;
  if (!name || name.startsWith("-")) {
    console.error("usage: node scripts/run.js <module> [args...]   e.g. node scripts/run.js main examples/basic.yaml");
    return 2;
  }
  const entry = path.join(outDir(ROOT), `${name}.js`);
  try {
    ensureBuilt(ROOT, entry);
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  if (!fs.existsSync(entry)) {
    console.error(`scripts/run.js: ${path.relative(ROOT, entry)} does not exist after the build (is ${name}.ts in ${BUILD_CONFIG}?)`);
    return 2;
  }
  deferArchiver(ROOT);
  skipTokenCreationStacks(ROOT, process.env);
  installFastResolve(process.env);
  // Run the module as the main module (require.main === module), as `node dist/<name>.js` would.
  process.argv = [process.argv[0], entry, ...args];
  Module.runMain();
  return undefined;
}

if (require.main === module) {
  const code = run(process.argv.slice(2));
  if (code !== undefined) process.exitCode = code;
}

module.exports = { buildInputs, inputsHash, ensureBuilt, removeStaleOutputs, skipTokenCreationStacks, STAMP };
