import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import { StorageBlob } from "@cdktf/provider-azurerm/lib/storage-blob";
import { TerraformResource } from "cdktf";
import { ExternalDnsPrincipal } from "../external-dns/external-dns-principal";
import { HostedCluster } from "../hosted-cluster/hosted-cluster";
import { OidcIssuer } from "../oidc/oidc-issuer";
import { OidcStorageAccount } from "../oidc/oidc-storage-account";
import { WorkloadIdentityRoles, workloadRoleKey } from "../cluster-infra/workload-identity-roles";
import { ExistingNamedObject, ExistingObject, ImportTarget, importTargetOf, importTargetsByName, importTargetsOf } from "./import-existing";

/**
 * The import targets of the adoptable constructs that do not list their own (the groups, network,
 * zones, egress and identities have an `importTargets` method), from their public resources and
 * their resources' own names: never from construct IDs.
 */

/** ccoctl's storage account into the account resource. */
export function oidcStorageAccountImportTargets(storage: OidcStorageAccount, existing: { readonly account: ExistingObject }): ImportTarget[] {
  return importTargetsOf(storage, { account: storage.account }, existing);
}

/** ccoctl's container, and its documents by blob name. */
export function oidcIssuerImportTargets(
  issuer: OidcIssuer,
  existing: { readonly container: ExistingObject; readonly documents: readonly ExistingNamedObject[] },
): ImportTarget[] {
  const blobs = byName(
    issuer.node.findAll().filter((c): c is StorageBlob => c instanceof StorageBlob),
    (blob) => blob.nameInput,
  );
  return [
    ...importTargetsOf(issuer, { container: issuer.container }, { container: existing.container }),
    ...importTargetsByName(issuer, blobs, existing.documents),
  ];
}

/** The ExternalDNS application, its service principal and its role assignments by their names (az's GUIDs). */
export function externalDnsPrincipalImportTargets(
  principal: ExternalDnsPrincipal,
  existing: { readonly application: ExistingObject; readonly servicePrincipal: ExistingObject; readonly roleAssignments: readonly ExistingNamedObject[] },
): ImportTarget[] {
  const { application, servicePrincipal } = principal;
  return [
    ...importTargetsOf(principal, { application, servicePrincipal }, { application: existing.application, servicePrincipal: existing.servicePrincipal }),
    ...importTargetsByName(principal, byName(principal.roleAssignments, assignmentName), existing.roleAssignments),
  ];
}

/** Role assignments by identity, scope kind and grant (the construct's own `workloadRoleKey`). */
export function workloadIdentityRolesImportTargets(
  roles: WorkloadIdentityRoles,
  existing: ReadonlyArray<{ readonly identity: string; readonly scopeKind: string; readonly grant?: string; readonly resource: ExistingObject }>,
): ImportTarget[] {
  return existing.map(({ resource: object, ...key }) => {
    const resource = roles.assignments.get(workloadRoleKey(key));
    if (!resource) throw new Error(`${roles.node.path}: no ${workloadRoleKey(key)} role assignment here to import ${object.id} into`);
    return importTargetOf(resource, object);
  });
}

/**
 * The HostedCluster, and NodePools by their object's name. Fails for an object not applied with
 * force_conflicts (`HostedCluster.fromExisting`): the CLI's field managers would make its first
 * change after the import (a scale, an upgrade) a conflict.
 */
export function hostedClusterImportTargets(
  hostedCluster: HostedCluster,
  existing: { readonly hostedCluster: ExistingObject; readonly nodePools: readonly ExistingNamedObject[] },
): ImportTarget[] {
  const pools = byName(hostedCluster.nodePools, (pool) => (pool.manifestInput as { metadata?: { name?: string } }).metadata?.name);
  const targets = [
    ...importTargetsOf(hostedCluster, { hostedCluster: hostedCluster.resource }, { hostedCluster: existing.hostedCluster }),
    ...importTargetsByName(hostedCluster, pools, existing.nodePools),
  ];
  const unforced = [hostedCluster.resource, ...existing.nodePools.map(({ name }) => pools.get(name) as Manifest)].filter(
    (manifest) => manifest.fieldManagerInput?.forceConflicts !== true,
  );
  if (unforced.length > 0) {
    throw new Error(
      `${hostedCluster.node.path}: ${unforced.map((m) => m.node.id).join(", ")} would be imported without force_conflicts; pass HostedCluster.fromExisting`,
    );
  }
  return targets;
}

/** A role assignment's configured name (a plain string when given; a token when derived, which no import names). */
const assignmentName = (assignment: RoleAssignment) => assignment.nameInput ?? "";

function byName<T extends TerraformResource>(resources: readonly T[], name: (resource: T) => string | undefined): Map<string, T> {
  return new Map(resources.flatMap((resource): Array<[string, T]> => [[name(resource) ?? "", resource]]));
}
