import { Application } from "@cdktf/provider-azuread/lib/application";
import { ApplicationFlexibleFederatedIdentityCredential } from "@cdktf/provider-azuread/lib/application-flexible-federated-identity-credential";
import { ServicePrincipal } from "@cdktf/provider-azuread/lib/service-principal";
import { FederatedIdentityCredential } from "@cdktf/provider-azurerm/lib/federated-identity-credential";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { UserAssignedIdentity } from "@cdktf/provider-azurerm/lib/user-assigned-identity";
import { Construct } from "constructs";
import { literal } from "../terraform-literal";

/** A string from the config or the command line, as Terraform must read it (a reference of ours is kept). */

/** The audience of Terraform Cloud's workload identity tokens (the default of TFC_AZURE_WORKLOAD_IDENTITY_AUDIENCE). */
export const TFC_AUDIENCE = "api://AzureADTokenExchange";

export interface RunIdentityProps {
  /** Name of the identity (or application): one per workspace. */
  readonly name: string;
  readonly resourceGroupName: string;
  readonly location: string;
  /** Token issuer, https://<host> without a trailing slash. */
  readonly issuer: string;
  /** The exact `sub` of the workspace's plan and apply runs. */
  readonly subjects: { readonly plan: string; readonly apply: string };
  /**
   * One Entra application with one flexible federated credential matching both run phases
   * (`claims['sub'] matches '<...>:run_phase:*'`), instead of a user-assigned managed identity with
   * two. Needs Microsoft Graph rights to create applications; HCP Terraform hosts only.
   * @default false
   */
  readonly flexible?: boolean;
  readonly roles: readonly { readonly role: string; readonly scope: string }[];
}

/**
 * The Azure identity a workspace's runs take through dynamic provider credentials: a user-assigned
 * managed identity trusting the workspace's plan and apply tokens (two federated credentials, the
 * second created after the first: Azure refuses concurrent writes to one identity's credentials
 * with 409), or an application with one flexible credential; and its role assignments. Every
 * string prop is written as a literal (constructs/terraform-literal.ts): a `${` in a subject
 * (organization and project names) is never evaluated.
 */
export class RunIdentity extends Construct {
  /** The client ID runs authenticate as (TFC_AZURE_RUN_CLIENT_ID). */
  readonly clientId: string;
  /** Federated credentials on this identity (at most 20 per identity in Entra). */
  readonly credentials: number;

  constructor(scope: Construct, id: string, props: RunIdentityProps) {
    super(scope, id);
    const principalId = props.flexible ? this.application(props) : this.managedIdentity(props);
    this.clientId = principalId.clientId;
    this.credentials = props.flexible ? 1 : 2;
    props.roles.forEach((grant, index) => {
      new RoleAssignment(this, `Role${index}`, {
        scope: literal(grant.scope),
        roleDefinitionName: literal(grant.role),
        principalId: principalId.objectId,
        // The new principal may not have replicated yet: the type skips the lookup that fails then.
        principalType: "ServicePrincipal",
      });
    });
  }

  private managedIdentity(props: RunIdentityProps): { clientId: string; objectId: string } {
    const identity = new UserAssignedIdentity(this, "Identity", {
      name: literal(props.name),
      resourceGroupName: literal(props.resourceGroupName),
      location: literal(props.location),
    });
    const plan = new FederatedIdentityCredential(this, "Plan", {
      name: "tfc-plan",
      parentId: identity.id,
      resourceGroupName: literal(props.resourceGroupName),
      issuer: literal(props.issuer),
      subject: literal(props.subjects.plan),
      audience: [TFC_AUDIENCE],
    });
    new FederatedIdentityCredential(this, "Apply", {
      name: "tfc-apply",
      parentId: identity.id,
      resourceGroupName: literal(props.resourceGroupName),
      issuer: literal(props.issuer),
      subject: literal(props.subjects.apply),
      audience: [TFC_AUDIENCE],
      dependsOn: [plan],
    });
    return { clientId: identity.clientId, objectId: identity.principalId };
  }

  private application(props: RunIdentityProps): { clientId: string; objectId: string } {
    const application = new Application(this, "Application", { displayName: literal(props.name) });
    const principal = new ServicePrincipal(this, "ServicePrincipal", { clientId: application.clientId });
    const common = props.subjects.plan.replace(/:run_phase:plan$/, ":run_phase:");
    if (!props.subjects.apply.startsWith(common)) throw new Error(`internal: ${props.name}: plan and apply subjects differ beyond the run phase`);
    // The subject is a single-quoted string of Entra's expression language: a quote or backslash would end or change it.
    if (/['\\]/.test(common)) throw new Error(`internal: ${props.name}: subject ${JSON.stringify(common)} holds a quote or backslash`);
    new ApplicationFlexibleFederatedIdentityCredential(this, "Runs", {
      applicationId: application.id,
      displayName: "tfc-runs",
      issuer: literal(props.issuer),
      audience: TFC_AUDIENCE,
      claimsMatchingExpression: literal(`claims['sub'] matches '${common}*'`),
    });
    return { clientId: application.clientId, objectId: principal.objectId };
  }
}
