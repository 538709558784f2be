import { LineCounter, parseAllDocuments } from "yaml";
import { boundaryIssues } from "./boundary";
import { readLimitedFile } from "./read-file";

/**
 * The HyperShift operator bundle: the multi-document YAML that `hypershift install render`
 * prints. Read at synth (it holds no secrets: render leaves Secrets out unless
 * --render-sensitive), checked, cleaned for kubernetes_manifest and put in apply order.
 * Facts: shared/reference/notes/hypershift-azure-facts.md §7 and the install code
 * (cmd/install/install.go hyperShiftOperatorManifests, install_render.go).
 */

export interface KubernetesObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string } & Record<string, unknown>;
  readonly [field: string]: unknown;
}

/** Apply tiers: each tier waits for the one before it (and is destroyed before it). */
export const BUNDLE_TIERS = ["definitions", "configuration", "workloads", "admission"] as const;
export type BundleTier = (typeof BUNDLE_TIERS)[number];

export interface BundleObject {
  /** The object as kubernetes_manifest receives it (status, nulls and creationTimestamp removed). */
  readonly manifest: KubernetesObject;
  readonly tier: BundleTier;
  /** `<Kind> <namespace>/<name>` or `<Kind> <name>`, for messages. */
  readonly label: string;
  /** 1-based line of the document in the bundle file. */
  readonly line: number;
  /** Served by a CRD that must already be on the cluster when Terraform plans (not a built-in API, not in the bundle). */
  readonly needsExistingCrd: boolean;
}

/** What the external-dns Deployment in the bundle expects (present when rendered with --external-dns-*). */
export interface BundleExternalDns {
  readonly namespace: string;
  /** Values of `--domain-filter=` arguments. */
  readonly domainFilters: readonly string[];
  /** Value of `--provider=`. */
  readonly provider?: string;
  /** Secret mounted at /etc/provider: `external-dns-credentials` or the `--external-dns-secret` name. */
  readonly credentialsSecret?: string;
  /** `imagePullSecrets` of the pod (HyperShift: `pull-secret`, made from --pull-secret). */
  readonly imagePullSecrets: readonly string[];
  /** Value of `--txt-owner-id=` (render makes a random UUID unless --external-dns-txt-owner-id). */
  readonly txtOwnerId?: string;
}

/**
 * The operator's Private Link Service management, as `hypershift install --private-platform Azure`
 * renders it (cmd/install/assets/hypershift_operator.go addAzurePlatformResources).
 */
export interface BundlePrivateLink {
  /** Value of the operator's `--private-platform=` argument (`None` when rendered without it). */
  readonly platform?: string;
  /** `AZURE_RESOURCE_GROUP` (--azure-pls-resource-group). */
  readonly resourceGroup?: string;
  /** Secret mounted at /etc/azure-provider (--azure-private-secret, or hypershift-operator-azure-credentials with --azure-private-creds). */
  readonly credentialsSecret?: string;
  /** Key of that Secret the operator reads (`AZURE_CREDENTIALS_FILE=/etc/azure-provider/<key>`, --azure-private-secret-key). */
  readonly credentialsKey?: string;
  /** `AZURE_PLS_CLIENT_ID` (--azure-pls-managed-identity-client-id: workload identity instead of a secret). */
  readonly managedIdentityClientId?: string;
}

/** Where the operator mounts its Private Link credentials. */
export const AZURE_PRIVATE_CREDENTIALS_MOUNT = "/etc/azure-provider";
/** The Secret name `--azure-private-creds` gives; the one help/private-clusters.md asks for with --azure-private-secret. */
export const AZURE_PRIVATE_CREDENTIALS_SECRET = "hypershift-operator-azure-credentials";

/** A Secret a workload of the bundle needs (mounted or pulled with) that the bundle does not hold. */
export interface SecretReference {
  /** `<Kind> <namespace>/<name>` of the workload. */
  readonly workload: string;
  readonly namespace: string;
  readonly secret: string;
  readonly use: "volume" | "imagePullSecret";
  /** A Service of the bundle asks OpenShift's service CA to create it (serving-cert-secret-name). */
  readonly servingCert: boolean;
}

export interface OperatorBundle {
  /** Objects in apply order (tier, then bundle order). */
  readonly objects: readonly BundleObject[];
  /** Namespace of the `operator` Deployment (install --namespace, default hypershift). */
  readonly operatorNamespace: string;
  readonly externalDns?: BundleExternalDns;
  /** Some object carries the annotation EXAMPLE_ONLY_ANNOTATION: an illustration, never to be applied. */
  readonly exampleOnly: boolean;
  /** Secrets the workloads need that are not in the bundle (render leaves Secrets out). */
  readonly secretReferences: readonly SecretReference[];
  /** Literal environment of the operator container (e.g. MANAGED_SERVICE from --managed-service). */
  readonly operatorEnv: Readonly<Record<string, string>>;
  /** The operator's Private Link settings (--private-platform and the --azure-pls-* flags). */
  readonly privateLink: BundlePrivateLink;
}

/** Operator environment set by `hypershift install --managed-service ARO-HCP` (assets: MANAGED_SERVICE). */
export const MANAGED_SERVICE_ENV = "MANAGED_SERVICE";
export const ARO_HCP_MANAGED_SERVICE = "ARO-HCP";
/** Operator environment set by `--aro-hcp-key-vault-users-client-id` (config.AROHCPKeyVaultManagedIdentityClientID). */
export const AKS_KEY_VAULT_USER_ENV = "ARO_HCP_KEY_VAULT_USER_CLIENT_ID";

/** The Azure cloud the operator's Private Link controller talks to (default AzurePublicCloud; no install flag sets it, notes §1.4). */
export const OPERATOR_CLOUD_ENV = "AZURE_CLOUD_NAME";

/** HyperShift's pull secret in the operator namespace (`hypershift install --pull-secret`; assets.PullSecretName). */
export const PULL_SECRET_NAME = "pull-secret";

/** Marks the bundled example bundles: synth works, deploy is refused at plan time. */
export const EXAMPLE_ONLY_ANNOTATION = "hcp-azure.dev/example-only";

export type BundleResult = { readonly ok: true; readonly bundle: OperatorBundle } | { readonly ok: false; readonly problems: readonly string[] };

/** API groups every conformant cluster serves (kubernetes_manifest can plan them on any cluster). */
const BUILT_IN_GROUPS = new Set([
  "",
  "apps",
  "batch",
  "policy",
  "autoscaling",
  "rbac.authorization.k8s.io",
  "admissionregistration.k8s.io",
  "apiextensions.k8s.io",
  "apiregistration.k8s.io",
  "scheduling.k8s.io",
  "networking.k8s.io",
  "coordination.k8s.io",
  "storage.k8s.io",
  "node.k8s.io",
  "discovery.k8s.io",
  "certificates.k8s.io",
  "flowcontrol.apiserver.k8s.io",
]);

/** Built-in kinds without a namespace (kubernetes_manifest fails the plan if one carries a namespace). */
const CLUSTER_SCOPED_KINDS = new Set([
  "Namespace",
  "CustomResourceDefinition",
  "ClusterRole",
  "ClusterRoleBinding",
  "PriorityClass",
  "MutatingWebhookConfiguration",
  "ValidatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
  "APIService",
  "StorageClass",
  "IngressClass",
  "RuntimeClass",
  "PersistentVolume",
  "CSIDriver",
  "FlowSchema",
  "PriorityLevelConfiguration",
]);

/** Kinds without which the bundle installs no working operator (never in omitKinds). */
const REQUIRED_KINDS = new Set(["CustomResourceDefinition", "Namespace", "Deployment", "ServiceAccount", "ClusterRole", "ClusterRoleBinding"]);

const WORKLOAD_KINDS = new Set(["Deployment", "DaemonSet", "StatefulSet", "Job"]);
const ADMISSION_KINDS = new Set([
  "MutatingWebhookConfiguration",
  "ValidatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
]);
const DEFINITION_KINDS = new Set(["CustomResourceDefinition", "Namespace", "PriorityClass"]);

/** The render command, quoted in errors so the fix is one copy-paste away. */
export const RENDER_HINT =
  "render it with `hypershift install render --format yaml --outputs all --limit-crd-install Azure > <file>` (see help/management-cluster.md)";

export function readOperatorBundle(file: string, options: { omitKinds?: readonly string[] } = {}): BundleResult {
  const read = readLimitedFile(file, "operatorBundle");
  if (!read.ok) return fail(`cannot read the operator bundle: ${read.message}; ${RENDER_HINT}`);
  return parseOperatorBundle(read.text, options);
}

/** Parses and checks bundle text. Never throws for bad input. */
export function parseOperatorBundle(text: string, options: { omitKinds?: readonly string[] } = {}): BundleResult {
  // Text already parsed in this process is not parsed again (the test suite loads the examples'
  // bundles hundreds of times; YAML parsing was a tenth of its time): each caller gets a copy.
  const key = `${JSON.stringify(options.omitKinds ?? [])}\n${text}`;
  let result = parsedBundles.get(key);
  if (!result) {
    result = checkBundleText(text, options);
    parsedBundles.set(key, result);
    if (parsedBundles.size > 16) parsedBundles.delete(parsedBundles.keys().next().value as string);
  }
  return structuredClone(result);
}

const parsedBundles = new Map<string, BundleResult>();

function checkBundleText(text: string, options: { omitKinds?: readonly string[] }): BundleResult {
  const lineCounter = new LineCounter();
  // Integers as BigInt, so one that a JavaScript number cannot hold is reported, not rounded.
  const documents = parseAllDocuments(text, { lineCounter, prettyErrors: true, uniqueKeys: true, intAsBigInt: true });
  const problems: string[] = [];
  const found: Array<{ object: KubernetesObject; line: number }> = [];

  for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
    // Where the object starts (after a `---` marker and comments), else where the document does.
    const line = lineCounter.linePos((document.contents ?? document).range[0]).line;
    if (document.errors.length > 0) {
      const error = document.errors[0];
      const at = error.linePos?.[0];
      problems.push(
        `is not valid YAML at line ${at?.line ?? line}, column ${at?.col ?? 1}: ${error.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")}`,
      );
      continue;
    }
    let value: unknown;
    try {
      value = document.toJS(); // throws for an undefined alias or an alias bomb
    } catch (error) {
      problems.push(`is not valid YAML in document ${index + 1} (line ${line}): ${(error as Error).message}`);
      continue;
    }
    const inexact: string[] = [];
    value = toNumbers(value, inexact);
    if (inexact.length > 0) {
      problems.push(`document ${index + 1} (line ${line}) has integers beyond what JSON numbers here hold exactly (±2^53): ${inexact.join(", ")}`);
      continue;
    }
    if (value === null || value === undefined) continue; // empty document (e.g. a trailing ---)
    // `--format json` (and kubectl) print a v1 List: accept its items too.
    const items = isObject(value) && value.kind === "List" && Array.isArray(value.items) ? value.items : [value];
    for (const item of items) {
      // Bundle text is data too (config/boundary.ts): no cdktf token marker, no prototype key.
      const boundary = boundaryIssues(item);
      const problem = boundary.length > 0 ? `at ${boundary[0].path}: ${boundary[0].message}` : objectProblem(item);
      if (problem) problems.push(`document ${index + 1} (line ${line}) ${problem}`);
      else found.push({ object: item as KubernetesObject, line });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  if (found.length === 0) return fail(`contains no Kubernetes objects; ${RENDER_HINT}`);

  const omit = new Set(options.omitKinds ?? []);
  for (const kind of omit) {
    if (REQUIRED_KINDS.has(kind)) problems.push(`cannot omit ${kind}: the operator needs it (omitKinds)`);
    else if (!found.some(({ object }) => object.kind === kind)) problems.push(`has no object of kind ${kind} to omit (omitKinds; kinds are case-sensitive)`);
  }
  const kept = found.filter(({ object }) => !omit.has(object.kind));
  const crds = new Set<string>(); // "<group>/<Kind>" served by a CRD in the bundle
  for (const { object } of kept) {
    if (object.kind === "CustomResourceDefinition") {
      const spec = object.spec as { group?: string; names?: { kind?: string } } | undefined;
      crds.add(`${spec?.group}/${spec?.names?.kind}`);
    }
  }

  const seen = new Map<string, number>();
  const objects: BundleObject[] = [];
  for (const { object, line } of kept) {
    const group = apiGroup(object.apiVersion);
    const clusterScoped = CLUSTER_SCOPED_KINDS.has(object.kind) && BUILT_IN_GROUPS.has(group);
    const manifest = clean(object, clusterScoped);
    // From the cleaned object: a namespace on a cluster-scoped object names nothing on the cluster.
    const label = objectLabel(manifest);
    const identity = `${group}/${manifest.kind}/${manifest.metadata.namespace ?? ""}/${manifest.metadata.name}`;
    const previous = seen.get(identity);
    if (previous !== undefined) problems.push(`${label} appears twice (lines ${previous} and ${line})`);
    seen.set(identity, line);

    if (object.kind === "Secret" && group === "" && (object.data !== undefined || object.stringData !== undefined)) {
      problems.push(
        `${label} (line ${line}) carries secret data, which would be written into cdktf.out: render without --render-sensitive; this project creates the external-dns and pull secrets itself`,
      );
    }
    const servedByBundle = crds.has(`${group}/${object.kind}`);
    if (servedByBundle) {
      problems.push(
        `${label} (line ${line}) is a custom resource whose CRD is in the same bundle; kubernetes_manifest cannot plan it before the CRD exists (hashicorp/terraform-provider-kubernetes#1391)`,
      );
    }
    objects.push({
      manifest,
      tier: tierOf(object),
      label,
      line,
      needsExistingCrd: !BUILT_IN_GROUPS.has(group) && !servedByBundle,
    });
  }

  const operator = kept.find(({ object }) => object.kind === "Deployment" && object.metadata.name === "operator");
  const hostedClusterCrd = kept.some(
    ({ object }) => object.kind === "CustomResourceDefinition" && object.metadata.name === "hostedclusters.hypershift.openshift.io",
  );
  if (!operator || !hostedClusterCrd) {
    problems.push(
      `is not a complete HyperShift operator bundle (missing ${[!operator && "the Deployment 'operator'", !hostedClusterCrd && "the HostedCluster CRD"].filter(Boolean).join(" and ")}); render it with --outputs all, not crds or resources`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };

  const order = (tier: BundleTier) => BUNDLE_TIERS.indexOf(tier);
  return {
    ok: true,
    bundle: {
      // Stable sort: bundle order within a tier.
      objects: [...objects].sort((a, b) => order(a.tier) - order(b.tier)),
      operatorNamespace: (operator as { object: KubernetesObject }).object.metadata.namespace ?? "default",
      externalDns: externalDnsOf(kept.map(({ object }) => object)),
      secretReferences: secretReferencesOf(objects.map((o) => o.manifest)),
      operatorEnv: operatorEnvOf((operator as { object: KubernetesObject }).object),
      privateLink: privateLinkOf((operator as { object: KubernetesObject }).object),
      exampleOnly: found.some(({ object }) => (object.metadata.annotations as Record<string, unknown> | undefined)?.[EXAMPLE_ONLY_ANNOTATION] === "true"),
    },
  };
}

type Container = { name?: string; env?: Array<{ name: string; value?: unknown }> };

function operatorContainer(deployment: Record<string, any>): Container | undefined {
  const containers: Container[] = deployment.spec?.template?.spec?.containers ?? [];
  return containers.find((c) => c.name === "operator") ?? containers[0];
}

function operatorEnvOf(deployment: KubernetesObject): Record<string, string> {
  const env = operatorContainer(deployment as Record<string, any>)?.env ?? [];
  return Object.fromEntries(env.filter((e) => typeof e.value === "string").map((e) => [e.name, e.value as string]));
}

function privateLinkOf(deployment: KubernetesObject): BundlePrivateLink {
  const d = deployment as Record<string, any>;
  const container = operatorContainer(d) as
    (Container & { args?: string[]; command?: string[]; volumeMounts?: Array<{ name: string; mountPath: string }> }) | undefined;
  const args = [...(container?.command ?? []), ...(container?.args ?? [])];
  const platform = args.find((a) => a.startsWith("--private-platform="))?.slice("--private-platform=".length);
  const env = operatorEnvOf(deployment);
  const mount = (container?.volumeMounts ?? []).find((m) => m.mountPath === AZURE_PRIVATE_CREDENTIALS_MOUNT);
  const volumes: PodSpec["volumes"] = d.spec?.template?.spec?.volumes ?? [];
  const file = env.AZURE_CREDENTIALS_FILE;
  return {
    platform,
    resourceGroup: env.AZURE_RESOURCE_GROUP,
    credentialsSecret: mount && volumes?.find((v) => v.name === mount.name)?.secret?.secretName,
    credentialsKey: file?.startsWith(`${AZURE_PRIVATE_CREDENTIALS_MOUNT}/`) ? file.slice(AZURE_PRIVATE_CREDENTIALS_MOUNT.length + 1) : undefined,
    managedIdentityClientId: env.AZURE_PLS_CLIENT_ID,
  };
}

/**
 * The bundle's objects with `name=value` in the operator container's environment (replacing a
 * rendered value): for values known only at plan time, such as the AKS add-on identity's client ID.
 */
export function withOperatorEnv(objects: readonly BundleObject[], name: string, value: string): BundleObject[] {
  if (!objects.some((o) => o.manifest.kind === "Deployment" && o.manifest.metadata.name === "operator")) {
    throw new Error(`withOperatorEnv: the bundle has no Deployment operator to set ${name} on`);
  }
  return objects.map((object) => {
    const m = object.manifest as Record<string, any>;
    if (m.kind !== "Deployment" || m.metadata?.name !== "operator") return object;
    const manifest = structuredClone(m);
    const container = operatorContainer(manifest);
    if (!container) return object;
    container.env = [...(container.env ?? []).filter((e) => e.name !== name), { name, value }];
    return { ...object, manifest: manifest as KubernetesObject };
  });
}

/** The apply tier of an object. */
export function tierOf(object: { kind: string }): BundleTier {
  if (DEFINITION_KINDS.has(object.kind)) return "definitions";
  if (WORKLOAD_KINDS.has(object.kind)) return "workloads";
  if (ADMISSION_KINDS.has(object.kind)) return "admission";
  return "configuration";
}

function externalDnsOf(objects: readonly KubernetesObject[]): BundleExternalDns | undefined {
  const deployment = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "external-dns");
  if (!deployment) return undefined;
  const pod = (deployment.spec as { template?: { spec?: PodSpec } } | undefined)?.template?.spec ?? {};
  const container = (pod.containers ?? []).find((c) => c.name === "external-dns") ?? pod.containers?.[0];
  const args = [...(container?.command ?? []), ...(container?.args ?? [])];
  const values = (flag: string) => args.filter((a) => a.startsWith(`--${flag}=`)).map((a) => a.slice(flag.length + 3));
  const mount = (container?.volumeMounts ?? []).find((m) => m.mountPath === "/etc/provider");
  const volume = (pod.volumes ?? []).find((v) => v.name === mount?.name);
  return {
    namespace: deployment.metadata.namespace ?? "default",
    domainFilters: values("domain-filter"),
    provider: values("provider")[0],
    credentialsSecret: volume?.secret?.secretName,
    imagePullSecrets: (pod.imagePullSecrets ?? []).map((s) => s.name),
    txtOwnerId: values("txt-owner-id")[0],
  };
}

/** The SERVING_CERT annotation of OpenShift's service CA operator. */
const SERVING_CERT_ANNOTATION = "service.beta.openshift.io/serving-cert-secret-name";

function secretReferencesOf(objects: readonly KubernetesObject[]): SecretReference[] {
  const inBundle = new Set(objects.filter((o) => o.kind === "Secret").map((o) => `${o.metadata.namespace}/${o.metadata.name}`));
  const servingCerts = new Set(
    objects
      .filter((o) => o.kind === "Service")
      .map((o) => `${o.metadata.namespace}/${(o.metadata.annotations as Record<string, string> | undefined)?.[SERVING_CERT_ANNOTATION]}`),
  );
  const references: SecretReference[] = [];
  for (const workload of objects.filter((o) => WORKLOAD_KINDS.has(o.kind))) {
    const namespace = workload.metadata.namespace ?? "default";
    const pod = (workload.spec as { template?: { spec?: PodSpec } } | undefined)?.template?.spec ?? {};
    const needed = [
      ...(pod.volumes ?? [])
        .filter((v) => v.secret?.secretName && !v.secret.optional)
        .map((v) => ({ secret: v.secret?.secretName as string, use: "volume" as const })),
      ...(pod.imagePullSecrets ?? []).map((p) => ({ secret: p.name, use: "imagePullSecret" as const })),
    ];
    for (const { secret, use } of needed) {
      if (inBundle.has(`${namespace}/${secret}`)) continue;
      references.push({ workload: objectLabel(workload), namespace, secret, use, servingCert: servingCerts.has(`${namespace}/${secret}`) });
    }
  }
  return references;
}

interface PodSpec {
  containers?: Array<{ name?: string; command?: string[]; args?: string[]; volumeMounts?: Array<{ name: string; mountPath: string }> }>;
  volumes?: Array<{ name: string; secret?: { secretName?: string; optional?: boolean } }>;
  imagePullSecrets?: Array<{ name: string }>;
}

/**
 * What kubernetes_manifest needs: no `status` (rejected), no `creationTimestamp: null` and no
 * other nulls (perpetual diffs, terraform-provider-kubernetes#1589), no namespace on a
 * cluster-scoped object (plan error). Everything else is kept as rendered.
 */
function clean(object: KubernetesObject, clusterScoped: boolean): KubernetesObject {
  const { status: _status, ...rest } = object;
  const cleaned = (object.kind === "CustomResourceDefinition" ? dropNulls(rest) : dropEmpty(dropNulls(rest))) as KubernetesObject;
  if (clusterScoped && cleaned.metadata.namespace !== undefined) {
    const { namespace: _namespace, ...metadata } = cleaned.metadata;
    return { ...cleaned, metadata: metadata as KubernetesObject["metadata"] };
  }
  return cleaned;
}

function dropNulls(value: unknown, parentKey?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => dropNulls(v));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === null || child === undefined) continue;
    // Server-set (object and pod-template metadata). Only under a `metadata` key, so a CRD
    // schema property that happens to be named creationTimestamp is kept.
    if (key === "creationTimestamp" && parentKey === "metadata") continue;
    out[key] = dropNulls(child, key);
  }
  return out;
}

/** Empty maps that mean something (a volume source, "select everything"): kept as written. */
const MEANINGFUL_EMPTY = new Set(["emptyDir", "podSelector", "namespaceSelector", "objectSelector", "selector"]);

/**
 * Drops empty maps and lists (`strategy: {}`, `resources: {}`, a Namespace's `spec: {}`): the API
 * server omits them, and kubernetes_manifest then fails with "Provider produced inconsistent
 * result after apply". Not for CRDs, whose schema needs e.g. `subresources.status: {}`.
 */
function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => dropEmpty(v));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [childKey, child] of Object.entries(value)) {
    const cleaned = dropEmpty(child);
    const empty = Array.isArray(cleaned) ? cleaned.length === 0 : isObject(cleaned) && Object.keys(cleaned).length === 0;
    if (!empty || MEANINGFUL_EMPTY.has(childKey)) out[childKey] = cleaned;
  }
  return out;
}

/** BigInt (intAsBigInt parsing) back to number where exact; collects the others. */
function toNumbers(value: unknown, inexact: string[]): unknown {
  if (typeof value === "bigint") {
    const number = Number(value);
    if (BigInt(number) !== value) inexact.push(value.toString());
    return number;
  }
  if (Array.isArray(value)) return value.map((v) => toNumbers(v, inexact));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toNumbers(v, inexact)]));
}

function objectProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `is not a Kubernetes object (got ${Array.isArray(value) ? "a list" : typeof value})`;
  const missing = ["apiVersion", "kind"].filter((k) => typeof value[k] !== "string" || value[k] === "");
  const metadata = value.metadata;
  if (!isObject(metadata) || typeof metadata.name !== "string" || metadata.name === "") missing.push("metadata.name");
  if (missing.length > 0) return `is not a Kubernetes object: missing ${missing.join(", ")}`;
  if (isObject(metadata) && metadata.namespace !== undefined && typeof metadata.namespace !== "string") return "has a metadata.namespace that is not a string";
  return undefined;
}

function apiGroup(apiVersion: string): string {
  return apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.lastIndexOf("/")) : "";
}

function objectLabel(object: KubernetesObject): string {
  return `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ""}${object.metadata.name}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(problem: string): BundleResult {
  return { ok: false, problems: [problem] };
}
