/**
 * `spec.configuration.authentication` of the HostedCluster for external OIDC (signIn.mode
 * ExternalOIDC, help/sign-in.md): the API server trusts the provider's tokens directly and the
 * OAuth server is not deployed. Rendered as the Default CRD has it (oidcProviders, at most one;
 * claimMappings.username with an explicit prefixPolicy; oidcClients keyed by namespace and
 * name). Pure: the console's client ID may be a Terraform reference, placed as given.
 */

/** Where the console runs: the key of its OIDC client (HyperShift's e2e and the console operator use it). */
export const CONSOLE_OIDC_CLIENT = { componentName: "console", componentNamespace: "openshift-console" } as const;

/** Scopes beyond `openid` the console requests: Entra puts `preferred_username` in the ID token only with `profile`, `email` only with `email`. */
export const CONSOLE_EXTRA_SCOPES = ["email", "profile"] as const;

export interface ExternalOidcManifestProps {
  /** oidcProviders[].name */
  readonly name: string;
  /** The issuer the tokens carry (`iss`). */
  readonly issuerURL: string;
  /** The console's client ID (first audience) and any other accepted audiences. */
  readonly consoleClientId: string;
  readonly extraAudiences: readonly string[];
  /** Secret in the HostedCluster's namespace (key `clientSecret`) that HyperShift copies to openshift-config. */
  readonly consoleClientSecretName: string;
  readonly username: { readonly claim: string; readonly prefix?: string };
  /** @default - no groups mapping */
  readonly groups?: { readonly claim: string; readonly prefix?: string };
}

/** `{ authentication }` for external OIDC. */
export function externalOidcConfiguration(props: ExternalOidcManifestProps): Record<string, unknown> {
  const username = props.username.prefix
    ? { claim: props.username.claim, prefixPolicy: "Prefix", prefix: { prefixString: props.username.prefix } }
    : { claim: props.username.claim, prefixPolicy: "NoPrefix" };
  return {
    authentication: {
      type: "OIDC",
      oidcProviders: [
        {
          name: props.name,
          issuer: { issuerURL: props.issuerURL, audiences: [props.consoleClientId, ...props.extraAudiences] },
          claimMappings: {
            username,
            ...(props.groups ? { groups: { claim: props.groups.claim, ...(props.groups.prefix ? { prefix: props.groups.prefix } : {}) } } : {}),
          },
          oidcClients: [
            {
              ...CONSOLE_OIDC_CLIENT,
              clientID: props.consoleClientId,
              clientSecret: { name: props.consoleClientSecretName },
              extraScopes: [...CONSOLE_EXTRA_SCOPES],
            },
          ],
        },
      ],
    },
  };
}
