import { execFileSync } from "node:child_process";
import { createHash, createPublicKey } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { keyId, rsaPublicKey } from "../../config/keys";
import { discoveryDocument, jwksDocument } from "../../constructs/oidc/documents";
import { rsaKeyPair, tempDir } from "../helpers";

const ISSUER = "https://acct123.blob.core.windows.net/acct123";
const { publicKey, privateKey } = rsaKeyPair();

describe("OIDC documents", () => {
  it("kid is base64url SHA-256 of the DER SubjectPublicKeyInfo, as openssl computes it", () => {
    // Independent computation through the openssl CLI (Kubernetes' keyID algorithm).
    const dir = tempDir();
    const pem = path.join(dir, "key.public");
    fs.writeFileSync(pem, publicKey);
    const der = execFileSync("openssl", ["pkey", "-pubin", "-in", pem, "-outform", "DER"]);
    fs.rmSync(dir, { recursive: true, force: true });
    const expected = createHash("sha256").update(der).digest("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(keyId(createPublicKey(publicKey))).toBe(expected);
  });

  it("JWKS has exactly ccoctl's fields in go-jose order, 4-space indented", () => {
    const text = jwksDocument(publicKey);
    const jwks = JSON.parse(text);
    expect(jwks.keys).toHaveLength(1);
    expect(Object.keys(jwks.keys[0])).toEqual(["use", "kty", "kid", "alg", "n", "e"]);
    expect(jwks.keys[0]).toMatchObject({ use: "sig", kty: "RSA", alg: "RS256", e: "AQAB" });
    expect(text.split("\n")[1]).toBe('    "keys": [');
    expect(text).not.toMatch(/=/); // base64url without padding
  });

  it("JWKS modulus and exponent round-trip to the same public key", () => {
    const { n, e } = JSON.parse(jwksDocument(publicKey)).keys[0];
    const rebuilt = createPublicKey({ key: { kty: "RSA", n, e }, format: "jwk" });
    expect(rebuilt.export({ type: "spki", format: "pem" })).toBe(publicKey);
  });

  it("discovery document is ccoctl's template byte for byte", () => {
    const expected =
      "{\n" +
      `\t\t"issuer": "${ISSUER}",\n` +
      `\t\t"jwks_uri": "${ISSUER}/openid/v1/jwks",\n` +
      '\t\t"response_types_supported": [\n\t\t  "id_token"\n\t\t],\n' +
      '\t\t"subject_types_supported": [\n\t\t  "public"\n\t\t],\n' +
      '\t\t"id_token_signing_alg_values_supported": [\n\t\t  "RS256"\n\t\t]\n' +
      "\t  }";
    expect(discoveryDocument(ISSUER)).toBe(expected);
    expect(JSON.parse(discoveryDocument(ISSUER))).toEqual({
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/openid/v1/jwks`,
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
    });
  });

  it("refuses a private key without echoing it", () => {
    expect(() => rsaPublicKey(privateKey)).toThrow(/expected a public key, got a private key/);
    try {
      rsaPublicKey(privateKey);
    } catch (error) {
      expect((error as Error).message).not.toContain("BEGIN");
    }
  });

  it("refuses a non-RSA key (Entra verifies RS256 only)", () => {
    const { generateKeyPairSync } = require("node:crypto");
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" });
    expect(() => rsaPublicKey(ec)).toThrow(/expected an RSA public key, got ec/);
  });
});
