import { adoptsHostedCluster, Config } from "../schema";
import { Rule } from "./rule";

const HELP = "(help/adopt.md)";

/**
 * Adoption rules: what seed 004 built must be what the config describes, or the import blocks
 * would target objects that do not exist, or take over objects the plan then replaces.
 */
export const ADOPT_STRUCTURE_RULES: ReadonlyArray<Rule<Config>> = [
  {
    rule: "adoption is for the self-managed topology",
    check: (c) =>
      c.topology === "aroHcp" && (c.adopt || c.clusters.some((cluster) => cluster.adopt))
        ? [{ path: "topology", value: c.topology, message: `cannot adopt: seed 004's commands build the selfManaged topology; remove adopt ${HELP}` }]
        : [],
  },
  {
    rule: "adopted identities trust the adopted issuer",
    check: (c) =>
      c.adopt
        ? []
        : c.clusters.flatMap((cluster, i) =>
            cluster.adopt
              ? [
                  {
                    path: `clusters[${i}].adopt`,
                    message: `needs adopt with the guide's oidcStorageAccountName: the guide's federated credentials trust ccoctl's issuer, and another issuer URL would replace them ${HELP}`,
                  },
                ]
              : [],
          ),
  },
  {
    rule: "adopted issuer is ccoctl's shared one",
    check: (c) =>
      c.adopt && c.oidc.issuer !== "shared"
        ? [{ path: "oidc.issuer", value: c.oidc.issuer, message: `must be shared with adopt: ccoctl made one issuer for every cluster ${HELP}` }]
        : [],
  },
  {
    rule: "explicit names agree with the adopted ones",
    check: (c) => {
      const adopt = c.adopt;
      if (!adopt) return [];
      const issues = [];
      if (c.resourceGroup.name && adopt.resourceGroupName && c.resourceGroup.name !== adopt.resourceGroupName) {
        issues.push({
          path: "resourceGroup.name",
          value: c.resourceGroup.name,
          message: `differs from adopt.resourceGroupName "${adopt.resourceGroupName}"; remove one of them (the guide's name is the group's name) ${HELP}`,
        });
      }
      if (c.oidc.storageAccountName && c.oidc.storageAccountName !== adopt.oidcStorageAccountName) {
        issues.push({
          path: "oidc.storageAccountName",
          value: c.oidc.storageAccountName,
          message: `differs from adopt.oidcStorageAccountName "${adopt.oidcStorageAccountName}"; remove oidc.storageAccountName ${HELP}`,
        });
      }
      if (c.oidc.containerName && c.oidc.containerName !== adopt.oidcStorageAccountName) {
        issues.push({
          path: "oidc.containerName",
          value: c.oidc.containerName,
          message: `must be the storage account name "${adopt.oidcStorageAccountName}" with adopt (ccoctl names the container after its --name); remove it ${HELP}`,
        });
      }
      return issues;
    },
  },
  {
    rule: "adopted ExternalDNS principal keeps the guide's roles",
    check: (c) => {
      if (!c.adopt?.externalDns) return [];
      if (!c.externalDns || !c.dns) {
        return [{ path: "adopt.externalDns", message: `needs dns and externalDns: the principal is adopted into the ExternalDNS setup ${HELP}` }];
      }
      return c.externalDns.roles === "seed"
        ? []
        : [
            {
              path: "externalDns.roles",
              value: c.externalDns.roles,
              message: `must be seed with adopt.externalDns: the guide granted Reader and Contributor on the zone, and those are the assignments adopted ${HELP}`,
            },
          ];
    },
  },
  {
    rule: "adopted infrastructure names the guide's infraID and groups",
    check: (c) =>
      c.clusters.flatMap((cluster, i) => {
        const hosted = cluster.hostedCluster;
        if (!cluster.adopt?.infrastructure || !hosted) return [];
        const issues = [];
        if (!hosted.infraId) {
          issues.push({
            path: `clusters[${i}].hostedCluster.infraId`,
            message: `is required with clusters[${i}].adopt.infrastructure: HyperShift chose a random one; read it with kubectl get hostedcluster ${cluster.name} -n ${hosted.namespace} -o jsonpath='{.spec.infraID}' ${HELP}`,
          });
        }
        if (hosted.network.singleResourceGroup) {
          issues.push({
            path: `clusters[${i}].hostedCluster.network.singleResourceGroup`,
            value: true,
            message: `must be false with clusters[${i}].adopt.infrastructure: the guide made separate VNet and NSG groups ${HELP}`,
          });
        }
        return issues;
      }),
  },
  {
    rule: "an adopted HostedCluster comes with its Phase 3",
    check: (c) =>
      c.clusters.flatMap((cluster, i) =>
        cluster.adopt?.hostedCluster && !cluster.adopt.infrastructure
          ? [
              {
                path: `clusters[${i}].adopt.hostedCluster`,
                value: true,
                message: `needs clusters[${i}].adopt.infrastructure: true: hypershift create cluster azure made the HostedCluster with Phase 3's infrastructure; with infrastructure: false the tool creates both ${HELP}`,
              },
            ]
          : [],
      ),
  },
];

/** Valid adoption configs that change something the guide made (printed by synth). */
export function adoptionWarnings(config: Config): string[] {
  return config.clusters.flatMap((cluster, i) => {
    const hosted = cluster.hostedCluster;
    if (!adoptsHostedCluster(cluster.adopt) || !hosted) return [];
    const warnings: string[] = [];
    if (hosted.sshPublicKeyFile)
      warnings.push(
        `clusters[${i}].hostedCluster.sshPublicKeyFile: the adopted cluster's SSH key Secret (the key hypershift create cluster --generate-ssh made) is rewritten with this key on the first deploy; HyperShift puts it in every node's ignition, so every NodePool rolls out (nodes replaced, or rebooted with upgradeType InPlace). Remove sshPublicKeyFile to keep the CLI's key ${HELP}.`,
      );
    if (!hosted.nodePools.some((pool) => pool.name === cluster.name))
      warnings.push(
        `clusters[${i}].hostedCluster.nodePools: no pool is named ${cluster.name}, the NodePool hypershift create cluster azure made: it stays outside Terraform (running, not imported) while the configured pools are created beside it. Name a pool ${cluster.name} (with the CLI's size and count) to take it over ${HELP}.`,
      );
    return warnings;
  });
}
