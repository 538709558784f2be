import { ContentMemo } from "./content-memo";
import { readLimitedFile } from "./read-file";
import { keyId, rsaPublicKey } from "./keys";

/** Smallest RSA modulus accepted; ccoctl and `npm run keygen` make 4096-bit keys. */
export const MIN_RSA_BITS = 2048;

export type PublicKeyResult = { readonly ok: true; readonly pem: string; readonly keyId: string } | { readonly ok: false; readonly message: string };

/**
 * Reads a service-account signing public key for publishing. Only the public key file is ever
 * opened at synth; a private key given by mistake is rejected without echoing its content.
 */
export function readPublicKey(file: string): PublicKeyResult {
  const read = readLimitedFile(file, "key", "file not found (create a key pair with `npm run keygen`)");
  if (!read.ok) return { ok: false, message: read.message };
  return parsedKeys.get(read.text, () => publicKeyOfText(read.text));
}

/** The parsed keys of the last few key texts (content-memo.ts): a key's parse and ID are a pure function of its text. */
const parsedKeys = new ContentMemo<PublicKeyResult>(16);

function publicKeyOfText(text: string): PublicKeyResult {
  if (/PRIVATE KEY/.test(text)) {
    return { ok: false, message: "holds a PRIVATE key; give the public key file (serviceaccount-signer.public)" };
  }
  try {
    const key = rsaPublicKey(text);
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) return { ok: false, message: `is a ${bits}-bit RSA key; at least ${MIN_RSA_BITS} bits are required` };
    return { ok: true, pem: key.export({ type: "spki", format: "pem" }).toString(), keyId: keyId(key) };
  } catch (error) {
    return { ok: false, message: `is not a PEM RSA public key (${(error as Error).message})` };
  }
}
