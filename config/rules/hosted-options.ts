import { atLeast, releaseVersion } from "../release-version";
import { Config, NodePoolConfig } from "../schema";
import type { HostedContext } from "./hosted-context";
import { ConfigIssue, Rule } from "./rule";

/**
 * Rules of the `create cluster azure` options (issue 13 items 1 and 3) that span fields or need
 * the release version: the CLI's checks and the CRD's CEL rules the config can evaluate
 * (openshift/hypershift@3ee9615 `cmd/cluster/azure/create.go`, `api/hypershift/v1beta1/hostedcluster_types.go`).
 */

/** Whether a NodePool names its boot image, so the operator need not default it from the release payload. */
export function hasExplicitImage(pool: NodePoolConfig): boolean {
  return pool.marketplace !== undefined || pool.imageId !== undefined;
}

export const HOSTED_OPTION_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "OAuth is published through a LoadBalancer only on workload-identity clusters",
    check: ({ config, spec, at }) =>
      spec.oauthPublishing === "LoadBalancer" && config.topology === "aroHcp"
        ? [
            {
              path: `${at}.oauthPublishing`,
              value: "LoadBalancer",
              message:
                "is not supported with topology: aroHcp (the CRD requires OAuth as a Route with ManagedIdentities; the CLI refuses it with --managed-identities-file); use Route",
            },
          ]
        : [],
  },
  {
    rule: "capabilities: none both enabled and disabled; Ingress only with Console; disabling beyond ImageRegistry needs 4.20",
    check: ({ spec, at }) => {
      const enabled = spec.capabilities?.enabled ?? [];
      const disabled = spec.capabilities?.disabled ?? [];
      const issues: ConfigIssue[] = [];
      for (const capability of disabled.filter((c) => enabled.includes(c))) {
        issues.push({
          path: `${at}.capabilities.disabled`,
          value: capability,
          message: "is also in capabilities.enabled; a capability is either enabled or disabled (CRD)",
        });
      }
      if (disabled.includes("Ingress") && !disabled.includes("Console")) {
        issues.push({
          path: `${at}.capabilities.disabled`,
          value: "Ingress",
          message: "can be disabled only together with Console (the console needs ingress: CRD and CLI rule); add Console",
        });
      }
      const version = releaseVersion(spec.releaseImage);
      const beyondRegistry = disabled.filter((c) => c !== "ImageRegistry");
      if (version && !atLeast(version, 4, 20) && beyondRegistry.length > 0) {
        issues.push({
          path: `${at}.capabilities.disabled`,
          value: beyondRegistry,
          message: `needs OpenShift 4.20 or later (releaseImage is ${version.major}.${version.minor}); before 4.20 only ImageRegistry can be disabled`,
        });
      }
      return issues;
    },
  },
  {
    rule: "a custom API server DNS name needs OpenShift 4.19",
    check: ({ spec, at }) => {
      const version = releaseVersion(spec.releaseImage);
      return spec.apiServerDnsName && version && !atLeast(version, 4, 19)
        ? [
            {
              path: `${at}.apiServerDnsName`,
              value: spec.apiServerDnsName,
              message: `has no effect before OpenShift 4.19 (releaseImage is ${version.major}.${version.minor}); remove it or use a 4.19+ release`,
            },
          ]
        : [];
    },
  },
  {
    rule: "below OpenShift 4.20 every NodePool names its marketplace image",
    check: ({ spec, at }) => {
      const version = releaseVersion(spec.releaseImage);
      if (!version || atLeast(version, 4, 20)) return [];
      // The NodePool controller fills the marketplace image from the release payload only from
      // 4.20 (hypershift-operator/controllers/nodepool/azure.go defaultAzureNodePoolImage);
      // before that a NodePool without one never gets VMs.
      // A NodePool with its own releaseImage is checked against that release (rules/node-pools.ts).
      return spec.nodePools.flatMap((pool, i) =>
        hasExplicitImage(pool) || pool.releaseImage
          ? []
          : [
              {
                path: `${at}.nodePools[${i}].marketplace`,
                message: `is required: releaseImage is OpenShift ${version.major}.${version.minor}.${version.patch}, and HyperShift defaults the marketplace image from the release only from 4.20; give publisher, offer, sku and version (e.g. azureopenshift, aro4, aro_${version.major}${version.minor}, <version>), or imageId`,
              },
            ],
      );
    },
  },
];

/** Option warnings: what the config cannot check at synth. */
export function hostedOptionWarnings(config: Config): string[] {
  return config.clusters.flatMap((cluster) => {
    const spec = cluster.hostedCluster;
    if (!spec) return [];
    // Each NodePool boots from its own release (nodePools[].releaseImage) or the cluster's.
    const unchecked = spec.nodePools.filter((pool) => !hasExplicitImage(pool) && !releaseVersion(pool.releaseImage ?? spec.releaseImage));
    return unchecked.map(
      (pool) =>
        `cluster-${cluster.name}: NodePool ${pool.name}'s release ${pool.releaseImage ?? spec.releaseImage} has no version tag, so it cannot be checked for a marketplace image: below OpenShift 4.20 HyperShift does not default it and the pool gets no VMs. Use a version tag, or give nodePools[].marketplace or imageId.`,
    );
  });
}
