import { WORKLOAD_IDENTITY_COMPONENTS, WorkloadIdentityKey } from "../components";
import { Config } from "../schema";

/**
 * The names seed 004's guide gives what its commands make (help/adopt.md): an adopted deployment
 * (config `adopt`, `clusters[].adopt`) keeps them, so the existing objects are the ones imported.
 */

/** Seed 004's PERSISTENT_RG_NAME. */
export const GUIDE_RESOURCE_GROUP = "os4-common";

/** The display name `az ad sp create-for-rbac --name` got in seed 004 (EXTERNAL_DNS_NEW_SP_NAME). */
export const GUIDE_EXTERNAL_DNS_APPLICATION = "ExternalDnsServicePrincipal";

/**
 * The identities seed 004 Phase 1 step 1 creates: the components every cluster has (HyperShift's
 * create iam adds the control-plane operator's; KMS is opt-in).
 */
export const GUIDE_IDENTITIES: ReadonlySet<WorkloadIdentityKey> = new Set(WORKLOAD_IDENTITY_COMPONENTS.filter((c) => !c.optional).map((c) => c.key));

/** Phase 3 names use the guide's PREFIX (not the cluster name) when the cluster's infrastructure is adopted. */
export function guideNamePrefix(config: Config, cluster: Config["clusters"][number]): string | undefined {
  return cluster.adopt?.infrastructure ? (cluster.adopt.guidePrefix ?? config.prefix) : undefined;
}
