import { createPrivateKey, createPublicKey } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { readPublicKey } from "../config/signing-key";
import { generateSigningKeyPair } from "../scripts/keygen";
import { tempDir } from "./helpers";

describe("npm run keygen", () => {
  const dir = path.join(tempDir(), "keys");
  afterAll(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));
  const files = generateSigningKeyPair(dir);

  it("writes a ccoctl-style RSA 4096 pair: PKCS#1 private (0600) and SPKI public", () => {
    const privatePem = fs.readFileSync(files.privateKeyFile, "utf8");
    const publicPem = fs.readFileSync(files.publicKeyFile, "utf8");
    expect(privatePem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(fs.statSync(files.privateKeyFile).mode & 0o777).toBe(0o600);
    expect(createPrivateKey(privatePem).asymmetricKeyDetails?.modulusLength).toBe(4096);
    expect(createPublicKey(privatePem).export({ type: "spki", format: "pem" })).toBe(publicPem);
    expect(path.basename(files.privateKeyFile)).toBe("serviceaccount-signer.private");
  });

  it("the public key is accepted by the config loader", () => {
    expect(readPublicKey(files.publicKeyFile)).toMatchObject({ ok: true });
  });

  it("never overwrites an existing key", () => {
    const before = fs.readFileSync(files.privateKeyFile, "utf8");
    expect(() => generateSigningKeyPair(dir)).toThrow(/exists; move it away first/);
    expect(fs.readFileSync(files.privateKeyFile, "utf8")).toBe(before);
  });
});
