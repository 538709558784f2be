import { Application } from "@cdktf/provider-azuread/lib/application";
import { ApplicationPasswordA } from "@cdktf/provider-azuread/lib/application-password";
import { DataAzureadClientConfig } from "@cdktf/provider-azuread/lib/data-azuread-client-config";
import { ServicePrincipal } from "@cdktf/provider-azuread/lib/service-principal";
import { Construct } from "constructs";
import { protectedLifecycle } from "../../config/protection";
import { escapeTemplates } from "../terraform-literal";

/** An Entra application signing in with a client secret (ExternalDNS, the operator's Private Link controller). */
export interface SecretPrincipalProps {
  /** Display name of the application and its service principal (1-120 characters). */
  readonly displayName: string;
  /** Display name of the client secret. */
  readonly passwordName: string;
  /** Absolute expiry of the client secret (RFC 3339). Exclusive with `passwordValidFor`. @default - relative expiry */
  readonly passwordEndDate?: string;
  /** Lifetime of the client secret in hours, e.g. `8760h`. @default "8760h" - one year, unless `passwordEndDate` */
  readonly passwordValidFor?: string;
  /** Any value; changing it replaces the client secret. @default - no rotation trigger */
  readonly passwordRotation?: string;
  /** `prevent_destroy` on the application and service principal (not the secret: rotation replaces it). @default false */
  readonly preventDestroy?: boolean;
}

export interface SecretPrincipal {
  readonly application: Application;
  readonly servicePrincipal: ServicePrincipal;
  readonly password: ApplicationPasswordA;
}

/**
 * The application, its service principal and its client secret, as children `Deployer`,
 * `Application`, `ServicePrincipal` and `Password` of `scope` (their construct IDs are the callers'
 * state addresses: kept as they were). The deployer owns both, so it can rotate the secret later
 * without a directory role; on rotation the new secret exists before the old one is removed.
 */
export function addSecretPrincipal(scope: Construct, props: SecretPrincipalProps): SecretPrincipal {
  const problems: string[] = [];
  if (props.passwordEndDate !== undefined && props.passwordValidFor !== undefined) problems.push("passwordEndDate and passwordValidFor are exclusive");
  if (props.displayName.length === 0 || props.displayName.length > 120) problems.push(`displayName "${props.displayName}" must be 1-120 characters`);
  if (problems.length > 0) throw new Error(`${scope.node.id}: ${problems.join("; ")}`);
  const deployer = new DataAzureadClientConfig(scope, "Deployer", {});
  const application = new Application(scope, "Application", {
    displayName: escapeTemplates(props.displayName) as string,
    owners: [deployer.objectId],
    signInAudience: "AzureADMyOrg",
    preventDuplicateNames: true,
    lifecycle: protectedLifecycle(props.preventDestroy),
  });
  const servicePrincipal = new ServicePrincipal(scope, "ServicePrincipal", {
    clientId: application.clientId,
    owners: [deployer.objectId],
    lifecycle: protectedLifecycle(props.preventDestroy),
  });
  const password = new ApplicationPasswordA(scope, "Password", {
    applicationId: application.id,
    displayName: props.passwordName,
    endDate: props.passwordEndDate,
    endDateRelative: props.passwordEndDate ? undefined : (props.passwordValidFor ?? "8760h"),
    rotateWhenChanged: props.passwordRotation === undefined ? undefined : { rotation: escapeTemplates(props.passwordRotation) as string },
    lifecycle: { createBeforeDestroy: true },
  });
  return { application, servicePrincipal, password };
}
