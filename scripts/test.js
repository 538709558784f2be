#!/usr/bin/env node
"use strict";
/**
 * `npm test [-- <jest arguments>]`: the static checks (tsc --noEmit, ESLint, Prettier --check) and
 * jest, all at once rather than one after the other: the checks take ~6 s alone and jest leaves
 * room for them while its workers wait on terraform and other children. Jest's output streams as
 * it runs; each check's output is printed after it, with the check's name, when the check fails.
 * Exits non-zero when any of them fails (the first failure's code), so CI fails as before.
 *
 * Plain JavaScript: it runs before anything is compiled.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");

/** The JavaScript file behind `node_modules/.bin/<name>`, run with this node (no shell, any OS). */
function bin(name, root = ROOT) {
  return fs.realpathSync(path.join(root, "node_modules", ".bin", name));
}

/** The checks run beside jest: name (for the report) and arguments of `node`. */
function staticChecks(root = ROOT) {
  return [
    { name: "tsc --noEmit", args: [bin("tsc", root), "--noEmit"] },
    { name: "eslint", args: [bin("eslint", root), "--cache", "--cache-location", "node_modules/.cache/eslint/", "."] },
    { name: "prettier --check", args: [bin("prettier", root), "--check", "--cache", "--log-level", "warn", "."] },
  ];
}

/** Runs `node <args>` in `cwd`; resolves to its exit code and, when `capture`, its output. */
function run(args, { cwd, capture }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    if (capture) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    child.on("error", (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/**
 * Runs `checks` (captured) and `main` (streamed) at once. Returns the exit code: 0 when all pass,
 * else the main command's code if it failed, else the first failed check's.
 */
async function runAll({ checks, main, cwd = ROOT, write = (text) => process.stderr.write(text) }) {
  const [mainResult, ...checkResults] = await Promise.all([run(main, { cwd, capture: false }), ...checks.map((c) => run(c.args, { cwd, capture: true }))]);
  const failed = checks.map((check, i) => ({ ...check, ...checkResults[i] })).filter((c) => c.code !== 0);
  for (const check of failed) write(`\n${check.name} failed (exit ${check.code}):\n${check.output.trimEnd()}\n`);
  if (mainResult.code !== 0) return mainResult.code;
  return failed.length ? failed[0].code : 0;
}

if (require.main === module) {
  runAll({ checks: staticChecks(), main: [bin("jest"), ...process.argv.slice(2)] }).then((code) => {
    process.exitCode = code;
  });
}

module.exports = { runAll, staticChecks };
