import { ManifestWait } from "@cdktf/provider-kubernetes/lib/manifest";
import { releaseVersion } from "../../config/release-version";

/**
 * What apply waits for, so that a release change rolls out in order (help/upgrades.md): the
 * HostedCluster until its control plane has completed the release, then each NodePool (they
 * depend on it) until it runs its release. Fields, not conditions: `Available` stays True through
 * an upgrade, and a NodePool's conditions may still describe the old release just after the patch.
 * The provider matches each field against an unanchored Go regular expression (`wait { fields }`,
 * list elements as `[0]`; a field not yet present keeps it waiting: manifest/provider/waiter.go)
 * and fails with a timeout naming the resource when the time runs out.
 */

export interface UpgradeWaitProps {
  /**
   * The release the HostedCluster last applied (the deployed state), when synth can see it. With
   * one, apply waits for `status.version.history[0]` to be Completed at the configured release.
   * @default - none: see waitForControlPlaneVersion
   */
  readonly deployedRelease?: string;
  /**
   * Without a deployed release: wait for `status.controlPlaneVersion.history[0]` to be Completed
   * at the configured release, on creation and on a change alike (the management-side components
   * only: it needs no workers). Only for an operator and a release that report it
   * (config/hypershift-release.ts `reportsControlPlaneVersion`).
   * @default false - without a deployed release, wait for `Available`
   */
  readonly waitForControlPlaneVersion?: boolean;
  /** Terraform duration apply waits for the control plane to complete an upgrade. */
  readonly controlPlaneTimeout: string;
  /** Terraform duration apply waits for each NodePool to reach its release. */
  readonly nodePoolTimeout: string;
}

/** A regular expression matching exactly `text`. */
export const exactly = (text: string) => `^${text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`;

const AVAILABLE: ManifestWait = { condition: [{ type: "Available", status: "True" }] };

/**
 * The fields of a newest-first release history (`status.version` or `status.controlPlaneVersion`)
 * whose first entry is Completed at `releaseImage`; undefined when the reference says nothing to
 * match. HyperShift records the image resolved to its digest (`<repository>@sha256:…`, the
 * repository a mirror's when one applies): the CVO runs with `--release-image` of the digest
 * (v2/cvo/deployment.go `discoverCVOReleaseImages`) and the control-plane operator records
 * `GetDigest(...)` (hostedcontrolplane_controller.go). So a tag is matched by the version in it,
 * a digest by its `@sha256:…` ending, never by the configured text.
 */
function completedAt(status: string, releaseImage: string): Record<string, string> | undefined {
  const version = releaseVersion(releaseImage);
  const digest = /@(sha256:[0-9a-f]{64})$/.exec(releaseImage)?.[1];
  if (!version && !digest) return undefined;
  return {
    ...(digest ? { [`${status}.history[0].image`]: `@${digest}$` } : {}),
    [`${status}.history[0].state`]: "^Completed$",
    ...(version ? { [`${status}.history[0].version`]: exactly(version.text) } : {}),
  };
}

/**
 * The HostedCluster's wait (help/upgrades.md "Which wait"): the whole cluster's completed release
 * once deployed (`status.version`, the CVO's: it needs workers); without a deployed release, the
 * control plane's completed release (`status.controlPlaneVersion`) where operator and release
 * report it; else `Available`, which a creation needs (the workers come after the HostedCluster).
 */
export function controlPlaneWait(releaseImage: string, upgrade: Pick<UpgradeWaitProps, "deployedRelease" | "waitForControlPlaneVersion"> = {}): ManifestWait {
  const fields =
    upgrade.deployedRelease !== undefined
      ? completedAt("status.version", releaseImage)
      : upgrade.waitForControlPlaneVersion
        ? completedAt("status.controlPlaneVersion", releaseImage)
        : undefined;
  return fields ? { fields } : AVAILABLE;
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
