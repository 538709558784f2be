import { zonelessRegionMessage } from "../azure-regions";
import { AKS_RESERVED_POOL_NAMES, AZURE_NAME_RULES } from "../azure-rules";
import { Cidr, contains, networkOf, parseCidr } from "../cidr";
import { ControlPlaneIdentityNames, controlPlanePrincipalsOf, DeploymentNames } from "../names";
import type { Config } from "../schema";
import { aroHcpSettings, KeyVaultNetworkConfig } from "../schema-aro-hcp";
import type { ConfigIssue, Rule } from "./rule";

/**
 * Rules of the ARO HCP-style topology (topology: aroHcp), run with the others (structure.ts,
 * names.ts): structure rules on the config, name rules on the derived names.
 */

/** Certificate lifetimes we accept: a day (shorter needs an apply every few hours) to two years (Entra's recommended maximum). */
export const CERTIFICATE_VALIDITY_HOURS = { min: 24, max: 17520 } as const;

/** Whole hours of a validated `<n>h` setting. */
export const hoursOf = (value: string) => Number(value.slice(0, -1));

/** Valid but risky: said at synth, not refused. */
export function aroHcpWarnings(config: Config): string[] {
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

/** Ranges Key Vault's firewall refuses in IP rules: only public addresses are allowed there. */
const NON_PUBLIC_RANGES = ["0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16"].map(parseCidr);

const cidrOf = (range: string): Cidr => parseCidr(range.includes("/") ? range : `${range}/32`);

/**
 * A Key Vault firewall (`aroHcp.keyVault.network`, `kms.keyVault.network`): something must be let
 * in, unless every network is, and the addresses must be public, aligned and distinct. `path` is
 * the network block's path; `readers` says who reads the vault from the management cluster.
 */
export function keyVaultNetworkIssues(network: KeyVaultNetworkConfig, path: string, readers: string): ConfigIssue[] {
  const ranges = network.allowedIpRanges;
  const subnets = network.allowedSubnetIds;
  if (network.allowPublicNetworkAccess) {
    return [
      ...(ranges.length > 0
        ? [{ path: `${path}.allowedIpRanges`, value: ranges, message: "is not used with allowPublicNetworkAccess: true (every network is let in)" }]
        : []),
      ...(subnets.length > 0
        ? [{ path: `${path}.allowedSubnetIds`, value: subnets, message: "is not used with allowPublicNetworkAccess: true (every network is let in)" }]
        : []),
    ];
  }
  if (ranges.length === 0 && subnets.length === 0 && !network.privateEndpoint) {
    return [
      {
        path,
        message: `lets nothing through the vault's firewall, which denies every network by default: Terraform (it writes the vault) and ${readers} would get 403 ForbiddenByFirewall. Add allowedIpRanges: [<where Terraform runs, e.g. the address curl -s https://api.ipify.org prints>, <the management cluster's outbound addresses>], or allowedSubnetIds or privateEndpoint; or set allowPublicNetworkAccess: true to let every network in (help/aro-hcp.md#key-vault-firewall)`,
      },
    ];
  }
  const seen = new Set<string>();
  return [
    ...ranges.flatMap((range, i) => {
      const cidr = cidrOf(range);
      const at = `${path}.allowedIpRanges[${i}]`;
      const issues: ConfigIssue[] = [];
      const reserved = NON_PUBLIC_RANGES.find((r) => contains(r, cidr) || contains(cidr, r));
      if (reserved)
        issues.push({
          path: at,
          value: range,
          message: `is in the non-public range ${networkOf(reserved)}, which Key Vault IP rules refuse: let a VNet in with allowedSubnetIds or privateEndpoint`,
        });
      if (!cidr.aligned) issues.push({ path: at, value: range, message: `has host bits set; did you mean ${networkOf(cidr)}?` });
      if (seen.has(networkOf(cidr))) issues.push({ path: at, value: range, message: "is listed twice" });
      seen.add(networkOf(cidr));
      return issues;
    }),
    ...duplicateSubnets(subnets, `${path}.allowedSubnetIds`),
  ];
}

function duplicateSubnets(subnets: readonly string[], path: string): ConfigIssue[] {
  const seen = new Set<string>();
  return subnets.flatMap((subnet, i) => {
    const repeated = seen.has(subnet.toLowerCase());
    seen.add(subnet.toLowerCase());
    return repeated ? [{ path: `${path}[${i}]`, value: subnet, message: "is listed twice" }] : [];
  });
}

/** Key Vault secret names (HyperShift's credentialsSecretName): 1-127 letters, digits or '-'. */
const SECRET_NAME = /^[a-zA-Z0-9-]{1,127}$/;

export const ARO_HCP_STRUCTURE_RULES: ReadonlyArray<Rule<Config>> = [
  {
    rule: "the control-plane credentials vault lets Terraform and the management cluster in",
    check: (c) =>
      c.topology !== "aroHcp"
        ? []
        : keyVaultNetworkIssues(
            aroHcpSettings(c).keyVault.network,
            "aroHcp.keyVault.network",
            "the management cluster's Key Vault secrets provider (it mounts the control-plane credentials)",
          ),
  },
  {
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
  {
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
  {
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
  {
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
  {
    rule: "certificate validity within bounds, renewal inside it",
    check: (c) => {
      const certificates = c.aroHcp?.certificates;
      if (c.topology !== "aroHcp" || !certificates) return [];
      const validity = hoursOf(certificates.validity);
      const renewBefore = hoursOf(certificates.renewBefore);
      const { min, max } = CERTIFICATE_VALIDITY_HOURS;
      if (validity < min || validity > max) {
        return [{ path: "aroHcp.certificates.validity", value: certificates.validity, message: `must be between ${min}h and ${max}h (one day to two years)` }];
      }
      return renewBefore >= validity
        ? [
            {
              path: "aroHcp.certificates.renewBefore",
              value: certificates.renewBefore,
              message: `must be shorter than aroHcp.certificates.validity ${certificates.validity} (otherwise every apply replaces the certificates)`,
            },
          ]
        : [];
    },
  },
  {
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
  {
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
  {
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
  {
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
  {
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
];

export const ARO_HCP_NAME_RULES: ReadonlyArray<Rule<DeploymentNames>> = [
  {
    rule: "the derived Key Vault name is valid",
    check: ({ topology }) =>
      topology.kind === "aroHcp" && !AZURE_NAME_RULES.keyVault.test(topology.keyVault.name)
        ? [
            {
              path: topology.keyVault.origin,
              value: topology.keyVault.name,
              message: `gives the Key Vault name "${topology.keyVault.name}", which ${AZURE_NAME_RULES.keyVault.rule}`,
            },
          ]
        : [],
  },
  {
    rule: "control-plane secrets are valid and unique in the vault",
    check: (n) => [
      ...n.clusters.flatMap((cluster) =>
        controlPlanePrincipalsOf(cluster.identities)
          .filter((identity) => !SECRET_NAME.test(identity.secretName))
          .map((identity) => ({
            path: cluster.identityPrefixOrigin,
            value: identity.secretName,
            message: "gives a Key Vault secret name that must be 1-127 letters, digits or '-' (HyperShift's credentialsSecretName)",
          })),
      ),
      ...repeatedControlPlaneNames(
        n,
        (identity) => identity.secretName,
        [],
        "gives a control-plane secret name another cluster also uses (one vault for all clusters; set clusters[].identities.namePrefix)",
      ),
    ],
  },
  {
    rule: "control-plane display names are unique (lookups by display name must find one)",
    check: (n) =>
      repeatedControlPlaneNames(
        n,
        (identity) => identity.applicationName,
        n.externalDnsApplication ? [n.externalDnsApplication] : [],
        "gives an Entra display name another identity of this deployment also has (set clusters[].identities.namePrefix)",
      ),
  },
  {
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
  },
];

/** Control-plane names (case-insensitive) that repeat one another or one of `taken`. */
function repeatedControlPlaneNames(
  n: DeploymentNames,
  nameOf: (identity: ControlPlaneIdentityNames) => string,
  taken: readonly string[],
  message: string,
): ConfigIssue[] {
  const seen = new Set(taken.map((name) => name.toLowerCase()));
  return n.clusters.flatMap((cluster) =>
    controlPlanePrincipalsOf(cluster.identities).flatMap((identity) => {
      const name = nameOf(identity);
      const repeated = seen.has(name.toLowerCase());
      seen.add(name.toLowerCase());
      return repeated ? [{ path: cluster.identityPrefixOrigin, value: name, message }] : [];
    }),
  );
}
