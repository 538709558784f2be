import { hostedClusterApi } from "../config/hypershift-release";
import { ClusterNames } from "../config/names";
import { nodePoolConfigMapNames } from "../config/names/node-pool-config-maps";
import { Config } from "../config/schema";
import { endpointAccessProps } from "../constructs/hosted-cluster/endpoint-access";
import { HostedClusterProps } from "../constructs/hosted-cluster/hosted-cluster";
import { HostedClusterIdentities } from "../constructs/hosted-cluster/hosted-cluster-identities";
import { KmsEncryptionInput } from "../constructs/hosted-cluster/secret-encryption";

/** What the cluster stack finds in Azure for the HostedCluster (client IDs, the KMS key's version). */
export interface HostedClusterAzureInputs {
  /** The cluster's workload identities or managed identities, with their client IDs. */
  readonly identities: HostedClusterIdentities;
  /** The etcd encryption key. @default - AES-CBC */
  readonly kms?: KmsEncryptionInput;
}

/**
 * The HostedCluster construct's props of `cluster` (which must have `hostedCluster`): the one
 * place that maps its validated config and derived names to them. The construct reads neither.
 * The `hostedCluster` block and each NodePool entry are passed as they are, typed by the
 * construct's plain interfaces (`HostedClusterOptions`, `HostedClusterNodePool`). The operator
 * release (`hypershiftRelease`; undefined: main) decides which fields its CRD has.
 */
export function hostedClusterProps(
  config: Pick<Config, "location" | "subscriptionId" | "tenantId" | "cloud">,
  cluster: ClusterNames,
  azure: HostedClusterAzureInputs,
  hypershiftRelease?: string,
): HostedClusterProps {
  const hosted = cluster.hosted;
  if (!hosted) throw new Error(`internal: clusters[${cluster.index}] has no hostedCluster`);
  const hc = hosted.config;
  return {
    name: cluster.name,
    namespace: hosted.namespace,
    releaseImage: hc.releaseImage,
    infraId: hosted.infraId,
    issuerUrl: cluster.issuer.url,
    secrets: hosted.secrets,
    networking: {
      networkType: hc.networkType,
      clusterNetwork: hc.network.clusterNetwork,
      serviceNetwork: hc.network.serviceNetwork,
      machineNetwork: hc.network.machineNetwork,
    },
    etcd: hc.etcd,
    controllerAvailabilityPolicy: hc.controllerAvailabilityPolicy,
    olmCatalogPlacement: hc.olmCatalogPlacement,
    fips: hc.fips,
    options: hc,
    monitoring: hc.monitoring,
    // The VNet's address space goes to noProxy only when this config creates the VNet (known here).
    clusterConfiguration: { ...hc, workerVnetCidr: hosted.vnet.create ? hc.network.vnetCidr : undefined },
    trustBundleConfigMap: hc.additionalTrustBundleFile ? hosted.trustBundleConfigMap : undefined,
    dns: { baseDomain: hc.baseDomain, publicZoneId: hosted.publicZone.id, privateZoneId: hosted.privateZone.id },
    azure: {
      location: config.location,
      subscriptionId: config.subscriptionId,
      tenantId: config.tenantId,
      resourceGroup: hosted.resourceGroups.managed.name,
      vnetId: hosted.vnet.id,
      subnetId: hosted.subnet.id,
      securityGroupId: hosted.nsg.id,
      cloud: config.cloud,
    },
    identities: azure.identities,
    kms: azure.kms,
    endpointAccess: endpointAccessProps(cluster.name, hosted.endpointAccess),
    externalDnsDomain: hosted.externalDnsDomain,
    oauthPublishing: hc.oauthPublishing,
    // A pool with availabilityZones is one NodePool per zone (<name>-<zone>), from names.
    nodePools: hosted.nodePools.map((pool) => ({ ...pool.config, configMaps: nodePoolConfigMapNames(pool.config) })),
    availableTimeout: hc.availableTimeout,
    kubeconfigSecretName: hosted.secrets.adminKubeconfig,
    api: hostedClusterApi(hypershiftRelease),
  };
}
