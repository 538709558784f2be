/** Moved to `schema/aro-hcp.ts` and `schema/aks.ts`: import from `./schema`. Kept for the imports not yet changed. */
export { aksSchema, aroHcpSchema, aroHcpSettings, keyVaultNetworkSchema } from "./schema";
export type { AksConfig, AroHcpConfig, KeyVaultNetworkConfig } from "./schema";
