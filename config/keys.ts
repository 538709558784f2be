import { createHash, createPublicKey, KeyObject } from "node:crypto";

/**
 * The service-account signing key as Kubernetes and Entra ID see it: pure functions of the key,
 * no file and no config. They live here, at the bottom of the layers, because both ends need
 * them: config/signing-key.ts validates the key file when the config loads (every error at once,
 * at the boundary), and constructs/oidc/documents.ts publishes it in the JWKS. Everything may
 * import from config/; config/ imports nothing above it.
 */

/**
 * Key ID as Kubernetes computes it for service-account tokens (and ccoctl for the JWKS):
 * base64url, no padding, of SHA-256 over the DER SubjectPublicKeyInfo. Tokens signed by the
 * hosted kube-apiserver carry this `kid`, so it must match.
 */
export function keyId(publicKey: KeyObject): string {
  return createHash("sha256")
    .update(publicKey.export({ type: "spki", format: "der" }))
    .digest("base64url");
}

/** Parses a PEM public key; only RSA is accepted (Entra verifies RS256 only). */
export function rsaPublicKey(publicKeyPem: string): KeyObject {
  if (/PRIVATE KEY/.test(publicKeyPem)) {
    throw new Error("expected a public key, got a private key: only the public key may be published");
  }
  const key = createPublicKey(publicKeyPem);
  if (key.asymmetricKeyType !== "rsa") {
    throw new Error(`expected an RSA public key, got ${key.asymmetricKeyType}: Entra ID verifies RS256 tokens only`);
  }
  return key;
}
