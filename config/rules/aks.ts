import { zonelessRegionMessage } from "../azure-regions";
import { AKS_RESERVED_POOL_NAMES, AZURE_NAME_RULES } from "../azure-rules";
import { networkOf, parseCidr } from "../cidr";
import type { DeploymentNames } from "../names";
import type { Config } from "../schema";
import type { ConfigIssue, Rule } from "./rule";

/**
 * Rules of the AKS management cluster (`managementCluster.aks`, topology: aroHcp). `aro-hcp.ts`
 * lists them among the topology's rules, in the order their issues are reported.
 */

/** Valid but risky: said at synth, not refused. */
export function aksWarnings(config: Config): string[] {
  return [...zoneWarnings(config), ...entraIdWarnings(config), ...apiServerWarnings(config)];
}

/** A created cluster's API server answers any address unless authorized ranges say otherwise. */
function apiServerWarnings(config: Config): string[] {
  const aks = config.managementCluster?.aks;
  if (config.topology !== "aroHcp" || !aks || aks.existing || aks.apiServerAuthorizedIpRanges !== undefined) return [];
  return [
    "aks: managementCluster.aks.apiServerAuthorizedIpRanges is not set: the management cluster's public API server, which runs every hosted control plane, answers any address on the internet. List the IPv4 CIDRs allowed to reach it (where Terraform runs, your administrators, Terraform Cloud agents), e.g. apiServerAuthorizedIpRanges: [203.0.113.0/24] (help/aro-hcp.md#hardening-the-management-cluster).",
  ];
}

function zoneWarnings(config: Config): string[] {
  const aks = config.managementCluster?.aks;
  if (config.topology !== "aroHcp" || !aks || aks.existing || (aks.userPool.zones?.length ?? 0) >= 2) return [];
  return [
    "aks: managementCluster.aks.userPool.zones lists fewer than 2 zones; HyperShift's AKS scripts refuse such clusters (its shared ingress router spreads across zones). Set zones: [1, 2, 3] where the region has zones.",
  ];
}

/** Terraform Cloud's remote runs have no kubelogin: an Entra-only management cluster needs an agent that has it. */
function entraIdWarnings(config: Config): string[] {
  const aks = config.managementCluster?.aks;
  if (config.topology !== "aroHcp" || !aks?.entraIdRbac.enabled || config.backend.type !== "cloud") return [];
  return [
    "aks: managementCluster.aks.entraIdRbac.enabled with backend cloud: the management and cluster-* runs execute kubelogin, which Terraform Cloud's hosted runners do not have; run those workspaces on an agent with kubelogin on PATH (help/aro-hcp.md).",
  ];
}

/** Structure rules on `managementCluster.aks`. */
export const AKS_RULES = {
  zonesInRegion: {
    rule: "AKS node pool zones only in a region that has them",
    check: (c) => {
      const aks = c.managementCluster?.aks;
      const message = zonelessRegionMessage(c.location);
      if (!aks || !message) return [];
      return (["systemPool", "userPool"] as const).flatMap((pool): ConfigIssue[] =>
        (aks[pool].zones?.length ?? 0) > 0 ? [{ path: `managementCluster.aks.${pool}.zones`, value: aks[pool].zones, message }] : [],
      );
    },
  },
  userPoolName: {
    rule: "the user pool name is free",
    check: (c) => {
      const name = c.managementCluster?.aks?.userPool.name;
      return name && AKS_RESERVED_POOL_NAMES.includes(name)
        ? [
            {
              path: "managementCluster.aks.userPool.name",
              value: name,
              message: `must not be ${AKS_RESERVED_POOL_NAMES.join(", ")} (the system pool and the pools AKS rotates through)`,
            },
          ]
        : [];
    },
  },
  apiServerRanges: {
    rule: "API server authorized ranges are aligned, distinct, and for a created cluster",
    check: (c) => {
      const aks = c.managementCluster?.aks;
      const ranges = aks?.apiServerAuthorizedIpRanges;
      if (!aks || ranges === undefined) return [];
      const path = "managementCluster.aks.apiServerAuthorizedIpRanges";
      if (aks.existing) return [{ path, message: "is not used with existing: true (the existing cluster keeps its own ranges)" }];
      if (ranges.length === 0) return [{ path, value: [], message: "must list at least one CIDR; omit the key to allow any address" }];
      const seen = new Set<string>();
      return ranges.flatMap((range, i) => {
        const cidr = parseCidr(range);
        const issues: ConfigIssue[] = [];
        if (!cidr.aligned) issues.push({ path: `${path}[${i}]`, value: range, message: `has host bits set; did you mean ${networkOf(cidr)}?` });
        if (seen.has(networkOf(cidr))) issues.push({ path: `${path}[${i}]`, value: range, message: "is listed twice" });
        seen.add(networkOf(cidr));
        return issues;
      });
    },
  },
  entraIdSettings: {
    rule: "Entra ID settings only where they act",
    check: (c) => {
      const entra = c.managementCluster?.aks?.entraIdRbac;
      if (!entra || entra.enabled) return [];
      const base = "managementCluster.aks.entraIdRbac";
      return [
        ...(entra.kubeloginMode !== "azurecli"
          ? [{ path: `${base}.kubeloginMode`, value: entra.kubeloginMode, message: "is only used with entraIdRbac.enabled: true" }]
          : []),
        ...(!entra.grantDeployerClusterAdmin
          ? [{ path: `${base}.grantDeployerClusterAdmin`, value: false, message: "is only used with entraIdRbac.enabled: true" }]
          : []),
      ];
    },
  },
  autoscalerBounds: {
    rule: "AKS autoscaler bounds are ordered",
    check: (c) => {
      const aks = c.managementCluster?.aks;
      if (!aks || aks.existing) return [];
      return (["systemPool", "userPool"] as const).flatMap((pool) =>
        aks[pool].minCount > aks[pool].maxCount
          ? [{ path: `managementCluster.aks.${pool}.minCount`, value: aks[pool].minCount, message: `must be at most maxCount ${aks[pool].maxCount}` }]
          : [],
      );
    },
  },
} satisfies Record<string, Rule<Config>>;

/** Name rule: the created cluster's identities and resource group. */
export const AKS_NAME_RULE: Rule<DeploymentNames> = {
  rule: "the AKS group and identities are valid and apart from the persistent group",
  check: (n) => {
    const aks = n.topology.kind === "aroHcp" ? n.topology.aks : undefined;
    if (!aks) return [];
    const issues: ConfigIssue[] = [];
    if (!aks.existing) {
      for (const identity of [aks.identities.cluster, aks.identities.kubelet]) {
        if (!AZURE_NAME_RULES.userAssignedIdentity.test(identity))
          issues.push({
            path: aks.origins.name,
            value: identity,
            message: `gives the identity name "${identity}", which ${AZURE_NAME_RULES.userAssignedIdentity.rule}`,
          });
      }
      const group = aks.resourceGroup.name.toLowerCase();
      if (group === n.resourceGroup.name.toLowerCase()) {
        issues.push({
          path: aks.origins.resourceGroup,
          value: aks.resourceGroup.name,
          message: "is the persistent resource group; the AKS cluster gets its own (the aks stack creates and deletes it)",
        });
      }
      const clusterGroup = n.clusters.find((c) => c.hosted && Object.values(c.hosted.resourceGroups).some((g) => g.name.toLowerCase() === group));
      if (clusterGroup) {
        issues.push({
          path: aks.origins.resourceGroup,
          value: aks.resourceGroup.name,
          message: `is also a resource group of hosted cluster ${clusterGroup.name}; destroying either stack would delete the other's resources`,
        });
      }
    }
    return issues;
  },
};
