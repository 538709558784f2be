import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { main as synth } from "../../main";
import { REPO, tempDir } from "../helpers";

/**
 * The CI recipe of help/review.md, run as far as this machine allows: its Review step's script,
 * verbatim, in a fresh clone (checkout with fetch-depth 0) of a repository with this checkout's
 * files, reviewing origin/main against a branch that adds a NodePool. The runner holds no keys/, no
 * secret file and no kubeconfig, and the config is files mode with a kubeconfig path: every git ref
 * is synthesized in review mode. `npm ci` is the one step replaced (node_modules linked: no network).
 */

const gitWith = (input: Buffer | undefined, cwd: string, ...args: string[]): string => {
  const result = spawnSync("git", ["-C", cwd, "-c", "user.name=test", "-c", "user.email=test@example.com", ...args], { encoding: "utf8", input });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
};
const git = (cwd: string, ...args: string[]): string => gitWith(undefined, cwd, ...args);

/** A file of a commit: path, git mode, content. */
type CommitFile = readonly [string, "100644" | "100755", Buffer];

/**
 * A `git fast-import` stream: each commit on its branch, holding `files` on top of `from` (a
 * branch). One process writes every object and ref, packed, where init/add/commit/checkout/commit
 * took five and a copy of the files on disk.
 */
function fastImportStream(commits: ReadonlyArray<{ branch: string; message: string; from?: string; files: readonly CommitFile[] }>): Buffer {
  const parts: Buffer[] = [];
  const data = (content: Buffer) => parts.push(Buffer.from(`data ${content.length}\n`), content, Buffer.from("\n"));
  for (const commit of commits) {
    parts.push(Buffer.from(`commit refs/heads/${commit.branch}\ncommitter test <test@example.com> 1700000000 +0000\n`));
    data(Buffer.from(commit.message));
    if (commit.from) parts.push(Buffer.from(`from refs/heads/${commit.from}\n`));
    for (const [file, mode, content] of commit.files) {
      if (/^"|\n/.test(file)) throw new Error(`${file}: a path fast-import would need quoted`);
      parts.push(Buffer.from(`M ${mode} inline ${file}\n`));
      data(content);
    }
  }
  return Buffer.concat(parts);
}

/** A files-mode environment whose key, secret files and kubeconfig exist only where Terraform runs (git-ignored here). */
const envConfig = (pools: string) => `prefix: myprefix
subscriptionId: 00000000-0000-0000-0000-000000000000
tenantId: 11111111-1111-1111-1111-111111111111
location: eastus
resourceGroup:
  name: os4-common
  create: false
serviceAccountSigningKey:
  publicKeyFile: ../keys/signer.public
  privateKeyFile: ../keys/signer.private
clusters:
  - name: hc1
    hostedCluster:
      releaseImage: quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64
      baseDomain: example.com
      publicZone:
        resourceGroupName: myparent-dns-rg
      pullSecretFile: ../secrets/pull-secret.json
      sshPublicKeyFile: ../keys/ssh.pub
      nodePools:
${pools}
managementCluster:
  kubeconfig:
    path: ../secrets/mgmt.kubeconfig
  pullSecretFile: ../secrets/pull-secret.json
  operator:
    bundleFile: ../examples/operator/hypershift-operator.yaml
secrets:
  source: files
`;

/** The workflow of help/review.md (its only yaml block). */
function workflow(): { jobs: { review: { steps: Array<{ name?: string; run?: string; env?: Record<string, string> }> } } } {
  const help = fs.readFileSync(path.join(REPO, "help", "review.md"), "utf8");
  const blocks = [...help.matchAll(/```yaml\n([\s\S]*?)```/g)];
  expect(blocks).toHaveLength(1);
  return parse(blocks[0][1]);
}

describe("help/review.md's CI recipe", () => {
  const work = tempDir("hcp-azure-review-ci-");
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  test("the workflow installs with npm ci, writes review.md with npm run review, posts it with gh pr comment", () => {
    const steps = workflow().jobs.review.steps;
    const runs = steps.map((step) => step.run ?? "");
    expect(runs).toContain("npm ci");
    expect(runs.join("\n")).toMatch(/npm run --silent review -- --output review\.md "origin\/\$BASE_REF" HEAD/);
    expect(runs.join("\n")).toMatch(/gh pr comment "\$PR" --body-file review\.md/);
  });

  test("its Review step on a fresh clone with no keys, secret files or kubeconfig: exit 0, the Markdown written", () => {
    // origin, a bare repository as GitHub's: main holds this checkout's files (tracked and new ones
    // git does not ignore, as the working tree has them, executable bits kept) and the config; the
    // branch feature adds a NodePool.
    const origin = path.join(work, "origin.git");
    const files: CommitFile[] = [];
    for (const file of spawnSync("git", ["-C", REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" })
      .stdout.split("\0")
      .filter(Boolean)) {
      const from = path.join(REPO, file);
      const stat = fs.statSync(from, { throwIfNoEntry: false });
      if (!stat?.isFile()) continue;
      files.push([file, stat.mode & 0o100 ? "100755" : "100644", fs.readFileSync(from)]);
    }
    const pool = (name: string) => `        - name: ${name}\n          replicas: 2\n`;
    const prod = (pools: string): CommitFile => ["envs/prod.yaml", "100644", Buffer.from(envConfig(pools))];
    git(work, "init", "--quiet", "--bare", "--initial-branch=main", origin);
    // Level-1 zlib and no deltas: the objects are the same, written in a third of the CPU time.
    gitWith(
      fastImportStream([
        { branch: "main", message: "base", files: [...files, prod(pool("hc1"))] },
        { branch: "feature", message: "a second NodePool", from: "main", files: [prod(pool("hc1") + pool("extra"))] },
      ]),
      origin,
      "-c",
      "core.compression=1",
      "fast-import",
      "--quiet",
      "--depth=0",
    );

    // actions/checkout with fetch-depth 0; `npm ci` stands as a link to this checkout's node_modules.
    const clone = path.join(work, "clone");
    git(work, "clone", "--quiet", "--branch", "feature", origin, clone);
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(clone, "node_modules"), "dir");
    for (const absent of ["keys", "secrets"]) expect(fs.existsSync(path.join(clone, absent))).toBe(false);

    const step = workflow().jobs.review.steps.find((s) => s.name === "Review");
    const outputs = path.join(work, "github-output");
    fs.writeFileSync(outputs, "");
    const env: NodeJS.ProcessEnv = { ...process.env, HCP_AZURE_CONFIG: step?.env?.HCP_AZURE_CONFIG, BASE_REF: "main", GITHUB_OUTPUT: outputs };
    for (const name of ["HCP_AZURE_REVIEW", "CDKTF_OUTDIR", "CDKTF_CONTEXT_JSON", "npm_config_prefix"]) delete env[name];
    // GitHub runs a step's script with `bash -e {0}`.
    const run = spawnSync("bash", ["-e", "-c", step?.run ?? "exit 99"], { cwd: clone, env, encoding: "utf8", timeout: 240_000 });
    expect(run.stderr).not.toMatch(/review: |synth of .* failed/);
    const markdown = fs.readFileSync(path.join(clone, "review.md"), "utf8");
    expect(fs.readFileSync(outputs, "utf8")).toBe("exit=0\n");
    expect(markdown).toContain("✅ **Nothing dangerous.**");
    expect(markdown).toMatch(
      /review mode: serviceAccountSigningKey\.publicKeyFile .*keys\/signer\.public does not exist here; the JWKS publishes a placeholder key/,
    );
    expect(markdown).toMatch(/\| cluster-hc1 \| changed \| 1 \| 0 \| 0 \| 0 \|/);
    expect(markdown).toContain("Unchanged: identities-hc1, infra-hc1, management, shared.");
    expect(markdown).toMatch(/— NodePool extra: Standard_D4s_v5, 2 replicas, .*release 4\.21\.0-x86_64/);
    // Nothing was written beside the config (records of deployed state) and no worktree is left.
    expect(
      git(clone, "status", "--porcelain", "--ignored")
        .split("\n")
        .filter((l) => l && !/node_modules|review\.md|dist\//.test(l)),
    ).toEqual([]);
    expect(git(clone, "worktree", "list").trim().split("\n")).toHaveLength(1);
  }, 300_000);
});

describe("synth in review mode (HCP_AZURE_REVIEW=1)", () => {
  const work = tempDir("hcp-azure-review-mode-");
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  const config = path.join(work, "envs", "prod.yaml");
  fs.mkdirSync(path.dirname(config), { recursive: true });
  fs.writeFileSync(config, envConfig("        - name: hc1\n          replicas: 2\n").replace("../examples/", `${REPO}/examples/`));
  const run = (env: NodeJS.ProcessEnv, outdir: string) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = synth([config], { CDKTF_OUTDIR: path.join(work, outdir), ...env }, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  test("without it, the missing key, secret files and kubeconfig are refused", () => {
    const result = run({}, "plain");
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/serviceAccountSigningKey\.publicKeyFile: .* file not found/);
  });

  test("with it, synth needs none of them: the JWKS publishes the placeholder key, said in a warning; no deploy hint, no record written", () => {
    const result = run({ HCP_AZURE_REVIEW: "1" }, "review");
    expect(result.err).toMatch(
      /warning: review mode: serviceAccountSigningKey\.publicKeyFile .*signer\.public does not exist here; the JWKS publishes a placeholder key/,
    );
    expect(result.code).toBe(0);
    expect(result.out).not.toMatch(/^deploy:/m);
    const shared = fs.readFileSync(path.join(work, "review", "stacks", "shared", "cdk.tf.json"), "utf8");
    expect(shared).toContain('\\"keys\\"');
    expect(fs.readdirSync(path.dirname(config))).toEqual(["prod.yaml"]);
  });

  test("under the cdktf CLI (deploy, diff, ...) it is refused: review-mode output is never deployed", () => {
    const result = run({ HCP_AZURE_REVIEW: "1", CDKTF_CONTEXT_JSON: "{}" }, "cli");
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/HCP_AZURE_REVIEW is set: review-mode output is for npm run review only/);
    expect(fs.existsSync(path.join(work, "cli"))).toBe(false);
  });
});
