import type { DeploymentNames } from "../names";
import type { Config } from "../schema";
import { AKS_NAME_RULE, AKS_RULES, aksWarnings } from "./aks";
import { CONTROL_PLANE_CREDENTIALS_NAME_RULES, CONTROL_PLANE_CREDENTIALS_RULES } from "./control-plane-credentials";
import type { ConfigIssue, Rule } from "./rule";

/**
 * Rules of the ARO HCP-style topology (topology: aroHcp), run with the others (structure.ts,
 * names.ts): structure rules on the config, name rules on the derived names. The AKS management
 * cluster's rules are in aks.ts, the control-plane credentials' in control-plane-credentials.ts,
 * the Key Vault firewall's in key-vault-network.ts; this file holds what ties the topology
 * together and lists every rule in the order their issues are reported.
 */

export { CERTIFICATE_VALIDITY_HOURS, hoursOf } from "./control-plane-credentials";
export { keyVaultNetworkIssues } from "./key-vault-network";

/** Valid but risky: said at synth, not refused. */
export const aroHcpWarnings = (config: Config): string[] => aksWarnings(config);

/** Structure rules of the topology itself: what goes with aroHcp and what does not. */
const TOPOLOGY_RULES = {
  settingsOnlyWithAroHcp: {
    rule: "ARO HCP settings and AKS only with topology: aroHcp",
    check: (c) => {
      if (c.topology === "aroHcp") return [];
      const issues: ConfigIssue[] = [];
      if (c.aroHcp) issues.push({ path: "aroHcp", message: "is only used with topology: aroHcp (set topology: aroHcp, or remove the block)" });
      if (c.managementCluster?.aks) {
        issues.push({
          path: "managementCluster.aks",
          message: "is only used with topology: aroHcp; a self-managed management cluster is reached with managementCluster.kubeconfig",
        });
      }
      return issues;
    },
  },
  managementClusterIsAks: {
    rule: "an ARO HCP management cluster is an AKS cluster",
    check: (c) => {
      const management = c.managementCluster;
      if (c.topology !== "aroHcp" || !management) return [];
      if (!management.aks) {
        return [
          {
            path: "managementCluster.aks",
            message: "is required with topology: aroHcp (the AKS management cluster: {} creates <prefix>-mgmt, or name it with existing: true)",
          },
        ];
      }
      return management.kubeconfig
        ? [{ path: "managementCluster.kubeconfig", message: "is not used with managementCluster.aks: Terraform reads the connection from the AKS cluster" }]
        : [];
    },
  },
  noWorkloadIdentityOptions: {
    rule: "ARO HCP clusters take no workload-identity options",
    check: (c) =>
      c.topology !== "aroHcp"
        ? []
        : c.clusters.flatMap((cluster, i) => [
            ...(cluster.identities.controlPlaneOperator
              ? [
                  {
                    path: `clusters[${i}].identities.controlPlaneOperator`,
                    value: true,
                    message: "is not used with topology: aroHcp: the control-plane operator always has its certificate identity",
                  },
                ]
              : []),
            ...(cluster.identities.kms
              ? [
                  {
                    path: `clusters[${i}].identities.kms`,
                    value: true,
                    message:
                      "is not used with topology: aroHcp: the KMS identity there is a certificate service principal, made when hostedCluster.kms is set (help/kms.md#with-topology-arohcp)",
                  },
                ]
              : []),
          ]),
  },
  publishThroughExternalDns: {
    rule: "ARO HCP hosted clusters publish through ExternalDNS",
    check: (c) =>
      c.topology !== "aroHcp"
        ? []
        : c.clusters.flatMap((cluster, i) => {
            const hosted = cluster.hostedCluster;
            if (!hosted || (hosted.externalDns ?? c.externalDns !== undefined)) return [];
            // Without a domain, OAuth, Konnectivity and Ignition are Routes named by the management
            // cluster's default ingress, which AKS does not have; HyperShift's AKS scripts always
            // pass --external-dns-domain.
            return [
              {
                path: hosted.externalDns === false ? `clusters[${i}].hostedCluster.externalDns` : "externalDns",
                value: hosted.externalDns,
                message:
                  "is required with topology: aroHcp for every hosted cluster (configure dns and externalDns): an AKS management cluster has no OpenShift router to name the control plane's Routes",
              },
            ];
          }),
  },
} satisfies Record<string, Rule<Config>>;

export const ARO_HCP_STRUCTURE_RULES: ReadonlyArray<Rule<Config>> = [
  CONTROL_PLANE_CREDENTIALS_RULES.vaultNetwork,
  AKS_RULES.zonesInRegion,
  TOPOLOGY_RULES.settingsOnlyWithAroHcp,
  TOPOLOGY_RULES.managementClusterIsAks,
  TOPOLOGY_RULES.noWorkloadIdentityOptions,
  CONTROL_PLANE_CREDENTIALS_RULES.certificateLifetime,
  TOPOLOGY_RULES.publishThroughExternalDns,
  AKS_RULES.userPoolName,
  AKS_RULES.apiServerRanges,
  AKS_RULES.entraIdSettings,
  AKS_RULES.autoscalerBounds,
];

export const ARO_HCP_NAME_RULES: ReadonlyArray<Rule<DeploymentNames>> = [...CONTROL_PLANE_CREDENTIALS_NAME_RULES, AKS_NAME_RULE];
