import { spawnSync } from "node:child_process";
import { createPrivateKey, createPublicKey } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, tempDir } from "../helpers";
import { scanCommittedFiles } from "../secret-scan";

/**
 * help/getting-started.md's first hour, verbatim, in a fresh clone (issue 24 item 6): the commands
 * of its "1. Try it without Azure" and "3. Write your config" blocks, parsed from the page (so page
 * and test cannot drift), run with `sh` in a fresh clone of this repository (node_modules linked:
 * `npm ci` is the one command not run). Then, in that clone with keygen's private key in keys/,
 * the secret scan of __tests__/main.test.ts (__tests__/secret-scan.ts; the test keygen used to break).
 */

const page = (root: string) => fs.readFileSync(path.join(root, "help", "getting-started.md"), "utf8");

/** The commands of the first ```bash block under the `## <heading>` section of `doc`, comments dropped. */
function commandsOf(heading: string, doc = page(REPO)): string[] {
  const section = doc.slice(doc.indexOf(`\n## ${heading}\n`));
  expect(section.length).toBeLessThan(doc.length);
  const block = /```bash\n([\s\S]*?)```/.exec(section)![1];
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

/**
 * A fresh clone of the repository (its last commit: what CI and a new user get; other work in
 * progress in this working tree is not theirs), node_modules linked.
 */
function freshClone(): string {
  const clone = path.join(tempDir(), "hcp-azure");
  expect(spawnSync("git", ["clone", "-q", REPO, clone], { encoding: "utf8" }).status).toBe(0);
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(clone, "node_modules"));
  return clone;
}

describe("help/getting-started.md, verbatim from a fresh clone", () => {
  it("the page lists the commands this test runs", () => {
    const tryIt = commandsOf("1. Try it without Azure");
    const writeConfig = commandsOf("3. Write your config");
    expect(tryIt).toEqual(["npm ci && npm run synth", "npm test"]);
    expect(writeConfig[0]).toBe("npm run keygen");
    expect(writeConfig[writeConfig.length - 1]).toBe("npm run synth -- my-env.yaml");
  });

  it("synth, keygen, the copied example, its synth, the key the page says to use, then npm test", () => {
    const clone = freshClone();
    const tryIt = commandsOf("1. Try it without Azure", page(clone));
    const writeConfig = commandsOf("3. Write your config", page(clone));
    const { HCP_AZURE_CONFIG: _config, CDKTF_OUTDIR: _outdir, CDKTF_CONTEXT_JSON: _context, ...env } = process.env;
    const sh = (command: string) => {
      const result = spawnSync("sh", ["-c", command], { cwd: clone, env, encoding: "utf8" });
      return { command, status: result.status, output: `${result.stdout}\n${result.stderr}` };
    };
    const ok = (command: string) => {
      const result = sh(command);
      expect({ command, status: result.status, output: result.status === 0 ? "" : result.output }).toEqual({ command, status: 0, output: "" });
      return result.output;
    };
    const status = () => sh("git status --porcelain --untracked-files=normal").output.trim().split("\n").filter(Boolean).sort();
    const before = status();
    try {
      ok(tryIt[0].replace(/^npm ci && /, "")); // node_modules is linked, not installed
      for (const command of writeConfig) ok(command);
      // keygen's pair, as ccoctl azure create-key-pair makes it: RSA 4096, PKCS#1 private (0600), SPKI public.
      const privatePem = fs.readFileSync(path.join(clone, "keys", "serviceaccount-signer.private"), "utf8");
      const publicPem = fs.readFileSync(path.join(clone, "keys", "serviceaccount-signer.public"), "utf8");
      expect(fs.statSync(path.join(clone, "keys", "serviceaccount-signer.private")).mode & 0o777).toBe(0o600);
      expect(privatePem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
      expect(publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
      expect(createPrivateKey(privatePem).asymmetricKeyDetails?.modulusLength).toBe(4096);
      expect(createPublicKey(privatePem).export({ type: "spki", format: "pem" })).toBe(publicPem);
      expect(fs.existsSync(path.join(clone, "cdktf.out", "stacks", "cluster-myprefix-hc", "cdk.tf.json"))).toBe(true);

      // The page's next step: the config names the key keygen made (so the config loader accepts keygen's public key).
      const config = path.join(clone, "my-env.yaml");
      const text = fs.readFileSync(config, "utf8");
      expect(text).toContain("publicKeyFile: keys/example-signer.public");
      fs.writeFileSync(config, text.replace("publicKeyFile: keys/example-signer.public", "publicKeyFile: keys/serviceaccount-signer.public"));
      expect(ok("npm run synth -- my-env.yaml")).toContain("synthesized my-env.yaml -> cdktf.out/");

      // Nothing the steps made is for git but the config and the bundle folder it names.
      expect(status().filter((line) => !before.includes(line))).toEqual(["?? my-env.yaml", "?? operator/"]);

      // With the private key in keys/, the scan for committed secrets (the test keygen broke) still
      // passes: main.test.ts's scan, run here on the clone (a jest of its own would only add its
      // start-up; npm test's static checks read no file in keys/, and the suite runs them already).
      expect(tryIt[1]).toBe("npm test");
      const { scanned, findings } = scanCommittedFiles(clone);
      expect(scanned).toContain(path.join("__tests__", "stacks", "__snapshots__", "stacks.test.ts.snap"));
      expect(findings.filter((f) => f.privateKey || f.secret)).toEqual([]);
      // keygen's private key is one the scan would find, were git to commit it; git does not.
      expect(fs.readFileSync(path.join(clone, "keys", "serviceaccount-signer.private"), "utf8")).toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
      expect(scanned.filter((file) => file.startsWith("keys/"))).toEqual([]);
    } finally {
      fs.rmSync(path.dirname(clone), { recursive: true, force: true });
    }
  }, 600_000);
});
