import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, tempDir } from "../helpers";

/** scripts/run.js (npm run synth|keygen|schema, the cdktf.json app): compiles only what changed. */
const run: {
  buildInputs(root: string): string[];
  ensureBuilt(root: string, entry: string, compile?: (root: string) => void, options?: { useCache?: boolean; rebuild?: boolean }): boolean;
  removeStaleOutputs(root: string): string[];
  STAMP: string;
  RECORD: string;
} = require("../../scripts/run.js");
const buildCache: { BUNDLE_CACHE: string; BUNDLE_CACHE_ENTRIES: number } = require("../../scripts/build-cache.js");

/** A project shaped like this one: a tsconfig.build.json with both include shapes, sources. */
function project(): { root: string; entry: string; write(file: string, text: string): void } {
  const root = tempDir("hcp-azure-run-");
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write(
    "tsconfig.json",
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "node16",
        moduleResolution: "node16",
        lib: ["ES2022"],
        strict: true,
        types: [],
        skipLibCheck: true,
        noEmit: true,
      },
    }),
  );
  write(
    "tsconfig.build.json",
    JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: false, outDir: "dist", rootDir: "." }, include: ["main.ts", "lib/**/*.ts"] }),
  );
  // No @types/node (a faster tsc): the few Node globals used are declared.
  write(
    "main.ts",
    'import { message } from "./lib/message";\ndeclare const process: any, require: any, module: any;\nprocess.stdout.write(`${message} ${process.argv.slice(2).join(" ")} ${require.main === module}\\n`);\n',
  );
  write("lib/message.ts", 'export const message = "v1";\n');
  return { root, entry: path.join(root, "dist", "main.js"), write };
}

describe("scripts/run.js", () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));
  const fresh = () => {
    const p = project();
    roots.push(p.root);
    return p;
  };
  /** A stand-in for tsc that writes the entry and counts its calls. */
  const fakeCompile = () => {
    const calls: string[] = [];
    const compile = (root: string) => {
      calls.push(root);
      fs.mkdirSync(path.join(root, "dist"), { recursive: true });
      fs.writeFileSync(path.join(root, "dist", "main.js"), "");
    };
    return { calls, compile };
  };

  it("compiles when nothing was built, and not again while the sources are unchanged", () => {
    const p = fresh();
    const { calls, compile } = fakeCompile();
    expect(run.ensureBuilt(p.root, p.entry, compile)).toBe(true);
    expect(run.ensureBuilt(p.root, p.entry, compile)).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it.each([
    ["a source is edited", (p: ReturnType<typeof project>) => p.write("lib/message.ts", 'export const message = "v2";\n')],
    ["a source is added under an included folder", (p: ReturnType<typeof project>) => p.write("lib/deep/more.ts", "export {};\n")],
    ["a source is removed", (p: ReturnType<typeof project>) => fs.rmSync(path.join(p.root, "lib/message.ts"))],
    ["a tsconfig changes", (p: ReturnType<typeof project>) => p.write("tsconfig.json", "{}")],
    ["the lockfile changes (another TypeScript)", (p: ReturnType<typeof project>) => p.write("package-lock.json", "{}")],
    ["a plain-JavaScript file the bundles include changes", (p: ReturnType<typeof project>) => p.write("runtime/patch-cdktf.js", "// edited\n")],
    ["the compiled entry is gone", (p: ReturnType<typeof project>) => fs.rmSync(p.entry)],
  ])("compiles again when %s", (_name, change) => {
    const p = fresh();
    const { calls, compile } = fakeCompile();
    run.ensureBuilt(p.root, p.entry, compile);
    change(p);
    expect(run.ensureBuilt(p.root, p.entry, compile)).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it.each(fs.readdirSync(path.join(REPO, "runtime")).filter((file) => file.endsWith(".js")))(
    "compiles again when runtime/%s (production code every bundle holds) is edited",
    (file) => {
      const p = fresh();
      fs.cpSync(path.join(REPO, "runtime"), path.join(p.root, "runtime"), { recursive: true });
      const { calls, compile } = fakeCompile();
      run.ensureBuilt(p.root, p.entry, compile);
      expect(run.buildInputs(p.root)).toContain(`runtime/${file}`);
      p.write(`runtime/${file}`, `${fs.readFileSync(path.join(p.root, "runtime", file), "utf8")}// edited\n`);
      expect(run.ensureBuilt(p.root, p.entry, compile)).toBe(true);
      expect(calls).toHaveLength(2);
    },
  );

  it("removes the output of moved or deleted sources, which would shadow their new place (dist/x.js before dist/x/index.js)", () => {
    const p = fresh();
    const { compile } = fakeCompile();
    run.ensureBuilt(p.root, p.entry, compile);
    // What an older checkout compiled: lib/rules.ts, since moved to lib/rules/index.ts.
    for (const file of ["lib/rules.js", "lib/rules.js.map", "lib/rules.d.ts", "lib/message.js"]) p.write(`dist/${file}`, "");
    expect(run.removeStaleOutputs(p.root)).toEqual(["lib/rules.d.ts", "lib/rules.js", "lib/rules.js.map"]);
    expect(fs.existsSync(path.join(p.root, "dist", "lib", "message.js"))).toBe(true);
    expect(fs.existsSync(p.entry)).toBe(true);
    // ensureBuilt does it on every run, even when nothing needs compiling.
    p.write("dist/lib/old.js", "");
    expect(run.ensureBuilt(p.root, p.entry, compile)).toBe(false);
    expect(fs.existsSync(path.join(p.root, "dist", "lib", "old.js"))).toBe(false);
  });

  it("a failed compile records nothing, so the next run compiles again", () => {
    const p = fresh();
    expect(() =>
      run.ensureBuilt(p.root, p.entry, () => {
        throw new Error("tsc failed");
      }),
    ).toThrow("tsc failed");
    expect(fs.existsSync(path.join(p.root, "dist", run.STAMP))).toBe(false);
    const { calls, compile } = fakeCompile();
    expect(run.ensureBuilt(p.root, p.entry, compile)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("hashes every source tsconfig.build.json compiles in this repository", () => {
    const inputs = run.buildInputs(REPO);
    expect(inputs).toEqual(
      expect.arrayContaining(["main.ts", "tsconfig.build.json", "tsconfig.json", "package-lock.json", "stacks/app.ts", "scripts/keygen.ts"]),
    );
    const config = JSON.parse(fs.readFileSync(path.join(REPO, "tsconfig.build.json"), "utf8"));
    for (const dir of config.include.filter((p: string) => p.endsWith("/**/*.ts")).map((p: string) => p.slice(0, -"/**/*.ts".length))) {
      const sources = (fs.readdirSync(path.join(REPO, dir), { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) expect(inputs).toContain(path.join(dir, source));
    }
  });

  describe("the build cache shared through node_modules (review worktrees, clones with a linked node_modules)", () => {
    /** Checkouts whose node_modules links one folder holding `dep.js`, which every build records as read. */
    const linked = () => {
      const modules = tempDir("hcp-azure-run-modules-");
      roots.push(modules);
      fs.writeFileSync(path.join(modules, "dep.js"), "v1\n");
      const checkout = () => {
        const p = fresh();
        fs.symlinkSync(modules, path.join(p.root, "node_modules"), "dir");
        return p;
      };
      return { modules, checkout, cache: path.join(modules, buildCache.BUNDLE_CACHE) };
    };
    /** A stand-in for the bundler: writes the entry (its content says which checkout built it) and the record of what it read. */
    const recordingCompile = () => {
      const calls: string[] = [];
      const compile = (root: string) => {
        calls.push(root);
        fs.mkdirSync(path.join(root, "dist"), { recursive: true });
        fs.writeFileSync(path.join(root, "dist", "main.js"), `built in ${root}\n`);
        fs.writeFileSync(path.join(root, "dist", run.RECORD), JSON.stringify({ inputs: ["main.ts", "node_modules/dep.js"], outputs: ["main.js"] }));
      };
      return { calls, compile };
    };

    it("a second checkout of the same sources copies the first one's build instead of bundling", () => {
      const { checkout } = linked();
      const [a, b] = [checkout(), checkout()];
      const { calls, compile } = recordingCompile();
      expect(run.ensureBuilt(a.root, a.entry, compile, { useCache: true })).toBe(true);
      expect(run.ensureBuilt(b.root, b.entry, compile, { useCache: true })).toBe(true);
      expect(calls).toEqual([a.root]);
      expect(fs.readFileSync(b.entry, "utf8")).toBe(`built in ${a.root}\n`);
      // b is stamped as built: its next run does nothing.
      expect(run.ensureBuilt(b.root, b.entry, compile, { useCache: true })).toBe(false);
    });

    it.each([
      ["a source differs", (p: ReturnType<typeof project>) => p.write("lib/message.ts", 'export const message = "v2";\n')],
      [
        "a dependency the build read changed",
        (_p: ReturnType<typeof project>, modules: string) => fs.writeFileSync(path.join(modules, "dep.js"), "v2, longer\n"),
      ],
    ])("bundles again when %s", (_name, change) => {
      const { modules, checkout } = linked();
      const a = checkout();
      const { calls, compile } = recordingCompile();
      run.ensureBuilt(a.root, a.entry, compile, { useCache: true });
      const b = checkout();
      change(b, modules);
      run.ensureBuilt(b.root, b.entry, compile, { useCache: true });
      expect(calls).toEqual([a.root, b.root]);
      expect(fs.readFileSync(b.entry, "utf8")).toBe(`built in ${b.root}\n`);
    });

    it("bundles when the cache is switched off (HCP_AZURE_BUNDLE_CACHE=0, npm run build) or its entry is damaged", () => {
      const { cache, checkout } = linked();
      const { calls, compile } = recordingCompile();
      const a = checkout();
      run.ensureBuilt(a.root, a.entry, compile, { useCache: true });
      const b = checkout();
      run.ensureBuilt(b.root, b.entry, compile, { useCache: false });
      const rebuilt = checkout();
      run.ensureBuilt(rebuilt.root, rebuilt.entry, compile, { rebuild: true });
      const [entry] = fs.readdirSync(cache);
      fs.rmSync(path.join(cache, entry, "main.js"));
      const c = checkout();
      run.ensureBuilt(c.root, c.entry, compile, { useCache: true });
      expect(calls).toEqual([a.root, b.root, rebuilt.root, c.root]);
      expect(fs.readFileSync(c.entry, "utf8")).toBe(`built in ${c.root}\n`);
    });

    it(`keeps the ${buildCache.BUNDLE_CACHE_ENTRIES} most recently used builds`, () => {
      const { cache, checkout } = linked();
      const { compile } = recordingCompile();
      const builtBy = (name: string) => fs.readFileSync(path.join(cache, name, "main.js"), "utf8");
      const checkouts = Array.from({ length: buildCache.BUNDLE_CACHE_ENTRIES + 1 }, (_, i) => {
        const p = checkout();
        p.write("lib/message.ts", `export const message = "v${i}";\n`);
        run.ensureBuilt(p.root, p.entry, compile, { useCache: true });
        // Distinct use times, oldest first (whatever the file system's time resolution).
        const used = new Date(Date.now() - (buildCache.BUNDLE_CACHE_ENTRIES + 1 - i) * 60_000);
        const entry = fs.readdirSync(cache).find((name) => builtBy(name) === `built in ${p.root}\n`)!;
        fs.utimesSync(path.join(cache, entry), used, used);
        return p;
      });
      const kept = fs.readdirSync(cache).map(builtBy).sort();
      expect(kept).toEqual(
        checkouts
          .slice(1)
          .map((p) => `built in ${p.root}\n`)
          .sort(),
      );
    });
  });

  /**
   * A fresh project with this repository's build scripts and node_modules: the real bundler. Its
   * runs (`realRun`) never use the build cache (HCP_AZURE_BUNDLE_CACHE=0): through the linked
   * node_modules it is this repository's, where an earlier run's build of these same sources would
   * be copied instead of bundled (a result kept across runs), and each would take one of the slots
   * real builds are kept in.
   */
  const withRealBuild = () => {
    const p = fresh();
    fs.mkdirSync(path.join(p.root, "scripts"));
    for (const file of ["run.js", "bundle.js", "build-cache.js"]) fs.copyFileSync(path.join(REPO, "scripts", file), path.join(p.root, "scripts", file));
    fs.cpSync(path.join(REPO, "runtime"), path.join(p.root, "runtime"), { recursive: true });
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(p.root, "node_modules"), "dir");
    return p;
  };
  const realRun = (root: string, args: string[]) =>
    spawnSync(process.execPath, ["scripts/run.js", ...args], { cwd: root, encoding: "utf8", env: { ...process.env, HCP_AZURE_BUNDLE_CACHE: "0" } });

  it("with the real build: runs the entry as the main module with its arguments, and picks up a source edit", () => {
    const p = withRealBuild();
    const synth = () => realRun(p.root, ["main", "a", "b"]);
    // The build says nothing (no Node warning, e.g. of a require cycle between run.js, build-cache.js and bundle.js).
    expect(synth()).toMatchObject({ status: 0, stdout: "v1 a b true\n", stderr: "" });
    const built = fs.statSync(p.entry).mtimeMs;
    expect(synth()).toMatchObject({ status: 0, stdout: "v1 a b true\n" });
    expect(fs.statSync(p.entry).mtimeMs).toBe(built); // not recompiled
    p.write("lib/message.ts", 'export const message = "v2";\n');
    expect(synth()).toMatchObject({ status: 0, stdout: "v2 a b true\n" });
  });

  it("with the real build: rebuilds when any file the bundle holds changes (a dependency, a file outside the include list), and removes what it did not write", () => {
    const p = withRealBuild();
    // A dependency of the project's own (not the shared node_modules, which must stay as it is).
    p.write("vendor/node_modules/greeting/index.js", 'module.exports = "hello";\n');
    p.write(
      "main.ts",
      'import { message } from "./lib/message";\ndeclare const process: any, require: any;\nconst greeting: string = require("./vendor/node_modules/greeting");\nprocess.stdout.write(`${greeting} ${message}\\n`);\n',
    );
    const synth = () => realRun(p.root, ["main"]);
    expect(synth()).toMatchObject({ status: 0, stdout: "hello v1\n" });
    const record = JSON.parse(fs.readFileSync(path.join(p.root, "dist", run.RECORD), "utf8"));
    expect(record.outputs).toEqual(["main.js"]);
    // The sources, the dependency, the patches and the cdktf they patch: every one a file.
    expect(record.inputs).toEqual(
      expect.arrayContaining([
        "lib/message.ts",
        "main.ts",
        "vendor/node_modules/greeting/index.js",
        "runtime/patch-cdktf.js",
        expect.stringMatching(/cdktf\/lib\/util\.js$/),
      ]),
    );
    for (const input of record.inputs) expect(fs.statSync(path.join(p.root, input)).isFile()).toBe(true);
    // Not a source tsconfig.build.json includes, so only the record of what the bundle read sees it.
    p.write("vendor/node_modules/greeting/index.js", 'module.exports = "hi, longer";\n');
    expect(synth()).toMatchObject({ status: 0, stdout: "hi, longer v1\n" });
    // What an older tsc build left (its source still exists) would otherwise run under a matching stamp.
    p.write("dist/lib/message.js", "stale\n");
    expect(synth()).toMatchObject({ status: 0, stdout: "hi, longer v1\n" });
    expect(fs.existsSync(path.join(p.root, "dist", "lib", "message.js"))).toBe(false);
  });
});
