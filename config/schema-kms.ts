/** Moved to `schema/kms.ts`: import from `./schema`. Kept for the imports not yet changed. */
export { KEY_URL, KEY_VAULT_DNS_SUFFIXES, kmsSchema, parseKeyUrl } from "./schema";
export type { KmsConfig } from "./schema";
