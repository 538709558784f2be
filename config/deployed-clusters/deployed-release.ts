import type { LoadedConfig } from "../load";
import { readLimitedFile } from "../read-file";
import type { ConfigIssue } from "../rules/rule";
import { releaseChangeIssues } from "../rules/upgrades";

/**
 * The release a cluster stack last applied, read from its local state file: the HostedCluster's
 * `spec.release.image` in the `manifest` attribute of its kubernetes_manifest. Only the local
 * backend's state is on this machine; with azurerm or cloud state synth cannot see it (help/upgrades.md
 * "Limits"). Undefined when there is no state, no HostedCluster in it, or the file is not state.
 */
export function deployedHostedClusterRelease(stateFile: string): string | undefined {
  const read = readLimitedFile(stateFile, "state");
  if (!read.ok) return undefined;
  let state: any;
  try {
    state = JSON.parse(read.text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(state?.resources)) return undefined;
  for (const resource of state.resources) {
    if (resource?.mode !== "managed" || resource?.type !== "kubernetes_manifest") continue;
    for (const instance of resource.instances ?? []) {
      // A dynamic attribute: state holds it as {"value": ..., "type": ...}.
      const raw = instance?.attributes?.manifest;
      const manifest = raw && typeof raw === "object" && "value" in raw ? raw.value : raw;
      const image = manifest?.kind === "HostedCluster" ? manifest?.spec?.release?.image : undefined;
      if (typeof image === "string") return image;
    }
  }
  return undefined;
}

/**
 * The release rules of every hosted cluster whose deployed release synth can read (the local
 * backend's state): help/upgrades.md. Remote state is not read at synth: the review
 * (`npm run review`) classifies those changes instead.
 */
export function deployedReleaseIssues(loaded: LoadedConfig): ConfigIssue[] {
  if (loaded.config.backend.type !== "local") return [];
  return loaded.names.clusters.flatMap((cluster) => {
    const hosted = cluster.hosted;
    if (!hosted || cluster.retired) return [];
    const deployed = deployedHostedClusterRelease(loaded.names.stateLocation(hosted.clusterStack));
    const spec = hosted.config;
    return deployed ? releaseChangeIssues(`clusters[${cluster.index}].hostedCluster`, deployed, spec.releaseImage, spec.upgrade.acknowledgeMinor) : [];
  });
}
