import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import { Token } from "cdktf";
import { Construct } from "constructs";
import { ExistingObject, ImportTarget, importTargetsOf } from "../adoption/import-existing";
import { escapeTemplates, literalTags } from "../terraform-literal";

/** The resource groups of a hosted cluster, as HyperShift's `create infra azure` makes them. */
export type ClusterResourceGroupKey = "managed" | "vnet" | "nsg";

/** A group to create (its name validated by the config). */
export interface ClusterResourceGroupSpec {
  /** Group name (1-90 letters, digits, '_', '-', '.', '(' or ')', not ending with '.'). */
  readonly name: string;
  /** ARM ID `/subscriptions/<sub>/resourceGroups/<name>` (known before the group exists). */
  readonly id: string;
}

/**
 * A group this construct does not create, from `ClusterResourceGroups.fromExisting`: the group of
 * an existing resource, or another key's group (singleResourceGroup), whose dependents still wait
 * for it when it is created here.
 */
export interface ExistingClusterResourceGroup {
  readonly existing: ClusterResourceGroupSpec;
}

export interface ClusterResourceGroupsProps {
  /** The three groups by role, to create or existing; keys may name the same group. */
  readonly groups: Readonly<Record<ClusterResourceGroupKey, ClusterResourceGroupSpec | ExistingClusterResourceGroup>>;
  /** Azure region of the created groups. */
  readonly location: string;
  /** Tags of the created groups. @default {} */
  readonly tags?: Record<string, string>;
}

const KEYS: readonly ClusterResourceGroupKey[] = ["managed", "vnet", "nsg"];

/**
 * The per-cluster resource groups (managed, VNet, NSG). Each distinct group with `create` is
 * created once, without prevent_destroy: they belong to the cluster and are deleted with it,
 * as `hypershift destroy infra azure` deletes them.
 */
export class ClusterResourceGroups extends Construct {
  /** A group not created here, by name and ARM ID. */
  public static fromExisting(group: ClusterResourceGroupSpec): ExistingClusterResourceGroup {
    return { existing: { name: group.name, id: group.id } };
  }

  /** The created groups by their ARM ID (lowercase), so scoped resources can depend on them. */
  public readonly createdByArmId: ReadonlyMap<string, ResourceGroup>;
  private readonly groups: Readonly<Record<ClusterResourceGroupKey, { spec: ClusterResourceGroupSpec; resource?: ResourceGroup }>>;

  constructor(scope: Construct, id: string, props: ClusterResourceGroupsProps) {
    super(scope, id);
    validate(props);
    const created = new Map<string, ResourceGroup>();
    const byArmId = new Map<string, ResourceGroup>();
    // Construct ID = the key that creates the group ("managed", "vnet", "nsg").
    for (const key of KEYS) {
      const spec = props.groups[key];
      if ("existing" in spec) continue;
      const group = new ResourceGroup(this, key, { name: escapeTemplates(spec.name) as string, location: props.location, tags: literalTags(props.tags) });
      created.set(spec.name.toLowerCase(), group);
      byArmId.set(spec.id.toLowerCase(), group);
    }
    // Azure group names are case-insensitive: a key naming a created group shares its resource.
    const entry = (key: ClusterResourceGroupKey) => {
      const spec = specOf(props.groups[key]);
      return { spec, resource: created.get(spec.name.toLowerCase()) };
    };
    this.groups = { managed: entry("managed"), vnet: entry("vnet"), nsg: entry("nsg") };
    this.createdByArmId = byArmId;
  }

  /** The group's name: a reference when created here (dependents wait for it), else the string. */
  public name(key: ClusterResourceGroupKey): string {
    const group = this.groups[key];
    return group.resource ? group.resource.name : group.spec.name;
  }

  /** The group's ARM ID: a reference when created here, else the string. */
  public id(key: ClusterResourceGroupKey): string {
    const group = this.groups[key];
    return group.resource ? group.resource.id : group.spec.id;
  }

  /** The group resource when this construct creates it (directly or as a shared group). */
  public resource(key: ClusterResourceGroupKey): ResourceGroup | undefined {
    return this.groups[key].resource;
  }

  /** Adoption: the import targets that make the groups created here take over existing ones, by key. */
  public importTargets(existing: Partial<Readonly<Record<ClusterResourceGroupKey, ExistingObject>>>): ImportTarget[] {
    return importTargetsOf(this, { managed: this.resource("managed"), vnet: this.resource("vnet"), nsg: this.resource("nsg") }, existing);
  }
}

function validate(props: ClusterResourceGroupsProps): void {
  const problems: string[] = [];
  const createdBy = new Map<string, ClusterResourceGroupKey>();
  for (const key of KEYS) {
    const spec = props.groups[key];
    if ("existing" in spec || Token.isUnresolved(spec.name)) continue;
    const { name, id } = spec;
    if (!new RegExp(`^/subscriptions/[^/]+/resourceGroups/${escape(name)}$`, "i").test(id)) {
      problems.push(`groups.${key}.id "${id}" must be /subscriptions/<subscription>/resourceGroups/${name}`);
    }
    const other = createdBy.get(name.toLowerCase());
    // Two resources for one Azure group would fight over it (and over its deletion).
    if (other) problems.push(`groups.${key}.name "${name}" is also groups.${other}.name; pass one of them through ClusterResourceGroups.fromExisting`);
    createdBy.set(name.toLowerCase(), key);
  }
  if (problems.length > 0) throw new Error(`ClusterResourceGroups: ${problems.join("; ")}`);
}

function specOf(group: ClusterResourceGroupSpec | ExistingClusterResourceGroup): ClusterResourceGroupSpec {
  return "existing" in group ? group.existing : group;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
