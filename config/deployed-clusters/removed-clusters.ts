import { LoadedConfig } from "../load";
import { ConfigIssue } from "../rules";
import { generatedKeysIssues } from "./adopted-keys";
import { controlPlaneFirstIssues } from "./control-plane-first";
import { deployedReleaseIssues } from "./deployed-release";
import { localStateIssues } from "./local-state-issues";
import { recordIssues, StateCheckOptions } from "./record-issues";

/**
 * Everything in the deployed state that forbids synthesizing the config, as config issues: state
 * in the old local layout, a missing or mismatched record, clusters that left the config while
 * their stacks may hold state, a cluster this tool created configured as adopted, and a minor upgrade
 * whose NodePools would roll with the control plane (control-plane-first.ts).
 */
export function removedClusterIssues(loaded: LoadedConfig, options: StateCheckOptions = {}): ConfigIssue[] {
  return loaded.config.backend.type === "local"
    ? [...localStateIssues(loaded), ...deployedReleaseIssues(loaded), ...generatedKeysIssues(loaded), ...controlPlaneFirstIssues(loaded)]
    : [...recordIssues(loaded, options), ...controlPlaneFirstIssues(loaded)];
}

/** Synth's warnings for retired clusters: what to do next. */
export function retiredClusterWarnings(loaded: LoadedConfig): string[] {
  return loaded.names.clusters
    .filter((cluster) => cluster.retired)
    .map(
      (cluster) =>
        `clusters[${cluster.index}] (${cluster.name}) is retired: its stacks plan only to be destroyed. Run npm run destroy -- ${cluster.stacks.join(" ")}, then remove the cluster from the config (help/retire-cluster.md).`,
    );
}
