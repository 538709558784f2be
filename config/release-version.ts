/**
 * What a release image reference says about its release: the OpenShift version and payload
 * architecture in the tag (`ocp-release:4.21.0-x86_64`, `:4.21.0-rc.1-multi`). A digest-only
 * reference says nothing; HyperShift reads the payload itself, which synth cannot.
 */

export interface ReleaseVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Semver pre-release identifiers (`rc.1` → ["rc", "1"]); empty for a release. */
  readonly pre: readonly string[];
  readonly text: string;
}

/** Payload architecture as HyperShift names it (`hyperv1.PayloadArchType`): Multi runs on every NodePool arch. */
export type PayloadArch = "AMD64" | "ARM64" | "PPC64LE" | "S390X" | "Multi";

const ARCH_SUFFIX: Readonly<Record<string, PayloadArch>> = { x86_64: "AMD64", aarch64: "ARM64", ppc64le: "PPC64LE", s390x: "S390X", multi: "Multi" };

/** The tag of an image reference, without a digest; undefined when there is none. */
function tagOf(image: string): string | undefined {
  const withoutDigest = image.split("@")[0];
  const lastPart = withoutDigest.slice(withoutDigest.lastIndexOf("/") + 1);
  const colon = lastPart.indexOf(":");
  return colon >= 0 ? lastPart.slice(colon + 1) : undefined;
}

/** The release in the tag, when the tag is `<semver>[-<arch>]`. */
export function releaseOf(image: string): { version?: ReleaseVersion; arch?: PayloadArch } {
  const tag = tagOf(image);
  if (!tag) return {};
  const suffix = /-(x86_64|aarch64|ppc64le|s390x|multi)$/.exec(tag);
  const versionText = suffix ? tag.slice(0, suffix.index) : tag;
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(versionText);
  return {
    arch: suffix ? ARCH_SUFFIX[suffix[1]] : undefined,
    version: match
      ? { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), pre: match[4] ? match[4].split(".") : [], text: versionText }
      : undefined,
  };
}

/** Semver precedence: <0 when a is older than b. */
export function compareVersions(a: ReleaseVersion, b: ReleaseVersion): number {
  for (const key of ["major", "minor", "patch"] as const) if (a[key] !== b[key]) return a[key] - b[key];
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const [x, y] = [a.pre[i], b.pre[i]];
    if (x === y) continue;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length - b.pre.length;
}

/** OpenShift 5.0 is 4.23 (dual versioning): HyperShift compares minors on the 4.x scale (`normalizeToV4`). */
const V5_MINOR_OFFSET = 23;
const minorOnV4 = (v: ReleaseVersion) => (v.major === 5 ? v.minor + V5_MINOR_OFFSET : v.minor);
export const onV4 = (v: ReleaseVersion): ReleaseVersion => (v.major === 5 ? { ...v, major: 4, minor: minorOnV4(v) } : v);

/** Most minor versions a NodePool may lag its HostedCluster (`supportedversion.ValidateVersionSkew`: n-3). */
export const MAX_NODE_POOL_MINOR_SKEW = 3;

/**
 * HyperShift's NodePool version skew rule (`support/supportedversion/version.go`
 * `ValidateVersionSkew`, used by `create nodepool` and the NodePool controller's
 * SupportedVersionSkew condition): the NodePool is not newer than the HostedCluster and at most
 * three minors older. Returns the refusal, or undefined when the skew is supported.
 */
export function versionSkewProblem(hostedCluster: ReleaseVersion, nodePool: ReleaseVersion): string | undefined {
  if (![4, 5].includes(hostedCluster.major) || ![4, 5].includes(nodePool.major)) {
    return `only OpenShift 4.x and 5.x are supported (HostedCluster ${hostedCluster.text}, NodePool ${nodePool.text})`;
  }
  if (compareVersions(onV4(nodePool), onV4(hostedCluster)) > 0) {
    return `NodePool version ${nodePool.text} cannot be higher than the HostedCluster version ${hostedCluster.text}`;
  }
  const lowest = minorOnV4(hostedCluster) - MAX_NODE_POOL_MINOR_SKEW;
  if (minorOnV4(nodePool) < lowest) {
    const shown = lowest >= V5_MINOR_OFFSET ? `5.${lowest - V5_MINOR_OFFSET}` : `4.${lowest}`;
    return `NodePool minor version ${nodePool.major}.${nodePool.minor} is less than ${shown}, the minimum NodePool version compatible with the ${hostedCluster.major}.${hostedCluster.minor} HostedCluster`;
  }
  return undefined;
}

/** Whether a payload of `payload` can run workers of `arch` (`nodepool_controller.go`: Multi, or the same arch). */
export function payloadRuns(payload: PayloadArch, arch: "amd64" | "arm64"): boolean {
  return payload === "Multi" || payload === (arch === "amd64" ? "AMD64" : "ARM64");
}

/** The OpenShift version in a release image's tag, or undefined for a digest-only reference or a tag that is not a version. */
export function releaseVersion(image: string): ReleaseVersion | undefined {
  return releaseOf(image).version;
}

/** Whether `version` is at least major.minor. */
export function atLeast(version: Pick<ReleaseVersion, "major" | "minor">, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}
