import { Application } from "@cdktf/provider-azuread/lib/application";
import { ApplicationPasswordA } from "@cdktf/provider-azuread/lib/application-password";
import { ServicePrincipal } from "@cdktf/provider-azuread/lib/service-principal";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { addSecretPrincipal } from "../entra/secret-principal";
import { BUILT_IN_ROLES, BuiltInRole, roleDefinitionId } from "../../config/azure-roles";
import { functionArgument } from "../terraform-literal";

/** Which roles the principal gets (see `ExternalDnsPrincipalProps.roles`). */
export type ExternalDnsRoles = "leastPrivilege" | "seed";

export interface ExternalDnsPrincipalProps {
  /** Display name of the Entra application and its service principal. */
  readonly displayName: string;
  /** Entra tenant ID (written into the credentials file). */
  readonly tenantId: string;
  /** Subscription of the zone (credentials file, role definition IDs). */
  readonly subscriptionId: string;
  /**
   * ARM ID of the public DNS zone ExternalDNS writes to, the scope of the zone's assignments: a
   * reference orders them after the zone; an adopted assignment needs the exact string it was
   * created with (a scope change forces a replacement).
   */
  readonly zoneId: string;
  /**
   * Azure cloud, the credentials file's `cloud` (ExternalDNS picks the authority host and ARM
   * endpoint by it: provider/azure/config.go).
   * @default "AzurePublicCloud" - not written (ExternalDNS's default)
   */
  readonly cloud?: string;
  /** Name of the zone's resource group (the credentials file's `resourceGroup`). */
  readonly zoneResourceGroupName: string;
  /** ARM ID of the zone's resource group (scope of Reader with `leastPrivilege`). */
  readonly zoneResourceGroupId: string;
  /**
   * `leastPrivilege`: DNS Zone Contributor on the zone, plus Reader on the zone's resource group,
   * because ExternalDNS lists zones with ListByResourceGroup (kubernetes-sigs/external-dns
   * provider/azure/azure.go), an RG-scope read; external-dns#1973 shows that call's 403. Whether a
   * zone-scoped grant is enough for that list is not verified (no Azure here). `seed`: Reader and
   * Contributor on the zone, exactly as seed 004 and HyperShift's setup_external_dns.sh.
   * @default "leastPrivilege"
   */
  readonly roles?: ExternalDnsRoles;
  /**
   * Absolute expiry of the client secret (RFC 3339). Not together with `passwordValidFor`.
   * @default - see passwordValidFor
   */
  readonly passwordEndDate?: string;
  /**
   * Lifetime of the client secret from its creation, e.g. `8760h`.
   * @default "8760h" (one year) unless passwordEndDate is set
   */
  readonly passwordValidFor?: string;
  /**
   * Any value; changing it replaces the client secret.
   * @default - no rotation key
   */
  readonly passwordRotation?: string;
  /**
   * Make Terraform refuse to destroy the application and service principal (lifecycle
   * prevent_destroy): every management cluster's ExternalDNS signs in as them. The password
   * stays unprotected: rotation replaces it.
   * @default true
   */
  readonly preventDestroy?: boolean;
  /**
   * Names of existing role assignments to keep, by role definition GUID: the random GUIDs `az role
   * assignment create` chose, for adopted assignments (the name forces a replacement on change).
   * @default - deterministic names (UUIDv5 of scope, role and principal)
   */
  readonly roleAssignmentNames?: Readonly<Record<string, string>>;
}

/** One role assignment: the built-in role and the scope it is granted on. */
export interface RoleGrant {
  readonly role: BuiltInRole;
  /** `zone` or `resourceGroup` (of the zone). */
  readonly scope: "zone" | "resourceGroup";
}

/** The role grants of each mode, in creation order. */
export const EXTERNAL_DNS_ROLE_GRANTS: Readonly<Record<ExternalDnsRoles, readonly RoleGrant[]>> = {
  leastPrivilege: [
    { role: BUILT_IN_ROLES.dnsZoneContributor, scope: "zone" },
    { role: BUILT_IN_ROLES.reader, scope: "resourceGroup" },
  ],
  seed: [
    { role: BUILT_IN_ROLES.reader, scope: "zone" },
    { role: BUILT_IN_ROLES.contributor, scope: "zone" },
  ],
};

/**
 * The service principal ExternalDNS uses to write the hosted clusters' records into the public
 * zone (seed 004 Phase 1 step 6, `az ad sp create-for-rbac` + `az role assignment create`).
 * The client secret lives only in Terraform state: `credentialsJson` refers to it and is meant
 * for a sensitive output.
 */
export class ExternalDnsPrincipal extends Construct {
  public readonly application: Application;
  public readonly servicePrincipal: ServicePrincipal;
  public readonly password: ApplicationPasswordA;
  public readonly roleAssignments: readonly RoleAssignment[];
  /**
   * `azure_mgmt.json` (the ExternalDNS Azure config file), in seed 004's key order:
   * tenantId, subscriptionId, resourceGroup, aadClientId, aadClientSecret. Sensitive.
   */
  public readonly credentialsJson: string;

  constructor(scope: Construct, id: string, props: ExternalDnsPrincipalProps) {
    super(scope, id);
    ({
      application: this.application,
      servicePrincipal: this.servicePrincipal,
      password: this.password,
    } = addSecretPrincipal(this, {
      displayName: props.displayName,
      passwordName: "external-dns",
      passwordEndDate: props.passwordEndDate,
      passwordValidFor: props.passwordValidFor,
      passwordRotation: props.passwordRotation,
      preventDestroy: props.preventDestroy,
    }));

    this.roleAssignments = EXTERNAL_DNS_ROLE_GRANTS[props.roles ?? "leastPrivilege"].map((grant) => {
      const scope = grant.scope === "zone" ? props.zoneId : props.zoneResourceGroupId;
      return new RoleAssignment(this, `${grant.role.name.replace(/ /g, "")}-${grant.scope === "zone" ? "Zone" : "ResourceGroup"}`, {
        // Deterministic name: a re-apply after a partial failure finds the same assignment.
        name:
          props.roleAssignmentNames?.[grant.role.guid] ?? Fn.uuidv5("url", `${functionArgument(scope)}/${grant.role.guid}/${this.servicePrincipal.objectId}`),
        scope,
        roleDefinitionId: roleDefinitionId(props.subscriptionId, grant.role),
        principalId: this.servicePrincipal.objectId,
        // A just-created principal may not have replicated yet: without these, ARM looks it up
        // in Entra and fails with PrincipalNotFound.
        principalType: "ServicePrincipal",
        skipServicePrincipalAadCheck: true,
      });
    });

    // Terraform's jsonencode escapes the secret; the rest are validated names and IDs.
    this.credentialsJson = [
      "{",
      ...(props.cloud && props.cloud !== "AzurePublicCloud" ? [`  "cloud": "${props.cloud}",`] : []),
      `  "tenantId": "${props.tenantId}",`,
      `  "subscriptionId": "${props.subscriptionId}",`,
      `  "resourceGroup": "${props.zoneResourceGroupName}",`,
      `  "aadClientId": "${this.application.clientId}",`,
      `  "aadClientSecret": ${Fn.jsonencode(this.password.value)}`,
      "}",
      "",
    ].join("\n");
  }
}
