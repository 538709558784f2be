import { holdsTokenMarker } from "./boundary";
import { readLimitedFile } from "./read-file";

export type TrustBundleResult = { readonly ok: true; readonly pem: string } | { readonly ok: false; readonly message: string };

/**
 * Reads an additional trust bundle at synth: it is public (CA certificates), and the CLI reads it
 * when it writes the ConfigMap too. A file holding a private key is refused without echoing it.
 */
export function readTrustBundle(file: string): TrustBundleResult {
  const read = readLimitedFile(file, "trustBundle");
  if (!read.ok) return { ok: false, message: read.message };
  const text = read.text;
  if (holdsTokenMarker(text))
    return { ok: false, message: "holds text that CDK for Terraform reserves for references (TfToken[...]); a trust bundle holds only PEM certificates" };
  if (/PRIVATE KEY/.test(text)) return { ok: false, message: "holds a PRIVATE key; a trust bundle holds only CA certificates" };
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(text)) {
    return { ok: false, message: "holds no PEM certificate (-----BEGIN CERTIFICATE-----)" };
  }
  return { ok: true, pem: text };
}
