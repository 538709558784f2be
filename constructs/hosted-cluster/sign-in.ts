import { ExternalOidcManifestProps, externalOidcConfiguration } from "./sign-in-oidc";

/**
 * `spec.configuration.oauth` of the HostedCluster: the identity providers users sign in with
 * (help/sign-in.md), or `authentication` for external OIDC (sign-in-oidc.ts). Pure, as
 * hosted-cluster-manifest.ts: the client ID may be a Terraform reference, placed as given. Only
 * these keys: other `configuration` keys have their own hooks.
 */

/** Microsoft Entra ID as an OpenID identity provider. */
export interface EntraIdentityProvider {
  /** Identity provider name: the callback path segment and the identities' prefix. */
  readonly name: string;
  /** `https://<authority host>/<tenant>/v2.0`: {@link entraIssuer}. */
  readonly issuer: string;
  /** Application (client) ID of the Entra application registration. */
  readonly clientId: string;
  /** Secret in the HostedCluster's namespace holding the client secret under the key `clientSecret`. */
  readonly clientSecretName: string;
  /** `claim`, `lookup`, `add` or `generate`. */
  readonly mappingMethod: string;
  readonly claims: { readonly preferredUsername: readonly string[]; readonly email: readonly string[]; readonly name: readonly string[] };
  /** Sync the `groups` claim as OpenShift groups. @default false */
  readonly groupsClaim?: boolean;
}

/** An htpasswd identity provider (the break-glass user). */
export interface HtpasswdIdentityProvider {
  readonly name: string;
  /** Secret in the HostedCluster's namespace holding the htpasswd file under the key `htpasswd`. */
  readonly secretName: string;
}

/** How users sign in (OAuth mode: the integrated OAuth server; or external OIDC). */
export interface SignInManifestProps {
  /** External OIDC instead of OAuth identity providers. @default - OAuth mode */
  readonly externalOidc?: ExternalOidcManifestProps;
  /** @default - no Entra provider */
  readonly entra?: EntraIdentityProvider;
  /** @default - no break-glass provider */
  readonly breakGlass?: HtpasswdIdentityProvider;
}

/**
 * Scopes beyond `openid` the OAuth server requests: Entra's v2.0 ID token carries
 * `preferred_username` and `name` only with `profile`, and `email` only with `email`.
 */
export const ENTRA_EXTRA_SCOPES = ["email", "profile"] as const;

/** Entra's OpenID issuer for `tenantId` at `authorityHost` (with trailing slash, config/cloud.ts). */
export function entraIssuer(authorityHost: string, tenantId: string): string {
  return `${authorityHost.replace(/\/+$/, "")}/${tenantId}/v2.0`;
}

/**
 * The OAuth server's callback for identity provider `idpName` at `oauthHost`: the redirect URI
 * the Entra application must list (HyperShift's `status.oauthCallbackURLTemplate` is
 * `https://<oauth host>/oauth2callback/[identity-provider-name]`, hostedcontrolplane_controller.go).
 */
export function oauthCallbackUrl(oauthHost: string, idpName: string): string {
  return `https://${oauthHost}/oauth2callback/${idpName}`;
}

/** `spec.configuration` keys of sign-in: `{ authentication }` (external OIDC), `{ oauth }`, or nothing without providers. */
export function signInConfiguration(props: SignInManifestProps | undefined): Record<string, unknown> {
  if (props?.externalOidc) return externalOidcConfiguration(props.externalOidc);
  const providers: Record<string, unknown>[] = [];
  if (props?.entra) providers.push(entraProvider(props.entra));
  if (props?.breakGlass) {
    providers.push({ name: props.breakGlass.name, type: "HTPasswd", mappingMethod: "claim", htpasswd: { fileData: { name: props.breakGlass.secretName } } });
  }
  return providers.length > 0 ? { oauth: { identityProviders: providers } } : {};
}

function entraProvider(entra: EntraIdentityProvider): Record<string, unknown> {
  return {
    name: entra.name,
    type: "OpenID",
    mappingMethod: entra.mappingMethod,
    openID: {
      issuer: entra.issuer,
      clientID: entra.clientId,
      clientSecret: { name: entra.clientSecretName },
      extraScopes: [...ENTRA_EXTRA_SCOPES],
      claims: {
        preferredUsername: [...entra.claims.preferredUsername],
        email: [...entra.claims.email],
        name: [...entra.claims.name],
        ...(entra.groupsClaim ? { groups: ["groups"] } : {}),
      },
    },
  };
}
