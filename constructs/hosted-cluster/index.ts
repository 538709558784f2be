export * from "./manifests";
export * from "./hosted-cluster-secrets";
export * from "./hosted-cluster";
export * from "./immutable-fields";
export * from "./creation-guard";
