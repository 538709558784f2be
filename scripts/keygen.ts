import { generateKeyPairSync } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * `npm run keygen -- [folder]`: a service-account signing key pair like `ccoctl azure
 * create-key-pair` makes: RSA 4096, PKCS#1 private key (mode 0600), SPKI public key.
 * Default folder `keys/` (git-ignored). Never overwrites: a key already trusted by a published
 * issuer must be replaced deliberately, not by accident.
 */
export function generateSigningKeyPair(folder: string): { privateKeyFile: string; publicKeyFile: string } {
  const privateKeyFile = path.join(folder, "serviceaccount-signer.private");
  const publicKeyFile = path.join(folder, "serviceaccount-signer.public");
  for (const file of [privateKeyFile, publicKeyFile]) {
    if (fs.existsSync(file)) throw new Error(`${file} exists; move it away first (keys are never overwritten)`);
  }
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 4096,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  // "wx": fail instead of overwriting if the file appeared meanwhile; mode applies at creation.
  fs.writeFileSync(privateKeyFile, privateKey, { mode: 0o600, flag: "wx" });
  fs.writeFileSync(publicKeyFile, publicKey, { mode: 0o644, flag: "wx" });
  return { privateKeyFile, publicKeyFile };
}

if (require.main === module) {
  const folder = process.argv[2] ?? "keys";
  try {
    const { privateKeyFile, publicKeyFile } = generateSigningKeyPair(folder);
    console.log(`wrote ${privateKeyFile} (0600, keep it secret) and ${publicKeyFile}`);
    console.log("point serviceAccountSigningKey.publicKeyFile (relative to the config file) at the public key.");
  } catch (error) {
    console.error(`keygen: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
