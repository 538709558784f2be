import { ControlPlaneIdentityKey, DataPlaneIdentityKey, WorkloadIdentityKey } from "../../config/components";
import { HostedClusterNames } from "../../config/names";
import { AzureCloud, HostedClusterConfig, NodePoolConfig } from "../../config/schema";
import { goDuration } from "./go-duration";
import { hostedClusterMetadata, hostedClusterOptionFields } from "./hosted-options";

/**
 * The HostedCluster and NodePool objects as `hypershift create cluster azure --render` writes
 * them for a self-managed (workload identity) cluster (notes §6, `cmd/cluster/core/create.go`,
 * `cmd/cluster/azure/create.go`), as plain Kubernetes objects. Pure: values the caller passes
 * in (client IDs as Terraform references) are placed as given; escaping for Terraform is the
 * construct's job.
 */

export const HYPERSHIFT_API_VERSION = "hypershift.openshift.io/v1beta1";

/** The identities HyperShift requires in `workloadIdentities` (the KMS one goes elsewhere, §2.2). */
export type RequiredWorkloadIdentity = Exclude<WorkloadIdentityKey, "controlPlaneOperator" | "kms">;

/** Client ID (a UUID, or a Terraform reference to one) of each workload identity. */
export type WorkloadIdentityClientIds = Readonly<Record<RequiredWorkloadIdentity, string>> & {
  /** Only when the cluster has the control-plane-operator identity. @default - omitted */
  readonly controlPlaneOperator?: string;
};

export const REQUIRED_WORKLOAD_IDENTITIES: readonly RequiredWorkloadIdentity[] = [
  "imageRegistry",
  "ingress",
  "file",
  "disk",
  "nodePoolManagement",
  "cloudProvider",
  "network",
];

/**
 * ARO HCP-style identities (ManagedIdentities): certificate service principals whose credentials
 * HyperShift mounts from Key Vault, and federated data-plane managed identities.
 */
export interface ManagedIdentitiesInput {
  /** The Key Vault holding the credentials secrets (`managedIdentitiesKeyVault`). */
  readonly keyVault: { readonly name: string; readonly tenantId: string };
  /** Per control-plane component: client ID (UUID or Terraform reference) and Key Vault secret name. */
  readonly controlPlane: Readonly<Record<ControlPlaneIdentityKey, { readonly clientId: string; readonly secretName: string }>>;
  /** Client IDs of the data-plane identities. */
  readonly dataPlane: Readonly<Record<DataPlaneIdentityKey, string>>;
}

/**
 * Pod Security admission level HyperShift puts on the control-plane namespace of an ARO
 * HCP-style cluster (its AKS scripts pass it: contrib/managed-azure/create_basic_hosted_cluster.sh);
 * HyperShift's default is restricted.
 */
export const ARO_HCP_ANNOTATIONS = { "hypershift.openshift.io/pod-security-admission-label-override": "baseline" } as const;

/**
 * How the HostedCluster authenticates to Azure, by topology: self-managed WorkloadIdentities
 * (client IDs of federated managed identities), or ARO HCP-style ManagedIdentities.
 */
export type HostedClusterIdentities =
  { readonly kind: "workloadIdentities"; readonly clientIds: WorkloadIdentityClientIds } | ({ readonly kind: "managedIdentities" } & ManagedIdentitiesInput);

export interface HyperShiftObject {
  readonly apiVersion: string;
  readonly kind: "HostedCluster" | "NodePool";
  readonly metadata: {
    readonly name: string;
    readonly namespace: string;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly labels?: Readonly<Record<string, string>>;
  };
  readonly spec: Record<string, unknown>;
}

/** HyperShift's `AzureKMSKey`; the version may be a Terraform reference (a created key's current version). */
export interface AzureKmsKey {
  readonly keyVaultName: string;
  readonly keyName: string;
  readonly keyVersion: string;
}

/** etcd encryption with an Azure Key Vault key (self-managed: the KMS workload identity). */
export interface KmsEncryptionInput {
  readonly activeKey: AzureKmsKey;
  /** The previous key during a rotation. @default - none */
  readonly backupKey?: AzureKmsKey;
  readonly keyVaultType: "KeyVault";
  /**
   * How the KMS plugin authenticates: self-managed, the client ID (UUID or Terraform reference) of
   * the KMS identity federated with kube-system/kms-provider; ARO HCP style, the Key Vault secret
   * with the KMS service principal's credentials in the managed-identities vault
   * (`--kms-credentials-secret-name`).
   */
  readonly identity: { readonly workloadIdentityClientId: string } | { readonly credentialsSecretName: string };
}

export interface HostedClusterManifestInput {
  /** HostedCluster name: the cluster name (1-40 lowercase letters, digits or '-'). */
  readonly name: string;
  /** The cluster's derived names (namespace, secrets, network IDs, zones, ExternalDNS domain). */
  readonly names: HostedClusterNames;
  /** The validated `hostedCluster` block of the cluster. */
  readonly hostedCluster: HostedClusterConfig;
  /** OIDC issuer URL of the cluster's service-account tokens, without trailing slash. */
  readonly issuerUrl: string;
  /** Azure region. */
  readonly location: string;
  readonly subscriptionId: string;
  readonly tenantId: string;
  /** The cluster's Azure identities: workload identities (self-managed) or managed identities (ARO HCP style). */
  readonly identities: HostedClusterIdentities;
  /** Encrypt etcd secrets with this Key Vault key. @default - AES-CBC with the generated key Secret */
  readonly kms?: KmsEncryptionInput;
  /**
   * Azure cloud of the cluster (`spec.platform.azure.cloud`).
   * @default "AzurePublicCloud" - the CRD default, not written (as the CLI, which never writes it)
   */
  readonly cloud?: AzureCloud;
}

/** The four services of `GetIngressServicePublishingStrategyMapping`, sorted by name (no OIDC entry). */
const SERVICES = [
  { service: "APIServer", host: "api" },
  { service: "Ignition", host: "ignition" },
  { service: "Konnectivity", host: "konnectivity" },
  { service: "OAuthServer", host: "oauth" },
] as const;

/** `hypershift create cluster azure --endpoint-access`: Public, PublicAndPrivate or Private. */
export type EndpointAccess = "Public" | "PublicAndPrivate" | "Private";

/**
 * How the control-plane endpoints are published, as the CLI writes them (notes §1.3, §6:
 * `GetIngressServicePublishingStrategyMapping` and `cmd/cluster/azure/create.go`). With an
 * ExternalDNS domain D the API server and OAuth are Routes named `<host>-<cluster>.D`; Konnectivity
 * and Ignition are named too only with Public endpoint access (private clusters reach them through
 * the Private Endpoint). Without D the API server gets its own LoadBalancer, except with Private
 * access, where it is a Route like the rest. Azure requires Konnectivity and Ignition to be
 * Routes in every case (CEL, §2.5).
 */
export function servicePublishing(
  name: string,
  externalDnsDomain: string | undefined,
  endpointAccess: EndpointAccess = "Public",
  oauthPublishing: HostedClusterConfig["oauthPublishing"] = "Route",
): Record<string, unknown>[] {
  const named = (host: string) => host === "api" || host === "oauth" || endpointAccess === "Public";
  return SERVICES.map(({ service, host }) => {
    // --oauth-publishing-strategy LoadBalancer: its hostname goes under loadBalancer (cmd/cluster/azure/create.go).
    if (service === "OAuthServer" && oauthPublishing === "LoadBalancer") {
      return {
        service,
        servicePublishingStrategy: {
          type: "LoadBalancer",
          ...(externalDnsDomain ? { loadBalancer: { hostname: `${host}-${name}.${externalDnsDomain}` } } : {}),
        },
      };
    }
    if (externalDnsDomain) {
      return {
        service,
        servicePublishingStrategy: { type: "Route", ...(named(host) ? { route: { hostname: `${host}-${name}.${externalDnsDomain}` } } : {}) },
      };
    }
    return { service, servicePublishingStrategy: { type: service === "APIServer" && endpointAccess !== "Private" ? "LoadBalancer" : "Route" } };
  });
}

export function hostedClusterManifest(input: HostedClusterManifestInput): HyperShiftObject {
  const { name, names, hostedCluster: hc } = input;
  const network = hc.network;
  const managed = input.identities.kind === "managedIdentities";

  return {
    apiVersion: HYPERSHIFT_API_VERSION,
    kind: "HostedCluster",
    metadata: { name, namespace: names.namespace, ...hostedClusterMetadata(hc, managed ? ARO_HCP_ANNOTATIONS : {}) },
    spec: {
      release: { image: hc.releaseImage },
      pullSecret: { name: names.secrets.pullSecret },
      sshKey: { name: names.secrets.sshKey },
      infraID: names.infraId,
      issuerURL: input.issuerUrl,
      serviceAccountSigningKey: { name: names.secrets.signingKey },
      networking: {
        networkType: hc.networkType,
        clusterNetwork: [{ cidr: network.clusterNetwork }],
        serviceNetwork: [{ cidr: network.serviceNetwork }],
        // The CLI writes machineNetwork only with --machine-cidr.
        ...(network.machineNetwork ? { machineNetwork: [{ cidr: network.machineNetwork }] } : {}),
      },
      etcd: {
        managementType: "Managed",
        managed: {
          storage: {
            type: "PersistentVolume",
            persistentVolume: {
              size: hc.etcd.storageSize,
              ...(hc.etcd.storageClassName ? { storageClassName: hc.etcd.storageClassName } : {}),
            },
          },
        },
      },
      controllerAvailabilityPolicy: hc.controllerAvailabilityPolicy,
      olmCatalogPlacement: hc.olmCatalogPlacement,
      fips: hc.fips,
      ...hostedClusterOptionFields(hc, hc.additionalTrustBundleFile ? names.trustBundleConfigMap : undefined),
      dns: { baseDomain: hc.baseDomain, publicZoneID: names.publicZone.id, privateZoneID: names.privateZone.id },
      platform: {
        type: "Azure",
        azure: {
          location: input.location,
          resourceGroup: names.resourceGroups.managed.name,
          vnetID: names.vnet.id,
          subnetID: names.subnet.id,
          securityGroupID: names.nsg.id,
          subscriptionID: input.subscriptionId,
          tenantID: input.tenantId,
          ...(input.cloud && input.cloud !== "AzurePublicCloud" ? { cloud: input.cloud } : {}),
          ...authentication(input),
        },
      },
      services: servicePublishing(name, names.externalDnsDomain, names.endpointAccess.kind, hc.oauthPublishing),
      secretEncryption: secretEncryption(input),
    },
  };
}

/**
 * KMS with the Key Vault key as `--encryption-key-id` renders it (cmd/cluster/azure/create.go:
 * activeKey, keyVaultType always, workloadIdentity for self-managed), plus backupKey during a
 * rotation; otherwise AES-CBC with the generated key, as the CLI without the flag. A cluster is
 * created with one or the other: the kube-apiserver's KMS encryption config has no AES-CBC
 * provider to read older secrets (control-plane-operator/.../kas/kms/azure.go), so the creation
 * guard refuses the switch.
 */
function secretEncryption(input: HostedClusterManifestInput): Record<string, unknown> {
  const kms = input.kms;
  if (!kms) return { type: "aescbc", aescbc: { activeKey: { name: input.names.secrets.etcdEncryptionKey } } };
  const key = (k: AzureKmsKey) => ({ keyVaultName: k.keyVaultName, keyName: k.keyName, keyVersion: k.keyVersion });
  return {
    type: "kms",
    kms: {
      provider: "Azure",
      azure: {
        activeKey: key(kms.activeKey),
        ...(kms.backupKey ? { backupKey: key(kms.backupKey) } : {}),
        // cmd/cluster/azure/create.go: workloadIdentity for self-managed; for ARO the managed
        // identity's secret with objectEncoding utf-8, as the control-plane identities (no clientID).
        ...("workloadIdentityClientId" in kms.identity
          ? { workloadIdentity: { clientID: kms.identity.workloadIdentityClientId } }
          : { kms: { credentialsSecretName: kms.identity.credentialsSecretName, objectEncoding: "utf-8" } }),
        keyVaultType: kms.keyVaultType,
      },
    },
  };
}

/**
 * `azureAuthenticationConfig`, and the topology that goes with it: the CRD asks self-managed
 * (WorkloadIdentities) clusters to set it explicitly; the CLI leaves it unset for ManagedIdentities
 * (public endpoint access), where it defaults to Public.
 */
function authentication(input: HostedClusterManifestInput): Record<string, unknown> {
  const identities = input.identities;
  if (identities.kind === "managedIdentities") {
    const controlPlane: Record<string, unknown> = { managedIdentitiesKeyVault: { name: identities.keyVault.name, tenantID: identities.keyVault.tenantId } };
    for (const [key, identity] of Object.entries(identities.controlPlane)) {
      // The CLI forces utf-8: the secret is the JSON text itself. The CRD has no default.
      controlPlane[key] = { clientID: identity.clientId, credentialsSecretName: identity.secretName, objectEncoding: "utf-8" };
    }
    return {
      azureAuthenticationConfig: {
        azureAuthenticationConfigType: "ManagedIdentities",
        managedIdentities: {
          controlPlane,
          dataPlane: {
            imageRegistryMSIClientID: identities.dataPlane.imageRegistry,
            diskMSIClientID: identities.dataPlane.disk,
            fileMSIClientID: identities.dataPlane.file,
          },
        },
      },
    };
  }
  const clientIds = identities.clientIds;
  const workloadIdentities: Record<string, { clientID: string }> = {};
  for (const key of REQUIRED_WORKLOAD_IDENTITIES) workloadIdentities[key] = { clientID: clientIds[key] };
  if (clientIds.controlPlaneOperator !== undefined) workloadIdentities.controlPlaneOperator = { clientID: clientIds.controlPlaneOperator };
  return {
    ...endpointAccessSpec(input),
    azureAuthenticationConfig: { azureAuthenticationConfigType: "WorkloadIdentities", workloadIdentities },
  };
}

/**
 * `topology` and `private` as the CLI writes them for self-managed clusters: Public, or the
 * private topology with `type: PrivateLink` and the NAT subnet (and the other allowed
 * subscriptions, when there are any).
 */
function endpointAccessSpec(input: HostedClusterManifestInput): Record<string, unknown> {
  const access = input.names.endpointAccess;
  if (access.kind === "Public") return { topology: "Public" };
  if (!access.natSubnet) throw new Error(`HostedCluster ${input.name}: endpointAccess ${access.kind} needs a NAT subnet (config rules)`);
  return {
    topology: access.kind,
    private: {
      type: "PrivateLink",
      privateLink: {
        natSubnetID: access.natSubnet.id,
        ...(access.additionalAllowedSubscriptions.length > 0 ? { additionalAllowedSubscriptions: [...access.additionalAllowedSubscriptions] } : {}),
      },
    },
  };
}

export interface NodePoolManifestInput {
  /** The HostedCluster's name (spec.clusterName). */
  readonly clusterName: string;
  /** Namespace of the HostedCluster. */
  readonly namespace: string;
  /** The HostedCluster's release image: the NodePool's unless it has its own (`nodePool.releaseImage`). */
  readonly releaseImage: string;
  /** ARM ID of the cluster's subnet: the workers' unless the NodePool has its own (`nodePool.subnetId`, same VNet: CAPZ uses only the name). */
  readonly subnetId: string;
  /** The validated NodePool config. */
  readonly nodePool: NodePoolConfig;
}

/**
 * A NodePool as `hypershift create cluster azure --render` writes it (`defaultNodePool`, with
 * the drain and detach timeouts), its Azure platform as `create nodepool azure` builds it
 * (`NodePoolPlatform`, cmd/nodepool/azure/create.go), plus the options the CLI has no flag for
 * (autoScaling, pausedUntil on a single pool, imageID).
 */
export function nodePoolManifest(input: NodePoolManifestInput): HyperShiftObject {
  const pool = input.nodePool;
  return {
    apiVersion: HYPERSHIFT_API_VERSION,
    kind: "NodePool",
    metadata: { name: pool.name, namespace: input.namespace },
    spec: {
      clusterName: input.clusterName,
      // The CRD: "Both replicas or autoScaling should not be set".
      ...(pool.autoscaling ? { autoScaling: { min: pool.autoscaling.min, max: pool.autoscaling.max } } : { replicas: pool.replicas }),
      management: { autoRepair: pool.autoRepair, upgradeType: pool.upgradeType },
      release: { image: pool.releaseImage ?? input.releaseImage },
      arch: pool.arch,
      nodeDrainTimeout: goDuration(pool.nodeDrainTimeout),
      nodeVolumeDetachTimeout: goDuration(pool.nodeVolumeDetachTimeout),
      ...(pool.pausedUntil !== undefined ? { pausedUntil: pool.pausedUntil } : {}),
      platform: {
        type: "Azure",
        azure: {
          vmSize: pool.vmSize,
          image: nodePoolImage(pool),
          osDisk: {
            sizeGiB: pool.osDisk.sizeGiB,
            diskStorageAccountType: pool.osDisk.storageAccountType,
            ...(pool.osDisk.persistence ? { persistence: pool.osDisk.persistence } : {}),
            ...(pool.osDisk.diskEncryptionSetId ? { encryptionSetID: pool.osDisk.diskEncryptionSetId } : {}),
          },
          subnetID: pool.subnetId ?? input.subnetId,
          diagnostics: nodePoolDiagnostics(pool),
          ...(pool.availabilityZone ? { availabilityZone: pool.availabilityZone } : {}),
          // Unset means the CRD default Enabled (needs Microsoft.Compute/EncryptionAtHost).
          ...(pool.encryptionAtHost ? { encryptionAtHost: pool.encryptionAtHost } : {}),
        },
      },
    },
  };
}

/** `userManaged` goes with UserManaged only (the CRD's union rule; the CLI writes it so). */
function nodePoolDiagnostics(pool: NodePoolConfig): Record<string, unknown> {
  return pool.diagnostics === "UserManaged"
    ? { storageAccountType: "UserManaged", userManaged: { storageAccountURI: pool.diagnosticsStorageAccountUri } }
    : { storageAccountType: pool.diagnostics };
}

/**
 * A boot image by ID (type ImageID), a given marketplace image, or only the generation: the
 * NodePool controller then takes the image of the release payload (OpenShift 4.20+,
 * `defaultAzureNodePoolImage`).
 */
function nodePoolImage(pool: NodePoolConfig): Record<string, unknown> {
  if (pool.imageId) return { type: "ImageID", imageID: pool.imageId };
  const marketplace = pool.marketplace;
  return {
    type: "AzureMarketplace",
    azureMarketplace: marketplace
      ? {
          publisher: marketplace.publisher,
          offer: marketplace.offer,
          sku: marketplace.sku,
          version: marketplace.version,
          imageGeneration: pool.imageGeneration,
        }
      : { imageGeneration: pool.imageGeneration },
  };
}
