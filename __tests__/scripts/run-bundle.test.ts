import { spawnSync } from "node:child_process";
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

/** Every config synthesized by the bundle's `main`, in one process; each output folder then renamed to `<folder>.bundle`. */
let bundled: Synth[];
beforeAll(() => {
  run.ensureBuilt(REPO, BUNDLE);
  const driver = `
    const { main } = require(${JSON.stringify(BUNDLE)});
    const results = [];
    for (const [config, outdir] of ${JSON.stringify(configs.map((config) => [config, outdir(config)]))}) {
      const out = [], err = [];
      const code = main([config], { ...process.env, CDKTF_OUTDIR: outdir }, { out: (l) => out.push(l), err: (l) => err.push(l) });
      results.push({ code, out, err });
    }
    process.stdout.write(JSON.stringify(results));`;
  const result = spawnSync(process.execPath, ["-e", driver], { cwd: REPO, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(result.stderr);
  bundled = JSON.parse(result.stdout);
  for (const config of configs) fs.renameSync(outdir(config), `${outdir(config)}.bundle`);
}, 60000);

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
  return checkout;
}

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
    const checkout = checkoutOfItsOwn();
    const config = path.join(EXAMPLES, "basic.yaml");
    const target = path.join(outputs, "run");
    const cacheDir = path.join(checkout, "dist", run.CODE_CACHE);
    const caches = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((file) => /^main-\w+\.bin$/.test(file)) : []);
    const synth = (env: NodeJS.ProcessEnv) => {
      fs.rmSync(target, { recursive: true, force: true });
      const result = spawnSync(process.execPath, ["scripts/run.js", "main", config], {
        cwd: checkout,
        encoding: "utf8",
        env: { ...process.env, ...env, CDKTF_OUTDIR: target },
      });
      expect(result.stderr).not.toMatch(/Error/);
      expect(result.status).toBe(0);
      return tree(target);
    };
    expect(caches()).toEqual([]);
    const withoutCache = synth({ HCP_AZURE_CODE_CACHE: "0" });
    expect(caches()).toEqual([]);
    expect(synth({})).toEqual(withoutCache);
    expect(caches()).toHaveLength(1);
    expect(synth({})).toEqual(withoutCache);
    expect(Object.keys(withoutCache).length).toBeGreaterThan(3);
    // Nothing rebuilt: the runs ran the copy of the repository's bundle.
    expect(fs.readdirSync(path.join(checkout, "dist")).sort()).toEqual([run.CODE_CACHE, run.RECORD, run.STAMP, "main.js"].sort());
    // The same bytes as the repository's bundle wrote for basic.yaml above (the copy runs that bundle).
    expect(withoutCache).toEqual(tree(`${outdir(config)}.bundle`));
  });
});
