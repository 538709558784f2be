import { goDuration } from "./go-duration";
import { HYPERSHIFT_API_VERSION, HyperShiftObject } from "./hypershift-object";

/** A marketplace boot image: all four fields (`--marketplace-*`). */
export interface NodePoolMarketplaceImage {
  readonly publisher: string;
  readonly offer: string;
  readonly sku: string;
  readonly version: string;
}

/** The OS disk of the workers (`platform.azure.osDisk`). */
export interface NodePoolOsDisk {
  /** Size in GiB, 16-32767. */
  readonly sizeGiB: number;
  /** `Premium_LRS`, `PremiumV2_LRS`, `Standard_LRS` or `StandardSSD_LRS`. */
  readonly storageAccountType: string;
  /** `Persistent` or `Ephemeral` (`--enable-ephemeral-disk`). @default - not written (a persistent managed disk) */
  readonly persistence?: string;
  /** ARM ID of the disk encryption set (`--disk-encryption-set-id`). @default - platform-managed keys */
  readonly diskEncryptionSetId?: string;
}

/** One NodePool's own settings, as `create nodepool azure` takes them. */
export interface NodePoolSettings {
  /** NodePool name (metadata.name), unique in the namespace. */
  readonly name: string;
  /** Fixed number of workers. Give this or `autoscaling`, not both (the CRD). @default - none (with autoscaling) */
  readonly replicas?: number;
  /** Autoscaler bounds (`spec.autoScaling`). @default - none: fixed replicas */
  readonly autoscaling?: { readonly min: number; readonly max: number };
  /** `amd64` or `arm64` (immutable). */
  readonly arch: string;
  /** Replace unhealthy workers (`--auto-repair`). */
  readonly autoRepair: boolean;
  /** `Replace` or `InPlace` (immutable). */
  readonly upgradeType: string;
  /** Go duration a worker is drained before removal (`0s`: forever); written as metav1.Duration prints it. */
  readonly nodeDrainTimeout: string;
  /** Go duration volumes may take to detach (`0s`: forever). */
  readonly nodeVolumeDetachTimeout: string;
  /** `true`, `false` or an RFC 3339 time (`spec.pausedUntil`). @default - not paused */
  readonly pausedUntil?: string;
  /** Azure VM size of the workers. */
  readonly vmSize: string;
  /** Boot image by ARM ID (image type ImageID). @default - a marketplace image */
  readonly imageId?: string;
  /** Hyper-V generation of the marketplace image, `Gen1` or `Gen2`. */
  readonly imageGeneration: string;
  /** A specific marketplace image. @default - the release payload's image (OpenShift 4.20+) */
  readonly marketplace?: NodePoolMarketplaceImage;
  readonly osDisk: NodePoolOsDisk;
  /** Boot diagnostics storage: `Managed`, `Disabled` or `UserManaged`. */
  readonly diagnostics: string;
  /** Blob endpoint of the boot diagnostics account; with `UserManaged` only. @default - none */
  readonly diagnosticsStorageAccountUri?: string;
  /** Azure availability zone `1`, `2` or `3`. @default - no zone */
  readonly availabilityZone?: string;
  /** `Enabled` or `Disabled` host encryption. @default - not written: the CRD's Enabled */
  readonly encryptionAtHost?: string;
  /** Labels of the pool's nodes (`spec.nodeLabels`). @default - none */
  readonly nodeLabels?: Readonly<Record<string, string>>;
  /** Taints of the pool's nodes (`spec.taints`). @default - none */
  readonly taints?: readonly NodePoolTaint[];
  /** Rolling update of a Replace pool (`spec.management.replace.rollingUpdate`). @default - not written: HyperShift's 1 and 0 */
  readonly rollingUpdate?: { readonly maxSurge: number | string; readonly maxUnavailable: number | string };
  /** Names of the pool's ConfigMaps (`spec.config`, `spec.tuningConfig`), made by `NodePoolConfigMaps`. @default - none */
  readonly configMaps?: { readonly config?: string; readonly tuning?: string };
}

/** A node taint as the NodePool takes it (core/v1 Taint without timeAdded). */
export interface NodePoolTaint {
  readonly key: string;
  /** @default - none */
  readonly value?: string;
  /** `NoSchedule`, `PreferNoSchedule` or `NoExecute`. */
  readonly effect: string;
}

export interface NodePoolManifestProps extends NodePoolSettings {
  /** The HostedCluster's name (spec.clusterName). */
  readonly clusterName: string;
  /** Namespace of the HostedCluster. */
  readonly namespace: string;
  /** Release image of the workers: the HostedCluster's, or the pool's own (at most its version). */
  readonly releaseImage: string;
  /** ARM ID of the workers' subnet, in the cluster's VNet (CAPZ uses only the name). */
  readonly subnetId: string;
}

/**
 * A NodePool as `hypershift create cluster azure --render` writes it (`defaultNodePool`, with
 * the drain and detach timeouts), its Azure platform as `create nodepool azure` builds it
 * (`NodePoolPlatform`, cmd/nodepool/azure/create.go), plus the options the CLI has no flag for
 * (autoScaling, pausedUntil on a single pool, imageID).
 */
export function nodePoolManifest(pool: NodePoolManifestProps): HyperShiftObject {
  return {
    apiVersion: HYPERSHIFT_API_VERSION,
    kind: "NodePool",
    metadata: { name: pool.name, namespace: pool.namespace },
    spec: {
      clusterName: pool.clusterName,
      // The CRD: "Both replicas or autoScaling should not be set".
      ...(pool.autoscaling ? { autoScaling: { min: pool.autoscaling.min, max: pool.autoscaling.max } } : { replicas: pool.replicas }),
      management: nodePoolManagement(pool),
      release: { image: pool.releaseImage },
      arch: pool.arch,
      nodeDrainTimeout: goDuration(pool.nodeDrainTimeout),
      nodeVolumeDetachTimeout: goDuration(pool.nodeVolumeDetachTimeout),
      ...(pool.pausedUntil !== undefined ? { pausedUntil: pool.pausedUntil } : {}),
      ...nodePoolWorkloadFields(pool),
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
          subnetID: pool.subnetId,
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
function nodePoolDiagnostics(pool: NodePoolSettings): Record<string, unknown> {
  return pool.diagnostics === "UserManaged"
    ? { storageAccountType: "UserManaged", userManaged: { storageAccountURI: pool.diagnosticsStorageAccountUri } }
    : { storageAccountType: pool.diagnostics };
}

/**
 * A boot image by ID (type ImageID), a given marketplace image, or only the generation: the
 * NodePool controller then takes the image of the release payload (OpenShift 4.20+,
 * `defaultAzureNodePoolImage`).
 */
function nodePoolImage(pool: NodePoolSettings): Record<string, unknown> {
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

/** `management`: with the rolling update of a Replace pool when given (the CRD allows rollingUpdate only with strategy RollingUpdate). */
function nodePoolManagement(pool: NodePoolSettings): Record<string, unknown> {
  const { rollingUpdate } = pool;
  return {
    autoRepair: pool.autoRepair,
    upgradeType: pool.upgradeType,
    ...(rollingUpdate
      ? { replace: { strategy: "RollingUpdate", rollingUpdate: { maxSurge: rollingUpdate.maxSurge, maxUnavailable: rollingUpdate.maxUnavailable } } }
      : {}),
  };
}

/** `nodeLabels`, `taints`, `config` and `tuningConfig`, each only when set (an unchanged pool renders as before). */
function nodePoolWorkloadFields(pool: NodePoolSettings): Record<string, unknown> {
  const labels = pool.nodeLabels && Object.keys(pool.nodeLabels).length > 0 ? pool.nodeLabels : undefined;
  const taints = pool.taints && pool.taints.length > 0 ? pool.taints : undefined;
  return {
    ...(labels
      ? {
          nodeLabels: Object.fromEntries(
            Object.keys(labels)
              .sort()
              .map((key) => [key, labels[key]]),
          ),
        }
      : {}),
    ...(taints ? { taints: taints.map((t) => ({ key: t.key, ...(t.value !== undefined ? { value: t.value } : {}), effect: t.effect })) } : {}),
    ...(pool.configMaps?.config ? { config: [{ name: pool.configMaps.config }] } : {}),
    ...(pool.configMaps?.tuning ? { tuningConfig: [{ name: pool.configMaps.tuning }] } : {}),
  };
}
