export * from "./manifests";
export * from "./hosted-cluster-secrets";
export * from "./hosted-cluster";
