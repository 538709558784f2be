"use strict";
/**
 * Stands in for `archiver`, the zip library cdktf's index loads at start-up for TerraformAsset
 * (which this project never uses), and loads the real one on first use.
 *
 * Reason: that load is ~70 ms of a ~0.5 s synth and ~0.4 s of every jest test file.
 *
 * Put in place by scripts/bundle.js (each bundle's `archiver` resolves here; the real one is
 * required from node_modules at run time) and by __tests__/worker-setup.mjs (a placeholder in
 * jest's module cache).
 *
 * Proof: __tests__/runtime/lazy-archiver.test.ts (nothing loaded until used; then the real
 * archiver makes a zip); every synth and test runs with it.
 *
 * Off switch: HCP_AZURE_LAZY_ARCHIVER=0 exports the real archiver, loaded at once.
 */
const path = require("node:path");

// cdktf's own copy (a bundled dependency). Resolved through package.json: "archiver" itself is
// what the bundles and jest map to this file.
const cdktf = path.dirname(require.resolve("cdktf/package.json"));
const manifest = require.resolve("archiver/package.json", { paths: [cdktf] });
const real = path.join(path.dirname(manifest), require(manifest).main ?? "index.js");

let loaded;
const load = () => (loaded ??= require(real));

module.exports =
  process.env.HCP_AZURE_LAZY_ARCHIVER === "0"
    ? load()
    : new Proxy(function archiver() {}, {
        apply: (_target, self, args) => load().apply(self, args),
        construct: (_target, args) => new (load())(...args),
        get: (_target, key) => load()[key],
        has: (_target, key) => key in load(),
      });
