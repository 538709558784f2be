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
}

export function signInNames(clusterName: string): SignInNames {
  return {
    entraClientSecret: `${clusterName}-entra-client-secret`,
    breakGlassHtpasswd: `${clusterName}-break-glass-htpasswd`,
    entraDisplayName: `${clusterName} OpenShift sign-in`,
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
