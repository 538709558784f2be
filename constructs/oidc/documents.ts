import { keyId, rsaPublicKey } from "../../config/keys";

/**
 * The two OIDC documents Entra ID fetches to verify hosted-cluster service-account tokens,
 * built from the public signing key exactly as `ccoctl azure create-oidc-issuer` writes them
 * (openshift/cloud-credential-operator pkg/cmd/provisioning; notes §9), so an issuer made here
 * and one made by ccoctl serve the same bytes.
 */

/** ccoctl's Go template, byte for byte (tabs and spaces as in the source). */
export function discoveryDocument(issuerUrl: string): string {
  return [
    "{",
    `\t\t"issuer": "${issuerUrl}",`,
    `\t\t"jwks_uri": "${issuerUrl}/openid/v1/jwks",`,
    '\t\t"response_types_supported": [',
    '\t\t  "id_token"',
    "\t\t],",
    '\t\t"subject_types_supported": [',
    '\t\t  "public"',
    "\t\t],",
    '\t\t"id_token_signing_alg_values_supported": [',
    '\t\t  "RS256"',
    "\t\t]",
    "\t  }",
  ].join("\n");
}

/**
 * `{"keys":[{use, kty, kid, alg, n, e}]}` indented with 4 spaces, as Go's
 * `json.MarshalIndent(..., "", "    ")` of a go-jose JSONWebKey (field order use, kty, kid, alg, n, e).
 * `publicKeyPem` holds one PEM public key, or several one after another: the current key first,
 * then keys kept published during a rotation (help/oidc-issuer.md#rotating-the-signing-key); with
 * one key the document is ccoctl's byte for byte.
 */
export function jwksDocument(publicKeyPem: string): string {
  const blocks = publicKeyPem.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----\n?/g) ?? [publicKeyPem];
  const keys = new Map<string, object>();
  for (const block of blocks) {
    const key = rsaPublicKey(block);
    const jwk = key.export({ format: "jwk" });
    const kid = keyId(key);
    if (!keys.has(kid)) keys.set(kid, { use: "sig", kty: "RSA", kid, alg: "RS256", n: jwk.n, e: jwk.e });
  }
  return JSON.stringify({ keys: [...keys.values()] }, null, 4);
}
