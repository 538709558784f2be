import { AZURE_NAME_RULES } from "../azure-rules";
import { ROLE_RULES } from "./roles";
import { SIGN_IN_RULES } from "./sign-in";
import { contains, networkOf, overlaps, parseCidr } from "../cidr";
import { DeploymentNames, parseArmId } from "../names";
import { KMS_RULES, kmsVaultCollisions } from "./kms";
import { NODE_POOL_ZONE_RULES } from "./node-pool-zones";
import { PRIVATE_LINK_RULES, privateLinkCollisions } from "./private-link";
import { CLUSTER_CONFIGURATION_RULES } from "./cluster-configuration";
import { HOSTED_OPTION_RULES } from "./hosted-options";
import type { HostedContext } from "./hosted-context";
import { ConfigIssue, duplicates, nameIssue, Rule } from "./rule";

/**
 * Phase 3 rules, on each cluster with `hostedCluster` (after names are derived): networks,
 * existing resources, DNS, and the names Azure and Kubernetes would reject or that would collide.
 */
export const HOSTED_CLUSTER_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "a hosted cluster needs the management cluster",
    check: ({ config, at }) =>
      config.managementCluster ? [] : [{ path: at, message: "needs managementCluster: the HostedCluster is applied there, after the HyperShift operator" }],
  },
  {
    rule: "CIDRs are network addresses",
    check: ({ spec, at }) =>
      (["vnetCidr", "subnetCidr", "clusterNetwork", "serviceNetwork", "machineNetwork"] as const).flatMap((key) => {
        const text = spec.network[key];
        if (!text) return [];
        const cidr = parseCidr(text);
        return cidr.aligned ? [] : [{ path: `${at}.network.${key}`, value: text, message: `has host bits set; the network is ${networkOf(cidr)}` }];
      }),
  },
  {
    rule: "networks avoid OVN-Kubernetes' reserved ranges; the pod network fits the host prefix",
    check: ({ spec, at }) => {
      const reserved = ["100.64.0.0/16", "100.88.0.0/16"].map(parseCidr); // OVN join and transit switches
      const issues: ConfigIssue[] = [];
      for (const key of ["vnetCidr", "subnetCidr", "clusterNetwork", "serviceNetwork", "machineNetwork"] as const) {
        const text = spec.network[key];
        const clash = text ? reserved.find((r) => overlaps(r, parseCidr(text))) : undefined;
        if (text && clash) issues.push({ path: `${at}.network.${key}`, value: text, message: `overlaps ${clash.text}, which OVN-Kubernetes reserves` });
      }
      // Each node takes a /23 of the pod network (HyperShift's hostPrefix).
      if (parseCidr(spec.network.clusterNetwork).prefix > 22) {
        issues.push({
          path: `${at}.network.clusterNetwork`,
          value: spec.network.clusterNetwork,
          message: "must be /22 or larger: every node takes a /23 of it (hostPrefix 23)",
        });
      }
      return issues;
    },
  },
  {
    rule: "the VNet contains the subnet; cluster, service and VNet networks are disjoint",
    check: ({ spec, at }) => {
      const n = spec.network;
      const issues: ConfigIssue[] = [];
      const created = !n.existing?.vnetId;
      if (created && !contains(parseCidr(n.vnetCidr), parseCidr(n.subnetCidr))) {
        issues.push({ path: `${at}.network.subnetCidr`, value: n.subnetCidr, message: `must lie inside network.vnetCidr ${n.vnetCidr}` });
      }
      const nodes = n.machineNetwork ?? (created ? n.vnetCidr : undefined);
      const nodesPath = n.machineNetwork ? "machineNetwork" : "vnetCidr";
      const pairs: Array<[string, string | undefined, string, string | undefined]> = [
        ["clusterNetwork", n.clusterNetwork, "serviceNetwork", n.serviceNetwork],
        ["clusterNetwork", n.clusterNetwork, nodesPath, nodes],
        ["serviceNetwork", n.serviceNetwork, nodesPath, nodes],
      ];
      for (const [aKey, a, bKey, b] of pairs) {
        if (a && b && overlaps(parseCidr(a), parseCidr(b))) {
          issues.push({ path: `${at}.network.${aKey}`, value: a, message: `overlaps network.${bKey} ${b}; pod, service and node networks must be disjoint` });
        }
      }
      if (n.machineNetwork && created && !contains(parseCidr(n.machineNetwork), parseCidr(n.subnetCidr))) {
        issues.push({
          path: `${at}.network.machineNetwork`,
          value: n.machineNetwork,
          message: `must contain network.subnetCidr ${n.subnetCidr} (the nodes' addresses)`,
        });
      }
      return issues;
    },
  },
  {
    rule: "existing network resources are complete and in the configured subscription",
    check: ({ config, spec, at }) => {
      const existing = spec.network.existing;
      if (!existing) return [];
      const issues: ConfigIssue[] = [];
      for (const key of ["vnetId", "subnetId", "nsgId"] as const) {
        const id = existing[key];
        if (id && parseArmId(id).subscription.toLowerCase() !== config.subscriptionId.toLowerCase()) {
          issues.push({
            path: `${at}.network.existing.${key}`,
            value: id,
            message: `must be in subscriptionId ${config.subscriptionId} (HyperShift requires the network in the cluster's subscription)`,
          });
        }
      }
      if (existing.vnetId && !existing.subnetId)
        issues.push({ path: `${at}.network.existing.subnetId`, message: "is required with network.existing.vnetId (the workers' subnet)" });
      if (existing.subnetId && !existing.vnetId)
        issues.push({ path: `${at}.network.existing.vnetId`, message: "is required with network.existing.subnetId (the subnet's VNet)" });
      if (existing.vnetId && existing.subnetId && !existing.subnetId.toLowerCase().startsWith(`${existing.vnetId.toLowerCase()}/subnets/`)) {
        issues.push({
          path: `${at}.network.existing.subnetId`,
          value: existing.subnetId,
          message: `must be a subnet of network.existing.vnetId ${existing.vnetId}`,
        });
      }
      const setNames = (["vnetName", "subnetName", "nsgName"] as const).filter((key) => spec.network[key] !== undefined);
      for (const key of ["vnet", "nsg"] as const) {
        const byo = key === "nsg" ? existing.nsgId : existing.vnetId;
        if (byo && spec.network.resourceGroups[key] !== undefined) {
          issues.push({
            path: `${at}.network.resourceGroups.${key}`,
            value: spec.network.resourceGroups[key],
            message: `is not used with network.existing.${key}Id (the group comes from the ID)`,
          });
        }
      }
      for (const key of setNames) {
        const byo = key === "nsgName" ? existing.nsgId : existing.vnetId;
        if (byo)
          issues.push({
            path: `${at}.network.${key}`,
            value: spec.network[key],
            message: "is not used with an existing resource (its name comes from the ID)",
          });
      }
      return issues;
    },
  },
  {
    rule: "single resource group takes no VNet or NSG group names",
    check: ({ spec, at }) =>
      spec.network.singleResourceGroup
        ? (["vnet", "nsg"] as const)
            .filter((key) => spec.network.resourceGroups[key] !== undefined)
            .map((key) => ({
              path: `${at}.network.resourceGroups.${key}`,
              value: spec.network.resourceGroups[key],
              message: "is not used with network.singleResourceGroup: true (everything goes in the managed group)",
            }))
        : [],
  },
  {
    rule: "the base domain zone can be located",
    check: ({ hosted, at }) =>
      hosted.publicZone.resourceGroupName
        ? []
        : [
            {
              path: `${at}.publicZone`,
              message: `is required: say where the Azure DNS zone ${hosted.publicZone.name} is (resourceGroupName), or make baseDomain dns.parent.zoneName`,
            },
          ],
  },
  {
    rule: "ExternalDNS publishing needs ExternalDNS, outside the cluster's own domain",
    check: ({ config, cluster, hosted, spec, at }) => {
      if (spec.externalDns === true && !config.externalDns) {
        return [{ path: `${at}.externalDns`, value: true, message: "needs the top-level externalDns (and dns): the Routes are named in that zone" }];
      }
      const domain = hosted.externalDnsDomain;
      const own = `${cluster.name}.${spec.baseDomain}`;
      // HyperShift's CLI rule (the "two routers" problem): the domain must not be, or contain, the cluster's domain.
      return domain && (own === domain || own.endsWith(`.${domain}`))
        ? [
            {
              path: `${at}.baseDomain`,
              value: spec.baseDomain,
              message: `makes the cluster domain ${own}, which lies in the ExternalDNS zone ${domain}; use the parent zone as baseDomain (seed 004: --base-domain example.com)`,
            },
          ]
        : [];
    },
  },
  {
    rule: "the cluster's resource groups are its own",
    check: ({ names, hosted, spec }) => {
      const issues: ConfigIssue[] = [];
      const created = Object.values(hosted.resourceGroups).filter((g) => g.create);
      for (const group of created) {
        if (group.name.toLowerCase() === names.resourceGroup.name.toLowerCase()) {
          issues.push({ path: group.origin, value: group.name, message: "is the persistent resource group; a cluster's groups are deleted with it" });
        }
      }
      // A VNet or NSG in the persistent group would give capz and cpo Contributor there, i.e.
      // over every identity and its federated credentials.
      for (const key of ["vnet", "nsg"] as const) {
        const group = hosted.resourceGroups[key];
        if (!group.create && group.name.toLowerCase() === names.resourceGroup.name.toLowerCase()) {
          issues.push({
            path: group.origin,
            value: group.name,
            message: `puts the ${key === "vnet" ? "VNet" : "NSG"} in the persistent resource group, where the cluster's identities would get Contributor; move it`,
          });
        }
      }
      if (!spec.network.singleResourceGroup) {
        const seen = new Map<string, string>();
        for (const group of created) {
          const other = seen.get(group.name.toLowerCase());
          if (other)
            issues.push({ path: group.origin, value: group.name, message: `is also the ${other} group; use network.singleResourceGroup: true for one group` });
          seen.set(group.name.toLowerCase(), group.origin);
        }
      }
      return issues;
    },
  },
  {
    rule: "derived Phase 3 names are valid",
    check: ({ hosted, at }) => [
      ...Object.values(hosted.resourceGroups)
        .filter((g) => g.create)
        .flatMap((g) => nameIssue(AZURE_NAME_RULES.resourceGroup, g.name, g.origin, "resource group name")),
      ...(hosted.vnet.create ? nameIssue(AZURE_NAME_RULES.virtualNetwork, hosted.vnet.name, hosted.vnet.origin, "VNet name") : []),
      ...[hosted.subnet, hosted.nsg].filter((r) => r.create).flatMap((r) => nameIssue(AZURE_NAME_RULES.networkName, r.name, r.origin, "network resource name")),
      ...nameIssue(AZURE_NAME_RULES.dnsZone, hosted.privateZone.name, `${at}.baseDomain`, "private DNS zone name"),
      ...nameIssue(AZURE_NAME_RULES.networkName, hosted.privateZone.linkName, hosted.infraIdOrigin, "private DNS zone link name (<name>-<infraID>)"),
      ...(hosted.controlPlaneNamespace.length > 63
        ? [
            {
              path: `${at}.namespace`,
              value: hosted.controlPlaneNamespace,
              message: `gives the control-plane namespace ${hosted.controlPlaneNamespace}, longer than 63 characters`,
            },
          ]
        : []),
    ],
  },
  ...PRIVATE_LINK_RULES,
  ...KMS_RULES,
  ...NODE_POOL_ZONE_RULES,
  ...HOSTED_OPTION_RULES,
  ...CLUSTER_CONFIGURATION_RULES,
  ...ROLE_RULES,
  ...SIGN_IN_RULES,
];

/** Rules across hosted clusters: what two clusters must not share. */
export function hostedClusterCollisions(names: DeploymentNames): ConfigIssue[] {
  const hosted = names.clusters.filter((c) => c.hosted);
  return [
    ...duplicates(
      hosted.map((c) => ({ key: c.hosted!.infraId, path: c.hosted!.infraIdOrigin })),
      "gives an infrastructure ID that another cluster also uses (set hostedCluster.infraId)",
    ),
    ...duplicates(
      hosted
        .flatMap((c) =>
          Object.values(c.hosted!.resourceGroups)
            .filter((g) => g.create)
            .map((g) => ({ key: g.name.toLowerCase(), path: g.origin, value: g.name })),
        )
        .filter((entry, index, all) => all.findIndex((e) => e.key === entry.key && e.path === entry.path) === index),
      "gives a resource group that another cluster also creates",
    ),
    ...duplicates(
      // Pools with availabilityZones count as their NodePools: <name>-<zone> each.
      hosted
        .flatMap((c) => c.hosted!.nodePools.map((pool) => ({ key: `${c.hosted!.namespace}/${pool.config.name}`, path: pool.origin, value: pool.config.name })))
        // A zone listed twice in one pool is reported by the zone rule, at availabilityZones.
        .filter((entry, index, all) => all.findIndex((e) => e.key === entry.key && e.path === entry.path) === index),
      "names a NodePool that already exists in the same namespace (another cluster or the same; a pool with availabilityZones makes <name>-<zone>)",
    ),
    ...privateLinkCollisions(names),
    ...kmsVaultCollisions(names),
  ];
}
