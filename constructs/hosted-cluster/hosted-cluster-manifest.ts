import { HostedClusterApi, hostedClusterApi } from "../../config/hypershift-release";
import {
  apiServerNetworking,
  clusterAutoscaling,
  clusterConfiguration,
  ClusterConfigurationProps,
  containerRegistry,
  withConfiguration,
} from "./cluster-configuration";
import { EndpointAccessProps, endpointTopology, OAuthPublishing, servicePublishing } from "./endpoint-access";
import { ARO_HCP_ANNOTATIONS, azureAuthenticationConfig, HostedClusterIdentities } from "./hosted-cluster-identities";
import { HostedClusterOptions, hostedClusterMetadata, hostedClusterOptionFields } from "./hosted-options";
import { HYPERSHIFT_API_VERSION, HyperShiftObject } from "./hypershift-object";
import { HostedClusterMonitoring, hostedClusterMonitoring } from "./monitoring";
import { KmsEncryptionInput, secretEncryption } from "./secret-encryption";
import { SignInManifestProps, signInConfiguration } from "./sign-in";

/**
 * The HostedCluster object as `hypershift create cluster azure --render` writes it (notes §6,
 * `cmd/cluster/core/create.go`, `cmd/cluster/azure/create.go`), as a plain Kubernetes object.
 * Pure: values the caller passes in (client IDs as Terraform references) are placed as given;
 * escaping for Terraform is the construct's job.
 */

/** The Secrets the HostedCluster refers to, in its namespace (HostedClusterSecrets makes them). */
export interface HostedClusterSecretRefs {
  /** `spec.pullSecret`. */
  readonly pullSecret: string;
  /** `spec.sshKey`. */
  readonly sshKey: string;
  /** `spec.serviceAccountSigningKey`. */
  readonly signingKey: string;
  /** The AES-CBC key of `spec.secretEncryption` (unused with `kms`). */
  readonly etcdEncryptionKey: string;
}

/** `spec.networking`: the cluster's internal networks (immutable once created). */
export interface HostedClusterNetworking {
  /** `OVNKubernetes`, or `Other` for your own CNI (`--network-type`). */
  readonly networkType: string;
  /** Pod network CIDR. */
  readonly clusterNetwork: string;
  /** Service network CIDR. */
  readonly serviceNetwork: string;
  /** Machine network CIDR (`--machine-cidr`). @default - none (not written, as the CLI) */
  readonly machineNetwork?: string;
}

/** `spec.etcd`: managed etcd on a persistent volume. */
export interface HostedClusterEtcd {
  /** Volume size, e.g. `8Gi`. */
  readonly storageSize: string;
  /** Storage class of the volume. @default - the management cluster's default */
  readonly storageClassName?: string;
}

/** `spec.dns`: the public zone of baseDomain and the cluster's private zone. */
export interface HostedClusterDns {
  readonly baseDomain: string;
  /** ARM ID of the public DNS zone named baseDomain. */
  readonly publicZoneId: string;
  /** ARM ID of the private DNS zone `<name>.<baseDomain>`. */
  readonly privateZoneId: string;
}

/** `spec.platform.azure`: where the cluster's Azure resources are. */
export interface HostedClusterAzurePlatform {
  /** Azure region. */
  readonly location: string;
  readonly subscriptionId: string;
  readonly tenantId: string;
  /** Resource group HyperShift creates the cluster's resources in (the managed group). */
  readonly resourceGroup: string;
  /** ARM IDs of the workers' VNet, subnet and network security group. */
  readonly vnetId: string;
  readonly subnetId: string;
  readonly securityGroupId: string;
  /**
   * Azure cloud (`spec.platform.azure.cloud`): `AzurePublicCloud`, `AzureUSGovernmentCloud` or `AzureChinaCloud`.
   * @default "AzurePublicCloud" - the CRD default, not written (as the CLI, which never writes it)
   */
  readonly cloud?: string;
}

export interface HostedClusterManifestProps {
  /** HostedCluster name: the cluster name (1-40 lowercase letters, digits or '-'). */
  readonly name: string;
  /** Namespace of the HostedCluster, its NodePools and Secrets. */
  readonly namespace: string;
  /** OpenShift release image (`spec.release.image`). */
  readonly releaseImage: string;
  /** `spec.infraID`: the name HyperShift gives the cluster's Azure resources. */
  readonly infraId: string;
  /** OIDC issuer URL of the cluster's service-account tokens, without trailing slash. */
  readonly issuerUrl: string;
  readonly secrets: HostedClusterSecretRefs;
  readonly networking: HostedClusterNetworking;
  readonly etcd: HostedClusterEtcd;
  /** `SingleReplica` or `HighlyAvailable` control-plane replicas. */
  readonly controllerAvailabilityPolicy: string;
  /** Where the OLM catalogs run: `management` or `guest`. */
  readonly olmCatalogPlacement: string;
  /** FIPS mode of the nodes. */
  readonly fips: boolean;
  readonly dns: HostedClusterDns;
  readonly azure: HostedClusterAzurePlatform;
  /** The cluster's Azure identities: workload identities (self-managed) or managed identities (ARO HCP style). */
  readonly identities: HostedClusterIdentities;
  /** The `create cluster azure` options (annotations, capabilities, tolerations, ...). @default - none set */
  readonly options?: HostedClusterOptions;
  /** ConfigMap holding the additional trust bundle (`spec.additionalTrustBundle`). @default - none */
  readonly trustBundleConfigMap?: string;
  /** Public, or private over Private Link (self-managed clusters write `topology` and `private` from it). @default - Public */
  readonly endpointAccess?: EndpointAccessProps;
  /** Zone ExternalDNS names the Routes in (`<host>-<name>.<zone>`). @default - none: unnamed Routes and a LoadBalancer API server */
  readonly externalDnsDomain?: string;
  /** How the OAuth server is published. @default "Route" */
  readonly oauthPublishing?: OAuthPublishing;
  /** Encrypt etcd secrets with this Key Vault key. @default - AES-CBC with the generated key Secret */
  readonly kms?: KmsEncryptionInput;
  /** `spec.monitoring`: metric set and metrics forwarding. @default - not written */
  readonly monitoring?: HostedClusterMonitoring;
  /** Day-1 configuration: proxy, API server, image policy, scheduler, OperatorHub, ingress, autoscaler, ACR pulls. @default - none set */
  readonly clusterConfiguration?: ClusterConfigurationProps;
  /** Identity providers users sign in with (`spec.configuration.oauth`). @default - none: only the admin kubeconfig */
  readonly signIn?: SignInManifestProps;
  /**
   * The fields the operator release's HostedCluster CRD has (config/hypershift-release.ts
   * `hostedClusterApi`): a field it lacks is not written. @default - HyperShift main: every field
   */
  readonly api?: HostedClusterApi;
}

/** The HostedCluster object of `props`, field for field as the CLI renders it. */
export function hostedClusterManifest(props: HostedClusterManifestProps): HyperShiftObject {
  const { name, networking: network, etcd } = props;
  const options = props.options ?? {};
  const identities = props.identities;
  const managed = identities.kind === "managedIdentities";
  const endpointAccess: EndpointAccessProps = props.endpointAccess ?? { kind: "Public" };
  const api = props.api ?? hostedClusterApi(undefined);

  return {
    apiVersion: HYPERSHIFT_API_VERSION,
    kind: "HostedCluster",
    metadata: { name, namespace: props.namespace, ...hostedClusterMetadata(options, managed ? ARO_HCP_ANNOTATIONS : {}) },
    spec: {
      release: { image: props.releaseImage },
      pullSecret: { name: props.secrets.pullSecret },
      sshKey: { name: props.secrets.sshKey },
      infraID: props.infraId,
      issuerURL: props.issuerUrl,
      serviceAccountSigningKey: { name: props.secrets.signingKey },
      networking: {
        networkType: network.networkType,
        clusterNetwork: [{ cidr: network.clusterNetwork }],
        serviceNetwork: [{ cidr: network.serviceNetwork }],
        // The CLI writes machineNetwork only with --machine-cidr.
        ...(network.machineNetwork ? { machineNetwork: [{ cidr: network.machineNetwork }] } : {}),
        ...apiServerNetworking(props.clusterConfiguration),
      },
      etcd: {
        managementType: "Managed",
        managed: {
          storage: {
            type: "PersistentVolume",
            persistentVolume: { size: etcd.storageSize, ...(etcd.storageClassName ? { storageClassName: etcd.storageClassName } : {}) },
          },
        },
      },
      controllerAvailabilityPolicy: props.controllerAvailabilityPolicy,
      olmCatalogPlacement: props.olmCatalogPlacement,
      fips: props.fips,
      ...withConfiguration(hostedClusterOptionFields(options, props.trustBundleConfigMap), clusterConfiguration(props), signInConfiguration(props.signIn)),
      dns: { baseDomain: props.dns.baseDomain, publicZoneID: props.dns.publicZoneId, privateZoneID: props.dns.privateZoneId },
      platform: { type: "Azure", azure: { ...azurePlatform(props.azure, identities, endpointAccess, api), ...containerRegistry(props.clusterConfiguration) } },
      services: servicePublishing(name, props.externalDnsDomain, endpointAccess.kind, props.oauthPublishing),
      secretEncryption: secretEncryption(props.kms, props.secrets.etcdEncryptionKey, api.kmsKeyVaultType),
      ...hostedClusterMonitoring(props.monitoring),
      ...clusterAutoscaling(props.clusterConfiguration),
    },
  };
}

/**
 * `spec.platform.azure`. The CRD asks self-managed (WorkloadIdentities) clusters to set the
 * topology explicitly; the CLI leaves it unset for ManagedIdentities (public access), where it
 * defaults to Public. A release without the field (4.21: neither the CRD nor its CLI has it) gets
 * none: only Public access reaches it (config/rules/hypershift-release.ts refuses the others).
 */
function azurePlatform(
  azure: HostedClusterAzurePlatform,
  identities: HostedClusterIdentities,
  endpointAccess: EndpointAccessProps,
  api: HostedClusterApi,
): Record<string, unknown> {
  if (!api.azureTopology && endpointAccess.kind !== "Public") {
    throw new Error(
      `internal: endpointAccess ${endpointAccess.kind} needs spec.platform.azure.topology, which this HyperShift release's CRD lacks (config rules)`,
    );
  }
  const topology = identities.kind === "managedIdentities" || !api.azureTopology ? {} : endpointTopology(endpointAccess);
  return {
    location: azure.location,
    resourceGroup: azure.resourceGroup,
    vnetID: azure.vnetId,
    subnetID: azure.subnetId,
    securityGroupID: azure.securityGroupId,
    subscriptionID: azure.subscriptionId,
    tenantID: azure.tenantId,
    ...(azure.cloud && azure.cloud !== "AzurePublicCloud" ? { cloud: azure.cloud } : {}),
    ...topology,
    azureAuthenticationConfig: azureAuthenticationConfig(identities),
  };
}
