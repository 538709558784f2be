import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, tempDir } from "../helpers";

/**
 * scripts/cdktf.sh (npm run cdktf|diff|deploy|destroy): runs the cdktf CLI found on PATH without
 * telemetry or version check, passes its arguments, its standard input and its exit code through,
 * and deletes the plan files `cdktf diff` leaves (they hold every planned value, secrets included),
 * on every way out: cdktf's own exit, and SIGINT, SIGTERM or SIGHUP to the script (Ctrl-C, `kill`,
 * a cancelled CI job, a closed terminal). A stand-in `cdktf` on PATH, a Node script as the real
 * one is, records what it got and leaves plan files, as the real one does.
 */

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** The shells the script is run with: npm's `sh` (dash here, bash on macOS), and bash where installed. */
const SHELLS = ["sh", ...(spawnSync("bash", ["-c", "exit 0"]).status === 0 ? ["bash"] : [])];

/** The stand-in cdktf. SLEEP_MS: stay running after writing the plans; on a signal it writes one more plan, then dies of it. */
const FAKE_CDKTF = `#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
const work = process.env.WORK;
// As the real cdktf: the output folder is --output/-o (default cdktf.out), CDKTF_OUTDIR is ignored.
const args = process.argv.slice(2);
let out = "cdktf.out";
for (let i = 0; i < args.length && args[i] !== "--"; i++) {
  if (args[i] === "--output" || args[i] === "-o") out = args[++i];
  else if (/^(--output|-o)=/.test(args[i])) out = args[i].replace(/^(--output|-o)=/, "");
}
fs.writeFileSync(path.join(work, "args"), process.argv.slice(2).map((a) => a + "\\n").join(""));
fs.writeFileSync(path.join(work, "env"), Object.keys(process.env).filter((k) => /^(CHECKPOINT_DISABLE|DISABLE_VERSION_CHECK)$/.test(k)).sort().map((k) => k + "=" + process.env[k] + "\\n").join(""));
fs.writeFileSync(path.join(work, "stdin"), process.stdin.isTTY ? "" : fs.readFileSync(0));
fs.writeFileSync(path.join(work, "cdktf.pid"), String(process.pid));
for (const stack of ["shared", "cluster-hc1"]) {
  fs.mkdirSync(path.join(out, "stacks", stack), { recursive: true });
  fs.writeFileSync(path.join(out, "stacks", stack, "plan"), "secret");
}
fs.writeFileSync(path.join(out, "stacks", "shared", "cdk.tf.json"), "{}");
const sleep = Number(process.env.SLEEP_MS || 0);
if (sleep === 0) process.exit(Number(process.env.EXIT_CODE || 0));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    fs.appendFileSync(path.join(work, "signals"), signal + "\\n");
    // Still writing when the signal came: a plan written after the script got the signal.
    fs.mkdirSync(path.join(out, "stacks", "management"), { recursive: true });
    fs.writeFileSync(path.join(out, "stacks", "management", "plan"), "secret");
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
fs.writeFileSync(path.join(work, "ready"), "");
setTimeout(() => process.exit(0), sleep);
`;

describe("scripts/cdktf.sh", () => {
  let work: string;
  beforeEach(() => {
    work = tempDir();
    const bin = path.join(work, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "cdktf"), FAKE_CDKTF, { mode: 0o755 });
  });
  afterEach(() => {
    // A stand-in left running (the script did not pass the signal on) must not outlive the test.
    const pidFile = path.join(work, "cdktf.pid");
    if (fs.existsSync(pidFile)) {
      try {
        process.kill(Number(fs.readFileSync(pidFile, "utf8")), "SIGKILL");
      } catch {
        // already gone
      }
    }
    fs.rmSync(work, { recursive: true, force: true });
  });

  const environment = (env: Record<string, string>) => ({ PATH: `${path.join(work, "bin")}:${process.env.PATH}`, WORK: work, ...env });
  const plans = (outdir = path.join(work, "cdktf.out")) =>
    fs.existsSync(path.join(outdir, "stacks"))
      ? fs.readdirSync(path.join(outdir, "stacks")).filter((stack) => fs.existsSync(path.join(outdir, "stacks", stack, "plan")))
      : [];

  function wrapper(args: string[], env: Record<string, string> = {}, input = "") {
    return spawnSync("sh", [path.join(REPO, "scripts", "cdktf.sh"), ...args], { cwd: work, encoding: "utf8", input, env: environment(env), timeout: 30_000 });
  }

  it("passes the arguments and standard input, disables the checkpoint and version check, and removes plan files", () => {
    const run = wrapper(["diff", "shared"], {}, "yes\n");
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(fs.readFileSync(path.join(work, "args"), "utf8")).toBe("diff\nshared\n");
    expect(fs.readFileSync(path.join(work, "env"), "utf8")).toBe("CHECKPOINT_DISABLE=1\nDISABLE_VERSION_CHECK=1\n");
    // cdktf deploy asks for approval on standard input.
    expect(fs.readFileSync(path.join(work, "stdin"), "utf8")).toBe("yes\n");
    expect(plans()).toEqual([]);
    expect(fs.existsSync(path.join(work, "cdktf.out", "stacks", "shared", "cdk.tf.json"))).toBe(true);
  });

  it("keeps cdktf's exit code and cleans CDKTF_OUTDIR when set, even after a failure", () => {
    const outdir = path.join(work, "elsewhere");
    const run = wrapper(["deploy", "*"], { EXIT_CODE: "3", CDKTF_OUTDIR: outdir });
    expect(run.status).toBe(3);
    // cdktf ignores CDKTF_OUTDIR: the script passes it on as --output, so cdktf writes there.
    expect(fs.readFileSync(path.join(work, "args"), "utf8")).toBe(`deploy\n--output\n${outdir}\n*\n`);
    expect(fs.existsSync(path.join(outdir, "stacks", "shared", "cdk.tf.json"))).toBe(true);
    expect(plans(outdir)).toEqual([]);
    expect(fs.existsSync(path.join(work, "cdktf.out"))).toBe(false);
  });

  // Each form cdktf reads; CDKTF_OUTDIR set elsewhere too: the folder cdktf writes is the one cleaned.
  it.each([
    [["diff", "--output", "given"], "given"],
    [["diff", "--output=given"], "given"],
    [["deploy", "-o", "given", "shared"], "given"],
    [["deploy", "-o=given"], "given"],
    [["diff", "--", "--output", "not-cdktf-s"], "elsewhere"],
  ])("cdktf %j: removes the plans from %s, the folder cdktf wrote", (args, folder) => {
    const run = wrapper(args, { CDKTF_OUTDIR: path.join(work, "elsewhere") });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(fs.existsSync(path.join(work, folder, "stacks", "shared", "cdk.tf.json"))).toBe(true);
    expect(plans(path.join(work, folder))).toEqual([]);
  });

  it("passes no --output to a command without one (cdktf get's --output is another folder)", () => {
    wrapper(["get"], { CDKTF_OUTDIR: path.join(work, "elsewhere") });
    expect(fs.readFileSync(path.join(work, "args"), "utf8")).toBe("get\n");
  });

  it("runs cdktf when its standard input is closed", () => {
    const run = spawnSync("sh", ["-c", `sh "${path.join(REPO, "scripts", "cdktf.sh")}" diff <&-`], {
      cwd: work,
      encoding: "utf8",
      env: environment({}),
      timeout: 30_000,
    });
    expect({ status: run.status, stderr: run.stderr, args: fs.readFileSync(path.join(work, "args"), "utf8") }).toEqual({
      status: 0,
      stderr: "",
      args: "diff\n",
    });
    expect(plans()).toEqual([]);
  });

  /**
   * Starts the script in its own process group, waits until cdktf has written its plans, sends
   * `signal` to the script alone (`kill`, a CI runner) or to the whole group (the terminal's Ctrl-C
   * or hangup), and waits for the script to end.
   */
  async function interrupted(
    shell: string,
    signal: NodeJS.Signals,
    target: "script" | "group",
    args: string[] = [],
    env: Record<string, string> = {},
    outdir?: string,
  ) {
    const child = spawn(shell, [path.join(REPO, "scripts", "cdktf.sh"), "diff", ...args], {
      cwd: work,
      env: environment({ SLEEP_MS: "20000", ...env }),
      stdio: "ignore",
      detached: true,
    });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, sig) => resolve({ code, signal: sig })),
    );
    const deadline = Date.now() + 15_000;
    while (!fs.existsSync(path.join(work, "ready")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const plansBefore = plans(outdir);
    process.kill(target === "group" ? -(child.pid as number) : (child.pid as number), signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const exit = await ended;
    clearTimeout(timer);
    const pid = Number(fs.readFileSync(path.join(work, "cdktf.pid"), "utf8"));
    let cdktfRunning = true;
    try {
      process.kill(pid, 0);
    } catch {
      cdktfRunning = false;
    }
    const signals = fs.existsSync(path.join(work, "signals")) ? fs.readFileSync(path.join(work, "signals"), "utf8") : "";
    return { plansBefore, exit, plansAfter: plans(outdir), cdktfGot: signals, cdktfRunning };
  }

  describe.each(SHELLS)("interrupted (run by %s)", (shell) => {
    const cases = SIGNALS.flatMap((signal) => (["script", "group"] as const).map((target) => [signal, target] as const));
    it.each(cases)("%s to the %s: cdktf gets it, the script waits for cdktf, removes every plan file, and dies of the same signal", async (signal, target) => {
      const result = await interrupted(shell, signal, target);
      expect(result).toEqual({
        plansBefore: ["cluster-hc1", "shared"],
        // Died of the signal, as cdktf did: npm, a shell loop or CI sees an interrupted command.
        exit: { code: null, signal },
        plansAfter: [],
        cdktfGot: `${signal}\n`,
        cdktfRunning: false,
      });
    });
  });

  // The folder cdktf writes, not cdktf.out, when CDKTF_OUTDIR or --output names another (one shell, one signal each: cheap).
  it.each([
    ["SIGINT", "CDKTF_OUTDIR", [], { CDKTF_OUTDIR: "elsewhere" }],
    ["SIGTERM", "--output", ["--output", "elsewhere"], {}],
  ] as const)("%s with %s set: removes every plan file from the folder cdktf wrote", async (signal, _how, args, env) => {
    const result = await interrupted("sh", signal, "script", [...args], env, path.join(work, "elsewhere"));
    expect({ plansBefore: result.plansBefore, plansAfter: result.plansAfter, exit: result.exit }).toEqual({
      plansBefore: ["cluster-hc1", "shared"],
      plansAfter: [],
      exit: { code: null, signal },
    });
  });

  it("is what the npm scripts run", () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).scripts;
    expect(scripts).toMatchObject({
      cdktf: "sh scripts/cdktf.sh",
      diff: "sh scripts/cdktf.sh diff",
      deploy: "sh scripts/cdktf.sh deploy",
      destroy: "sh scripts/cdktf.sh destroy",
    });
  });
});
