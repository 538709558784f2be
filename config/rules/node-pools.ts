import { parseArmId } from "../names";
import { payloadRuns, releaseOf, versionSkewProblem } from "../release-version";
import { NodePoolConfig } from "../schema";
import type { HostedContext } from "./hosted-context";
import { NODE_POOL_WORKLOAD_RULES, nodePoolWorkloadWarnings } from "./node-pool-workload";
import { ConfigIssue, Rule } from "./rule";

/** Azure's largest ephemeral OS disk (learn.microsoft.com ephemeral-os-disks: "or 2,040 GiB, whichever is smaller"). */
export const EPHEMERAL_OS_DISK_MAX_GIB = 2040;

/** The additive-feature letters of an Azure VM size name (`Standard_D4ps_v5` → "ps"), and its version. */
export function vmSizeParts(vmSize: string): { family: string; features: string; version?: number } | undefined {
  const match = /^(?:Standard_|Basic_)?([A-Z]+)[0-9]+(?:-[0-9]+)?([abdilmptsCNP]*)(?:_[A-Z]*[0-9]+[A-Z]*)?(?:_v([0-9]+))?$/.exec(vmSize);
  return match ? { family: match[1], features: match[2], version: match[3] ? Number(match[3]) : undefined } : undefined;
}

/** Azure's VM size naming: the feature letter `p` marks an Arm64 (Ampere/Cobalt) size, e.g. Standard_D4ps_v5. */
export const isArm64VmSize = (vmSize: string) => vmSizeParts(vmSize)?.features.includes("p") ?? false;

/** Each NodePool with its config path. */
const pools = ({ spec, at }: HostedContext) => spec.nodePools.map((pool, i) => ({ pool, at: `${at}.nodePools[${i}]` }));

const each = (check: (pool: NodePoolConfig, at: string, context: HostedContext) => ConfigIssue[]) => (context: HostedContext) =>
  pools(context).flatMap(({ pool, at }) => check(pool, at, context));

/**
 * Rules across the fields of one NodePool and between a NodePool and its cluster: what the CRD,
 * the CLI, CAPZ or Azure would refuse after the apply started, caught at synth.
 */
export const NODE_POOL_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "the VM size matches the NodePool architecture",
    check: each((pool, at) => {
      const arm = isArm64VmSize(pool.vmSize);
      if (pool.arch === "arm64" && !arm) {
        return [
          {
            path: `${at}.vmSize`,
            value: pool.vmSize,
            message: "is not an Arm64 size, but arch is arm64: use a size with 'p' in its features, such as Standard_D4ps_v5 (the CLI's arm64 default)",
          },
        ];
      }
      if (pool.arch === "amd64" && arm) {
        return [{ path: `${at}.vmSize`, value: pool.vmSize, message: "is an Arm64 size ('p' in its features): set arch: arm64, or use an x86 size" }];
      }
      return [];
    }),
  },
  {
    rule: "the release payload runs the NodePool architecture",
    check: each((pool, at, { spec, at: hcAt }) => {
      const issues: ConfigIssue[] = [];
      // HyperShift refuses a NodePool whose arch the HostedCluster's payload lacks (nodepool_controller.go, `create nodepool`).
      const hcArch = releaseOf(spec.releaseImage).arch;
      if (hcArch && !payloadRuns(hcArch, pool.arch)) {
        issues.push({
          path: `${at}.arch`,
          value: pool.arch,
          message: `is not in the HostedCluster's ${hcArch} payload (${hcAt}.releaseImage); use the multi-arch release (…-multi) for mixed architectures`,
        });
      }
      const ownArch = pool.releaseImage ? releaseOf(pool.releaseImage).arch : undefined;
      if (ownArch && !payloadRuns(ownArch, pool.arch)) {
        issues.push({
          path: `${at}.releaseImage`,
          value: pool.releaseImage,
          message: `is a ${ownArch} payload, which has no ${pool.arch} images; use the -multi release`,
        });
      }
      return issues;
    }),
  },
  {
    rule: "a NodePool's own release is within HyperShift's version skew",
    check: each((pool, at, { spec, at: hcAt }) => {
      if (!pool.releaseImage) return [];
      const [controlPlane, own] = [releaseOf(spec.releaseImage).version, releaseOf(pool.releaseImage).version];
      const problem = controlPlane && own ? versionSkewProblem(controlPlane, own) : undefined;
      return problem
        ? [
            {
              path: `${at}.releaseImage`,
              value: pool.releaseImage,
              message: `is refused by HyperShift: ${problem} (${hcAt}.releaseImage); the skew allowed is n-3 minors, never newer`,
            },
          ]
        : [];
    }),
  },
  {
    rule: "the boot image is given below 4.20",
    check: each((pool, at) => {
      // defaultAzureNodePoolImage reads the marketplace image from the NodePool's release only from 4.20.
      const version = pool.releaseImage ? releaseOf(pool.releaseImage).version : undefined;
      if (!version || version.major > 4 || version.minor >= 20 || pool.marketplace || pool.imageId) return [];
      return [
        {
          path: `${at}.releaseImage`,
          value: pool.releaseImage,
          message: `is OpenShift ${version.text}: HyperShift takes the boot image from the NodePool's release only from 4.20; set marketplace (all four fields) or imageId`,
        },
      ];
    }),
  },
  {
    rule: "one boot image source",
    check: each((pool, at) =>
      pool.imageId && pool.marketplace
        ? [
            {
              path: `${at}.imageId`,
              value: pool.imageId,
              message: "is not allowed with marketplace (the image is one type: ImageID or AzureMarketplace); keep one",
            },
          ]
        : [],
    ),
  },
  {
    rule: "a user-managed diagnostics account comes with its URI, and only then",
    check: each((pool, at) => {
      if (pool.diagnostics === "UserManaged" && !pool.diagnosticsStorageAccountUri) {
        return [{ path: `${at}.diagnosticsStorageAccountUri`, message: "is required with diagnostics: UserManaged (the storage account's blob endpoint)" }];
      }
      if (pool.diagnostics !== "UserManaged" && pool.diagnosticsStorageAccountUri) {
        return [
          {
            path: `${at}.diagnosticsStorageAccountUri`,
            value: pool.diagnosticsStorageAccountUri,
            message: `is applicable only with diagnostics: UserManaged (as the CLI's --diagnostics-storage-account-uri), not ${pool.diagnostics}`,
          },
        ];
      }
      return [];
    }),
  },
  {
    rule: "the OS disk type is one Azure allows for OS disks",
    check: each((pool, at) =>
      pool.osDisk.storageAccountType === "PremiumV2_LRS"
        ? [
            {
              path: `${at}.osDisk.storageAccountType`,
              value: pool.osDisk.storageAccountType,
              message: "cannot be an OS disk: Azure allows Premium SSD v2 only for data disks; use Premium_LRS, StandardSSD_LRS or Standard_LRS",
            },
          ]
        : [],
    ),
  },
  {
    rule: "an ephemeral OS disk fits Azure's limits",
    check: each((pool, at) => {
      if (pool.osDisk.persistence !== "Ephemeral") return [];
      const issues: ConfigIssue[] = [];
      if (pool.osDisk.diskEncryptionSetId) {
        issues.push({
          path: `${at}.osDisk.diskEncryptionSetId`,
          value: pool.osDisk.diskEncryptionSetId,
          message:
            "is not allowed with persistence: Ephemeral (CAPZ: diskEncryptionSet is not supported when diffDiskSettings.option is 'Local'); use encryptionAtHost instead",
        });
      }
      if (pool.osDisk.sizeGiB > EPHEMERAL_OS_DISK_MAX_GIB) {
        issues.push({
          path: `${at}.osDisk.sizeGiB`,
          value: pool.osDisk.sizeGiB,
          message: `must be at most ${EPHEMERAL_OS_DISK_MAX_GIB} with persistence: Ephemeral (Azure's limit, and the VM size's cache, temp or NVMe disk must hold it)`,
        });
      }
      return issues;
    }),
  },
  {
    rule: "NodePool resources are in the cluster's subscription and network",
    check: each((pool, at, { config, hosted }) => {
      const issues: ConfigIssue[] = [];
      const des = pool.osDisk.diskEncryptionSetId;
      if (des && parseArmId(des).subscription.toLowerCase() !== config.subscriptionId.toLowerCase()) {
        issues.push({
          path: `${at}.osDisk.diskEncryptionSetId`,
          value: des,
          message: `must be in subscriptionId ${config.subscriptionId} (the NodePool API requires the HostedCluster's subscription)`,
        });
      }
      // CAPZ takes only the subnet's name and looks it up in the HostedCluster's VNet (GetSubnetNameFromSubnetID).
      if (pool.subnetId && !pool.subnetId.toLowerCase().startsWith(`${hosted.vnet.id.toLowerCase()}/subnets/`)) {
        issues.push({
          path: `${at}.subnetId`,
          value: pool.subnetId,
          message: `must be a subnet of the cluster's VNet ${hosted.vnet.id} (${hosted.vnet.origin}): CAPZ finds the subnet by name in that VNet`,
        });
      }
      return issues;
    }),
  },
  // rollingUpdate, config (node-pool-workload.ts).
  ...NODE_POOL_WORKLOAD_RULES,
];

/** Valid NodePool settings that will not do what they seem to, printed by synth. */
export function nodePoolWarnings(hosted: { readonly clusterStack: string; readonly config: { readonly nodePools: readonly NodePoolConfig[] } }): string[] {
  const warnings: string[] = [];
  for (const pool of hosted.config.nodePools) {
    if (pool.autoscaling?.min === 0) {
      warnings.push(
        `${hosted.clusterStack}: NodePool ${pool.name} has autoscaling.min 0; HyperShift scales an Azure pool from zero only when the operator runs with --scale-from-zero-provider azure (and its credentials), otherwise it keeps 1 node.`,
      );
    }
    const size = vmSizeParts(pool.vmSize);
    // From v4 on, Azure sizes without 'd' have no temp disk and no cache (L-series keep local NVMe).
    if (pool.osDisk.persistence === "Ephemeral" && size && (size.version ?? 0) >= 4 && !size.features.includes("d") && !size.family.startsWith("L")) {
      warnings.push(
        `${hosted.clusterStack}: NodePool ${pool.name} has an ephemeral OS disk on ${pool.vmSize}, which may have no local temp or cache disk (v4+ sizes without 'd' usually have none; then Azure refuses it). Use a size with 'd' (e.g. Standard_D8ds_v5) whose local disk holds ${pool.osDisk.sizeGiB} GiB.`,
      );
    }
  }
  warnings.push(...nodePoolWorkloadWarnings(hosted.clusterStack, hosted.config.nodePools));
  return warnings;
}
