import { zonelessRegionMessage } from "../azure-regions";
import type { HostedContext } from "./hosted-context";
import { ConfigIssue, Rule } from "./rule";

/** NodePool names: Kubernetes names of at most 63 characters (the schema's rule for `name`). */
const NODE_POOL_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Rules of `nodePools[].availabilityZones` (one NodePool per zone, `<name>-<zone>`), per hosted cluster. */
export const NODE_POOL_ZONE_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "zones only in a region that has them",
    check: ({ config, spec, at }) => {
      const message = zonelessRegionMessage(config.location);
      if (!message) return [];
      return spec.nodePools.flatMap((pool, i): ConfigIssue[] => {
        const key = pool.availabilityZones ? "availabilityZones" : pool.availabilityZone !== undefined ? "availabilityZone" : undefined;
        return key ? [{ path: `${at}.nodePools[${i}].${key}`, value: pool[key], message: `(location ${config.location}) ${message}` }] : [];
      });
    },
  },
  {
    rule: "a NodePool has one zone or a list of zones",
    check: ({ spec, at }) =>
      spec.nodePools.flatMap((pool, i): ConfigIssue[] => {
        const zones = pool.availabilityZones;
        if (!zones) return [];
        const path = `${at}.nodePools[${i}].availabilityZones`;
        if (pool.availabilityZone !== undefined)
          return [{ path, value: zones, message: `is not allowed with availabilityZone "${pool.availabilityZone}": use one or the other` }];
        const repeated = zones.filter((zone, j) => zones.indexOf(zone) !== j);
        return repeated.length > 0
          ? [{ path, value: zones, message: `lists zone ${repeated[0]} twice; each zone gives one NodePool (${pool.name}-${repeated[0]})` }]
          : [];
      }),
  },
  {
    rule: "NodePools fanned out over zones have valid names",
    check: ({ hosted }) =>
      hosted.nodePools
        .filter((pool) => pool.zone !== undefined && !NODE_POOL_NAME.test(pool.config.name))
        .map((pool) => ({
          path: pool.origin,
          value: pool.config.name,
          message: `gives the NodePool ${pool.config.name} for zone ${pool.zone}, longer than 63 characters; shorten the name`,
        })),
  },
];
