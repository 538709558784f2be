import { DataAzurermDnsZone } from "@cdktf/provider-azurerm/lib/data-azurerm-dns-zone";
import { DnsNsRecord } from "@cdktf/provider-azurerm/lib/dns-ns-record";
import { DnsZone } from "@cdktf/provider-azurerm/lib/dns-zone";
import { TerraformProvider } from "cdktf";
import { Construct } from "constructs";
import { delegationRecordName } from "../../config/names";
import { ExistingObject, ImportTarget, importTargetsOf } from "../adoption/import-existing";
import { literalTags } from "../terraform-literal";
import { protectedLifecycle } from "../../config/protection";

export interface ParentZoneProps {
  /** Existing Azure DNS zone that delegates to the new zone, e.g. `example.com`. */
  readonly zoneName: string;
  /** Resource group of the parent zone. */
  readonly resourceGroupName: string;
  /**
   * Provider for the parent zone's subscription (an aliased azurerm provider).
   * @default - the stack's default azurerm provider (parent in the same subscription)
   */
  readonly provider?: TerraformProvider;
  /**
   * TTL in seconds of the NS record set in the parent zone (azurerm requires one; Azure allows
   * 1-2147483647).
   * @default 3600
   */
  readonly ttl?: number;
}

export interface DelegatedDnsZoneProps {
  /** Public zone to create, e.g. `myprefix.example.com` (lowercase, 2-34 labels). */
  readonly zoneName: string;
  /** Resource group of the new zone (the persistent group: clusters share the zone). */
  readonly resourceGroupName: string;
  /**
   * The parent zone to add the delegating NS record to. It is only looked up, never managed.
   * @default - no delegation; delegate the zone yourself with its `nameServers`
   */
  readonly parent?: ParentZoneProps;
  /**
   * Make Terraform refuse to destroy the zone: it holds the records of every hosted cluster.
   * @default true
   */
  readonly preventDestroy?: boolean;
  /** Tags of the zone. @default {} */
  readonly tags?: Record<string, string>;
}

/**
 * A public Azure DNS zone, optionally delegated from a parent Azure DNS zone (seed 004 Phase 1
 * step 5). Unlike the seed, an existing NS record in the parent is not deleted first: Terraform
 * stops with "already exists" and help/dns.md shows the import command.
 */
export class DelegatedDnsZone extends Construct {
  public readonly zone: DnsZone;
  /** The zone's four Azure name servers (known after apply). */
  public readonly nameServers: string[];
  /** The NS record set in the parent zone, when delegated. */
  public readonly delegation?: DnsNsRecord;

  constructor(scope: Construct, id: string, props: DelegatedDnsZoneProps) {
    super(scope, id);
    const recordName = validate(props);
    this.zone = new DnsZone(this, "Zone", {
      name: props.zoneName,
      resourceGroupName: props.resourceGroupName,
      tags: literalTags(props.tags),
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
    this.nameServers = this.zone.nameServers;

    if (props.parent && recordName) {
      // A lookup fails the plan with "not found" before anything is created, and keeps the
      // parent zone out of this state: destroying the stack can never touch it.
      const parent = new DataAzurermDnsZone(this, "ParentZone", {
        name: props.parent.zoneName,
        resourceGroupName: props.parent.resourceGroupName,
        provider: props.parent.provider,
      });
      this.delegation = new DnsNsRecord(this, "Delegation", {
        name: recordName,
        zoneName: parent.name,
        resourceGroupName: parent.resourceGroupName,
        records: this.zone.nameServers,
        ttl: props.parent.ttl ?? 3600,
        provider: props.parent.provider,
      });
    }
  }

  /** Adoption: the import targets that make the zone and its delegation record take over existing ones. */
  public importTargets(existing: { readonly zone?: ExistingObject; readonly delegation?: ExistingObject }): ImportTarget[] {
    return importTargetsOf(this, { zone: this.zone, delegation: this.delegation }, existing);
  }
}

/** Checks the props; returns the NS record name in the parent (undefined without a parent). */
function validate(props: DelegatedDnsZoneProps): string | undefined {
  // Zone names and the TTL are config rules (schema.ts, rules/names.ts); the record name is this construct's.
  const problems: string[] = [];
  let recordName: string | undefined;
  if (props.parent) {
    const parent = props.parent.zoneName;
    recordName = delegationRecordName(props.zoneName, parent);
    if (recordName === undefined) {
      problems.push(`parent.zoneName "${parent}" must be a proper suffix of zoneName "${props.zoneName}" (the zone must be <label>.${parent})`);
    }
  }
  if (problems.length > 0) throw new Error(`DelegatedDnsZone: ${problems.join("; ")}`);
  return recordName;
}
