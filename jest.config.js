/** @type {import('jest').Config} */
module.exports = {
  // Test files run natively in worker threads, one module cache per worker (tests must not depend
  // on a fresh module registry per file; none do). See CONTRIBUTING.md, "Tests".
  runner: "jest-light-runner",
  roots: ["<rootDir>/__tests__"],
  testMatch: ["**/*.test.ts"],
  // One temporary folder per run, removed at the end: see global-setup.js.
  globalSetup: "<rootDir>/__tests__/global-setup.js",
  globalTeardown: "<rootDir>/__tests__/global-teardown.js",
  setupFiles: ["<rootDir>/__tests__/worker-setup.mjs"],
  setupFilesAfterEnv: ["<rootDir>/__tests__/setup.ts"],
  maxWorkers: require("node:os").cpus().length,
};
