import { CONTROL_PLANE_OPERATOR_IDENTITY_SINCE, releaseAtLeast } from "../hypershift-release";
import { DATA_PLANE_COMPONENTS, WORKLOAD_IDENTITY_COMPONENTS, WorkloadIdentityKey } from "../components";
import { CLOUD_ENDPOINTS } from "../cloud";
import { ClusterConfig, Config } from "../schema";
import { controlPlaneIdentityNames, keyVaultNames } from "./aro-hcp";
import { hostedClusterNames } from "./hosted-cluster";
import { issuerUrl, stableSuffix } from "./naming";
import { keyFiles } from "./paths";
import { clusterStackNames, identitiesStackName } from "./stacks";
import type { ClusterNames, IdentityNames, IssuerNames } from "./types";

/** What every cluster's names derive from: the deployment's shared names. */
export interface DeploymentBasis {
  /** Absolute folder of the config file. */
  readonly configDir: string;
  readonly storageAccountName: string;
  readonly resourceGroup: { readonly name: string; readonly id: string };
  /** The shared issuer (oidc.issuer: shared), else undefined. */
  readonly sharedIssuer?: IssuerNames;
  /** The deployment's own DNS zone, when dns is configured. */
  readonly deploymentZone?: string;
  /** The HyperShift release the user runs (config/hypershift-release.ts); undefined: main. */
  readonly hypershiftRelease?: string;
}

function requireIssuer(issuer: IssuerNames | undefined, index: number): IssuerNames {
  // rules/structure.ts guarantees a key for every issuer before names are derived.
  if (!issuer) throw new Error(`internal: clusters[${index}] has no OIDC issuer signing key`);
  return issuer;
}

/** Names of `config.clusters[index]`: its stacks, issuer, identities and (with hostedCluster) Phase 3 names. */
export function clusterNames(config: Config, cluster: ClusterConfig, index: number, basis: DeploymentBasis): ClusterNames {
  const { configDir, storageAccountName: accountName, sharedIssuer } = basis;
  const resourceGroupId = basis.resourceGroup.id;
  const identityPrefix = cluster.identities.namePrefix ?? cluster.name;
  const ownsIssuer = config.oidc.issuer === "perCluster";
  const ownKey = cluster.serviceAccountSigningKey;
  const issuer: IssuerNames =
    ownsIssuer && ownKey
      ? {
          containerName: cluster.name,
          containerOrigin: `clusters[${index}].name`,
          url: issuerUrl(accountName, cluster.name, CLOUD_ENDPOINTS[config.cloud].blobSuffix),
          ...keyFiles(ownKey, configDir),
          keyOrigin: `clusters[${index}].serviceAccountSigningKey`,
        }
      : requireIssuer(sharedIssuer, index);
  const aroHcp = config.topology === "aroHcp";
  const managedIdentities = managedIdentityNames(config, cluster, identityPrefix, resourceGroupId, basis.hypershiftRelease);
  return {
    hosted:
      cluster.hostedCluster &&
      hostedClusterNames({
        config,
        configDir,
        cluster,
        hosted: cluster.hostedCluster,
        index,
        identities: managedIdentities,
        deploymentZone: basis.deploymentZone,
        persistentGroup: basis.resourceGroup,
        hypershiftRelease: basis.hypershiftRelease,
      }),
    name: cluster.name,
    index,
    identitiesStack: identitiesStackName(cluster.name),
    identityPrefix,
    identityPrefixOrigin: cluster.identities.namePrefix ? `clusters[${index}].identities.namePrefix` : `clusters[${index}].name`,
    issuer,
    ownsIssuer,
    identities: aroHcp
      ? {
          kind: "aroHcp",
          dataPlaneIdentities: managedIdentities,
          controlPlanePrincipals: controlPlaneIdentityNames(config.prefix, identityPrefix, { kms: cluster.hostedCluster?.kms !== undefined }),
          keyVault: keyVaultNames(config, resourceGroupId, stableSuffix),
        }
      : { kind: "selfManaged", workloadIdentities: managedIdentities },
    retired: cluster.retired,
    stacks: cluster.hostedCluster ? clusterStackNames(cluster.name) : [identitiesStackName(cluster.name)],
  };
}

/** The cluster's managed identities (workload identities, or aroHcp's data-plane ones) and their federated credentials. */
function managedIdentityNames(
  config: Config,
  cluster: ClusterConfig,
  identityPrefix: string,
  resourceGroupId: string,
  hypershiftRelease: string | undefined,
): IdentityNames[] {
  const enabled = (key: WorkloadIdentityKey) =>
    // hostedCluster.kms needs the KMS identity: it implies identities.kms (help/kms.md).
    key === "controlPlaneOperator"
      ? // On by default, as `hypershift create iam azure` always creates it (issue 13 item 3); off
        // before release-4.22, whose AzureWorkloadIdentities has no controlPlaneOperator (help/management-cluster.md).
        (cluster.identities.controlPlaneOperator ?? releaseAtLeast(hypershiftRelease, CONTROL_PLANE_OPERATOR_IDENTITY_SINCE))
      : key === "kms"
        ? cluster.identities.kms || cluster.hostedCluster?.kms !== undefined
        : true;
  const components = config.topology === "aroHcp" ? DATA_PLANE_COMPONENTS : WORKLOAD_IDENTITY_COMPONENTS.filter((c) => !c.optional || enabled(c.key));
  return components.map((component): IdentityNames => {
    const name = `${identityPrefix}-${component.suffix}`;
    return {
      key: component.key,
      name,
      id: `${resourceGroupId}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}`,
      credentials: component.credentials.map((credential) => ({
        name: credential.suffix ? `${name}-fed-id-${credential.suffix}` : `${name}-fed-id`,
        subject: credential.subject,
      })),
    };
  });
}
