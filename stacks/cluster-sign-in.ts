import { TerraformOutput, TerraformStack } from "cdktf";
import { CLOUD_ENDPOINTS } from "../config/cloud";
import { ClusterNames } from "../config/names";
import { publishedHost, signInNames } from "../config/names/sign-in";
import { Config } from "../config/schema";
import { entraIssuer, oauthCallbackUrl, SignInManifestProps } from "../constructs/hosted-cluster/sign-in";
import { SignInResources } from "../constructs/hosted-cluster/sign-in-resources";
import { configureAzuread } from "./azure-providers";
import { addExternalOidcSignIn } from "./cluster-sign-in-oidc";

/** What the cluster stack passes on: the HostedCluster's identity providers and the Secrets it waits for. */
export interface ClusterSignIn {
  readonly manifest?: SignInManifestProps;
  readonly resources?: SignInResources;
}

/**
 * The OAuth server's host for the Entra redirect URI: signIn.oauthHost, else the name the
 * HostedCluster publishes it at (`publishedHost`, the same function `services` is written with).
 * Without either, the rules (config/rules/sign-in.ts) have refused the config.
 */
export function oauthHostOf(cluster: ClusterNames): string {
  const hosted = cluster.hosted;
  const configured = hosted?.config.signIn?.oauthHost;
  if (configured) return configured;
  if (!hosted?.externalDnsDomain) throw new Error(`internal: clusters[${cluster.index}].hostedCluster.signIn needs oauthHost (config rules)`);
  return publishedHost("oauth", cluster.name, hosted.externalDnsDomain);
}

/**
 * hostedCluster.signIn in the cluster stack: the Entra application, its client secret and the
 * Secrets live here, with the HostedCluster that reads them, so the client secret never crosses
 * stacks (no remote-state output holds it). Outputs: the client ID, the redirect URI and the
 * break-glass password (sensitive).
 */
export function addClusterSignIn(stack: TerraformStack, config: Pick<Config, "cloud" | "tenantId">, cluster: ClusterNames): ClusterSignIn {
  const hosted = cluster.hosted;
  const signIn = hosted?.config.signIn;
  if (signIn?.mode === "ExternalOIDC") return addExternalOidcSignIn(stack, config, cluster);
  if (!hosted || !signIn || (!signIn.entra && !signIn.breakGlass)) return {};
  const names = signInNames(cluster.name);
  const redirectUri = signIn.entra && oauthCallbackUrl(oauthHostOf(cluster), signIn.entra.name);
  // The aroHcp cluster stack already has the azuread provider (control-plane principals).
  if (signIn.entra && !stack.node.tryFindChild("azuread")) configureAzuread(stack, config);
  const resources = new SignInResources(stack, "SignIn", {
    namespace: hosted.namespace,
    entra: signIn.entra && {
      displayName: signIn.entra.displayName ?? names.entraDisplayName,
      redirectUri: redirectUri as string,
      secretName: names.entraClientSecret,
      groupMembershipClaims: signIn.entra.groupMembershipClaims,
      appRoleAssignmentRequired: signIn.entra.appRoleAssignmentRequired,
      clientSecretValidFor: signIn.entra.clientSecretValidFor,
    },
    breakGlass: signIn.breakGlass && { user: signIn.breakGlass.user, secretName: names.breakGlassHtpasswd },
  });
  const entra = signIn.entra;
  const manifest: SignInManifestProps = {
    entra: entra && {
      name: entra.name,
      issuer: entraIssuer(CLOUD_ENDPOINTS[config.cloud].authorityHost, config.tenantId),
      clientId: resources.clientId as string,
      clientSecretName: names.entraClientSecret,
      mappingMethod: entra.mappingMethod,
      claims: entra.claims,
      groupsClaim: entra.groupMembershipClaims !== "None",
    },
    breakGlass: signIn.breakGlass && { name: signIn.breakGlass.name, secretName: names.breakGlassHtpasswd },
  };
  if (entra) {
    new TerraformOutput(stack, "sign_in_client_id", { value: resources.clientId, description: "Application (client) ID of the Entra sign-in application" });
    new TerraformOutput(stack, "sign_in_redirect_uri", {
      value: redirectUri,
      description: "Redirect URI of the Entra sign-in application: the OAuth server's callback",
    });
  }
  if (resources.breakGlassPassword) {
    new TerraformOutput(stack, "break_glass_password", {
      value: resources.breakGlassPassword,
      sensitive: true,
      description: `Password of the break-glass user ${signIn.breakGlass?.user}: terraform output -raw break_glass_password`,
    });
  }
  return { manifest, resources };
}
