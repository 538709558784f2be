import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The scan for committed secrets (`__tests__/main.test.ts`, and help/getting-started.md's test in a
 * fresh clone after `npm run keygen`): every file git would commit in `root` (tracked, and untracked
 * ones it does not ignore; a git-ignored file such as keygen's keys/ or a pull secret beside a config
 * is the user's own) that is not TypeScript or Markdown. Returns the files scanned and, per file,
 * whether it holds a PEM private key or a client secret value.
 */
export function scanCommittedFiles(root: string): { scanned: string[]; findings: Array<{ file: string; privateKey: boolean; secret: boolean }> } {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files in ${root}: ${listed.stderr}`);
  const scanned = listed.stdout
    .split("\0")
    .filter((file) => file && !file.endsWith(".ts") && !file.endsWith(".md") && fs.statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile());
  const findings = scanned.map((file) => {
    const full = path.join(root, file);
    const text = fs.readFileSync(full, "utf8");
    return {
      file: full,
      privateKey: /BEGIN [A-Z ]*PRIVATE KEY/.test(text),
      secret: /"(client_secret|aadClientSecret|clientSecret)"\s*:\s*"[^"$]/.test(text),
    };
  });
  return { scanned, findings };
}
