import { z } from "zod";
import { wholeDuration } from "./primitives";

/** `clusters[].hostedCluster.upgrade`: how a release change is accepted and how long apply waits for each stage (help/upgrades.md). */
export const UPGRADE_DEFAULTS = { controlPlaneTimeout: "90m", nodePoolTimeout: "60m" } as const;

export const upgradeSchema = z
  .strictObject({
    acknowledgeMinor: z
      .string()
      .regex(/^[45]\.\d{1,2}$/, { error: 'must be the minor version the upgrade goes to, such as "4.22"' })
      .optional()
      .describe(
        'The minor version a minor upgrade goes to (e.g. "4.22"): required when releaseImage moves the control plane to a new minor, as an explicit acknowledgement (read the release notes and the cluster\'s Upgradeable condition first). Default: none (patch upgrades only).',
      ),
    controlPlaneTimeout: wholeDuration(UPGRADE_DEFAULTS.controlPlaneTimeout)
      .default(UPGRADE_DEFAULTS.controlPlaneTimeout)
      .describe(
        "How long apply waits for a control-plane upgrade to complete (status.version.history[0] Completed at the new release) before the NodePools start.",
      ),
    nodePoolTimeout: wholeDuration(UPGRADE_DEFAULTS.nodePoolTimeout)
      .default(UPGRADE_DEFAULTS.nodePoolTimeout)
      .describe("How long apply waits for each NodePool to reach its release (status.version) after it is created or changed."),
  })
  .default({ ...UPGRADE_DEFAULTS })
  .describe("Upgrades: the minor acknowledgement and the timeouts of the ordered rollout (control plane, then NodePools).");
