"use strict";
/**
 * Stands in for `archiver` (the zip library cdktf's index loads at start-up for TerraformAsset,
 * which this project never uses) and loads the real one on first use. That load is ~70 ms of a
 * ~0.5 s synth and ~0.4 s of every jest test file. Used by scripts/run.js (synth) and by
 * jest.config.js (moduleNameMapper).
 */
const path = require("node:path");

// cdktf's own copy (a bundled dependency). Resolved through package.json: "archiver" itself is
// what jest maps to this file.
const cdktf = path.dirname(require.resolve("cdktf/package.json"));
const manifest = require.resolve("archiver/package.json", { paths: [cdktf] });
const real = path.join(path.dirname(manifest), require(manifest).main ?? "index.js");

let loaded;
const load = () => (loaded ??= require(real));

module.exports = new Proxy(function archiver() {}, {
  apply: (_target, self, args) => load().apply(self, args),
  construct: (_target, args) => new (load())(...args),
  get: (_target, key) => load()[key],
  has: (_target, key) => key in load(),
});
