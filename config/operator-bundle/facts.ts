import { BundleRelease, releaseMinorOf } from "../hypershift-release";
import { AZURE_PRIVATE_CREDENTIALS_MOUNT, EXAMPLE_ONLY_ANNOTATION } from "./hypershift-install";
import { objectLabel, WORKLOAD_KINDS } from "./kinds";
import { BundleExternalDns, BundlePrivateLink, KubernetesObject, SecretReference } from "./types";

/**
 * Facts read from the render, for the config rules (config/rules/bundle.ts) and the stacks: the
 * operator's namespace, environment and flags, what external-dns was rendered with, and the
 * Secrets the workloads need.
 */

export type Container = { name?: string; env?: Array<{ name: string; value?: unknown }> };

interface PodSpec {
  containers?: Array<{ name?: string; command?: string[]; args?: string[]; volumeMounts?: Array<{ name: string; mountPath: string }> }>;
  volumes?: Array<{ name: string; secret?: { secretName?: string; optional?: boolean } }>;
  imagePullSecrets?: Array<{ name: string }>;
}

/** The HyperShift operator: the Deployment named `operator`. */
export function isOperatorDeployment(object: { kind?: unknown; metadata?: { name?: unknown } }): boolean {
  return object.kind === "Deployment" && object.metadata?.name === "operator";
}

/** The operator's container: the one named `operator`, else the first. */
export function operatorContainer(deployment: Record<string, any>): Container | undefined {
  const containers: Container[] = deployment.spec?.template?.spec?.containers ?? [];
  return containers.find((c) => c.name === "operator") ?? containers[0];
}

/** Literal environment of the operator container. */
export function operatorEnvOf(deployment: KubernetesObject): Record<string, string> {
  const env = operatorContainer(deployment as Record<string, any>)?.env ?? [];
  return Object.fromEntries(env.filter((e) => typeof e.value === "string").map((e) => [e.name, e.value as string]));
}

/** Annotation `hypershift install render` sets on the operator Deployment: "openshift/hypershift: <rev>. Latest supported OCP: 4.21.0" (`cmd/install/assets/hypershift_operator.go`). */
export const INSTALL_CLI_VERSION_ANNOTATION = "hypershift.openshift.io/install-cli-version";

/**
 * The HyperShift release that rendered the bundle: the latest supported OCP minor of the CLI
 * version annotation (each branch's `LatestSupportedVersion`), else a version tag of the operator
 * image (`:4.21`, `:v4.21.3`); `:latest` (the CLI's default image) says nothing.
 */
export function bundleReleaseOf(deployment: KubernetesObject): BundleRelease | undefined {
  const annotation = (deployment.metadata.annotations as Record<string, unknown> | undefined)?.[INSTALL_CLI_VERSION_ANNOTATION];
  const latest = typeof annotation === "string" ? /Latest supported OCP: (\S+)/.exec(annotation)?.[1] : undefined;
  const fromAnnotation = latest && releaseMinorOf(latest);
  if (fromAnnotation) return { release: fromAnnotation, from: `annotation ${INSTALL_CLI_VERSION_ANNOTATION} "${annotation}"` };
  const image = (operatorContainer(deployment as Record<string, any>) as { image?: unknown } | undefined)?.image;
  const tag = typeof image === "string" && !image.includes("@") ? image.slice(image.lastIndexOf(":") + 1) : undefined;
  const fromTag = tag && !tag.includes("/") ? releaseMinorOf(tag) : undefined;
  return fromTag ? { release: fromTag, from: `operator image ${image}` } : undefined;
}

/** The operator's Private Link settings, from its arguments, environment and mounts. */
export function privateLinkOf(deployment: KubernetesObject): BundlePrivateLink {
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

/** What the external-dns Deployment was rendered with; undefined without one. */
export function externalDnsOf(objects: readonly KubernetesObject[]): BundleExternalDns | undefined {
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

/** Secrets the workloads mount (unless optional) or pull with that the bundle does not hold. */
export function secretReferencesOf(objects: readonly KubernetesObject[]): SecretReference[] {
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

/** Whether some object carries EXAMPLE_ONLY_ANNOTATION: "true". */
export function exampleOnlyOf(objects: readonly KubernetesObject[]): boolean {
  return objects.some((object) => (object.metadata.annotations as Record<string, unknown> | undefined)?.[EXAMPLE_ONLY_ANNOTATION] === "true");
}
