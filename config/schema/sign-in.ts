import { z } from "zod";
import { hours } from "./primitives";
import { externalOidcSchema } from "./sign-in-oidc";

/**
 * `clusters[].hostedCluster.signIn`: how users sign in to the hosted cluster (help/sign-in.md).
 * OAuth mode: the cluster's integrated OAuth server with Microsoft Entra ID as an OpenID
 * identity provider, and an optional break-glass htpasswd user (rules: rules/sign-in.ts);
 * ExternalOIDC mode: the API server trusts Entra directly (sign-in-oidc.ts, rules/sign-in-oidc.ts).
 */

/** An identity provider name: it is the last segment of the callback URL and the prefix of identities. */
const idpName = (fallback: string) =>
  z
    .string()
    .regex(/^[a-zA-Z0-9][-a-zA-Z0-9_.]{0,62}$/, {
      error: "must be 1-63 letters, digits, '-', '_' or '.', starting with a letter or digit (it is a URL path segment)",
    })
    .default(fallback);

/** How an identity maps to an OpenShift user (the IdP's `mappingMethod`). */
const mappingMethod = z
  .enum(["claim", "lookup", "add", "generate"])
  .default("claim")
  .describe("mappingMethod: claim (a user per identity; sign-in fails if the user name is taken by another IdP), lookup, add or generate.");

const claimList = (fallback: string) => z.array(z.string().min(1)).min(1).default([fallback]);

export const entraSignInSchema = z
  .strictObject({
    name: idpName("entra").describe("Identity provider name (shown on the login page; the callback is https://<oauth host>/oauth2callback/<name>)."),
    displayName: z.string().min(1).max(120).optional().describe("Display name of the Entra application registration. Default: <cluster> OpenShift sign-in."),
    mappingMethod,
    claims: z
      .strictObject({
        preferredUsername: claimList("preferred_username").describe("Claims that give the user name, first non-empty wins."),
        email: claimList("email").describe("Claims that give the email address."),
        name: claimList("name").describe("Claims that give the display name."),
      })
      .default({ preferredUsername: ["preferred_username"], email: ["email"], name: ["name"] })
      .describe("ID token claims read by the OAuth server."),
    groupMembershipClaims: z
      .enum(["None", "SecurityGroup", "ApplicationGroup", "DirectoryRole", "All"])
      .default("None")
      .describe(
        "Groups Entra puts in the groups claim (the application's groupMembershipClaims); anything but None also syncs the claim groups as OpenShift groups (object IDs, not names).",
      ),
    appRoleAssignmentRequired: z
      .boolean()
      .default(false)
      .describe("Only users and groups assigned to the enterprise application may sign in (its service principal's appRoleAssignmentRequired)."),
    clientSecretValidFor: hours("8760h").default("8760h").describe("Lifetime of the Entra client secret; re-apply before it ends to rotate it."),
  })
  .describe("Microsoft Entra ID as an OpenID identity provider: the application registration, its client secret and the Secret the IdP reads.");

export const breakGlassSchema = z
  .strictObject({
    name: idpName("break-glass").describe("Identity provider name of the htpasswd provider."),
    user: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9_.]{0,62})$/, { error: "must be 1-63 lowercase letters, digits, '-', '_' or '.', starting with a letter or digit" })
      .default("break-glass")
      .describe("User name of the break-glass user."),
  })
  .describe("An htpasswd identity provider with one user and a generated password (output break_glass_password, sensitive), for when Entra is unavailable.");

export const signInSchema = z
  .strictObject({
    mode: z
      .enum(["OAuth", "ExternalOIDC"])
      .default("OAuth")
      .describe(
        "OAuth: the cluster's integrated OAuth server (spec.configuration.oauth) with entra and breakGlass. ExternalOIDC: the API server trusts Entra's tokens (spec.configuration.authentication type OIDC) as externalOIDC says; no OAuth server, no break-glass user.",
      ),
    oauthHost: z
      .string()
      .max(253)
      .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?\.)+[a-z]{2,}$/, { error: "must be a lowercase DNS name such as oauth-clusters-demo.apps.mgmt.example.com" })
      .optional()
      .describe(
        "Host name of the OAuth server, for the Entra redirect URI. Default: oauth-<name>.<externalDns zone>, the name the HostedCluster publishes; required without externalDns, where the host is assigned on the management cluster (help/sign-in.md).",
      ),
    entra: entraSignInSchema.optional(),
    breakGlass: breakGlassSchema.optional(),
    externalOIDC: externalOidcSchema.optional(),
  })
  .describe("Sign-in with Microsoft Entra ID (and an optional break-glass user), created as code (help/sign-in.md). Default: none, only the admin kubeconfig.");

export type SignInConfig = z.output<typeof signInSchema>;
