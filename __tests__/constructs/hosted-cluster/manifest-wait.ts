/**
 * The kubernetes provider's `wait` of kubernetes_manifest, as manifest/provider/waiter.go decides
 * it (hashicorp/terraform-provider-kubernetes): `fields` walks each dotted path (list elements as
 * `[0]`) and matches the value's text against an unanchored regular expression (Go's `Match`); a
 * path not present yet keeps waiting; every field must match. `condition` needs each listed
 * condition with that status. Here for tests: which status of a timeline a synthesized wait accepts.
 * Self-contained (no imports, no closures) so its source can run in a Terraform stand-in too.
 */
export function waitAccepts(wait: any, object: any): boolean {
  if (wait.condition) {
    const conditions: any[] = object?.status?.conditions ?? [];
    return wait.condition.every((c: any) => conditions.some((have) => have.type === c.type && have.status === c.status));
  }
  return Object.entries<string>(wait.fields ?? {}).every(([field, expression]) => {
    let value: any = object;
    for (const step of field.split(/\.|(?=\[)/)) {
      const index = /^\[(\d+)\]$/.exec(step);
      value = value === undefined || value === null ? undefined : index ? value[Number(index[1])] : value[step];
    }
    if (!["string", "number", "boolean"].includes(typeof value)) return false;
    return new RegExp(expression).test(String(value));
  });
}

/** The first step of `timeline` whose object `wait` accepts, or -1. */
export function firstAccepted(wait: any, timeline: readonly any[]): number {
  return timeline.findIndex((object) => waitAccepts(wait, object));
}

const hex = (c: string) => c.repeat(64);
export const OLD_DIGEST = `sha256:${hex("a")}`;
export const NEW_DIGEST = `sha256:${hex("b")}`;
const RELEASE_REPO = "quay.io/openshift-release-dev/ocp-release";

/** One history entry as HyperShift writes it: the image resolved to its digest (GetDigest), the payload's version. */
export const entry = (version: string, digest: string, state: "Completed" | "Partial", repo = RELEASE_REPO) => ({
  state,
  version,
  image: `${repo}@${digest}`,
  startedTime: "2026-08-01T00:00:00Z",
});

const available = [{ type: "Available", status: "True" }];

/**
 * A HostedCluster's status through an upgrade from `from` to `to` (controlplaneversion.go for
 * status.controlPlaneVersion, the CVO's history copied by hcpstatus.go for status.version):
 * Available throughout; the control plane's entry turns Completed before the whole cluster's.
 */
export function upgradeTimeline(from: string, to: string): any[] {
  const done = { version: { history: [entry(from, OLD_DIGEST, "Completed")] }, controlPlaneVersion: { history: [entry(from, OLD_DIGEST, "Completed")] } };
  return [
    { step: "patched, nothing moved yet", status: { conditions: available, ...done } },
    {
      step: "control plane rolling",
      status: { conditions: available, ...done, controlPlaneVersion: { history: [entry(to, NEW_DIGEST, "Partial"), ...done.controlPlaneVersion.history] } },
    },
    {
      step: "control plane completed, cluster version rolling",
      status: {
        conditions: available,
        controlPlaneVersion: { history: [entry(to, NEW_DIGEST, "Completed"), ...done.controlPlaneVersion.history] },
        version: { history: [entry(to, NEW_DIGEST, "Partial"), ...done.version.history] },
      },
    },
    {
      step: "cluster version completed",
      status: {
        conditions: available,
        controlPlaneVersion: { history: [entry(to, NEW_DIGEST, "Completed"), ...done.controlPlaneVersion.history] },
        version: { history: [entry(to, NEW_DIGEST, "Completed"), ...done.version.history] },
      },
    },
  ];
}

/**
 * A new HostedCluster's status before any NodePool exists: the control plane completes, the
 * whole cluster's history stays Partial (the CVO needs workers, and the workers come after it).
 */
export function creationTimeline(version: string): any[] {
  return [
    { step: "created", status: {} },
    { step: "control plane rolling", status: { controlPlaneVersion: { history: [entry(version, NEW_DIGEST, "Partial")] } } },
    {
      step: "available, control plane rolling",
      status: {
        conditions: available,
        controlPlaneVersion: { history: [entry(version, NEW_DIGEST, "Partial")] },
        version: { history: [entry(version, NEW_DIGEST, "Partial")] },
      },
    },
    {
      step: "control plane completed, no workers",
      status: {
        conditions: available,
        controlPlaneVersion: { history: [entry(version, NEW_DIGEST, "Completed")] },
        version: { history: [entry(version, NEW_DIGEST, "Partial")] },
      },
    },
  ];
}
