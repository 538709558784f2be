/**
 * What synth knows of the deployed state before it writes anything (help/retire-cluster.md):
 *
 * - Cluster stacks that left the config while they may still hold state. cdktf only knows the
 *   stacks the config synthesizes: a cluster removed from the config (or its hostedCluster) can
 *   no longer be destroyed, and (aroHcp) the next `shared` deploy deletes its control-plane
 *   principals. So synth refuses such a config until the cluster has been retired and its stacks
 *   destroyed (removed-clusters.ts, cluster-issues.ts).
 * - State that would be missed. Every location is keyed by what identifies the environment
 *   (config/names/state.ts), never by the config's file name:
 *   - local backend: the state files, `<backend.directory>/<subscriptionId>/<prefix>/<stack>.tfstate`,
 *     read directly (local-state.ts, local-state-issues.ts). State still in the folder every
 *     config beside it used before, `<backend.directory>/<stack>.tfstate`, refuses the config with
 *     the exact `mv` command: synth does not move it itself, since those files may be another
 *     environment's (legacy-state.ts).
 *   - azurerm and cloud backends: not reachable offline, so synth keeps a record of the cluster
 *     stacks it synthesized beside the config, named after the backend's identity
 *     (`azurerm+<account>+<container>+<key prefix>.clusters.lock`, `cloud+<host>+<organization>+<workspace prefix>.clusters.lock`;
 *     record-location.ts) and committed with it (record-format.ts, record-file.ts). A line leaves
 *     the record only by hand, after `npm run destroy` has emptied that stack. A missing record is
 *     refused where there is evidence of one (an older record naming this config) and under the
 *     cdktf CLI (deploy, diff, destroy act on the backend); a plain synth creates it and says so
 *     (record-issues.ts). The record also keeps each cluster's `release:` as the last accepted synth
 *     configured it, for the release rules of help/upgrades.md (recorded-release.ts).
 */
export { controlPlaneFirstWarnings } from "./control-plane-first";
export { type ClusterRecord, type ParsedClusterRecord, type ProtectedRecord } from "./record-format";
export { parseClusterRecord, parseProtectedLine, PROTECTED_ID, renderClusterRecord, renderProtectedLines } from "./record-format";
export { type ReadRecord, type RecordReport, readClusterRecord, writeClusterRecord } from "./record-file";
export { type StateCheckOptions } from "./record-issues";
export { clusterRecordFile, legacyClusterRecordFile } from "./record-location";
export { removedClusterIssues, retiredClusterWarnings } from "./removed-clusters";
