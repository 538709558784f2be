import type { LoadedConfig } from "../load";
import type { ConfigIssue } from "../rules/rule";
import { adoptsHostedCluster } from "../schema";
import { stateAddresses } from "./local-state";

/** The resources that generate a hosted cluster's keys in Terraform state (the SSH key pair, the etcd key's bytes). */
const GENERATED_KEY_TYPES = ["tls_private_key", "random_bytes"];

/**
 * Local backend: a cluster stack whose state holds keys Terraform generated made that HostedCluster
 * itself, so it is not one `hypershift create cluster azure` made. Taking it over as adopted
 * (`clusters[].adopt.hostedCluster`, whose default follows `adopt.infrastructure`) would drop those
 * keys from the state, and the workers' SSH private key (output `ssh_private_key`) has no other
 * copy. Remote state is not read at synth: `npm run review` marks the key pair's removal dangerous.
 */
export function generatedKeysIssues(loaded: LoadedConfig): ConfigIssue[] {
  if (loaded.config.backend.type !== "local") return [];
  return loaded.names.clusters.flatMap((cluster) => {
    const hosted = cluster.hosted;
    const adopt = loaded.config.clusters[cluster.index].adopt;
    if (!hosted || cluster.retired || !adoptsHostedCluster(adopt)) return [];
    const generated = [...(stateAddresses(loaded.names.stateLocation(hosted.clusterStack)) ?? [])].filter((address) =>
      GENERATED_KEY_TYPES.includes(address.split(".")[0]),
    );
    if (generated.length === 0) return [];
    return [
      {
        path: `clusters[${cluster.index}].adopt.hostedCluster`,
        value: adopt?.hostedCluster ?? true,
        message:
          `${hosted.clusterStack}'s state holds keys Terraform generated (${generated.sort().join(", ")}): this tool created that HostedCluster, so there is nothing to adopt, ` +
          "and taking it over as adopted would drop them from the state (the workers' SSH private key, output ssh_private_key, has no other copy). " +
          `Set clusters[${cluster.index}].adopt.hostedCluster: false (help/adopt.md#4-the-hosted-cluster-cluster-name)`,
      },
    ];
  });
}
