import { z } from "zod";
import { filePath, hasTagOrDigest, IMAGE_REFERENCE } from "./primitives";

/**
 * HostedCluster options of `hypershift create cluster azure` (issue 13 item 1), one key per CLI
 * flag (help/cli-coverage.md maps them). Field rules are the CRD's own where the config can check
 * them (openshift/hypershift@3ee9615 `api/hypershift/v1beta1/hostedcluster_types.go`, notes §4);
 * rules across fields are in rules/hosted-options.ts. Spread into the `hostedCluster` object of
 * hosted-cluster.ts.
 */

/** `OptionalCapability` values the CRD accepts (`--enable/--disable-cluster-capabilities`). */
export const CAPABILITIES = ["ImageRegistry", "openshift-samples", "Insights", "baremetal", "Console", "NodeTuning", "Ingress"] as const;

/** Kubernetes qualified name, optionally prefixed by a DNS subdomain (`example.com/name`): label and annotation keys. */
const QUALIFIED_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
/** Label value: empty, or up to 63 alphanumerics with `-_.` inside. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;
/**
 * Lowercase RFC 1123 subdomain that also passes the CRD's kubeAPIServerDNSName rule
 * (`^(?:(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}|[a-zA-Z0-9-]+)$`: one label, or labels ending in a letter TLD).
 */
const DNS_NAME = /^(([a-z0-9]([-a-z0-9]*[a-z0-9])?\.)+[a-z]{2,}|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$/;

/** A string map whose keys are Kubernetes label/annotation keys (checked per key, so the issue names it). */
const keyedMap = (what: string, value: z.ZodString) =>
  z.record(z.string(), value).superRefine((map, ctx) => {
    for (const key of Object.keys(map)) {
      if (!QUALIFIED_KEY.test(key)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          input: key,
          message: `must be a Kubernetes ${what} key: [prefix/]name, name 1-63 letters, digits, '-', '_' or '.'`,
        });
      }
    }
  });

const labels = (what: string) => keyedMap(what, z.string().regex(LABEL_VALUE, { error: "must be a label value: at most 63 letters, digits, '-', '_' or '.'" }));

const toleration = z
  .strictObject({
    key: z.string().min(1).optional().describe("Taint key; omit with operator Exists to tolerate every taint."),
    operator: z.enum(["Exists", "Equal"]).optional().describe("Exists or Equal. Default: Equal (Kubernetes)."),
    value: z.string().optional().describe("Taint value (with operator Equal)."),
    effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]).optional().describe("Taint effect. Default: every effect."),
    tolerationSeconds: z.number().int().optional().describe("With effect NoExecute: seconds the pod stays bound after the taint appears."),
  })
  .describe("A toleration of the control-plane pods (as one --toleration key=..,operator=..,effect=..).");

export const hostedClusterOptions = {
  apiServerDnsName: z
    .string()
    .max(253, { error: "must be at most 253 characters (CRD maxLength)" })
    .regex(DNS_NAME, {
      error: "must be a lowercase DNS name such as api.example.com (RFC 1123 subdomain, ending in a top-level domain of letters as the CRD requires)",
    })
    .optional()
    .describe(
      "Custom DNS name of the API server (--kas-dns-name → spec.kubeAPIServerDNSName), OpenShift 4.19+. You create the DNS record and the serving certificate. Default: none.",
    ),
  oauthPublishing: z
    .enum(["Route", "LoadBalancer"])
    .default("Route")
    .describe(
      "How the OAuth server is published (--oauth-publishing-strategy): Route (the management cluster's ingress) or LoadBalancer (its own Azure load balancer). LoadBalancer only with topology selfManaged (the CRD requires Route for ARO HCP). Immutable.",
    ),
  additionalTrustBundleFile: filePath()
    .optional()
    .describe(
      "PEM CA bundle trusted by the cluster (--additional-trust-bundle), relative to the config file. Read at synth (it is public): the ConfigMap <name>-user-ca-bundle, key ca-bundle.crt, referenced by spec.additionalTrustBundle. Changing it rolls out every NodePool. Default: none.",
    ),
  imageContentSources: z
    .array(
      z.strictObject({
        source: z
          .string()
          .min(1)
          .max(255, { error: "must be at most 255 characters (CRD)" })
          .describe("Repository the images are pulled from, e.g. quay.io/openshift-release-dev/ocp-release."),
        mirrors: z
          .array(z.string().min(1).max(255, { error: "must be at most 255 characters (CRD)" }))
          .max(255, { error: "must have at most 255 entries (CRD maxItems)" })
          .refine((mirrors) => new Set(mirrors).size === mirrors.length, { error: "must not repeat a mirror (the CRD's list is a set)" })
          .optional()
          .describe("Repositories that serve the same images (tried in order)."),
      }),
    )
    .max(255, { error: "must have at most 255 entries (CRD maxItems)" })
    .optional()
    .describe(
      "Registry mirrors (the file of --image-content-sources, inline) → spec.imageContentSources. Changing it rolls out every NodePool. Default: none.",
    ),
  fips: z.boolean().default(false).describe("FIPS mode for the nodes (--fips). Immutable: set it at creation."),
  infrastructureAvailabilityPolicy: z
    .enum(["SingleReplica", "HighlyAvailable"])
    .optional()
    .describe(
      "Replicas of infrastructure components in the guest cluster, e.g. the router (--infra-availability-policy). Default: unset (HyperShift's SingleReplica).",
    ),
  capabilities: z
    .strictObject({
      enabled: z.array(z.enum(CAPABILITIES)).optional().describe("Optional capabilities to enable (--enable-cluster-capabilities)."),
      disabled: z
        .array(z.enum(CAPABILITIES))
        .optional()
        .describe(
          "Optional capabilities to disable (--disable-cluster-capabilities). Disabling ImageRegistry also drops its role assignment (as create infra azure). Other than ImageRegistry needs OpenShift 4.20+; Ingress only together with Console.",
        ),
    })
    .optional()
    .describe("Optional cluster capabilities → spec.capabilities. Immutable: set them at creation. Default: the release's defaults."),
  featureSet: z
    .enum(["TechPreviewNoUpgrade", "DevPreviewNoUpgrade"])
    .optional()
    .describe(
      "Feature set of the cluster (--feature-set) → spec.configuration.featureGate.featureSet. One-way: it cannot be unset once set. Default: the Default feature set.",
    ),
  networkType: z
    .enum(["OVNKubernetes", "Other"])
    .default("OVNKubernetes")
    .describe("Cluster network provider (--network-type): OVNKubernetes, or Other to install your own CNI. Do not change it after creation."),
  annotations: keyedMap("annotation", z.string())
    .optional()
    .describe(
      "Annotations of the HostedCluster object (--annotations k=v), e.g. hypershift.openshift.io/pod-security-admission-label-override. Default: none.",
    ),
  labels: labels("label").optional().describe("Labels of the HostedCluster object (--labels k=v). Default: none."),
  controlPlaneNodeSelector: labels("node selector")
    .refine((selector) => Object.keys(selector).length <= 20, { error: "must have at most 20 entries (CRD)" })
    .optional()
    .describe("Node selector of the control-plane pods on the management cluster (--node-selector) → spec.nodeSelector. Default: none."),
  controlPlaneTolerations: z
    .array(toleration)
    .max(25, { error: "must have at most 25 entries (CRD maxItems)" })
    .optional()
    .describe("Tolerations of the control-plane pods on the management cluster (--toleration) → spec.tolerations. Default: none."),
  olmCatalogPlacement: z
    .enum(["management", "guest"])
    .default("management")
    .describe("Where the OLM catalogs run (--olm-catalog-placement): management (the control plane) or guest. Immutable."),
  olmDisableDefaultSources: z
    .boolean()
    .default(false)
    .describe("Disable OLM's default catalog sources (--olm-disable-default-sources) → spec.configuration.operatorhub.disableAllDefaultSources."),
  controlPlaneOperatorImage: z
    .string()
    .regex(IMAGE_REFERENCE, { error: "must be an image reference with a tag or @sha256 digest" })
    .refine(hasTagOrDigest, {
      error: "must name a tag or an @sha256 digest",
    })
    .optional()
    .describe(
      "Override of the control-plane-operator image (--control-plane-operator-image → annotation hypershift.openshift.io/control-plane-operator-image): for HyperShift developers. Default: the release's.",
    ),
};
