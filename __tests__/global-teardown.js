"use strict";
// jest `globalTeardown`: removes the run's temporary folder (global-setup.js).
const fs = require("node:fs");

module.exports = async function globalTeardown() {
  const root = process.env.HCP_AZURE_TEST_TMPDIR;
  if (root) fs.rmSync(root, { recursive: true, force: true });
};
