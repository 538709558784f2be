/** An OpenShift version (major.minor.patch), as read from a release image tag. */
export interface ReleaseVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/**
 * The OpenShift version in a release image's tag (`quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64`
 * gives 4.21.0), or undefined for a digest-only reference or a tag that does not start with a
 * version (then the version is unknown at synth: rules that need it warn instead).
 */
export function releaseVersion(image: string): ReleaseVersion | undefined {
  const repository = image.replace(/@sha256:[a-f0-9]{64}$/, "");
  const lastSegment = repository.slice(repository.lastIndexOf("/") + 1);
  const colon = lastSegment.indexOf(":");
  if (colon < 0) return undefined;
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?![\d])/.exec(lastSegment.slice(colon + 1));
  return match ? { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) } : undefined;
}

/** Whether `version` is at least major.minor. */
export function atLeast(version: ReleaseVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}
