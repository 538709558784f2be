import { TerraformOutput, TerraformStack } from "cdktf";
import { CLOUD_ENDPOINTS } from "../config/cloud";
import { ClusterNames } from "../config/names";
import { consoleCallbackUrl, ingressDomain, signInNames } from "../config/names/sign-in";
import { Config } from "../config/schema";
import { entraIssuer, SignInManifestProps } from "../constructs/hosted-cluster/sign-in";
import { SignInResources } from "../constructs/hosted-cluster/sign-in-resources";
import { configureAzuread } from "./azure-providers";

/** The console's redirect URI for `cluster`: its callback on the ingress domain the HostedCluster gets (names/sign-in.ts). */
export function consoleRedirectUriOf(cluster: ClusterNames): string {
  const hosted = cluster.hosted;
  if (!hosted) throw new Error(`internal: clusters[${cluster.index}] has no hostedCluster`);
  return consoleCallbackUrl(ingressDomain(cluster.name, hosted.config.baseDomain, hosted.config.ingress));
}

/**
 * signIn.mode ExternalOIDC in the cluster stack (help/sign-in.md#external-oidc): the console's
 * Entra application (redirect URI: the console's callback), its client secret in the write-only
 * Secret the console's OIDC client names, and the HostedCluster's `authentication`. As in OAuth
 * mode, the client secret stays in this stack's state. Outputs: the client ID and redirect URI.
 */
export function addExternalOidcSignIn(
  stack: TerraformStack,
  config: Pick<Config, "cloud" | "tenantId">,
  cluster: ClusterNames,
): { manifest?: SignInManifestProps; resources?: SignInResources } {
  const hosted = cluster.hosted;
  const oidc = hosted?.config.signIn?.externalOIDC;
  if (!hosted || !oidc) return {};
  const names = signInNames(cluster.name);
  const redirectUri = consoleRedirectUriOf(cluster);
  // The aroHcp cluster stack already has the azuread provider (control-plane principals).
  if (!stack.node.tryFindChild("azuread")) configureAzuread(stack, config);
  const resources = new SignInResources(stack, "SignIn", {
    namespace: hosted.namespace,
    entra: {
      displayName: oidc.console.displayName ?? names.consoleDisplayName,
      redirectUri,
      secretName: names.consoleClientSecret,
      groupMembershipClaims: oidc.console.groupMembershipClaims,
      appRoleAssignmentRequired: oidc.console.appRoleAssignmentRequired,
      clientSecretValidFor: oidc.console.clientSecretValidFor,
      clientSecretDisplayName: "OpenShift console",
    },
  });
  new TerraformOutput(stack, "sign_in_client_id", { value: resources.clientId, description: "Application (client) ID of the console's Entra application" });
  new TerraformOutput(stack, "sign_in_redirect_uri", {
    value: redirectUri,
    description: "Redirect URI of the console's Entra application: the console's callback",
  });
  return {
    resources,
    manifest: {
      externalOidc: {
        name: oidc.name,
        issuerURL: oidc.issuerURL ?? entraIssuer(CLOUD_ENDPOINTS[config.cloud].authorityHost, config.tenantId),
        consoleClientId: resources.clientId as string,
        extraAudiences: oidc.audiences,
        consoleClientSecretName: names.consoleClientSecret,
        username: oidc.claimMappings.username,
        groups: oidc.claimMappings.groups,
      },
    },
  };
}
