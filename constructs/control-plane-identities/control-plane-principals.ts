import { DataAzureadServicePrincipal } from "@cdktf/provider-azuread/lib/data-azuread-service-principal";
import { Op, TerraformSelf, Token } from "cdktf";
import { Construct } from "constructs";
import { ControlPlanePrincipalKey } from "../../config/components";

/** A control-plane service principal as the stack that created it recorded it (its outputs). */
export interface RecordedPrincipal {
  /** HyperShift's `managedIdentities.controlPlane` key; with the construct ID, unique. */
  readonly key: ControlPlanePrincipalKey;
  /** Object ID of the service principal: tenant-unique, assigned by Entra at creation. */
  readonly objectId: string;
  /** Client (application) ID of its application, as recorded at creation. */
  readonly clientId: string;
}

export interface ControlPlanePrincipalsProps {
  /** The principals to find, each key once (usually references into the shared stack's state). */
  readonly principals: readonly RecordedPrincipal[];
  /** Microsoft Entra tenant their applications belong to. */
  readonly tenantId: string;
}

/**
 * Finds the control-plane service principals (ARO HCP style) by the object IDs their creating
 * stack recorded, never by display name: display names are neither unique nor owned, so a
 * look-alike application could break the lookup or receive the roles. A postcondition checks at
 * plan that each one is still what was created: the same application (client ID) of our tenant.
 */
export class ControlPlanePrincipals extends Construct {
  /** Checked object IDs (for role assignments) by key. */
  public readonly objectIds: ReadonlyMap<ControlPlanePrincipalKey, string>;
  /** Checked client IDs (for the HostedCluster) by key. */
  public readonly clientIds: ReadonlyMap<ControlPlanePrincipalKey, string>;

  constructor(scope: Construct, id: string, props: ControlPlanePrincipalsProps) {
    super(scope, id);
    validate(props);
    const objectIds = new Map<ControlPlanePrincipalKey, string>();
    const clientIds = new Map<ControlPlanePrincipalKey, string>();
    for (const principal of props.principals) {
      const found = new DataAzureadServicePrincipal(this, principal.key, {
        objectId: principal.objectId,
        lifecycle: {
          postcondition: [
            {
              condition: Op.and(
                Op.eq(TerraformSelf.getString("client_id"), principal.clientId),
                Op.eq(TerraformSelf.getString("application_tenant_id"), props.tenantId),
              ),
              errorMessage:
                `The ${principal.key} control-plane service principal found by its recorded object ID is not the one the shared stack created ` +
                "(another client ID or tenant). Deploy the shared stack again so its outputs match Entra ID (help/aro-hcp.md).",
            },
          ],
        },
      });
      // The data source's attributes, so the values used are the checked ones.
      objectIds.set(principal.key, found.objectId);
      clientIds.set(principal.key, found.clientId);
    }
    this.objectIds = objectIds;
    this.clientIds = clientIds;
  }
}

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function validate(props: ControlPlanePrincipalsProps): void {
  const problems: string[] = [];
  if (!GUID.test(props.tenantId)) problems.push(`tenantId "${props.tenantId}" must be a GUID`);
  const keys = new Set<string>();
  for (const p of props.principals) {
    if (keys.has(p.key)) problems.push(`principal ${p.key} appears twice`);
    keys.add(p.key);
    for (const [field, value] of [
      ["objectId", p.objectId],
      ["clientId", p.clientId],
    ] as const) {
      if (!Token.isUnresolved(value) && !GUID.test(value)) problems.push(`${p.key}.${field} "${value}" must be a GUID or a reference`);
    }
  }
  if (problems.length > 0) throw new Error(`ControlPlanePrincipals: ${problems.join("; ")}`);
}
