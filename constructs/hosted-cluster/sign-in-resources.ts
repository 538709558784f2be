import { Application } from "@cdktf/provider-azuread/lib/application";
import { ApplicationPasswordA } from "@cdktf/provider-azuread/lib/application-password";
import { DataAzureadClientConfig } from "@cdktf/provider-azuread/lib/data-azuread-client-config";
import { ServicePrincipal } from "@cdktf/provider-azuread/lib/service-principal";
import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { Password } from "@cdktf/provider-random/lib/password";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { MANAGED_BY_LABELS } from "../kubernetes-constants";
import { escapeTemplates } from "../terraform-literal";
import { requireWriteOnlyArguments, warnWhileDataInState, writeOnlyRevision } from "../write-only/write-only";

/** Microsoft Graph and its delegated scopes openid, profile and email (what the OAuth server requests). */
export const MICROSOFT_GRAPH_APP_ID = "00000003-0000-0000-c000-000000000000";
export const GRAPH_SIGN_IN_SCOPES = {
  openid: "37f7f235-527c-4136-accd-4a02d197296e",
  profile: "14dad69e-099b-42c9-810b-d002981feec1",
  email: "64a6cdd6-aab1-4aaf-94b8-3cc8405e90d0",
} as const;

export interface EntraSignInAppProps {
  /** Display name of the application registration (1-120 characters). */
  readonly displayName: string;
  /** The OAuth server's callback `https://<oauth host>/oauth2callback/<idp name>` (sign-in.ts `oauthCallbackUrl`), or the console's (names/sign-in.ts `consoleCallbackUrl`). */
  readonly redirectUri: string;
  /** Secret (key `clientSecret`) the identity provider reads, in the HostedCluster's namespace. */
  readonly secretName: string;
  /** The application's groupMembershipClaims. @default "None" */
  readonly groupMembershipClaims?: string;
  /** Only assigned users and groups may sign in. @default false */
  readonly appRoleAssignmentRequired?: boolean;
  /** Lifetime of the client secret, e.g. `8760h`. @default "8760h" */
  readonly clientSecretValidFor?: string;
  /** Display name of the client secret (who uses it). @default "OpenShift OAuth server" */
  readonly clientSecretDisplayName?: string;
}

export interface SignInResourcesProps {
  /** Namespace of the HostedCluster (the Secrets go there: HyperShift copies them to the guest). */
  readonly namespace: string;
  /** @default - no Entra application */
  readonly entra?: EntraSignInAppProps;
  /** The break-glass htpasswd user and the Secret (key `htpasswd`) of its provider. @default - none */
  readonly breakGlass?: { readonly user: string; readonly secretName: string };
}

/**
 * What users sign in with (help/sign-in.md): the Entra application registration whose redirect
 * URI is the cluster's OAuth callback, its service principal and client secret, and the Secret
 * holding that client secret; and the break-glass user's generated password and htpasswd Secret.
 * Both Secrets are written write-only (`data_wo` and its revision): the values reach the
 * management cluster but never the synthesized JSON, plan or this stack's Secret state. The
 * client secret itself is in the state of azuread_application_password, and the break-glass
 * password in random_password's: both are sensitive in state.
 */
export class SignInResources extends Construct {
  /** Application (client) ID of the Entra application (Terraform reference). */
  public readonly clientId?: string;
  /** The break-glass user's password (sensitive Terraform reference). */
  public readonly breakGlassPassword?: string;
  /** The Secrets the HostedCluster refers to: it waits for them. */
  public readonly secrets: SecretV1[] = [];

  constructor(scope: Construct, id: string, props: SignInResourcesProps) {
    super(scope, id);
    const secret = (secretId: string, name: string, data: Record<string, string>) => {
      const written = new SecretV1(this, secretId, {
        metadata: { name, namespace: props.namespace, labels: { ...MANAGED_BY_LABELS } },
        type: "Opaque",
        dataWo: data,
        dataWoRevision: writeOnlyRevision(name, data),
      });
      warnWhileDataInState(written);
      this.secrets.push(written);
    };
    if (props.entra) {
      const entra = props.entra;
      const { application, password } = this.entraApplication(entra);
      this.clientId = application.clientId;
      secret("EntraClientSecret", entra.secretName, { clientSecret: password.value });
    }
    if (props.breakGlass) {
      // bcrypt, as `htpasswd -B`: the OAuth server reads bcrypt htpasswd files.
      const generated = new Password(this, "BreakGlassPassword", { length: 32, special: false });
      this.breakGlassPassword = generated.result;
      secret("BreakGlassHtpasswd", props.breakGlass.secretName, { htpasswd: Fn.join(":", [props.breakGlass.user, generated.bcryptHash]) });
    }
    if (this.secrets.length > 0) requireWriteOnlyArguments(this);
  }

  /** The application registration (web redirect URI, ID token claims, Graph sign-in scopes), its service principal and client secret. */
  private entraApplication(entra: EntraSignInAppProps): { application: Application; password: ApplicationPasswordA } {
    if (entra.displayName.length === 0 || entra.displayName.length > 120)
      throw new Error(`${this.node.id}: displayName "${entra.displayName}" must be 1-120 characters`);
    const deployer = new DataAzureadClientConfig(this, "Deployer", {});
    const groups = entra.groupMembershipClaims ?? "None";
    const application = new Application(this, "Application", {
      displayName: escapeTemplates(entra.displayName) as string,
      owners: [deployer.objectId],
      signInAudience: "AzureADMyOrg",
      preventDuplicateNames: true,
      web: {
        redirectUris: [escapeTemplates(entra.redirectUri) as string],
        implicitGrant: { idTokenIssuanceEnabled: false, accessTokenIssuanceEnabled: false },
      },
      groupMembershipClaims: [groups],
      // email and preferred_username as ID token claims: the OAuth server reads the ID token.
      optionalClaims: { idToken: [{ name: "email" }, { name: "preferred_username" }] },
      requiredResourceAccess: [
        { resourceAppId: MICROSOFT_GRAPH_APP_ID, resourceAccess: Object.values(GRAPH_SIGN_IN_SCOPES).map((scopeId) => ({ id: scopeId, type: "Scope" })) },
      ],
    });
    new ServicePrincipal(this, "ServicePrincipal", {
      clientId: application.clientId,
      owners: [deployer.objectId],
      appRoleAssignmentRequired: entra.appRoleAssignmentRequired ?? false,
    });
    const password = new ApplicationPasswordA(this, "ClientSecret", {
      applicationId: application.id,
      displayName: entra.clientSecretDisplayName ?? "OpenShift OAuth server",
      endDateRelative: entra.clientSecretValidFor ?? "8760h",
      lifecycle: { createBeforeDestroy: true },
    });
    return { application, password };
  }
}
