import { z } from "zod";
import { hours } from "./primitives";

/**
 * `clusters[].hostedCluster.signIn.externalOIDC` (signIn.mode ExternalOIDC, help/sign-in.md): the
 * API server trusts Microsoft Entra ID's tokens directly (HostedCluster
 * `spec.configuration.authentication`, type OIDC), with no OAuth server; the console signs users
 * in as an Entra application created for it. Checked with the CRD's rules
 * (hostedclusters-Hypershift-Default.crd.yaml `oidcProviders`); rules across keys: rules/sign-in-oidc.ts.
 */

/** An issuer URL: https, no query, fragment or user info (CRD), no space, quote or angle bracket (not URL characters). */
export const ISSUER_URL = /^https:\/\/[^\s/?#@"'<>`]+(\/[^\s?#@"'<>`]*)?$/;

/** The CRD's issuerURL rules: https, no query, no fragment, no user info, at most 512 characters. */
const issuerUrl = z.string().max(512).regex(ISSUER_URL, {
  error: "must be an https URL without query, fragment or user info (CRD), such as https://login.microsoftonline.com/<tenant>/v2.0",
});

const claimName = z.string().min(1).max(256);

/** A prefix the API server puts before the claim's value (CRD: a non-empty prefixString). */
const prefix = z.string().min(1).max(256);

export const externalOidcSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-zA-Z0-9][-a-zA-Z0-9_.]{0,62}$/, { error: "must be 1-63 letters, digits, '-', '_' or '.', starting with a letter or digit" })
      .default("entra")
      .describe("Name of the OIDC provider (oidcProviders[].name)."),
    issuerURL: issuerUrl
      .optional()
      .describe(
        "Issuer the API server trusts (issuer.issuerURL): the iss of the tokens. Default: https://<authority host>/<tenantId>/v2.0, Entra's v2.0 issuer of this tenant.",
      ),
    audiences: z
      .array(z.string().min(1))
      .max(9)
      .default([])
      .describe(
        "Audiences accepted besides the console application's client ID, which is always first (issuer.audiences, at most 10 in all): e.g. the client ID of a public application for oc login --exec-plugin=oc-oidc.",
      ),
    claimMappings: z
      .strictObject({
        username: z
          .strictObject({
            claim: claimName.default("preferred_username").describe("Token claim that gives the user name."),
            prefix: prefix.optional().describe("Prefix before the user name (prefixPolicy Prefix). Default: none (prefixPolicy NoPrefix)."),
          })
          .default({ claim: "preferred_username" })
          .describe("claimMappings.username. Default: preferred_username (the UPN), no prefix."),
        groups: z
          .strictObject({
            claim: claimName.default("groups").describe("Token claim that lists the groups."),
            prefix: prefix.optional().describe("Prefix before each group name, e.g. 'entra:'. Default: none."),
          })
          .optional()
          .describe("claimMappings.groups: the user's groups from a claim (Entra: group object IDs, with console.groupMembershipClaims). Default: no groups."),
      })
      .default({ username: { claim: "preferred_username" } })
      .describe("How tokens map to Kubernetes users and groups (claimMappings)."),
    console: z
      .strictObject({
        displayName: z
          .string()
          .min(1)
          .max(120)
          .optional()
          .describe("Display name of the console's Entra application registration. Default: <cluster> OpenShift console."),
        groupMembershipClaims: z
          .enum(["None", "SecurityGroup", "ApplicationGroup", "DirectoryRole", "All"])
          .default("None")
          .describe("Groups Entra puts in the tokens' groups claim (the application's groupMembershipClaims); claimMappings.groups reads them."),
        appRoleAssignmentRequired: z.boolean().default(false).describe("Only users and groups assigned to the console's enterprise application may sign in."),
        clientSecretValidFor: hours("8760h").default("8760h").describe("Lifetime of the console's client secret; re-apply before it ends to rotate it."),
      })
      .default({ groupMembershipClaims: "None", appRoleAssignmentRequired: false, clientSecretValidFor: "8760h" })
      .describe(
        "The console's OIDC client (oidcClients console/openshift-console): an Entra application registration whose redirect URI is the console's callback, its client secret in a write-only Secret.",
      ),
  })
  .describe(
    "External OIDC with Microsoft Entra ID (signIn.mode ExternalOIDC): spec.configuration.authentication type OIDC, no OAuth server (help/sign-in.md).",
  );

export type ExternalOidcConfig = z.output<typeof externalOidcSchema>;
