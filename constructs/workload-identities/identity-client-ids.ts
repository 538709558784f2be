import { DataAzurermUserAssignedIdentity } from "@cdktf/provider-azurerm/lib/data-azurerm-user-assigned-identity";
import { Construct } from "constructs";
import { WorkloadIdentityKey } from "../../config/components";

export interface IdentityClientIdsProps {
  /** The user-assigned identities another stack creates (identities-<cluster>), by key and Azure name. */
  readonly identities: readonly { readonly key: WorkloadIdentityKey; readonly name: string }[];
  /** Resource group that holds them. */
  readonly resourceGroupName: string;
  /** Where the identities come from, for the internal error on an unknown key (e.g. `clusters[0]`). */
  readonly owner: string;
}

/**
 * The client IDs of a cluster's user-assigned identities, which Azure assigns: each looked up by
 * its derived name at plan (a data source per identity asked for, in the order asked), never by
 * cross-stack reference.
 *
 * Not a construct node of its own: each data source is the scope's child `Identity_<key>`, the
 * address these lookups had when the stack made them (construct paths are logical IDs: a node
 * in between would rename every data source in users' state).
 */
export class IdentityClientIds {
  constructor(
    private readonly scope: Construct,
    private readonly props: IdentityClientIdsProps,
  ) {}

  /** The identity's client ID (a reference, resolved at plan); looked up once per key. */
  public clientId(key: WorkloadIdentityKey): string {
    const id = `Identity_${key}`;
    const existing = this.scope.node.tryFindChild(id) as DataAzurermUserAssignedIdentity | undefined;
    if (existing) return existing.clientId;
    const identity = this.props.identities.find((i) => i.key === key);
    if (!identity) throw new Error(`internal: ${this.props.owner} has no ${key} identity`);
    return new DataAzurermUserAssignedIdentity(this.scope, id, { name: identity.name, resourceGroupName: this.props.resourceGroupName }).clientId;
  }
}
