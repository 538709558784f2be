import * as path from "node:path";
import { SigningKeyConfig } from "../schema";

/** Path resolution: files in the config are relative to its folder. */

/** ccoctl's pair convention: `x.public` goes with `x.private`. */
export function defaultPrivateKeyFile(publicKeyFile: string): string {
  return publicKeyFile.endsWith(".public") ? publicKeyFile.replace(/\.public$/, ".private") : `${publicKeyFile}.private`;
}

/** Absolute paths of a signing key pair, and the private key path as written. */
export function keyFiles(key: SigningKeyConfig, configDir: string) {
  return {
    publicKeyFile: path.resolve(configDir, key.publicKeyFile),
    privateKeyFile: path.resolve(configDir, key.privateKeyFile ?? defaultPrivateKeyFile(key.publicKeyFile)),
    privateKeyFileAsWritten: key.privateKeyFile ?? defaultPrivateKeyFile(key.publicKeyFile),
  };
}

/** `~/...` stays as written (the Kubernetes provider expands it where Terraform runs); anything else is resolved. */
export function userPath(configDir: string, file: string): string {
  return file === "~" || file.startsWith("~/") ? file : path.resolve(configDir, file);
}
