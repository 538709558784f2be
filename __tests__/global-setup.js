"use strict";
// jest `globalSetup`: one temporary folder for the whole run, removed by global-teardown.js.
// Test folders (helpers.ts `tempDir`) and the output folders of cdktf's Testing.app() (one per
// app, never removed by cdktf: hundreds per run; setup.ts) are made in it, so they go with it.
// Set before jest starts its workers, which copy the environment. Not TMPDIR: tsx keeps its
// transpile cache under os.tmpdir(), which must stay the same from run to run.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

module.exports = async function globalSetup() {
  process.env.HCP_AZURE_TEST_TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), "hcp-azure-tests-"));
};
