import type { ResourceChange, StackDiff } from "./diff";

/**
 * What a reviewer reads first: a one-line summary of a new object by kind, one headline per retired
 * or removed cluster, and the creation guard's internals folded into "guards updated".
 */

/** The tag of a release image (`...:4.21.0-x86_64` → 4.21.0-x86_64), else the image. */
function release(image: unknown): string | undefined {
  if (typeof image !== "string") return undefined;
  const at = image.lastIndexOf(":");
  return image.includes("@") || at < 0 ? image : image.slice(at + 1);
}

const list = (parts: Array<string | undefined>) => parts.filter((p): p is string => !!p).join(", ");

function nodePool(name: string, spec: any): string {
  const azure = spec?.platform?.azure ?? {};
  const scaling = spec?.autoScaling
    ? `autoscaling ${spec.autoScaling.min}–${spec.autoScaling.max}`
    : spec?.replicas !== undefined
      ? `${spec.replicas} replicas`
      : undefined;
  const zone = azure.availabilityZone !== undefined ? `zone ${azure.availabilityZone}` : "no zone";
  return `NodePool ${name}: ${list([azure.vmSize, scaling, zone, spec?.release?.image && `release ${release(spec.release.image)}`])}`;
}

function hostedCluster(name: string, spec: any): string {
  const api = (spec?.services ?? []).find((s: any) => s?.service === "APIServer")?.servicePublishingStrategy?.type;
  const topology = spec?.platform?.azure?.topology ?? spec?.platform?.azure?.endpointAccess?.type;
  return `HostedCluster ${name}: ${list([
    spec?.release?.image && `release ${release(spec.release.image)}`,
    topology && `endpoint access ${topology}`,
    api && `API server published by ${api}`,
  ])}`;
}

/** One line for a created (or adopted) resource, by kind; undefined for kinds without one. */
export function objectSummary(change: ResourceChange): string | undefined {
  const body = change.after;
  if (!body || (change.action !== "create" && change.action !== "import")) return undefined;
  if (change.type === "kubernetes_manifest") {
    const manifest = body.manifest ?? {};
    const name = manifest.metadata?.name ?? "?";
    if (manifest.kind === "NodePool") return nodePool(name, manifest.spec);
    if (manifest.kind === "HostedCluster") return hostedCluster(name, manifest.spec);
    return `${manifest.kind ?? "object"} ${manifest.metadata?.namespace ? `${manifest.metadata.namespace}/` : ""}${name}`;
  }
  if (change.type === "azurerm_role_assignment") {
    return `role ${body.role_definition_name ?? body.role_definition_id ?? "?"} on ${body.scope ?? "?"}`;
  }
  return undefined;
}

/** The creation guard's internals: its terraform_data resources and its `CreationGuard_*` locals. */
export function isGuardResource(change: ResourceChange): boolean {
  return change.type === "terraform_data" && /^CreationGuard_/.test(change.address.split(".")[1] ?? "");
}

export function isGuardLocal(path: string): boolean {
  return /^(\["?)?CreationGuard_/.test(path);
}

/** Stacks belong to a cluster by their name: cluster-<name>, infra-<name>, identities-<name>. */
const CLUSTER_STACK = /^(cluster|infra|identities)-(.+)$/;

const retiredGuard = (stack: any) => Object.keys(stack?.resource?.terraform_data ?? {}).some((name) => name.startsWith("RetiredClusterGuard"));

/** The stacks a retirement turned to destroy-only (the retirement guard added). */
export function retiredStacks(stacks: readonly StackDiff[]): Set<string> {
  return new Set(
    stacks.filter((d) => d.status !== "removed" && CLUSTER_STACK.test(d.stack) && retiredGuard(d.after) && !retiredGuard(d.before)).map((d) => d.stack),
  );
}

/** One headline per cluster retired (its stacks now carry the retirement guard) or removed (its stacks gone). */
export function clusterHeadlines(stacks: readonly StackDiff[]): string[] {
  const byCluster = new Map<string, { retired: string[]; removed: string[]; lifted: number }>();
  const retiring = retiredStacks(stacks);
  for (const diff of stacks) {
    const match = CLUSTER_STACK.exec(diff.stack);
    if (!match) continue;
    const retired = retiring.has(diff.stack);
    if (!retired && diff.status !== "removed") continue;
    const entry = byCluster.get(match[2]) ?? { retired: [], removed: [], lifted: 0 };
    (retired ? entry.retired : entry.removed).push(diff.stack);
    entry.lifted += diff.resources.filter((r) => r.before?.lifecycle?.prevent_destroy === true && r.after && !r.after.lifecycle?.prevent_destroy).length;
    byCluster.set(match[2], entry);
  }
  const lines: string[] = [];
  // Destroy order: the HostedCluster first, its infrastructure, then the identities.
  const order = (stack: string) => ["cluster", "infra", "identities"].indexOf(stack.split("-")[0]);
  for (const [cluster, entry] of byCluster) {
    const [retired, removed] = [entry.retired, entry.removed].map((names) => [...names].sort((a, b) => order(a) - order(b)));
    const { lifted } = entry;
    const n = (stackNames: string[]) => `${stackNames.length} stack${stackNames.length === 1 ? "" : "s"}`;
    if (retired.length > 0)
      lines.push(
        `🗑️ **cluster ${cluster} retired**: its ${n(retired)} will be destroyed (\`npm run destroy -- ${retired.join(" ")}\`)` +
          (lifted > 0 ? `; prevent_destroy lifted from ${lifted} resource${lifted === 1 ? "" : "s"}` : "") +
          " (help/retire-cluster.md).",
      );
    if (removed.length > 0)
      lines.push(
        `⛔ **cluster ${cluster} removed**: its ${n(removed)} (${removed.join(", ")}) leave the configuration; what they hold stays in Azure, unmanaged.`,
      );
  }
  return lines;
}
