import * as fs from "node:fs";
import * as path from "node:path";
import { generateSigningKeyPair } from "../scripts/keygen";
import { tempDir } from "./helpers";

/**
 * `npm run keygen`. The pair it writes (RSA 4096, PKCS#1 private 0600, SPKI public, accepted by the
 * config loader) is checked where the page's command really runs it: __tests__/help/getting-started.test.ts
 * (one RSA 4096 generation, 0.3-2 CPU-seconds, instead of two).
 */
describe("npm run keygen", () => {
  const dir = path.join(tempDir(), "keys");
  afterAll(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  it.each(["serviceaccount-signer.private", "serviceaccount-signer.public"])("never overwrites an existing key (%s exists)", (existing) => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, existing), "the key a published issuer trusts\n");
    expect(() => generateSigningKeyPair(dir)).toThrow(new RegExp(`${existing} exists; move it away first`));
    expect(fs.readdirSync(dir)).toEqual([existing]);
    expect(fs.readFileSync(path.join(dir, existing), "utf8")).toBe("the key a published issuer trusts\n");
  });
});
