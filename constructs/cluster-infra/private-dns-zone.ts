import { PrivateDnsZone as PrivateDnsZoneResource } from "@cdktf/provider-azurerm/lib/private-dns-zone";
import { PrivateDnsZoneVirtualNetworkLink } from "@cdktf/provider-azurerm/lib/private-dns-zone-virtual-network-link";
import { Token } from "cdktf";
import { Construct } from "constructs";
import { ExistingObject, ImportTarget, importTargetsOf } from "../adoption/import-existing";
import { AZURE_NAME_RULES } from "../../config/azure-rules";
import { literal, literalTags } from "../terraform-literal";

/** Names and IDs come from the config: written as literals, never templates. */

export interface PrivateDnsZoneProps {
  /** Zone name, `<cluster>.<baseDomain>` (lowercase, 2-34 labels). */
  readonly zoneName: string;
  /** Resource group of the zone and its link (HyperShift: the managed group). */
  readonly resourceGroupName: string;
  /** Name of the VNet link (1-80 letters, digits, '-', '_' or '.'), HyperShift's `<cluster>-<infraID>`. */
  readonly linkName: string;
  /** ARM ID of the VNet resolving the zone: a reference when the VNet is created in the same stack. */
  readonly virtualNetworkId: string;
  /** Tags of the zone and the link. @default {} */
  readonly tags?: Record<string, string>;
}

/**
 * The cluster's private DNS zone (HyperShift's `privateZoneID`, where the ingress operator writes
 * `*.apps` for the workers), linked to the workers' VNet for resolution only.
 */
export class PrivateDnsZone extends Construct {
  public readonly zone: PrivateDnsZoneResource;
  public readonly link: PrivateDnsZoneVirtualNetworkLink;

  constructor(scope: Construct, id: string, props: PrivateDnsZoneProps) {
    super(scope, id);
    validate(props);
    const tags = literalTags(props.tags);
    this.zone = new PrivateDnsZoneResource(this, "Zone", {
      name: literal(props.zoneName),
      resourceGroupName: literal(props.resourceGroupName),
      tags,
    });
    this.link = new PrivateDnsZoneVirtualNetworkLink(this, "VnetLink", {
      name: literal(props.linkName),
      resourceGroupName: this.zone.resourceGroupName,
      privateDnsZoneName: this.zone.name,
      virtualNetworkId: literal(props.virtualNetworkId),
      // A VNet has at most one registration zone; the workers' records are not auto-registered
      // (HyperShift sets registrationEnabled: false).
      registrationEnabled: false,
      tags,
    });
  }

  /** Adoption: the import targets that make the zone and its VNet link take over existing ones. */
  public importTargets(existing: { readonly zone?: ExistingObject; readonly vnetLink?: ExistingObject }): ImportTarget[] {
    return importTargetsOf(this, { zone: this.zone, vnetLink: this.link }, existing);
  }
}

function validate(props: PrivateDnsZoneProps): void {
  const problems: string[] = [];
  if (!Token.isUnresolved(props.zoneName) && !AZURE_NAME_RULES.dnsZone.test(props.zoneName)) {
    problems.push(`zoneName "${props.zoneName}" ${AZURE_NAME_RULES.dnsZone.rule}`);
  }
  // Link names follow the same rule as VNet names (resource-name-rules: virtualNetworkLinks).
  if (!Token.isUnresolved(props.linkName) && !AZURE_NAME_RULES.networkName.test(props.linkName)) {
    problems.push(`linkName "${props.linkName}" ${AZURE_NAME_RULES.networkName.rule}`);
  }
  if (problems.length > 0) throw new Error(`PrivateDnsZone: ${problems.join("; ")}`);
}
