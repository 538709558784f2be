#!/usr/bin/env node
"use strict";
/**
 * `node scripts/run.js <module> [args...]` (npm run synth|keygen|schema, and the cdktf.json app):
 * runs `dist/<module>.js` in this process, bundling first (scripts/bundle.js: esbuild, ~1 s) only
 * when the bundles are missing or were built from other inputs. Unchanged inputs are not
 * rebuilt, and any change is picked up: the stamp holds a hash of the content of the sources
 * tsconfig.build.json includes, both tsconfigs, package-lock.json and the plain-JavaScript files
 * the bundles include, and of the size and time of every file the last build read (node_modules
 * included, from esbuild's metafile), and the next run compares it.
 *
 * A build is also kept by the content hash of its sources in node_modules/.cache/hcp-azure/bundles/
 * (the last few), shared by every checkout that uses the same node_modules: `npm run review`'s git
 * worktrees, and clones whose node_modules is linked. A checkout whose sources another one already
 * built copies that build instead of bundling again, when the dependencies it read are unchanged (the
 * same size and time signature as above). HCP_AZURE_BUNDLE_CACHE=0 always bundles.
 *
 * The bundle runs with V8's code cache (compiled code kept in dist/.code-cache/ after the first
 * run, keyed by the bundle and the Node version): a synth then compiles almost nothing.
 * HCP_AZURE_CODE_CACHE=0 runs without it.
 *
 * Plain JavaScript: it must run before anything is compiled.
 */
const crypto = require("node:crypto");
const childProcess = require("node:child_process");
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const vm = require("node:vm");
const buildCache = require("./build-cache.js");

const ROOT = path.resolve(__dirname, "..");
const BUILD_CONFIG = "tsconfig.build.json";
/** Written into the output folder after a successful build: the input hash it was built from. */
const STAMP = ".sources.sha256";
/** The bundler itself; the plain-JavaScript files in runtime/ go into every bundle (scripts/bundle.js). */
const BUNDLER = "scripts/bundle.js";
const RUNTIME = "runtime";
/** V8 code caches of the bundles, under the output folder; emptied by every build. */
const CODE_CACHE = ".code-cache";
/** What the last build read and wrote (scripts/bundle.js writes it): `{ inputs, outputs }`, paths relative to the root and the output folder. */
const { RECORD } = require("./bundle.js");

function readRecord(root) {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir(root), RECORD), "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Size and modification time of every file the last build read (node_modules included: a
 * bundle holds its dependencies), hashed: `npm ci`, another checkout's dependencies or an edit
 * of a dependency change it. "unrecorded" before any build wrote the record.
 */
function bundledInputsSignature(root, record = readRecord(root), skip = new Set()) {
  if (!record) return "unrecorded";
  const hash = crypto.createHash("sha256");
  for (const input of record.inputs) {
    if (skip.has(input)) continue;
    let stat;
    try {
      stat = fs.statSync(path.join(root, input));
    } catch {
      stat = undefined;
    }
    hash.update(`${input}\0${stat ? `${stat.size}\0${stat.mtimeMs}` : "missing"}\0`);
  }
  return hash.digest("hex");
}

/** Every file whose content the compiled output depends on, sorted, relative to `root`. */
function buildInputs(root) {
  const config = JSON.parse(fs.readFileSync(path.join(root, BUILD_CONFIG), "utf8"));
  const files = [BUILD_CONFIG, "tsconfig.json", "package-lock.json", BUNDLER, ...runtimeFiles(root)].filter((f) => fs.existsSync(path.join(root, f)));
  return [...new Set([...files, ...includedFiles(root, config.include, BUILD_CONFIG)])].sort();
}

/**
 * The .ts files a tsconfig's `include` patterns (of `config`, for errors) match, relative to `root`:
 * the two shapes this project's tsconfigs use (`dir/**\/*.ts`, `file.ts`); anything else must be
 * taught here, not ignored, so it throws. Also used by scripts/typecheck.js.
 */
function includedFiles(root, patterns, config) {
  const files = [];
  for (const pattern of patterns) {
    const tree = /^([\w.-]+(?:\/[\w.-]+)*)\/\*\*\/\*\.ts$/.exec(pattern);
    if (tree) {
      const dir = path.join(root, tree[1]);
      if (!fs.existsSync(dir)) continue;
      for (const entry of fs.readdirSync(dir, { recursive: true })) {
        if (entry.endsWith(".ts")) files.push(path.join(tree[1], entry).split(path.sep).join("/"));
      }
    } else if (/^[\w./-]+\.ts$/.test(pattern)) {
      files.push(pattern);
    } else {
      throw new Error(`scripts/run.js: cannot expand the include pattern "${pattern}" of ${config}`);
    }
  }
  return files;
}

/** Every plain-JavaScript file under runtime/ (the cdktf patches and stand-ins every bundle holds), relative to `root`. */
function runtimeFiles(root) {
  const dir = path.join(root, RUNTIME);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((entry) => entry.endsWith(".js"))
    .map((entry) => path.join(RUNTIME, entry).split(path.sep).join("/"));
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
 * Builds unless `<outDir>/<STAMP>` holds the current inputs' hash and `entry` exists: copies the
 * cached build of the same sources when there is one (not with `rebuild`), else compiles and keeps
 * the result in the cache. Returns whether it built or copied; throws when the build fails (nothing
 * is stamped then, so the next run retries).
 */
function ensureBuilt(root, entry, compile = defaultCompile, { useCache = process.env.HCP_AZURE_BUNDLE_CACHE !== "0", rebuild = false } = {}) {
  const stamp = path.join(outDir(root), STAMP);
  const sources = inputsHash(root);
  // Every run: a checkout may have moved sources since the output was built (a few ms).
  removeStaleOutputs(root);
  const current = `${sources} ${bundledInputsSignature(root)}`;
  if (fs.existsSync(entry) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === current) return false;
  fs.rmSync(path.join(outDir(root), CODE_CACHE), { recursive: true, force: true });
  const cache = useCache ? buildCache.of(root) : undefined;
  const recorded = { outDir: outDir(root), dependencySignature: (record) => dependencySignature(root, record) };
  const restored = cache !== undefined && !rebuild && buildCache.restore(cache, sources, recorded);
  if (!restored) compile(root);
  removeStaleOutputs(root);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  // The build rewrote the record of what it read: stamp with that.
  fs.writeFileSync(stamp, `${sources} ${bundledInputsSignature(root)}`);
  if (cache !== undefined && !restored) buildCache.keep(cache, sources, { ...recorded, record: readRecord(root) });
  return true;
}

/**
 * The size and time of what a build read beyond the sources (whose content the cache key already
 * hashes, and whose times differ from checkout to checkout): the dependencies in node_modules.
 */
function dependencySignature(root, record) {
  return bundledInputsSignature(root, record, new Set(buildInputs(root)));
}

/**
 * A build never deletes the output of a source that was moved or deleted (nor what tsc compiled
 * here before the bundles), and a stale `dist/x.js` shadows a new `dist/x/index.js`
 * (require("./x") finds the file first). Removes every compiled file whose source is gone.
 */
function removeStaleOutputs(root) {
  const out = outDir(root);
  if (!fs.existsSync(out)) return [];
  // What the last build wrote; anything else compiled here (tsc's output of an older checkout,
  // dist/config/*.js...) would run stale under an unchanged stamp.
  const record = readRecord(root);
  const written = record && new Set(record.outputs);
  const removed = [];
  for (const entry of fs.readdirSync(out, { recursive: true })) {
    const match = /^(.*)\.(js|js\.map|d\.ts|tsbuildinfo)$/.exec(entry);
    if (!match || entry.startsWith(CODE_CACHE)) continue;
    const current = written ? written.has(entry.split(path.sep).join("/")) : fs.existsSync(path.join(root, `${match[1]}.ts`));
    if (current) continue;
    fs.rmSync(path.join(out, entry), { force: true });
    removed.push(entry.split(path.sep).join("/"));
  }
  return removed.sort();
}

function defaultCompile(root) {
  const result = childProcess.spawnSync(process.execPath, [path.join(__dirname, "bundle.js"), root], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`scripts/bundle.js failed (exit ${result.status ?? result.signal})`);
}

/** Where the code cache of `entry` built from `inputs` (their hash) lives, for this Node. */
function codeCacheFile(root, entry, inputs) {
  const { size, mtimeMs } = fs.statSync(entry);
  const key = crypto.createHash("sha256").update([inputs, entry, size, mtimeMs, process.version, process.arch].join("\0")).digest("hex").slice(0, 16);
  const name = path.relative(outDir(root), entry).replace(/\.js$/, "").split(path.sep).join("+");
  return path.join(outDir(root), CODE_CACHE, `${name}-${key}.bin`);
}

/**
 * Runs `entry` as the main module (require.main === module, process.argv[1] = entry), as
 * `node <entry>` would, compiling it with V8's code cache from `cacheFile` when there is one, and
 * writing one when there is none (or V8 refused it) once the module's synchronous run is done:
 * the cache then also holds the functions that run compiled. No cache file: no cache.
 */
function runMain(entry, args, cacheFile) {
  process.argv = [process.argv[0], entry, ...args];
  let cachedData;
  try {
    cachedData = cacheFile && fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(entry, "utf8")), { filename: entry, cachedData });
  const mainModule = new Module(entry, null);
  mainModule.id = ".";
  mainModule.filename = entry;
  mainModule.paths = Module._nodeModulePaths(path.dirname(entry));
  Module._cache[entry] = mainModule;
  process.mainModule = mainModule;
  const moduleRequire = Module.createRequire(entry); // its require.main is process.mainModule
  script.runInThisContext().call(mainModule.exports, mainModule.exports, moduleRequire, mainModule, entry, path.dirname(entry));
  mainModule.loaded = true;
  if (!cacheFile || (cachedData && !script.cachedDataRejected)) return;
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, script.createCachedData());
    fs.renameSync(temporary, cacheFile);
  } catch {
    // A read-only checkout runs without a cache.
  }
}

function run(argv) {
  const [name, ...args] = argv;
  if (name === "--build") {
    // npm run build: rebuild now, whatever the stamp says.
    fs.rmSync(path.join(outDir(ROOT), STAMP), { force: true });
    try {
      ensureBuilt(ROOT, path.join(outDir(ROOT), "main.js"), defaultCompile, { rebuild: true });
    } catch (error) {
      console.error(error.message);
      return 1;
    }
    return 0;
  }
  if (!name || name.startsWith("-")) {
    console.error(
      "usage: node scripts/run.js <module> [args...]   e.g. node scripts/run.js main examples/basic.yaml\n       node scripts/run.js --build   (rebuild dist/ now)",
    );
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
  runMain(
    entry,
    args,
    process.env.HCP_AZURE_CODE_CACHE === "0" ? undefined : codeCacheFile(ROOT, entry, fs.readFileSync(path.join(outDir(ROOT), STAMP), "utf8")),
  );
  return undefined;
}

if (require.main === module) {
  const code = run(process.argv.slice(2));
  if (code !== undefined) process.exitCode = code;
}

module.exports = { buildInputs, includedFiles, inputsHash, ensureBuilt, removeStaleOutputs, outDir, STAMP, CODE_CACHE, RECORD };
