import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { main } from "../../main";
import { configWithClusters } from "../../scripts/bench";
import { EXAMPLES, REPO, tempDir, tree } from "../helpers";

/**
 * What users run is the bundle scripts/run.js builds (dist/main.js: esbuild, cdktf patched inside
 * it, loaded with V8's code cache); what the other tests run is the TypeScript sources (tsx), with
 * the same patches (__tests__/setup-token-stacks.ts). The proof that neither the bundle nor the
 * patches change anything: every example and a many-cluster config synthesized by the bundle and
 * by the sources with cdktf's own token resolver and keysToSnakeCase, every output byte and every
 * printed line compared.
 */
const run: { ensureBuilt(root: string, entry: string): boolean; CODE_CACHE: string; STAMP: string; RECORD: string } = require("../../scripts/run.js");
const resolveModule: { resolve: unknown } = require("cdktf/lib/tokens/private/resolve");
const cdktfResolve = (resolveModule.resolve as { original: unknown }).original;
const util: { keysToSnakeCase: unknown } = require("cdktf/lib/util");
const cdktfKeysToSnakeCase = (util.keysToSnakeCase as { original: unknown }).original;

const BUNDLE = path.join(REPO, "dist", "main.js");
const outputs = tempDir("hcp-azure-bundle-");
afterAll(() => fs.rmSync(outputs, { recursive: true, force: true }));
const manyClusters = path.join(outputs, "clusters-12.yaml");
fs.writeFileSync(manyClusters, stringify(configWithClusters(12)));
const configs = [
  ...fs
    .readdirSync(EXAMPLES)
    .filter((file) => file.endsWith(".yaml"))
    .map((file) => path.join(EXAMPLES, file)),
  manyClusters,
];
const outdir = (config: string) => path.join(outputs, path.basename(config, ".yaml"));

interface Synth {
  code: number;
  out: string[];
  err: string[];
}

/**
 * A checkout of its own for the code-cache proof, whose dist/.code-cache no other test writes (the
 * other tests' synths through scripts/run.js, e.g. the cdktf CLI's and the interrupted ones, use
 * the repository's; counting files there would race with them): this repository's files linked,
 * scripts/run.js and the two files it requires copied (it finds its checkout beside itself), and
 * dist/ holding a copy of the current bundle with its stamp and record (same sources, same
 * dependencies: run.js does not rebuild).
 */
function checkoutOfItsOwn(): string {
  const checkout = path.join(outputs, "checkout");
  const own = new Set(["run.js", "bundle.js", "build-cache.js"]);
  fs.mkdirSync(path.join(checkout, "scripts"), { recursive: true });
  for (const entry of fs.readdirSync(REPO)) {
    if (![".git", "dist", "scripts", "cdktf.out"].includes(entry)) fs.symlinkSync(path.join(REPO, entry), path.join(checkout, entry));
  }
  for (const entry of fs.readdirSync(path.join(REPO, "scripts"))) {
    if (own.has(entry)) fs.copyFileSync(path.join(REPO, "scripts", entry), path.join(checkout, "scripts", entry));
    else fs.symlinkSync(path.join(REPO, "scripts", entry), path.join(checkout, "scripts", entry));
  }
  fs.mkdirSync(path.join(checkout, "dist"));
  for (const file of ["main.js", run.STAMP, run.RECORD]) fs.copyFileSync(path.join(REPO, "dist", file), path.join(checkout, "dist", file));
  copiedBundle = bundleFiles(checkout);
  return checkout;
}

/** dist/'s bundle files of `root` (the bundle, its stamp and record): inode, modification time and SHA-256, by name. */
function bundleFiles(root: string): Record<string, string> {
  const files = ["main.js", run.STAMP, run.RECORD].map((file) => path.join(root, "dist", file));
  return Object.fromEntries(
    files.map((file) => [
      path.basename(file),
      `${fs.statSync(file).ino} ${fs.statSync(file).mtimeMs} ${createHash("sha256").update(fs.readFileSync(file)).digest("hex")}`,
    ]),
  );
}
/** The checkout's bundle files as copied, before any run. */
let copiedBundle: Record<string, string>;

const BASIC = path.join(EXAMPLES, "basic.yaml");
/** Where the runs through scripts/run.js write. */
const runTarget = path.join(outputs, "run");
let checkout: string;
/** The first run through scripts/run.js: basic.yaml without the code cache, and its output. */
let firstRun: { status: number | null; stderr: string; output: Record<string, string> };
/** Every config synthesized by the bundle's `main`, in order; each output folder then renamed to `<folder>.bundle`. */
let bundled: Synth[];
/**
 * One process for both: `node scripts/run.js main examples/basic.yaml` without the code cache
 * (the first run of the last test), whose preload, once that run is done, synthesizes every config
 * with the `main` of the bundle run.js ran (require finds it in the module cache) and writes the
 * results to a file (a process less: each loads the bundle, ~0.3 CPU-seconds).
 */
beforeAll(() => {
  run.ensureBuilt(REPO, BUNDLE);
  checkout = checkoutOfItsOwn();
  const results = path.join(outputs, "bundled.json");
  const driver = path.join(outputs, "driver.js");
  fs.writeFileSync(
    driver,
    `process.once("beforeExit", () => {
      process.chdir(${JSON.stringify(REPO)}); // the test thread's, which the printed output paths are relative to
      const { main } = require(${JSON.stringify(path.join(checkout, "dist", "main.js"))});
      const results = [];
      for (const [config, outdir] of ${JSON.stringify(configs.map((config) => [config, outdir(config)]))}) {
        const out = [], err = [];
        const code = main([config], { ...process.env, CDKTF_OUTDIR: outdir }, { out: (l) => out.push(l), err: (l) => err.push(l) });
        results.push({ code, out, err });
      }
      require("node:fs").writeFileSync(${JSON.stringify(results)}, JSON.stringify(results));
    });\n`,
  );
  const result = spawnSync(process.execPath, ["-r", driver, "scripts/run.js", "main", BASIC], {
    cwd: checkout,
    encoding: "utf8",
    env: { ...process.env, HCP_AZURE_CODE_CACHE: "0", CDKTF_OUTDIR: runTarget },
  });
  if (!fs.existsSync(results)) throw new Error(`the bundle's synths wrote no results (${result.status ?? result.signal}):\n${result.stderr}`);
  firstRun = { status: result.status, stderr: result.stderr, output: tree(runTarget) };
  bundled = JSON.parse(fs.readFileSync(results, "utf8"));
  for (const config of configs) fs.renameSync(outdir(config), `${outdir(config)}.bundle`);
}, 60000);

describe("the bundle (dist/main.js)", () => {
  it.each(configs.map((config, i) => [path.basename(config), config, i] as const))(
    "%s: the same bytes and lines as the sources with cdktf's resolver",
    (_name, config, i) => {
      const out: string[] = [];
      const err: string[] = [];
      const saved = [resolveModule.resolve, util.keysToSnakeCase];
      expect(typeof cdktfResolve).toBe("function");
      expect(typeof cdktfKeysToSnakeCase).toBe("function");
      resolveModule.resolve = cdktfResolve;
      util.keysToSnakeCase = cdktfKeysToSnakeCase;
      let code: number;
      try {
        code = main([config], { ...process.env, CDKTF_OUTDIR: outdir(config) }, { out: (l) => out.push(l), err: (l) => err.push(l) });
      } finally {
        [resolveModule.resolve, util.keysToSnakeCase] = saved;
      }
      expect(bundled[i]).toEqual({ code, out, err });
      expect(code).toBe(0);
      const expected = tree(outdir(config));
      expect(Object.keys(expected).length).toBeGreaterThan(3);
      expect(tree(`${outdir(config)}.bundle`)).toEqual(expected);
    },
  );

  it("run through scripts/run.js without the code cache, writing it, then using it: the same bytes", () => {
    const cacheDir = path.join(checkout, "dist", run.CODE_CACHE);
    const caches = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((file) => /^main-\w+\.bin$/.test(file)) : []);
    const synth = (env: NodeJS.ProcessEnv) => {
      fs.rmSync(runTarget, { recursive: true, force: true });
      const result = spawnSync(process.execPath, ["scripts/run.js", "main", BASIC], {
        cwd: checkout,
        encoding: "utf8",
        env: { ...process.env, ...env, CDKTF_OUTDIR: runTarget },
      });
      expect(result.stderr).not.toMatch(/Error/);
      expect(result.status).toBe(0);
      return tree(runTarget);
    };
    // The first run (HCP_AZURE_CODE_CACHE=0), in beforeAll.
    expect(firstRun.stderr).not.toMatch(/Error/);
    expect(firstRun.status).toBe(0);
    const withoutCache = firstRun.output;
    expect(caches()).toEqual([]);
    expect(synth({})).toEqual(withoutCache);
    expect(caches()).toHaveLength(1);
    expect(synth({})).toEqual(withoutCache);
    expect(Object.keys(withoutCache).length).toBeGreaterThan(3);
    // Nothing rebuilt: the runs ran the copy of the repository's bundle.
    expect(fs.readdirSync(path.join(checkout, "dist")).sort()).toEqual([run.CODE_CACHE, run.RECORD, run.STAMP, "main.js"].sort());
    expect(bundleFiles(checkout)).toEqual(copiedBundle);
    // The same bytes as the bundle's main wrote for basic.yaml in the driver.
    expect(withoutCache).toEqual(tree(`${outdir(BASIC)}.bundle`));
  });
});
