import { DATA_PLANE_COMPONENTS, WORKLOAD_IDENTITY_COMPONENTS, WorkloadIdentityKey } from "../components";
import { CLOUD_ENDPOINTS } from "../cloud";
import { ClusterConfig, Config } from "../schema";
import { controlPlaneIdentityNames, keyVaultNames } from "./aro-hcp";
import { HostedClusterNames, hostedClusterNames } from "./hosted-cluster";
import { issuerUrl, stableSuffix } from "./naming";
import { keyFiles } from "./paths";
import { clusterStackNames, identitiesStackName } from "./stacks";
import { ClusterIdentityNames } from "./topology";

export interface FederatedCredentialName {
  /** `<identity>-fed-id[-<suffix>]`, as seed 004's `az identity federated-credential create`. */
  readonly name: string;
  /** `system:serviceaccount:<namespace>:<name>`. */
  readonly subject: string;
}

export interface IdentityNames {
  /** HyperShift's workloadIdentities key. */
  readonly key: WorkloadIdentityKey;
  /** `<namePrefix>-<component suffix>`. */
  readonly name: string;
  /** ARM ID of the user-assigned identity (known before it exists). */
  readonly id: string;
  readonly credentials: readonly FederatedCredentialName[];
}

export interface IssuerNames {
  /** Blob container serving the documents; the last segment of the issuer URL. */
  readonly containerName: string;
  /** Config path the container name comes from (for error messages). */
  readonly containerOrigin: string;
  /** `https://<account>.blob.core.windows.net/<container>`, no trailing slash. */
  readonly url: string;
  /** Absolute paths of the signing key pair. */
  readonly publicKeyFile: string;
  readonly privateKeyFile: string;
  /** The private key path as the config writes it (or derives it): absolute paths stay absolute in Terraform. */
  readonly privateKeyFileAsWritten: string;
  /** Config path of the key pair (for error messages). */
  readonly keyOrigin: string;
}

export interface ClusterNames {
  readonly name: string;
  /** Index in `clusters` (for error messages). */
  readonly index: number;
  /** Stack holding this cluster's managed identities (and, per-cluster mode, its issuer). */
  readonly identitiesStack: string;
  /** Prefix of identity names and the config path it comes from. */
  readonly identityPrefix: string;
  readonly identityPrefixOrigin: string;
  readonly issuer: IssuerNames;
  /** Whether the issuer belongs to this cluster alone (oidc.issuer: perCluster). */
  readonly ownsIssuer: boolean;
  /** The cluster's identities: workload identities (selfManaged), or data-plane identities and control-plane principals (aroHcp). */
  readonly identities: ClusterIdentityNames;
  /** Phase 3 names, when the cluster has `hostedCluster`. */
  readonly hosted?: HostedClusterNames;
  /**
   * `clusters[].retired`: its stacks are synthesized only to be destroyed. Constructs that protect
   * what outlives a cluster (prevent_destroy) lift the protection for a retired cluster.
   */
  readonly retired: boolean;
  /** This cluster's stacks, in destroy order: `cluster-` and `infra-` (with hosted), `identities-`. */
  readonly stacks: readonly string[];
}

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
  const enabled = (key: WorkloadIdentityKey) =>
    // hostedCluster.kms needs the KMS identity: it implies identities.kms (help/kms.md).
    key === "controlPlaneOperator"
      ? // On by default, as `hypershift create iam azure` always creates it (issue 13 item 3).
        (cluster.identities.controlPlaneOperator ?? true)
      : key === "kms"
        ? cluster.identities.kms || cluster.hostedCluster?.kms !== undefined
        : true;
  const aroHcp = config.topology === "aroHcp";
  const components = aroHcp ? DATA_PLANE_COMPONENTS : WORKLOAD_IDENTITY_COMPONENTS.filter((c) => !c.optional || enabled(c.key));
  const managedIdentities = components.map((component): IdentityNames => {
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
  return {
    hosted:
      cluster.hostedCluster &&
      hostedClusterNames(config, configDir, cluster, cluster.hostedCluster, index, managedIdentities, basis.deploymentZone, basis.resourceGroup),
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
