import * as fs from "node:fs";
import * as path from "node:path";
import { DEBUG_ENV, main, Step, unexpectedErrorLines } from "../main";
import { outputFolderOf, outputFolderRefusal } from "../stacks/output-location";
import { EXAMPLES, tempDir, tree } from "./helpers";

function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err };
}

/** An environment whose reading fails: an error synth does not expect, at its first step. */
function brokenEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return new Proxy(extra, {
    get: (target, key) => {
      if (key === "HCP_AZURE_REVIEW") throw new TypeError("cannot read HCP_AZURE_REVIEW\nsecond line");
      return target[key as string];
    },
  });
}

describe("an error synth does not expect (a bug)", () => {
  it("is one paragraph saying what failed and whom to tell, exit 1, no stack trace unless HCP_AZURE_DEBUG=1", () => {
    const result = run([path.join(EXAMPLES, "basic.yaml")], brokenEnv());
    expect(result.code).toBe(1);
    expect(result.err).toEqual([
      `synth failed while starting with an error it does not expect (TypeError: cannot read HCP_AZURE_REVIEW). This is a bug in hcp-azure, please report it with your config (not your secret files) (help/troubleshooting.md#synth-says-this-is-a-bug-in-hcp-azure). Nothing was written. Set ${DEBUG_ENV}=1 to print its stack trace.`,
    ]);
    const debug = run([path.join(EXAMPLES, "basic.yaml")], brokenEnv({ [DEBUG_ENV]: "1" }));
    expect(debug.code).toBe(1);
    expect(debug.err[0]).toMatch(/a bug in hcp-azure.*Its stack trace:$/);
    expect(debug.err.length).toBeGreaterThan(1);
    expect(debug.err.slice(1).every((line) => /^\s+at /.test(line))).toBe(true);
  });

  it("never shows the message of an error thrown while secret files are read (it may quote them)", () => {
    const secret = 'Unexpected token \'x\', "{"auths": xSECRET-VALUE" is not valid JSON';
    const step: Step = { doing: "checking the secret files", readingSecrets: true, output: "nothing was written" };
    const lines = unexpectedErrorLines(new SyntaxError(secret), step, true);
    expect(lines.join("\n")).not.toContain("SECRET-VALUE");
    expect(lines[0]).toContain("while checking the secret files with an error it does not expect (SyntaxError, its message not shown");
    const building: Step = { doing: "building and writing the stacks", readingSecrets: false, output: "the previous output was not replaced" };
    expect(unexpectedErrorLines(new Error("HypershiftOperator: ConfigMap a/_b appears twice"), building, false)).toEqual([
      expect.stringMatching(
        /^synth failed while building and writing the stacks .*\(Error: HypershiftOperator: ConfigMap a\/_b appears twice\)\. This is a bug .* The previous output was not replaced\. Set HCP_AZURE_DEBUG=1/,
      ),
    ]);
  });
});

describe("the output folder must be a folder of its own", () => {
  let work: string;
  beforeEach(() => (work = tempDir()));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  it("an empty CDKTF_OUTDIR is unset (it was the current directory)", () => {
    expect(outputFolderOf({ CDKTF_OUTDIR: "" })).toBe(path.resolve("cdktf.out"));
    expect(outputFolderOf({})).toBe(path.resolve("cdktf.out"));
    expect(outputFolderOf({ CDKTF_OUTDIR: "out" })).toBe(path.resolve("out"));
  });

  it("a project folder (package.json or .git, no cdktf manifest.json) is refused and left exactly as it was", () => {
    const project = path.join(work, "project");
    fs.mkdirSync(path.join(project, "src"), { recursive: true });
    fs.writeFileSync(path.join(project, "package.json"), "{}\n");
    fs.writeFileSync(path.join(project, "src", "index.ts"), "export {};\n");
    fs.chmodSync(project, 0o755);
    const before = { files: tree(project), mode: fs.statSync(project).mode, inode: fs.statSync(project).ino };
    const result = run([path.join(EXAMPLES, "basic.yaml")], { CDKTF_OUTDIR: project });
    expect(result.code).toBe(1);
    expect(result.err).toEqual([
      expect.stringMatching(
        /^cannot write the output folder .*project: it holds package.json and is not an earlier output \(no cdktf manifest.json\): a project folder, not an output; synth replaces the output folder whole, so it must be a folder of its own: set CDKTF_OUTDIR/,
      ),
      "nothing was written.",
    ]);
    expect({ files: tree(project), mode: fs.statSync(project).mode, inode: fs.statSync(project).ino }).toEqual(before);
    expect(fs.readdirSync(work)).toEqual(["project"]);
  });

  it("a folder holding the config is refused", () => {
    const config = path.join(work, "env", "my.yaml");
    fs.mkdirSync(path.dirname(config));
    fs.writeFileSync(config, "prefix: x\n");
    const result = run([config], { CDKTF_OUTDIR: path.join(work, "env") });
    expect(result.code).toBe(1);
    expect(result.err[0]).toMatch(/ it holds the config file .*my\.yaml; synth replaces the output folder whole/);
    expect(fs.readdirSync(path.join(work, "env"))).toEqual(["my.yaml"]);
  });

  it("refuses the current directory and its ancestors (also through a symlink); accepts a real output, an empty or an absent folder", () => {
    const cwd = path.join(work, "a", "b");
    fs.mkdirSync(cwd, { recursive: true });
    fs.symlinkSync(cwd, path.join(work, "link"));
    const config = path.join(work, "config.yaml");
    expect(outputFolderRefusal(cwd, config, cwd)).toBe("is the current directory");
    expect(outputFolderRefusal(path.join(work, "link"), config, cwd)).toBe("is the current directory");
    expect(outputFolderRefusal(path.join(work, "a"), config, cwd)).toBe("holds the current directory");
    expect(outputFolderRefusal("/", config, cwd)).toBe("holds the current directory");
    // An earlier output holding a user's .git and package.json (kept across synths: output-folder.ts).
    const output = path.join(work, "cdktf.out");
    fs.mkdirSync(path.join(output, ".git"), { recursive: true });
    fs.writeFileSync(path.join(output, "package.json"), "{}");
    expect(outputFolderRefusal(output, config, cwd)).toMatch(/^holds package.json and is not an earlier output/);
    fs.rmSync(path.join(output, "package.json"));
    expect(outputFolderRefusal(output, config, cwd)).toMatch(/^holds .git and is not an earlier output/);
    // A clone of a repository of outputs (stacks/<stack>/cdk.tf.json committed, no manifest.json): accepted.
    fs.mkdirSync(path.join(output, "stacks", "shared"), { recursive: true });
    expect(outputFolderRefusal(output, config, cwd)).toBeUndefined();
    fs.writeFileSync(path.join(output, "cdktf.json"), "{}");
    expect(outputFolderRefusal(output, config, cwd)).toMatch(/^holds cdktf.json and is not an earlier output/);
    fs.writeFileSync(path.join(output, "package.json"), "{}");
    fs.writeFileSync(path.join(output, "manifest.json"), JSON.stringify({ version: "0.21.0", stacks: {} }));
    expect(outputFolderRefusal(output, config, cwd)).toBeUndefined();
    fs.mkdirSync(path.join(work, "empty"));
    expect(outputFolderRefusal(path.join(work, "empty"), config, cwd)).toBeUndefined();
    expect(outputFolderRefusal(path.join(work, "absent", "out"), config, cwd)).toBeUndefined();
    expect(outputFolderRefusal(path.join(cwd, "cdktf.out"), config, cwd)).toBeUndefined();
    // The project folder's sibling named like it is not inside it.
    expect(outputFolderRefusal(`${cwd}x`, config, cwd)).toBeUndefined();
  });
});
