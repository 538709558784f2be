import { DeploymentNames } from "../names";
import { OperatorBundle } from "../operator-bundle";
import { atLeast, releaseVersion } from "../release-version";
import type { HostedContext } from "./hosted-context";
import { ConfigIssue, Rule } from "./rule";

/**
 * Rules of signIn.mode ExternalOIDC (help/sign-in.md#external-oidc): one sign-in mode at a time
 * (type OIDC turns the OAuth server off, so OAuth identity providers would be ignored), the
 * release that has the feature, and what Entra or the API server would refuse.
 */

/** First OpenShift minor whose HyperShift cluster profile enables ExternalOIDC in the Default feature set (openshift/api features.go as vendored at hypershift release-4.16). */
export const EXTERNAL_OIDC_MIN_MINOR = 16;

/** The OAuth-mode keys refused with ExternalOIDC. */
const OAUTH_KEYS = ["entra", "breakGlass", "oauthHost"] as const;

export const EXTERNAL_OIDC_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "one sign-in mode at a time: OAuth identity providers or external OIDC",
    check: ({ spec, at }) => {
      const signIn = spec.signIn;
      if (!signIn) return [];
      if (signIn.mode === "OAuth") {
        return signIn.externalOIDC
          ? [
              {
                path: `${at}.signIn.externalOIDC`,
                message: "is read only with signIn.mode ExternalOIDC: set mode: ExternalOIDC (and remove entra and breakGlass), or remove externalOIDC",
              },
            ]
          : [];
      }
      const issues: ConfigIssue[] = OAUTH_KEYS.filter((key) => signIn[key] !== undefined).map((key) => ({
        path: `${at}.signIn.${key}`,
        message:
          "belongs to signIn.mode OAuth: with ExternalOIDC the cluster runs no OAuth server, so OAuth identity providers (and a break-glass htpasswd user) cannot sign anyone in; remove it or use mode OAuth",
      }));
      if (!signIn.externalOIDC)
        issues.push({ path: `${at}.signIn.externalOIDC`, message: "is required with signIn.mode ExternalOIDC: add externalOIDC: {} (Entra ID of tenantId)" });
      return issues;
    },
  },
  {
    rule: "external OIDC needs a release that has it, and the console",
    check: ({ spec, at }) => {
      if (spec.signIn?.mode !== "ExternalOIDC") return [];
      const issues: ConfigIssue[] = [];
      const version = releaseVersion(spec.releaseImage);
      if (version && !atLeast(version, 4, EXTERNAL_OIDC_MIN_MINOR)) {
        issues.push({
          path: `${at}.signIn.mode`,
          value: "ExternalOIDC",
          message: `needs OpenShift 4.${EXTERNAL_OIDC_MIN_MINOR} or later (releaseImage is ${version.major}.${version.minor}), whose hosted clusters enable the ExternalOIDC feature gate; use mode OAuth or a newer release`,
        });
      }
      if (spec.capabilities?.disabled?.includes("Console")) {
        issues.push({
          path: `${at}.signIn.mode`,
          value: "ExternalOIDC",
          message:
            "signs users in through the console's OIDC client, but capabilities.disabled has Console (and a missing console keeps the cluster version from completing with external OIDC); enable Console or use mode OAuth",
        });
      }
      return issues;
    },
  },
  {
    rule: "external OIDC: audiences unique, groups claim issued, issuer not the service-account issuer",
    check: (context) => externalOidcValueIssues(context),
  },
];

function externalOidcValueIssues({ cluster, spec, at }: HostedContext): ConfigIssue[] {
  const oidc = spec.signIn?.mode === "ExternalOIDC" ? spec.signIn.externalOIDC : undefined;
  if (!oidc) return [];
  const path = `${at}.signIn.externalOIDC`;
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  oidc.audiences.forEach((audience, i) => {
    if (seen.has(audience))
      issues.push({ path: `${path}.audiences[${i}]`, value: audience, message: "is listed twice (the CRD's audiences are a set); remove one" });
    seen.add(audience);
  });
  if (oidc.claimMappings.groups?.claim === "groups" && oidc.console.groupMembershipClaims === "None") {
    issues.push({
      path: `${path}.claimMappings.groups`,
      message:
        "reads the groups claim, but console.groupMembershipClaims is None, so Entra issues none and users get no groups; set groupMembershipClaims (e.g. SecurityGroup) or remove claimMappings.groups",
    });
  }
  if (oidc.issuerURL && oidc.issuerURL.replace(/\/+$/, "") === cluster.issuer.url.replace(/\/+$/, "")) {
    issues.push({
      path: `${path}.issuerURL`,
      value: oidc.issuerURL,
      message:
        "is the HostedCluster's own service-account issuer (spec.issuerURL), which HyperShift refuses as an OIDC provider; use Entra's issuer (remove issuerURL)",
    });
  }
  return issues;
}

/** Whether the bundle's HostedCluster CRD has a full schema without `spec.configuration.authentication.oidcProviders`. */
function crdLacksOidcProviders(bundle: OperatorBundle): boolean {
  const crd = bundle.objects.find(
    (o) => o.manifest.kind === "CustomResourceDefinition" && o.manifest.metadata.name === "hostedclusters.hypershift.openshift.io",
  );
  const versions = ((crd?.manifest.spec as { versions?: unknown[] } | undefined)?.versions ?? []) as Array<{ name?: string; schema?: any }>;
  const configuration = versions.find((v) => v.name === "v1beta1")?.schema?.openAPIV3Schema?.properties?.spec?.properties?.configuration;
  // An abridged CRD (no configuration properties) says nothing: only a full one can lack the field.
  return Boolean(configuration?.properties) && !configuration.properties.authentication?.properties?.oidcProviders;
}

/** External OIDC needs an operator whose HostedCluster CRD has oidcProviders (Default feature set: HyperShift release-4.18 and later). */
export function externalOidcBundleIssues(names: DeploymentNames, bundle: OperatorBundle): ConfigIssue[] {
  const users = names.clusters.filter((c) => c.hosted?.config.signIn?.mode === "ExternalOIDC");
  if (users.length === 0 || !crdLacksOidcProviders(bundle)) return [];
  return users.map((c) => ({
    path: `clusters[${c.index}].hostedCluster.signIn.mode`,
    value: "ExternalOIDC",
    message: `needs spec.configuration.authentication.oidcProviders, which the HostedCluster CRD of managementCluster.operator.bundleFile lacks: render the bundle with a hypershift CLI from release-4.18 or later (help/sign-in.md), or use mode OAuth`,
  }));
}
