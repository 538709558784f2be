import * as fs from "node:fs";
import { REPO } from "../helpers";

/** `npm test` (scripts/test.js): the static checks beside jest, and a failure of any one fails the run. */
const { runAll, staticChecks } = require("../../scripts/test.js") as {
  runAll(options: {
    checks: { name: string; args: string[] }[];
    main: string[];
    cwd?: string;
    write?: (text: string) => void;
    timeoutMs?: number;
  }): Promise<number>;
  staticChecks(root?: string): { name: string; args: string[] }[];
};

const exits = (code: number, output = "") => ["-e", `process.stdout.write(${JSON.stringify(output)}); process.exit(${code})`];
/**
 * A check that passes, printing on stdout as the real ones do: `node --version` exits 0 before
 * Node starts its JavaScript (~3 ms of CPU, where `node -e` takes ~60 ms). Its output ("v20...")
 * must not be printed, as no passing check's may.
 */
const PASSES = ["--version"];

async function outcome(checkCodes: number[], mainCode: number) {
  let written = "";
  const code = await runAll({
    checks: checkCodes.map((c, i) => ({ name: `check ${i}`, args: c === 0 ? PASSES : exits(c, `output of check ${i}`) })),
    main: exits(mainCode),
    cwd: REPO,
    write: (text) => (written += text),
  });
  return { code, written };
}

describe("npm test runs the checks and jest at once", () => {
  it("passes when everything passes, and prints nothing of the checks", async () => {
    expect(await outcome([0, 0, 0], 0)).toEqual({ code: 0, written: "" });
  });

  it("fails with a failed check's code and prints that check's output under its name, even when jest passes", async () => {
    const { code, written } = await outcome([0, 2, 0], 0);
    expect(code).toBe(2);
    expect(written).toBe("\ncheck 1 failed (exit 2):\noutput of check 1\n");
  });

  it("fails with jest's code when jest fails, and still reports the failed checks", async () => {
    const { code, written } = await outcome([1, 0, 0], 3);
    expect(code).toBe(3);
    expect(written).toContain("check 0 failed (exit 1)");
  });

  it("stops a run that does not finish in time, fails it and says why", async () => {
    let written = "";
    const started = Date.now();
    const code = await runAll({ checks: [], main: ["-e", "setTimeout(() => {}, 60000)"], cwd: REPO, write: (text) => (written += text), timeoutMs: 300 });
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20000);
    expect(written).toContain("the tests did not finish in 0.005 minutes and were stopped");
  });

  it("runs tsc --noEmit (scripts/typecheck.js), ESLint and Prettier --check from the project's node_modules", () => {
    const checks = staticChecks();
    expect(checks.map((c) => c.name)).toEqual(["tsc --noEmit", "eslint", "prettier --check"]);
    for (const check of checks) expect(fs.existsSync(check.args[0])).toBe(true);
  });
});
