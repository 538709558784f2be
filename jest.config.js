/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/__tests__"],
  testMatch: ["**/*.test.ts"],
  // isolatedModules in tsconfig: ts-jest only transpiles; `tsc --noEmit` type-checks (npm test runs both).
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  // cdktf's zip library, loaded by its index but never used here: ~0.4 s of every test file.
  moduleNameMapper: { "^archiver$": "<rootDir>/scripts/deferred-archiver.js" },
  setupFilesAfterEnv: ["<rootDir>/__tests__/setup.ts"],
  testTimeout: 30000,
  // One more worker than cores (jest's default is one fewer: 1 on 2 cores): the files are
  // independent, and the e2e ones spend much of their time waiting on terraform/node children.
  maxWorkers: require("node:os").cpus().length + 1,
};
