/**
 * The config schema (zod), by section: `root.ts` composes them into `configSchema`; the value
 * types they share are in `primitives.ts`. Field rules live here; rules across fields in `../rules/`.
 */
export { adoptSchema, adoptsHostedCluster, clusterAdoptSchema } from "./adopt";
export type { AdoptConfig, ClusterAdoptConfig } from "./adopt";
export { aksSchema } from "./aks";
export type { AksConfig } from "./aks";
export { aroHcpSchema, aroHcpSettings } from "./aro-hcp";
export type { AroHcpConfig } from "./aro-hcp";
export type { BackendConfig } from "./backend";
export { CLUSTER_NAME } from "./cluster";
export type { DnsConfig } from "./dns";
export type { ExternalDnsConfig } from "./external-dns";
export type { HostedClusterConfig } from "./hosted-cluster";
export { CAPABILITIES } from "./hosted-options";
export { keyVaultNetworkSchema } from "./key-vault-network";
export type { KeyVaultNetworkConfig } from "./key-vault-network";
export { KEY_URL, KEY_VAULT_DNS_SUFFIXES, kmsSchema, parseKeyUrl } from "./kms";
export type { KmsConfig } from "./kms";
export type { ManagementClusterConfig } from "./management-cluster";
export { METRICS_SETS, PLATFORM_MONITORING } from "./monitoring";
export type { HostedMonitoringConfig, ManagementMonitoringConfig } from "./monitoring";
export { DEFAULT_VM_SIZE } from "./node-pool";
export type { NodePoolConfig } from "./node-pool";
export type { SigningKeyConfig } from "./oidc";
export { contentsLike, filePath, GO_DURATION, GUID, scalarAsText } from "./primitives";
export type { PrivateLinkConfig } from "./private-link";
export { configSchema } from "./root";
export type { ClusterConfig, Config, ConfigInput } from "./root";
export type { SecretsConfig } from "./secrets";
export type { AzureCloud } from "../cloud";
