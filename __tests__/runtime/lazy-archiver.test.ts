import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { REPO } from "../helpers";

/**
 * runtime/lazy-archiver.js stands in for cdktf's zip library in every bundle and test worker. In a
 * fresh process (a worker's module cache already holds the stand-in): nothing is loaded until the
 * library is used, and then it is the real one.
 */
const LAZY = path.join(REPO, "runtime", "lazy-archiver.js");
const driver = `
  const loaded = () => Object.keys(require.cache).some((file) => /[\\\\/]archiver[\\\\/]index\\.js$/.test(file));
  const archiver = require(${JSON.stringify(LAZY)});
  const before = loaded();
  const zip = archiver("zip");
  process.stdout.write(JSON.stringify({ before, after: loaded(), append: typeof zip.append, isRegistered: typeof archiver.isRegisteredFormat }));`;

describe("runtime/lazy-archiver.js", () => {
  it.each([
    ["loads archiver on first use only", {}, false],
    ["HCP_AZURE_LAZY_ARCHIVER=0 loads it at once", { HCP_AZURE_LAZY_ARCHIVER: "0" }, true],
  ])("%s, and works as archiver", (_name, env, before) => {
    const result = spawnSync(process.execPath, ["-e", driver], { cwd: REPO, encoding: "utf8", env: { ...process.env, ...env }, timeout: 60000 });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ before, after: true, append: "function", isRegistered: "function" });
  });
});
