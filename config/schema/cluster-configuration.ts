import { z } from "zod";
import { armId, DNS1123_SUBDOMAIN, IPV4_CIDR } from "./primitives";

/**
 * Day-1 cluster configuration of a HostedCluster (issue 25 items 2 and 4): the proxy, the API
 * server, image policy, scheduler, OperatorHub and ingress sections of `spec.configuration`, the
 * API server allow-list, the cluster autoscaler and ACR pulls by managed identity. Typed keys, each
 * checked with the CRD's own rules (hostedclusters-Hypershift-Default.crd.yaml; help/cluster-configuration.md);
 * rules across fields are in rules/cluster-configuration.ts. Spread into the `hostedCluster` object
 * of hosted-cluster.ts.
 */

/** The CRD's registry pattern (`hostname[:port][/path]` or `*.hostname`, no tag or digest) of image.registrySources. */
export const REGISTRY_SCOPE =
  /^\*(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+$|^((?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+)?(?::[0-9]+)?)(?:(?:\/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?$/;

/** The CRD's IPv6 CIDR pattern of networking.apiServer.allowedCIDRBlocks. */
const IPV6_CIDR = /^([0-9a-fA-F]{0,4}:){2,7}([0-9a-fA-F]{0,4})?\/[0-9]{1,3}$/;

/** Lowercase DNS name (RFC 1123 subdomain). */
const DNS_NAME = DNS1123_SUBDOMAIN;

/** Kubernetes label key (the CRD's pattern of autoscaling.balancingIgnoredLabels). */
const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[a-zA-Z0-9]([a-zA-Z0-9_.-]{0,61}[a-zA-Z0-9])?$/;

/** The CRD's Go duration pattern of autoscaling.maxNodeProvisionTime. */
const CRD_DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

/** A noProxy entry: `*`, a host or `.domain`, an IPv4 address or CIDR, or an IPv6 address or CIDR. */
const NO_PROXY_ENTRY =
  /^(\*|\.?[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*|[0-9.]+(\/\d{1,2})?|[0-9a-fA-F:]+(\/\d{1,3})?)$/;

/** The default catalog sources OperatorHub can switch off (`operatorhub.sources[].name`). */
export const DEFAULT_CATALOG_SOURCES = ["redhat-operators", "certified-operators", "community-operators", "redhat-marketplace"] as const;

const uniqueList = <T extends z.ZodType>(item: T, what: string) =>
  z.array(item).refine((values) => new Set(values).size === values.length, { error: `must not repeat a ${what} (the CRD's list is a set)` });

/** A proxy URL: http(s)://host[:port], no credentials (they would sit in the HostedCluster in plain text). */
const proxyUrl = (schemes: readonly string[]) =>
  z
    .string()
    .max(2048)
    .superRefine((text, ctx) => {
      let url: URL | undefined;
      try {
        url = new URL(text);
      } catch {
        url = undefined;
      }
      const scheme = url?.protocol.replace(/:$/, "");
      if (!url || !scheme || !schemes.includes(scheme) || !url.hostname) {
        // The value is not echoed: a malformed URL may still hold a password.
        ctx.addIssue({
          code: "custom",
          params: { secret: true },
          message: `must be a URL such as http://proxy.example.com:3128 (scheme ${schemes.join(" or ")})`,
        });
      } else if (url.username || url.password) {
        ctx.addIssue({
          code: "custom",
          params: { secret: true },
          message:
            "must not hold credentials: they would be stored in the HostedCluster and the Terraform state in plain text; use a proxy that authenticates the cluster's network",
        });
      }
    });

const registry = z.string().min(1).max(256).regex(REGISTRY_SCOPE, {
  error: "must be a registry scope: hostname[:port][/path] or *.hostname, without a tag or digest (CRD)",
});
const registries = (what: string) =>
  uniqueList(registry, "registry").max(1024, { error: "must have at most 1024 entries (CRD maxItems)" }).optional().describe(what);

const proxySchema = z
  .strictObject({
    httpProxy: proxyUrl(["http"]).optional().describe("Proxy for HTTP requests (http://host:port). Default: none."),
    httpsProxy: proxyUrl(["http", "https"]).optional().describe("Proxy for HTTPS requests (http:// or https://host:port). Default: none."),
    noProxy: uniqueList(
      z.string().regex(NO_PROXY_ENTRY, { error: "must be *, a host name, a .domain, an IP address or a CIDR (no commas or spaces)" }),
      "entry",
    )
      .default([])
      .describe(
        "Destinations reached without the proxy, added to what HyperShift adds itself (127.0.0.1, localhost, .svc, .cluster.local, .local, the cluster, service and machine networks, 169.254.169.254) and to the VNet address space this config creates. Default: none of your own.",
      ),
    readinessEndpoints: uniqueList(proxyUrl(["http", "https"]), "endpoint")
      .optional()
      .describe("URLs the proxy is checked against before it is used. Default: none."),
    trustAdditionalTrustBundle: z
      .boolean()
      .default(false)
      .describe(
        "Trust the cluster's additionalTrustBundleFile for connections to the proxy (spec.configuration.proxy.trustedCA names its ConfigMap). Needs additionalTrustBundleFile.",
      ),
  })
  .describe("Cluster-wide egress proxy → spec.configuration.proxy. Changing it rolls out every NodePool. Default: no proxy.");

const apiServerSchema = z
  .strictObject({
    allowedCIDRBlocks: uniqueList(
      z
        .string()
        .max(43)
        .refine((text) => IPV4_CIDR.test(text) || IPV6_CIDR.test(text), { error: "must be an IPv4 or IPv6 CIDR such as 203.0.113.0/24 (CRD)" }),
      "CIDR",
    )
      .min(1, { error: "must have at least one CIDR; omit the key to allow every address" })
      .max(500, { error: "must have at most 500 entries (CRD maxItems)" })
      .optional()
      .describe(
        "Addresses allowed to reach the API server → spec.networking.apiServer.allowedCIDRBlocks (enforced on the API server's LoadBalancer; include the workers' outbound addresses). Default: every address.",
      ),
    auditProfile: z
      .enum(["Default", "WriteRequestBodies", "AllRequestBodies", "None"])
      .optional()
      .describe("Audit log policy → spec.configuration.apiServer.audit.profile. Default: unset (the CRD's Default)."),
    tlsSecurityProfile: z
      .strictObject({
        type: z.enum(["Old", "Intermediate", "Modern", "Custom"]).describe("OpenShift TLS profile of the API servers."),
        minTLSVersion: z
          .enum(["VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"])
          .optional()
          .describe("With type Custom: the lowest TLS version accepted."),
        ciphers: uniqueList(z.string().regex(/^[A-Za-z0-9_-]+$/, { error: "must be a cipher name such as ECDHE-RSA-AES128-GCM-SHA256" }), "cipher")
          .optional()
          .describe("With type Custom: the cipher suites, in OpenSSL names."),
      })
      .optional()
      .describe("→ spec.configuration.apiServer.tlsSecurityProfile. Default: unset (OpenShift's Intermediate)."),
  })
  .describe("The API server: who may reach it, its audit log and its TLS profile.");

const imagePolicySchema = z
  .strictObject({
    allowedRegistries: registries(
      "Only these registries may be pulled from (registrySources.allowedRegistries); must include the release image's. Default: every registry.",
    ),
    blockedRegistries: registries("These registries may not be pulled from (registrySources.blockedRegistries). Not with allowedRegistries."),
    insecureRegistries: registries("Registries pulled from without TLS verification (registrySources.insecureRegistries). Default: none."),
    allowedRegistriesForImport: z
      .array(
        z.strictObject({
          domainName: z.string().regex(/^[A-Za-z0-9.*-]+(:[0-9]+)?$/, { error: "must be a registry domain such as quay.io or *.example.com[:port]" }),
          insecure: z.boolean().optional().describe("Import over plain HTTP. Default: false."),
        }),
      )
      .optional()
      .describe("Registries users may import image streams from (allowedRegistriesForImport). Default: every registry."),
  })
  .describe("Image policy → spec.configuration.image. Changing it rolls out every NodePool. Default: none.");

const autoscalingSchema = z
  .strictObject({
    scaling: z
      .enum(["ScaleUpAndScaleDown", "ScaleUpOnly"])
      .optional()
      .describe("ScaleUpAndScaleDown or ScaleUpOnly. Default: unset (the CRD's ScaleUpAndScaleDown)."),
    maxNodesTotal: z.number().int().min(0).max(2147483647).optional().describe("Most nodes in the cluster, all NodePools together. Default: no limit."),
    maxPodGracePeriod: z.number().int().min(0).max(2147483647).optional().describe("Seconds a pod may take to stop on scale-down. Default: 600 (autoscaler)."),
    maxNodeProvisionTime: z
      .string()
      .max(100)
      .regex(CRD_DURATION, { error: "must be a Go duration such as 15m (CRD)" })
      .optional()
      .describe("How long the autoscaler waits for a node to join. Default: 15m (autoscaler)."),
    podPriorityThreshold: z
      .number()
      .int()
      .min(-2147483648)
      .max(2147483647)
      .optional()
      .describe("Pods below this priority do not cause a scale-up and do not keep nodes. Default: -10 (autoscaler)."),
    maxFreeDifferenceRatioPercent: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe("Free-resource difference (%) of node groups still balanced as similar. Default: 10."),
    balancingIgnoredLabels: uniqueList(z.string().max(317).regex(LABEL_KEY, { error: "must be a Kubernetes label key (CRD)" }), "label")
      .max(64, { error: "must have at most 64 entries (CRD maxItems)" })
      .optional()
      .describe("Node labels ignored when comparing node groups for balancing. Default: none."),
    expanders: uniqueList(z.enum(["LeastWaste", "Priority", "Random"]), "expander")
      .min(1)
      .max(3, { error: "must have at most 3 expanders (CRD maxItems)" })
      .optional()
      .describe("How the autoscaler picks the node group to grow, in order. Default: [Priority, LeastWaste]."),
    scaleDown: z
      .strictObject({
        delayAfterAddSeconds: z.number().int().min(0).max(86400).optional().describe("Wait after a scale-up before scaling down. Default: 600."),
        delayAfterDeleteSeconds: z.number().int().min(0).max(86400).optional().describe("Wait after a node deletion before scaling down. Default: 0."),
        delayAfterFailureSeconds: z.number().int().min(0).max(86400).optional().describe("Wait after a failed scale-down. Default: 180."),
        unneededDurationSeconds: z.number().int().min(0).max(86400).optional().describe("How long a node must be unneeded before removal. Default: 600."),
        utilizationThresholdPercent: z.number().int().min(0).max(100).optional().describe("Below this utilization (%) a node may be removed. Default: 50."),
      })
      .optional()
      .describe("Scale-down tuning (only with scaling ScaleUpAndScaleDown). Default: the autoscaler's."),
  })
  .describe("Cluster autoscaler of the NodePools with autoscaling → spec.autoscaling. Default: HyperShift's.");

export const clusterConfigurationOptions = {
  proxy: proxySchema.optional(),
  apiServer: apiServerSchema.optional(),
  imagePolicy: imagePolicySchema.optional(),
  scheduler: z
    .strictObject({
      profile: z.enum(["LowNodeUtilization", "HighNodeUtilization", "NoScoring"]).describe("Pod placement profile."),
    })
    .optional()
    .describe("→ spec.configuration.scheduler. Default: unset (LowNodeUtilization)."),
  operatorHub: z
    .strictObject({
      disabledSources: uniqueList(z.enum(DEFAULT_CATALOG_SOURCES), "source")
        .min(1)
        .describe("Default catalog sources to switch off (olmDisableDefaultSources switches off all of them)."),
    })
    .optional()
    .describe("→ spec.configuration.operatorhub.sources. Default: every default source on."),
  ingress: z
    .strictObject({
      domain: z
        .string()
        .regex(DNS_NAME, { error: "must be a lowercase DNS name such as apps.example.com" })
        .optional()
        .describe("Default domain of Routes and the default ingress wildcard. Set at creation only. Default: apps.<name>.<baseDomain>."),
      appsDomain: z
        .string()
        .regex(DNS_NAME, { error: "must be a lowercase DNS name such as apps.example.com" })
        .optional()
        .describe("Domain for new Routes without a host, instead of domain; may change later (you set up its ingress controller). Default: none."),
    })
    .optional()
    .describe("→ spec.configuration.ingress. Default: unset."),
  autoscaling: autoscalingSchema.optional(),
  containerRegistry: z
    .strictObject({
      managedIdentityId: armId(
        "Microsoft.ManagedIdentity/userAssignedIdentities",
        "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ManagedIdentity/userAssignedIdentities/<name>",
        {
          min: { length: 131, error: "must be at least 131 characters (CRD minLength)" },
          max: { length: 345, error: "must be at most 345 characters (CRD maxLength)" },
        },
      ).describe("User-assigned identity with AcrPull on the registry, attached to every worker VM."),
    })
    .optional()
    .describe(
      "Workers pull from Azure Container Registry with a managed identity, no pull secret → spec.platform.azure.containerRegistry. Changing it rolls out every NodePool. Default: none.",
    ),
};
