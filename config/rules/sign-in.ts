import { publishedHost } from "../names/sign-in";
import type { HostedContext } from "./hosted-context";
import { ConfigIssue, Rule } from "./rule";
import { EXTERNAL_OIDC_RULES } from "./sign-in-oidc";

/**
 * Rules of hostedCluster.signIn (help/sign-in.md): what the OAuth server and Entra would refuse
 * or silently ignore. The CRD has no CEL rule on identityProviders (an atomic list; only
 * oauth.tokenConfig has one, not set here); the OAuth server ignores a provider whose name
 * another one has, and Entra refuses a sign-in whose redirect URI the application does not list.
 */
export const SIGN_IN_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "signIn configures at least one identity provider",
    check: ({ spec, at }) =>
      spec.signIn?.mode === "OAuth" && !spec.signIn.entra && !spec.signIn.breakGlass
        ? [{ path: `${at}.signIn`, message: "has neither entra nor breakGlass: add entra (Microsoft Entra ID sign-in) or breakGlass, or remove signIn" }]
        : [],
  },
  {
    rule: "identity provider names are unique",
    check: ({ spec, at }) => {
      const signIn = spec.signIn;
      if (!signIn?.entra || !signIn.breakGlass || signIn.entra.name !== signIn.breakGlass.name) return [];
      return [
        {
          path: `${at}.signIn.breakGlass.name`,
          value: signIn.breakGlass.name,
          message: `is also signIn.entra.name: each identity provider needs its own name (the OAuth server keys callbacks and identities by it); choose another`,
        },
      ];
    },
  },
  {
    rule: "the Entra redirect URI is the OAuth server's published host",
    check: (context) => oauthHostIssues(context),
  },
  ...EXTERNAL_OIDC_RULES,
];

/**
 * With an ExternalDNS zone the OAuth server is published at `oauth-<name>.<zone>` (Route or
 * LoadBalancer hostname), known now; signIn.oauthHost may only repeat it. Without one the host is
 * assigned on the management cluster (the Route's default host, or the load balancer's address),
 * unknown at plan time: signIn.oauthHost must name it.
 */
function oauthHostIssues({ cluster, hosted, spec, at }: HostedContext): ConfigIssue[] {
  const signIn = spec.signIn;
  if (!signIn?.entra || signIn.mode !== "OAuth") return [];
  const domain = hosted.externalDnsDomain;
  if (domain) {
    const published = publishedHost("oauth", cluster.name, domain);
    return signIn.oauthHost && signIn.oauthHost !== published
      ? [
          {
            path: `${at}.signIn.oauthHost`,
            value: signIn.oauthHost,
            message: `differs from ${published}, where the HostedCluster publishes its OAuth server (externalDns): Entra would redirect users elsewhere; remove oauthHost`,
          },
        ]
      : [];
  }
  if (signIn.oauthHost) return [];
  const how =
    spec.oauthPublishing === "LoadBalancer"
      ? "the OAuth load balancer's DNS name, which you point at its address"
      : `the host the management cluster's router gives the Route oauth in ${hosted.controlPlaneNamespace} (on an OpenShift management cluster: oauth-${hosted.controlPlaneNamespace}.<apps domain>)`;
  return [
    {
      path: `${at}.signIn.oauthHost`,
      message: `is required without externalDns: the OAuth server's host is assigned on the management cluster, not known at plan time; set it to ${how} (help/sign-in.md)`,
    },
  ];
}
