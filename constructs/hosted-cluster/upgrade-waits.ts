import { ManifestWait } from "@cdktf/provider-kubernetes/lib/manifest";
import { releaseVersion } from "../../config/release-version";

/**
 * What apply waits for, so that a release change rolls out in order (help/upgrades.md): the
 * HostedCluster until its control plane has completed the release, then each NodePool (they
 * depend on it) until it runs its release. Fields, not conditions: `Available` stays True through
 * an upgrade, and a NodePool's conditions may still describe the old release just after the patch.
 * The provider matches each field against a regular expression (`wait { fields }`, list elements
 * as `[0]`) and fails with a timeout naming the resource when the time runs out.
 */

export interface UpgradeWaitProps {
  /**
   * The release the HostedCluster last applied (the deployed state), when synth can see it. With
   * one, apply waits for `status.version.history[0]` to be Completed at the configured release;
   * without (creation, or state synth cannot read), for `Available`: the history only completes
   * once workers run, which come after the HostedCluster.
   * @default - none: waits for Available
   */
  readonly deployedRelease?: string;
  /** Terraform duration apply waits for the control plane to complete an upgrade. */
  readonly controlPlaneTimeout: string;
  /** Terraform duration apply waits for each NodePool to reach its release. */
  readonly nodePoolTimeout: string;
}

/** A regular expression matching exactly `text`. */
export const exactly = (text: string) => `^${text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`;

/** The HostedCluster's wait: the completed release once deployed, Available on creation. */
export function controlPlaneWait(releaseImage: string, deployedRelease: string | undefined): ManifestWait {
  if (deployedRelease === undefined) return { condition: [{ type: "Available", status: "True" }] };
  const version = releaseVersion(releaseImage);
  return {
    fields: {
      "status.version.history[0].image": exactly(releaseImage),
      "status.version.history[0].state": "^Completed$",
      ...(version ? { "status.version.history[0].version": exactly(version.text) } : {}),
    },
  };
}

/**
 * A NodePool's wait: `status.version` at its release's version, which the NodePool controller
 * writes only once the rollout of its machines is complete (nodepool/capi.go). A digest-only
 * release names no version: then the `Ready` condition only.
 */
export function nodePoolWait(releaseImage: string): ManifestWait {
  const version = releaseVersion(releaseImage);
  return version ? { fields: { "status.version": exactly(version.text) } } : { condition: [{ type: "Ready", status: "True" }] };
}
