/**
 * A Terraform Cloud remote run uploads only the stack's folder (cdktf.out/stacks/<stack>) and runs
 * Terraform there: what in a stack's JSON would reach outside it.
 */

const FILE_FUNCTIONS = /\b(file|filebase64|filesha1|filesha256|filesha512|filemd5|fileexists|fileset|templatefile|abspath)\s*\(/;
/** Settings whose value is a path on the machine that runs Terraform. */
const PATH_KEYS = new Set(["config_path", "config_paths", "path", "client_certificate_path"]);
/** Prose for people, never evaluated as a path. */
const PROSE_KEYS = new Set(["description", "error_message"]);

export interface Finding {
  readonly at: string;
  readonly value: string;
}

/** Every string in a stack's JSON that makes Terraform reach outside the stack folder. */
export function outsideReferences(json: unknown): Finding[] {
  const findings: Finding[] = [];
  const walk = (value: unknown, at: string, key: string) => {
    if (typeof value === "string") {
      if (PROSE_KEYS.has(key)) return;
      if (FILE_FUNCTIONS.test(value) || PATH_KEYS.has(key) || /(^|[\s"'(,])(~\/|\.\.\/|\.\.\\)/.test(value) || value === "~" || value === "..") {
        findings.push({ at, value });
      }
      return;
    }
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`, key));
    // "//": cdktf's metadata (construct paths), which Terraform ignores.
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) if (k !== "//") walk(v, `${at}.${k}`, k);
  };
  walk(json, "", "");
  return findings;
}
