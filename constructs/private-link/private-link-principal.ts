import { Application } from "@cdktf/provider-azuread/lib/application";
import { ApplicationPasswordA } from "@cdktf/provider-azuread/lib/application-password";
import { ServicePrincipal } from "@cdktf/provider-azuread/lib/service-principal";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { addSecretPrincipal } from "../entra/secret-principal";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { functionArgument, literal } from "../terraform-literal";

export interface PrivateLinkPrincipalProps {
  /** Display name of the Entra application and its service principal. */
  readonly displayName: string;
  /** Entra tenant ID (written into the credentials file). */
  readonly tenantId: string;
  /** Subscription of the management cluster: the operator's Private Link clients work only there (credentials file `subscriptionId`). */
  readonly subscriptionId: string;
  /**
   * ARM IDs the principal gets Network Contributor on: the management cluster's resource group
   * (--azure-pls-resource-group: the internal load balancer and the Private Link Services), and each
   * NAT subnet's VNet or subnet outside it (joining a subnet needs `subnets/join/action` there).
   * Duplicates (case-insensitive) are granted once.
   */
  readonly networkContributorScopes: readonly string[];
  /** Absolute expiry of the client secret (RFC 3339). Not together with `passwordValidFor`. @default - see passwordValidFor */
  readonly passwordEndDate?: string;
  /** Lifetime of the client secret from its creation, e.g. `8760h`. @default "8760h" (one year) unless passwordEndDate is set */
  readonly passwordValidFor?: string;
  /** Any value; changing it replaces the client secret. @default - no rotation key */
  readonly passwordRotation?: string;
  /**
   * Make Terraform refuse to destroy the application and service principal: the operator's
   * finalizers need them until every private HostedCluster is gone. The password stays unprotected.
   * @default true
   */
  readonly preventDestroy?: boolean;
}

/**
 * The service principal the HyperShift operator uses to manage Private Link Services
 * (`hypershift install --azure-private-creds`; notes `hypershift-azure-options.md` §1.4, §1.6). Its
 * rights: Network Contributor on the management cluster's resource group, where the operator
 * lists load balancers and creates, updates and deletes the Private Link Services and rejects
 * their endpoint connections, and on the NAT subnets' VNets (or subnets) outside it. The NAT
 * subnets are always given (config rules), so it never needs to create one. The client secret
 * lives only in Terraform state: `credentialsJson` refers to it and is meant for a sensitive output.
 */
export class PrivateLinkPrincipal extends Construct {
  public readonly application: Application;
  public readonly servicePrincipal: ServicePrincipal;
  public readonly password: ApplicationPasswordA;
  public readonly roleAssignments: readonly RoleAssignment[];
  /** The credentials file the operator reads (`resolveAzureCredentials`): subscriptionId, tenantId, clientId, clientSecret. Sensitive. */
  public readonly credentialsJson: string;

  constructor(scope: Construct, id: string, props: PrivateLinkPrincipalProps) {
    super(scope, id);
    validate(props);
    ({
      application: this.application,
      servicePrincipal: this.servicePrincipal,
      password: this.password,
    } = addSecretPrincipal(this, {
      displayName: props.displayName,
      passwordName: "hypershift-private-link",
      passwordEndDate: props.passwordEndDate,
      passwordValidFor: props.passwordValidFor,
      passwordRotation: props.passwordRotation,
      preventDestroy: props.preventDestroy,
    }));

    const scopes = props.networkContributorScopes.filter((scope, i, all) => all.findIndex((other) => other.toLowerCase() === scope.toLowerCase()) === i);
    const role = BUILT_IN_ROLES.networkContributor;
    this.roleAssignments = scopes.map(
      (scope) =>
        // The ID names the scope's last two segments (resourceGroups/<rg>, virtualNetworks/<vnet>, subnets/<s>): stable per scope.
        new RoleAssignment(this, `NetworkContributor-${scope.split("/").slice(-2).join("-")}`, {
          // Scopes come from the config (NAT subnet and VNet IDs): literals, never templates.
          name: Fn.uuidv5("url", `${functionArgument(scope)}/${role.guid}/${this.servicePrincipal.objectId}`),
          scope: literal(scope),
          roleDefinitionId: roleDefinitionId(props.subscriptionId, role),
          principalId: this.servicePrincipal.objectId,
          principalType: "ServicePrincipal",
          skipServicePrincipalAadCheck: true,
        }),
    );

    // Terraform's jsonencode escapes the secret; the rest are validated IDs.
    this.credentialsJson = [
      "{",
      `  "subscriptionId": "${props.subscriptionId}",`,
      `  "tenantId": "${props.tenantId}",`,
      `  "clientId": "${this.application.clientId}",`,
      `  "clientSecret": ${Fn.jsonencode(this.password.value)}`,
      "}",
      "",
    ].join("\n");
  }
}

function validate(props: PrivateLinkPrincipalProps): void {
  const problems: string[] = [];
  if (props.passwordValidFor !== undefined && !/^[1-9]\d*h$/.test(props.passwordValidFor)) {
    problems.push(`passwordValidFor "${props.passwordValidFor}" must be a whole number of hours such as 8760h`);
  }
  if (props.networkContributorScopes.length === 0) problems.push("networkContributorScopes must name the management cluster's resource group");
  for (const scope of props.networkContributorScopes) {
    if (
      !/^\/subscriptions\/[0-9a-fA-F-]{36}\/resourceGroups\/[^/]+(\/providers\/Microsoft\.Network\/virtualNetworks\/[^/]+(\/subnets\/[^/]+)?)?$/.test(scope)
    ) {
      problems.push(`scope "${scope}" must be a resource group, VNet or subnet ARM ID`);
    }
  }
  if (problems.length > 0) throw new Error(`PrivateLinkPrincipal: ${problems.join("; ")}`);
}
