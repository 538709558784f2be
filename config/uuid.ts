import { createHash } from "node:crypto";

/** RFC 4122 DNS namespace, as Go's uuid.NameSpaceDNS. */
export const UUID_NAMESPACE_DNS = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

/**
 * RFC 4122 version 5 (SHA-1) UUID of `name` in `namespace`: Go's `uuid.NewSHA1(namespace, name)`,
 * which HyperShift uses for role assignment names. Computed at synth, so names are plain strings.
 */
export function uuidv5(name: string, namespace: string = UUID_NAMESPACE_DNS): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  if (ns.length !== 16) throw new Error(`uuidv5: namespace "${namespace}" is not a UUID`);
  const hash = createHash("sha1").update(ns).update(name, "utf8").digest();
  hash[6] = (hash[6] & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
