import { z } from "zod";
import { nodePoolWorkloadShape } from "./node-pool-workload";
import { armId, availabilityZone, goDuration, kubernetesName, releaseImage, scalarAsText } from "./primitives";

/** `clusters[].hostedCluster.nodePools[]`: the NodePools of a hosted cluster (rules across fields: rules/node-pools.ts). */

const osDisk = z
  .strictObject({
    sizeGiB: z.number().int().min(16).max(32767).default(120).describe("OS disk size in GiB (16-32767)."),
    storageAccountType: z.enum(["Premium_LRS", "PremiumV2_LRS", "Standard_LRS", "StandardSSD_LRS"]).default("Premium_LRS").describe("OS disk storage type."),
    persistence: z
      .enum(["Persistent", "Ephemeral"])
      .optional()
      .describe(
        "Ephemeral: the OS disk lives on the VM's local cache, temp or NVMe disk (--enable-ephemeral-disk); the VM size must have one at least sizeGiB large, at most 2040 GiB. Default: not set (a persistent managed disk).",
      ),
    // Its subscription is spelled unlike GUID (the same IDs match); the JSON Schema publishes this pattern as written.
    diskEncryptionSetId: z
      .string()
      .max(285, { error: "must be at most 285 characters" })
      .regex(
        /^\/subscriptions\/[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\/resourceGroups\/[-\w.()]{0,89}[-\w()]\/providers\/Microsoft\.Compute\/diskEncryptionSets\/[-\w]{1,80}$/,
        {
          error: "must be a disk encryption set ARM ID like /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/diskEncryptionSets/<name>",
        },
      )
      .optional()
      .describe(
        "Disk encryption set of the OS disks (--disk-encryption-set-id), in the cluster's subscription and location. The infra stack grants the nodePoolManagement and disk identities Reader on it. Default: platform-managed keys.",
      ),
  })
  .default({ sizeGiB: 120, storageAccountType: "Premium_LRS" })
  .describe("OS disk of the workers (as `hypershift create cluster azure` writes it).");

const marketplaceImage = z
  .strictObject({
    publisher: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-_]{2,49}$/, { error: "must match ^[a-z0-9][a-z0-9-_]{2,49}$" })
      .describe("Image publisher, e.g. azureopenshift."),
    offer: z.string().min(1).max(255).describe("Image offer, e.g. aro4."),
    sku: z
      .string()
      .regex(/^[a-z0-9-_]{1,255}$/, { error: "must match ^[a-z0-9-_]+$" })
      .describe("Image SKU, e.g. aro_419."),
    version: z
      .string()
      .max(32, { error: "must be at most 32 characters" })
      .regex(/^([0-9]+\.[0-9]+\.[0-9]+|latest)$/, { error: "must be <major>.<minor>.<patch> or latest" })
      .describe("Image version."),
  })
  .optional()
  .describe("A specific marketplace image: all four fields. Default: the image of the release payload (OpenShift 4.20+).");

/** Default VM size per architecture, as `create nodepool azure` without --instance-type (cmd/nodepool/azure/create.go). */
export const DEFAULT_VM_SIZE = { amd64: "Standard_D4s_v5", arm64: "Standard_D4ps_v5" } as const;

export const nodePoolSchema = z
  .strictObject({
    name: kubernetesName("NodePool name").describe("NodePool name (metadata.name), unique in the cluster's namespace."),
    replicas: z
      .number()
      .int()
      .min(0, { error: "must be 0 or more" })
      .optional()
      .describe("Number of worker VMs. Default: 2 without autoscaling; not allowed with autoscaling."),
    autoscaling: z
      .strictObject({
        min: z.number().int().min(0, { error: "must be 0 or more" }).describe("Fewest workers (0 only with the operator's scale-from-zero on Azure)."),
        max: z.number().int().min(1, { error: "must be 1 or more" }).describe("Most workers; at least min."),
      })
      .superRefine((a, ctx) => {
        if (a.max < a.min)
          ctx.addIssue({ code: "custom", path: ["max"], input: a.max, message: `must be equal or greater than min ${a.min} (the NodePool CRD rule)` });
      })
      .optional()
      .describe("Let the cluster autoscaler size the NodePool between min and max (spec.autoScaling) instead of fixed replicas. Default: none."),
    arch: z
      .enum(["amd64", "arm64"])
      .default("amd64")
      .describe("CPU architecture of the workers (--arch); immutable. arm64 needs an arm64 VM size (a 'p' size such as Standard_D4ps_v5)."),
    autoRepair: z.boolean().default(false).describe("Replace unhealthy workers (a MachineHealthCheck, --auto-repair)."),
    upgradeType: z
      .enum(["Replace", "InPlace"])
      .default("Replace")
      .describe("How workers are upgraded (--node-upgrade-type): Replace (new VMs) or InPlace; immutable."),
    nodeDrainTimeout: goDuration("node drain timeout").describe("How long a worker is drained before it is removed anyway (Go duration; 0s: wait forever)."),
    nodeVolumeDetachTimeout: goDuration("volume detach timeout").describe(
      "How long volumes may take to detach from a removed worker (Go duration; 0s: wait forever).",
    ),
    pausedUntil: scalarAsText(
      z
        .string()
        .max(35, { error: "must be at most 35 characters (the CRD's limit)" })
        .regex(/^(true|false|True|False|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))$/, {
          error: "must be true, false or an RFC 3339 time such as 2027-01-31T00:00:00Z (as --pausedUntil and the CRD)",
        }),
    )
      .optional()
      .describe("Pause reconciling the NodePool: true (until removed) or until an RFC 3339 time. Default: not paused."),
    releaseImage: releaseImage
      .optional()
      .describe(
        "The NodePool's own release image, to upgrade its workers after the control plane: at most the HostedCluster's version and at most 3 minor versions older. Default: hostedCluster.releaseImage.",
      ),
    subnetId: armId(
      "Microsoft.Network/virtualNetworks/subnets",
      "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
    )
      .optional()
      .describe("Subnet of the workers (--nodepool-subnet-id), in the cluster's VNet; immutable. Default: the cluster's subnet."),
    vmSize: z
      .string()
      .regex(/^(Standard_|Basic_)?[A-Z]+[0-9]+(-[0-9]+)?[abdilmptsCNP]*(_[A-Z]*[0-9]+[A-Z]*)?(_v[0-9]+)?$/, {
        error: "must be an Azure VM size such as Standard_D4s_v5 (the NodePool CRD pattern)",
      })
      .optional()
      .describe("Azure VM size of the workers. Default: Standard_D4s_v5 (amd64) or Standard_D4ps_v5 (arm64), as the CLI."),
    osDisk,
    diagnostics: z
      .enum(["Managed", "Disabled", "UserManaged"])
      .default("Managed")
      .describe("Boot diagnostics storage: Managed (Azure-managed storage), Disabled, or UserManaged (your storage account, diagnosticsStorageAccountUri)."),
    diagnosticsStorageAccountUri: z
      // The CRD's CEL: isURL(self) && url(self).getScheme() == 'https'.
      .string()
      .regex(/^https:\/\/\S+$/, { error: "must be an https URL such as https://mydiagnostics.blob.core.windows.net/" })
      .refine((uri) => URL.canParse(uri), { error: "must be a valid URL such as https://mydiagnostics.blob.core.windows.net/" })
      .max(1024, { error: "must be at most 1024 characters" })
      .optional()
      .describe("Blob endpoint of the boot diagnostics storage account; required with diagnostics: UserManaged, and only then."),
    // A managed image, or an Azure Compute Gallery image or image version.
    imageId: armId(
      ["Microsoft.Compute/images", "Microsoft.Compute/galleries/images", "Microsoft.Compute/galleries/images/versions"],
      "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/images/<name> (a managed image; or an Azure Compute Gallery image, .../galleries/<gallery>/images/<image>[/versions/<version>])",
      { max: { length: 255, error: "must be at most 255 characters (the NodePool CRD limit)" } },
    )
      .optional()
      .describe("Boot image by ARM ID (image type ImageID) instead of a marketplace image. Default: a marketplace image."),
    imageGeneration: z.enum(["Gen1", "Gen2"]).default("Gen2").describe("Hyper-V generation of the marketplace image (case-sensitive)."),
    marketplace: marketplaceImage,
    availabilityZone: availabilityZone().optional().describe("Azure availability zone of the VMs. Default: none. Not with availabilityZones."),
    availabilityZones: z
      .array(availabilityZone())
      .min(1, { error: "must list at least one zone" })
      .optional()
      .describe(
        "Spread the pool over zones as `--availability-zones` does: one NodePool per zone, named <name>-<zone>, each with the full replicas (3 zones x 2 replicas = 6 nodes). Default: one NodePool, no zone.",
      ),
    encryptionAtHost: z
      .enum(["Enabled", "Disabled"])
      .optional()
      .describe("Host encryption of the VMs. Default: the CRD's Enabled, which needs the subscription feature Microsoft.Compute/EncryptionAtHost."),
    // nodeLabels, taints, rollingUpdate, config, tuning (node-pool-workload.ts).
    ...nodePoolWorkloadShape,
  })
  .superRefine((pool, ctx) => {
    // The CRD: "Both replicas or autoScaling should not be set".
    if (pool.autoscaling && pool.replicas !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["replicas"],
        input: pool.replicas,
        message: "is not allowed with autoscaling (the NodePool takes one or the other); remove it",
      });
    }
  })
  .transform((pool) => ({
    ...pool,
    replicas: pool.autoscaling ? undefined : (pool.replicas ?? 2),
    vmSize: pool.vmSize ?? DEFAULT_VM_SIZE[pool.arch],
  }))
  .describe("A NodePool: a set of identical worker VMs.");

export type NodePoolConfig = z.output<typeof nodePoolSchema>;
