/**
 * Whether a private key is the private half of a public key known at synth, decided inside
 * Terraform: the tls provider's `tls_public_key` data source derives the public key, and this
 * compares it with the published one. Both sides are PEM of the SPKI DER, so the comparison drops
 * the armor lines and all whitespace (line breaks, CRLF, line width) and compares the base64.
 *
 * `public_key_pem` of `tls_public_key` (hashicorp/tls 4.1.0, the version @cdktf/provider-tls 11
 * pins): `string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: x509.MarshalPKIXPublicKey(pub)}))`
 * (internal/provider/common_key.go, setPublicKeyAttributes), documented as "The public key, in
 * PEM (RFC 1421) format ... append a `\n` at the end of the PEM" (docs/data-sources/public_key.md),
 * https://github.com/hashicorp/terraform-provider-tls/blob/v4.1.0/internal/provider/common_key.go.
 * So its body is the base64 of the SubjectPublicKeyInfo DER, 64 characters a line, which is what
 * config/signing-key.ts exports (`{ type: "spki", format: "pem" }`).
 */

/** Armor lines (`-----BEGIN PUBLIC KEY-----`) and whitespace, as an RE2 pattern (HCL string literal: backslashes doubled). */
const ARMOR_AND_WHITESPACE = String.raw`-----[A-Z0-9 ]+-----|\\s`;

/** The base64 body of a PEM, as the HCL expression below leaves it. */
export function pemBody(pem: string): string {
  return pem.replace(/-----[A-Z0-9 ]+-----|\s/g, "");
}

/**
 * An HCL boolean expression (no `${ }`): the PEM that `publicKeyPem` (an HCL expression, e.g.
 * `self.public_key_pem`) evaluates to is the public key `publishedPem`.
 */
export function publicKeyMatches(publicKeyPem: string, publishedPem: string): string {
  if (!/^\s*-----BEGIN PUBLIC KEY-----/.test(publishedPem))
    throw new Error("publicKeyMatches: the published key must be SPKI PEM (-----BEGIN PUBLIC KEY-----)");
  const body = pemBody(publishedPem);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new Error("publicKeyMatches: the published key's PEM body is not base64");
  return `replace(${publicKeyPem}, "/${ARMOR_AND_WHITESPACE}/", "") == "${body}"`;
}
