import type { NodePoolConfig } from "../schema";

/** Suffixes of the ConfigMaps a NodePool's typed settings become (`<NodePool name>-<suffix>`). */
export const NODE_POOL_CONFIG_MAP_SUFFIX = { config: "config", tuning: "tuning" } as const;

/** The ConfigMaps of one NodePool object, in the HostedCluster's namespace. */
export interface NodePoolConfigMapNames {
  /** ConfigMap of `config` (key `config`: KubeletConfig, ContainerRuntimeConfig). @default - none */
  readonly config?: string;
  /** ConfigMap of `tuning` (key `tuning`: a Tuned). @default - none */
  readonly tuning?: string;
}

/**
 * The ConfigMap names of a NodePool object (each zone's NodePool of a pool with availabilityZones
 * has its own): `<NodePool name>-config` and `<NodePool name>-tuning`, only for what it sets.
 */
export function nodePoolConfigMapNames(pool: Pick<NodePoolConfig, "name" | "config" | "tuning">): NodePoolConfigMapNames {
  const machineConfig = pool.config && (pool.config.kubelet || pool.config.containerRuntime);
  return {
    ...(machineConfig ? { config: `${pool.name}-${NODE_POOL_CONFIG_MAP_SUFFIX.config}` } : {}),
    ...(pool.tuning ? { tuning: `${pool.name}-${NODE_POOL_CONFIG_MAP_SUFFIX.tuning}` } : {}),
  };
}
