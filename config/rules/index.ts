/**
 * Config rules, by concern: structure rules on the schema-valid config, name rules on the derived
 * names, hosted-cluster rules per cluster, operator-bundle checks, and warnings. Every rule has one
 * shape (`Rule`) and runs through one runner (`runRules`).
 */
export { CERTIFICATE_VALIDITY_HOURS, hoursOf } from "./aro-hcp";
export { capacityCounts, capacityLevel, capacityMessage, capacityWarnings } from "./capacity";
export type { CapacityCount } from "./capacity";
export { bundleIssues, bundleWarnings, externalDnsRenderFlags, privateLinkRenderFlags } from "./bundle";
export { HOSTED_CLUSTER_RULES, hostedClusterCollisions } from "./hosted-cluster";
export type { HostedContext } from "./hosted-context";
export { federatedCredentialIssues, NAME_RULES } from "./names";
export { EPHEMERAL_OS_DISK_MAX_GIB, isArm64VmSize, NODE_POOL_RULES, vmSizeParts } from "./node-pools";
export { configuredHypershiftRelease, RELEASE_GATES } from "./hypershift-release";
export { runRules } from "./rule";
export type { ConfigIssue, Rule } from "./rule";
export { missingSecretFiles, secretsWarnings } from "./secrets";
export { secretFileIssues } from "./secret-files";
export { managementSubscription, PRIVATE_LINK_RULES, privateLinkCollisions } from "./private-link";
export { STRUCTURE_RULES } from "./structure";
export { configWarnings, environmentWarnings, KUBE_ENV_OVERRIDES } from "./warnings";
