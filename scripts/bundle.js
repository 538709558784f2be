#!/usr/bin/env node
"use strict";
/**
 * `node scripts/bundle.js [root]` (scripts/run.js runs it when the sources changed; npm run build):
 * bundles each runnable module (main.ts and scripts/*.ts) with its dependencies into one file,
 * dist/<module>.js, with esbuild. esbuild only transpiles: `tsc --noEmit` type-checks, in npm test.
 *
 * Why one file: a synth loads ~670 modules (11 MB of JavaScript, most of it inline source maps in
 * cdktf and the providers); resolving and compiling them was most of a one-cluster synth. One
 * file has no resolution, and scripts/run.js keeps V8's code cache of it.
 *
 * Each bundle first applies runtime/patch-cdktf.js to the cdktf it contains (a bundle has its
 * own copy, not node_modules'), and loads cdktf's zip library (`archiver`, never used here) only
 * on first use (runtime/lazy-archiver.js, from node_modules at run time).
 *
 * Plain JavaScript: it runs before anything is compiled.
 */
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");

/** The runnable modules among `sources` (paths relative to the root): top-level and scripts/ TypeScript files. */
function entryPoints(sources) {
  return sources.filter((file) => /^(scripts\/)?[\w.-]+\.ts$/.test(file) && !file.endsWith(".d.ts"));
}

/** What each bundle runs: the patches, then the module (its exports are the bundle's). */
function entryStub(file) {
  return `require("./runtime/patch-cdktf.js").applyCdktfPatches(process.env);\nmodule.exports = require(${JSON.stringify(`./${file}`)});\n`;
}

/** Bundles `entries` (relative to `root`) into `outDir`; each file is written whole (a rename), so a concurrent run never reads half a bundle. */
async function bundle(root, entries, outDir) {
  const esbuild = require(require.resolve("esbuild", { paths: [root] }));
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: entries.map((file) => ({ in: `entry:${file}`, out: file.replace(/\.ts$/, "") })),
    outdir: outDir,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    metafile: true,
    logLevel: "error",
    legalComments: "none",
    plugins: [
      {
        name: "hcp-azure",
        setup(build) {
          build.onResolve({ filter: /^entry:/ }, (args) => ({ path: args.path.slice("entry:".length), namespace: "entry" }));
          build.onLoad({ filter: /.*/, namespace: "entry" }, (args) => ({ contents: entryStub(args.path), resolveDir: root, loader: "js" }));
          build.onResolve({ filter: /^archiver$/ }, () => ({ path: path.join(root, "runtime", "lazy-archiver.js") }));
          // A module without exports is bundled as CommonJS, in a wrapper whose `module` is not
          // the main module: its `if (require.main === module)` would never run. An empty export
          // makes every runnable module an ES module, whose `module` is the bundle's.
          const runnable = new Set(entries.map((file) => path.join(root, file)));
          build.onLoad({ filter: /\.ts$/ }, (args) =>
            runnable.has(args.path) ? { contents: `${fs.readFileSync(args.path, "utf8")}\nexport {};\n`, loader: "ts" } : undefined,
          );
        },
      },
    ],
  });
  for (const file of result.outputFiles) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  writeRecord(outDir, {
    // Every file esbuild read (sources, node_modules, anything imported from outside the include
    // list), so scripts/run.js rebuilds when any of them changes, not only the sources it hashes.
    inputs: Object.keys(result.metafile.inputs)
      .filter((input) => !input.startsWith("entry:"))
      .map((input) => input.split(path.sep).join("/"))
      .sort(),
    outputs: result.outputFiles.map((file) => path.relative(outDir, file.path).split(path.sep).join("/")).sort(),
  });
  return result.outputFiles.map((file) => path.relative(root, file.path));
}

/** What the last build read and wrote (`<outDir>/.bundle-inputs.json`; scripts/run.js reads it). */
const RECORD = ".bundle-inputs.json";

function writeRecord(outDir, record) {
  const file = path.join(outDir, RECORD);
  fs.writeFileSync(`${file}.${process.pid}.tmp`, `${JSON.stringify(record, null, 1)}\n`);
  fs.renameSync(`${file}.${process.pid}.tmp`, file);
}

// Exported before running as a script: run.js (required below) reads RECORD from this module.
module.exports = { bundle, entryPoints, entryStub, RECORD };

if (require.main === module) {
  const run = require("./run.js");
  const root = process.argv[2] ? path.resolve(process.argv[2]) : ROOT;
  bundle(root, entryPoints(run.buildInputs(root)), run.outDir(root)).catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
