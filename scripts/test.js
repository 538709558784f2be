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
/**
 * jest-light-runner enforces no per-test timeout (jest's testTimeout is not applied): a test that
 * waits forever would hang the run, and CI with it. The whole run is stopped after this.
 */
const DEFAULT_TIMEOUT_MS = Number(process.env.HCP_AZURE_TEST_TIMEOUT_MINUTES || 20) * 60000;

/** The JavaScript file behind `node_modules/.bin/<name>`, run with this node (no shell, any OS). */
function bin(name, root = ROOT) {
  return fs.realpathSync(path.join(root, "node_modules", ".bin", name));
}

/** The checks run beside jest: name (for the report) and arguments of `node`. */
function staticChecks(root = ROOT) {
  return [
    // tsc --noEmit, not run again when nothing it reads changed since its last clean run (scripts/typecheck.js).
    { name: "tsc --noEmit", args: [path.join(root, "scripts", "typecheck.js")] },
    { name: "eslint", args: [bin("eslint", root), "--cache", "--cache-location", "node_modules/.cache/eslint/", "."] },
    { name: "prettier --check", args: [bin("prettier", root), "--check", "--cache", "--log-level", "warn", "."] },
  ];
}

/**
 * Runs `node <args>` in `cwd`; resolves to its exit code and, when `capture`, its output. After
 * `timeoutMs` it is killed and its code is 1 (`timedOut` set).
 */
function run(args, { cwd, capture, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit" });
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill("SIGKILL");
        }, timeoutMs)
      : undefined;
    child.on("exit", () => clearTimeout(timer));
    let output = "";
    if (capture) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    child.on("error", (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ code: timedOut ? 1 : (code ?? (signal ? 1 : 0)), output, timedOut }));
  });
}

/**
 * Runs `checks` (captured) and `main` (streamed) at once. Returns the exit code: 0 when all pass,
 * else the main command's code if it failed, else the first failed check's.
 */
async function runAll({ checks, main, cwd = ROOT, write = (text) => process.stderr.write(text), timeoutMs = DEFAULT_TIMEOUT_MS }) {
  const [mainResult, ...checkResults] = await Promise.all([
    run(main, { cwd, capture: false, timeoutMs }),
    ...checks.map((c) => run(c.args, { cwd, capture: true, timeoutMs })),
  ]);
  const failed = checks.map((check, i) => ({ ...check, ...checkResults[i] })).filter((c) => c.code !== 0);
  for (const check of failed) write(`\n${check.name} failed (exit ${check.code}):\n${check.output.trimEnd()}\n`);
  if (mainResult.timedOut)
    write(
      `\nthe tests did not finish in ${timeoutMs / 60000} minutes and were stopped: a test waits on something that never ends ` +
        "(jest-light-runner has no per-test timeout; HCP_AZURE_TEST_TIMEOUT_MINUTES sets this limit)\n",
    );
  if (mainResult.code !== 0) return mainResult.code;
  return failed.length ? failed[0].code : 0;
}

if (require.main === module) {
  runAll({ checks: staticChecks(), main: [bin("jest"), ...process.argv.slice(2)] }).then((code) => {
    process.exitCode = code;
  });
}

module.exports = { runAll, staticChecks };
