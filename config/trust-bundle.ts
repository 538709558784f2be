import * as fs from "node:fs";

export type TrustBundleResult = { readonly ok: true; readonly pem: string } | { readonly ok: false; readonly message: string };

/**
 * Reads an additional trust bundle at synth: it is public (CA certificates), and the CLI reads it
 * when it writes the ConfigMap too. A file holding a private key is refused without echoing it.
 */
export function readTrustBundle(file: string): TrustBundleResult {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, message: code === "ENOENT" ? "file not found" : `cannot be read (${code})` };
  }
  if (/PRIVATE KEY/.test(text)) return { ok: false, message: "holds a PRIVATE key; a trust bundle holds only CA certificates" };
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(text)) {
    return { ok: false, message: "holds no PEM certificate (-----BEGIN CERTIFICATE-----)" };
  }
  return { ok: true, pem: text };
}
