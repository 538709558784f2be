import { z } from "zod";

/**
 * A file path in the config. A value that looks like a file's *contents* (a pull secret's JSON,
 * a PEM key, an SSH key, a token or base64 blob pasted into the path field) is refused as such and
 * never echoed: not in the error, not in a variable description, not in workspaces.json.
 */
export function filePath() {
  return z
    .string()
    .min(1, { error: "must be a path" })
    .superRefine((value, ctx) => {
      const why = contentsLike(value);
      if (why) {
        ctx.addIssue({
          code: "custom",
          // params.secret: config/load.ts shows no value for this issue.
          params: { secret: true },
          message: `looks like the file's contents (${why}), not a path; put the contents in a file and give its path (the value is not shown)`,
        });
      }
    });
}

/** Why `value` looks like file contents rather than a path; undefined when it looks like a path. */
export function contentsLike(value: string): string | undefined {
  if (value.length > 1024) return "longer than any path should be";
  if (/[\n\r]/.test(value)) return "it has line breaks";
  if (value.includes("\u0000")) return "it has a NUL character";
  if (/^\s*[{[]/.test(value)) return "it starts like JSON";
  if (/-----BEGIN /.test(value)) return "it holds a PEM header";
  if (/^\s*(ssh-(rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-\S+)\s+\S/.test(value)) return "it is an SSH key line";
  if (/(^|[\s"':=])eyJ[A-Za-z0-9_-]{10,}\./.test(value)) return "it holds a token";
  if (/[A-Za-z0-9+_=-]{64,}/.test(value.replace(/\//g, " / "))) return "it holds a long base64 or hex run";
  return undefined;
}
