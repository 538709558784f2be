/**
 * Names of a hosted cluster's sign-in objects (hostedCluster.signIn, help/sign-in.md): the
 * Secrets the identity providers read, in the HostedCluster's namespace, and the Entra
 * application's default display name.
 */
export interface SignInNames {
  /** Secret (key `clientSecret`) of the Entra identity provider. */
  readonly entraClientSecret: string;
  /** Secret (key `htpasswd`) of the break-glass identity provider. */
  readonly breakGlassHtpasswd: string;
  /** Display name of the Entra application registration, unless signIn.entra.displayName. */
  readonly entraDisplayName: string;
  /** Secret (key `clientSecret`) of the console's OIDC client (signIn.mode ExternalOIDC). */
  readonly consoleClientSecret: string;
  /** Display name of the console's Entra application, unless signIn.externalOIDC.console.displayName. */
  readonly consoleDisplayName: string;
}

export function signInNames(clusterName: string): SignInNames {
  return {
    entraClientSecret: `${clusterName}-entra-client-secret`,
    breakGlassHtpasswd: `${clusterName}-break-glass-htpasswd`,
    entraDisplayName: `${clusterName} OpenShift sign-in`,
    consoleClientSecret: `${clusterName}-console-oidc-client-secret`,
    consoleDisplayName: `${clusterName} OpenShift console`,
  };
}

/**
 * The host name a control-plane service is published at with an ExternalDNS domain:
 * `<host>-<cluster>.<domain>` (the CLI's `--external-dns-domain`, notes §1.3). The one source of
 * the OAuth host: the HostedCluster's OAuthServer hostname (constructs/hosted-cluster/endpoint-access.ts),
 * the Entra redirect URI (stacks/cluster-sign-in.ts) and the signIn.oauthHost rule all come from here.
 */
export function publishedHost(host: "api" | "oauth" | "konnectivity" | "ignition", name: string, externalDnsDomain: string): string {
  return `${host}-${name}.${externalDnsDomain}`;
}

/**
 * The hosted cluster's ingress domain as HyperShift computes it (`IngressDomain` in
 * support/globalconfig/ingress.go, openshift/hypershift@3ee9615): ingress.appsDomain, else
 * ingress.domain, else `apps.<HostedCluster name>.<baseDomain>` (no baseDomainPrefix here).
 */
export function ingressDomain(name: string, baseDomain: string, ingress?: { readonly domain?: string; readonly appsDomain?: string }): string {
  return ingress?.appsDomain || ingress?.domain || `apps.${name}.${baseDomain}`;
}

/**
 * The console's sign-in callback with external OIDC: `https://console-openshift-console.<ingress
 * domain>/auth/callback`, the redirect URI its OIDC client must list (the console route's default
 * host; HyperShift's own e2e registers the same, test/e2e/v2/lifecycle/azure.go). The one source
 * of the console application's redirect URI and of its test against the HostedCluster's spec.
 */
export function consoleCallbackUrl(domain: string): string {
  return `https://console-openshift-console.${domain}/auth/callback`;
}
