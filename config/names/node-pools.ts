import { NodePoolConfig } from "../schema";

/** A NodePool object to render: a pool as configured, or one zone of a pool with `availabilityZones`. */
export interface NodePoolNames {
  /** The pool's config, with `name` and `availabilityZone` of this object. */
  readonly config: NodePoolConfig;
  /** Config path of the name (for error messages). */
  readonly origin: string;
  /** The name of the config entry: `config.name` without the zone suffix of a fanned-out pool. */
  readonly configName: string;
  /** The zone this object is for, when the pool fans out over availabilityZones. */
  readonly zone?: string;
}

/**
 * The NodePool objects of a hosted cluster: `availabilityZones` fans a pool out to one NodePool
 * per zone named `<name>-<zone>`, each with the pool's full replicas, as `hypershift create cluster
 * azure --availability-zones` (cmd/cluster/azure/create.go, cmd/cluster/core/create.go
 * `defaultNodePool`). Other pools stay as they are.
 */
export function nodePoolNames(pools: readonly NodePoolConfig[], at: string): NodePoolNames[] {
  return pools.flatMap((pool, i): NodePoolNames[] => {
    const origin = `${at}.nodePools[${i}].name`;
    const configName = pool.name;
    if (!pool.availabilityZones) return [{ config: pool, origin, configName }];
    const { availabilityZones, ...rest } = pool;
    return availabilityZones.map((zone) => ({ config: { ...rest, name: `${pool.name}-${zone}`, availabilityZone: zone }, origin, configName, zone }));
  });
}
