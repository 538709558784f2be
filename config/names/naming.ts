import { createHash } from "node:crypto";
import { Config } from "../schema";

/** Naming helpers: stable suffixes, default Azure names, URLs and ARM IDs. */

/** Blob paths of the OIDC documents inside the issuer container (ccoctl and Kubernetes layout). */
export const OIDC_DISCOVERY_PATH = ".well-known/openid-configuration";
export const OIDC_JWKS_PATH = "openid/v1/jwks";

/** Stable 6-hex suffix making the storage account name globally unique per deployment. */
export function stableSuffix(...parts: string[]): string {
  return createHash("sha256").update(parts.join("/").toLowerCase()).digest("hex").slice(0, 6);
}

export function defaultStorageAccountName(prefix: string, subscriptionId: string, resourceGroup: string): string {
  return `${prefix.replace(/-/g, "").slice(0, 14)}oidc${stableSuffix(subscriptionId, resourceGroup, prefix)}`;
}

/** Blob service DNS suffix of the public cloud (config/cloud.ts has the others). */
export const PUBLIC_BLOB_SUFFIX = "blob.core.windows.net";

export function issuerUrl(storageAccount: string, container: string, blobSuffix: string = PUBLIC_BLOB_SUFFIX): string {
  return `https://${storageAccount}.${blobSuffix}/${container}`;
}

/**
 * The record set name that delegates `zone` from `parent` (`a.b` for `a.b.example.com` in
 * `example.com`), or undefined when `parent` is not a proper suffix of `zone`.
 */
export function delegationRecordName(zone: string, parent: string): string | undefined {
  return zone.endsWith(`.${parent}`) && zone.length > parent.length + 1 ? zone.slice(0, -(parent.length + 1)) : undefined;
}

/** Default infrastructure ID: HyperShift's shape (`<name, 21 chars>-<5 chars>`), stable instead of random. */
export function defaultInfraId(config: Config, cluster: string): string {
  return `${cluster.slice(0, 21).replace(/-+$/, "")}-${stableSuffix(config.subscriptionId, config.prefix, cluster).slice(0, 5)}`;
}

/** Lowercase `dnszones`, as ARM returns it (and so HyperShift's create infra writes publicZoneID). */
export const dnsZoneId = (resourceGroupId: string, zone: string) => `${resourceGroupId}/providers/Microsoft.Network/dnszones/${zone}`;

export const rgId = (subscription: string, group: string) => `/subscriptions/${subscription}/resourceGroups/${group}`;

/** `/subscriptions/<s>/resourceGroups/<rg>/...` → subscription, group and last segment. */
export function parseArmId(id: string): { subscription: string; resourceGroup: string; name: string } {
  const parts = id.split("/");
  return { subscription: parts[2], resourceGroup: parts[4], name: parts[parts.length - 1] };
}
