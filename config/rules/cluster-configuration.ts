import type { HostedContext } from "./hosted-context";
import { ConfigIssue, Rule } from "./rule";

/**
 * Rules across the day-1 configuration keys (schema/cluster-configuration.ts, issue 25 items 2
 * and 4): the CRD's CEL rules the config can evaluate (hostedclusters-Hypershift-Default.crd.yaml)
 * and what OpenShift needs for the cluster to keep working (help/cluster-configuration.md).
 */

/** The repository of an image reference, without tag or digest (`quay.io/openshift-release-dev/ocp-release`). */
export function imageRepository(image: string): string {
  const withoutDigest = image.replace(/@sha256:[a-f0-9]{64}$/, "");
  const slash = withoutDigest.indexOf("/");
  const path = withoutDigest.slice(slash).replace(/:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/, "");
  return withoutDigest.slice(0, slash) + path;
}

/** Whether a registry scope (`host[:port][/path]` or `*.domain`) covers an image repository, as registries.conf matches them. */
export function registryCovers(scope: string, repository: string): boolean {
  const host = repository.split("/")[0] ?? "";
  if (scope.startsWith("*.")) return host.replace(/:\d+$/, "").endsWith(scope.slice(1));
  return repository === scope || repository.startsWith(`${scope}/`);
}

/** The release images of the cluster and its NodePools, with their config paths. */
function releaseImages({ spec, at }: HostedContext): { path: string; image: string }[] {
  return [
    { path: `${at}.releaseImage`, image: spec.releaseImage },
    ...spec.nodePools.flatMap((pool) => (pool.releaseImage ? [{ path: `${at}.nodePools[name: ${pool.name}].releaseImage`, image: pool.releaseImage }] : [])),
  ];
}

export const CLUSTER_CONFIGURATION_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "a proxy names httpProxy or httpsProxy; trusting the bundle needs the bundle",
    check: ({ spec, at }) => {
      const proxy = spec.proxy;
      if (!proxy) return [];
      const issues: ConfigIssue[] = [];
      if (!proxy.httpProxy && !proxy.httpsProxy) {
        issues.push({ path: `${at}.proxy`, message: "needs httpProxy or httpsProxy (HyperShift ignores a proxy without either); remove proxy or set one" });
      }
      if (proxy.trustAdditionalTrustBundle && !spec.additionalTrustBundleFile) {
        issues.push({
          path: `${at}.proxy.trustAdditionalTrustBundle`,
          value: true,
          message: "needs additionalTrustBundleFile (its ConfigMap is the proxy's trustedCA); set it to the PEM file of the proxy's CA",
        });
      }
      return issues;
    },
  },
  {
    rule: "image policy: allowed or blocked registries, not both; the release images stay pullable",
    check: (context) => {
      const policy = context.spec.imagePolicy;
      if (!policy) return [];
      const at = `${context.at}.imagePolicy`;
      if (policy.allowedRegistries && policy.blockedRegistries) {
        return [
          {
            path: `${at}.blockedRegistries`,
            message: "cannot be set with allowedRegistries (CRD: only one of blockedRegistries or allowedRegistries); keep one",
          },
        ];
      }
      return releaseImages(context).flatMap(({ path, image }): ConfigIssue[] => {
        const repository = imageRepository(image);
        const allowed = policy.allowedRegistries;
        if (allowed && !allowed.some((scope) => registryCovers(scope, repository))) {
          return [
            {
              path: `${at}.allowedRegistries`,
              value: allowed,
              message: `does not include the registry of ${path} (${repository}): the nodes could not pull the release; add it`,
            },
          ];
        }
        const blocking = (policy.blockedRegistries ?? []).find((scope) => registryCovers(scope, repository));
        return blocking
          ? [
              {
                path: `${at}.blockedRegistries`,
                value: blocking,
                message: `blocks the registry of ${path} (${repository}): the nodes could not pull the release; remove it`,
              },
            ]
          : [];
      });
    },
  },
  {
    rule: "a Custom TLS profile names its ciphers and minTLSVersion; the others name neither",
    check: ({ spec, at }) => {
      const tls = spec.apiServer?.tlsSecurityProfile;
      if (!tls) return [];
      const path = `${at}.apiServer.tlsSecurityProfile`;
      if (tls.type === "Custom") {
        return tls.ciphers?.length && tls.minTLSVersion
          ? []
          : [
              {
                path,
                value: "Custom",
                message: "needs ciphers and minTLSVersion with type Custom (OpenShift rejects a Custom profile without them); set both",
              },
            ];
      }
      return tls.ciphers || tls.minTLSVersion
        ? [
            {
              path,
              value: tls.type,
              message: `fixes its own ciphers and TLS version; ciphers and minTLSVersion go only with type Custom: remove them or use Custom`,
            },
          ]
        : [];
    },
  },
  {
    rule: "autoscaling.scaleDown only with scaling ScaleUpAndScaleDown",
    check: ({ spec, at }) =>
      spec.autoscaling?.scaleDown && spec.autoscaling.scaling === "ScaleUpOnly"
        ? [{ path: `${at}.autoscaling.scaleDown`, message: "can only be set when scaling is ScaleUpAndScaleDown (CRD); remove it or the scaling: ScaleUpOnly" }]
        : [],
  },
  {
    rule: "operatorHub.disabledSources not with olmDisableDefaultSources",
    check: ({ spec, at }) =>
      spec.operatorHub && spec.olmDisableDefaultSources
        ? [
            {
              path: `${at}.operatorHub.disabledSources`,
              message: "has no effect: olmDisableDefaultSources already switches off every default source; keep one of them",
            },
          ]
        : [],
  },
];
