import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, tempDir } from "../helpers";

/**
 * scripts/cdktf.sh (npm run cdktf|diff|deploy|destroy): runs the cdktf CLI found on PATH without
 * telemetry or version check, passes its arguments and exit code through, and deletes the plan
 * files `cdktf diff` leaves (they hold every planned value, secrets included). A stand-in `cdktf`
 * on PATH records what it got and leaves plan files, as the real one does.
 */
describe("scripts/cdktf.sh", () => {
  let work: string;
  beforeEach(() => {
    work = tempDir();
    const bin = path.join(work, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, "cdktf"),
      [
        "#!/bin/sh",
        'printf "%s\\n" "$@" > "$WORK/args"',
        'env | grep -E "^(CHECKPOINT_DISABLE|DISABLE_VERSION_CHECK)=" | sort > "$WORK/env"',
        'mkdir -p "${CDKTF_OUTDIR:-cdktf.out}/stacks/shared" "${CDKTF_OUTDIR:-cdktf.out}/stacks/cluster-hc1"',
        'echo secret > "${CDKTF_OUTDIR:-cdktf.out}/stacks/shared/plan"',
        'echo secret > "${CDKTF_OUTDIR:-cdktf.out}/stacks/cluster-hc1/plan"',
        'echo "{}" > "${CDKTF_OUTDIR:-cdktf.out}/stacks/shared/cdk.tf.json"',
        "exit ${EXIT_CODE:-0}",
      ].join("\n"),
      { mode: 0o755 },
    );
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  function wrapper(args: string[], env: Record<string, string> = {}) {
    return spawnSync("sh", [path.join(REPO, "scripts", "cdktf.sh"), ...args], {
      cwd: work,
      encoding: "utf8",
      env: { PATH: `${path.join(work, "bin")}:${process.env.PATH}`, WORK: work, ...env },
    });
  }

  it("passes the arguments, disables the checkpoint and version check, and removes plan files", () => {
    const run = wrapper(["diff", "shared"]);
    expect(run.status).toBe(0);
    expect(fs.readFileSync(path.join(work, "args"), "utf8")).toBe("diff\nshared\n");
    expect(fs.readFileSync(path.join(work, "env"), "utf8")).toBe("CHECKPOINT_DISABLE=1\nDISABLE_VERSION_CHECK=1\n");
    expect(fs.existsSync(path.join(work, "cdktf.out", "stacks", "shared", "plan"))).toBe(false);
    expect(fs.existsSync(path.join(work, "cdktf.out", "stacks", "cluster-hc1", "plan"))).toBe(false);
    expect(fs.existsSync(path.join(work, "cdktf.out", "stacks", "shared", "cdk.tf.json"))).toBe(true);
  });

  it("keeps cdktf's exit code and cleans CDKTF_OUTDIR when set, even after a failure", () => {
    const outdir = path.join(work, "elsewhere");
    const run = wrapper(["deploy", "*"], { EXIT_CODE: "3", CDKTF_OUTDIR: outdir });
    expect(run.status).toBe(3);
    expect(fs.existsSync(path.join(outdir, "stacks", "shared", "plan"))).toBe(false);
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
