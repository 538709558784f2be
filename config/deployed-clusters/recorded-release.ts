import { LoadedConfig } from "../load";
import { releaseVersion } from "../release-version";
import { ConfigIssue } from "../rules";
import { releaseChangeIssues } from "../rules/upgrades";
import { shown } from "./messages";
import { ParsedClusterRecord } from "./record-format";

/**
 * azurerm and cloud backends: the release rules of help/upgrades.md (no downgrade, no skipped minor,
 * a minor only when acknowledged) against the `release: cluster-<name> <image>` line of the record,
 * which synth writes only for a config it accepted (main.ts writes the record after a synth with no
 * error; review mode never writes it). That release is what the last accepted synth configured, not
 * what was applied: the message says how to correct a line a deploy never reached.
 *
 * A line counts only while the record lists its `cluster-<name>` stack: a cluster's lines are deleted
 * by hand once destroyed (help/retire-cluster.md), and a release line left behind must not judge a
 * new cluster of the same name. Retired clusters are not judged (their stacks only destroy).
 */
export function recordedReleaseIssues(loaded: LoadedConfig, record: ParsedClusterRecord, file: string): ConfigIssue[] {
  return loaded.names.clusters.flatMap((cluster) => {
    const hosted = cluster.hosted;
    if (!hosted || cluster.retired || !record.record.has(hosted.clusterStack)) return [];
    const recorded = record.releases.get(hosted.clusterStack);
    if (recorded === undefined) return [];
    const spec = hosted.config;
    return releaseChangeIssues(`clusters[${cluster.index}].hostedCluster`, recorded, spec.releaseImage, spec.upgrade.acknowledgeMinor, "recorded").map(
      (issue) => ({
        ...issue,
        message:
          `${issue.message}. The recorded release is the line "release: ${hosted.clusterStack} ${recorded}" of ${shown(file)}: what the last synth that accepted the config set, not necessarily what was applied. ` +
          `If ${releaseVersion(recorded)?.text ?? recorded} was never deployed, restore that line from version control (or set it to the release the cluster runs), then synth again (help/upgrades.md#remote-backends-the-recorded-release)`,
      }),
    );
  });
}
