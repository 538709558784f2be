import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import { DataAzurermResourceGroup } from "@cdktf/provider-azurerm/lib/data-azurerm-resource-group";
import { Construct } from "constructs";
import { ExistingObject, ImportTarget, importTargetsOf } from "../adoption/import-existing";
import { literalTags } from "../terraform-literal";
import { protectedLifecycle } from "../../config/protection";

/** The persistent resource group as its dependents use it: created here, or adopted. */
export interface IPersistentResourceGroup {
  /**
   * The group's name as a reference, so resources in the same stack wait for the group (created)
   * or for the lookup (adopted). Other stacks use the derived name string instead.
   */
  readonly name: string;
  /** The group's ARM ID as a reference (same ordering guarantee as `name`). */
  readonly id: string;
}

export interface PersistentResourceGroupProps {
  /** Resource group name (1-90 characters, validated by the config). */
  readonly name: string;
  /** Azure region. */
  readonly location: string;
  /**
   * Make Terraform refuse to destroy the group: it holds identities and the OIDC issuer that
   * outlive every hosted cluster.
   * @default true
   */
  readonly preventDestroy?: boolean;
  /** Tags of the group. @default {} */
  readonly tags?: Record<string, string>;
}

/** What `PersistentResourceGroup.fromExisting` needs to find an adopted group. */
export interface ExistingPersistentResourceGroupAttributes {
  /** Name of the existing group. */
  readonly name: string;
}

/** The long-lived resource group of seed 004 (e.g. `os4-common`), created and managed here. */
export class PersistentResourceGroup extends Construct implements IPersistentResourceGroup {
  /**
   * Adopts an existing group untouched: it is read through a data source (construct ID
   * `<id>/Existing`), so Terraform can never change or delete it.
   */
  public static fromExisting(scope: Construct, id: string, attributes: ExistingPersistentResourceGroupAttributes): IPersistentResourceGroup {
    return new ExistingPersistentResourceGroup(scope, id, attributes);
  }

  public readonly name: string;
  public readonly id: string;
  /** The group resource. */
  public readonly resource: ResourceGroup;

  constructor(scope: Construct, id: string, props: PersistentResourceGroupProps) {
    super(scope, id);
    this.resource = new ResourceGroup(this, "Resource", {
      name: props.name,
      location: props.location,
      tags: literalTags(props.tags),
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
    this.name = this.resource.name;
    this.id = this.resource.id;
  }

  /** Adoption: the import target that makes the group resource take over an existing group. */
  public importTargets(existing: { readonly group?: ExistingObject }): ImportTarget[] {
    return importTargetsOf(this, { group: this.resource }, existing);
  }
}

class ExistingPersistentResourceGroup extends Construct implements IPersistentResourceGroup {
  public readonly name: string;
  public readonly id: string;

  constructor(scope: Construct, id: string, attributes: ExistingPersistentResourceGroupAttributes) {
    super(scope, id);
    // Fails the plan early with "not found" instead of failing later resources one by one.
    const existing = new DataAzurermResourceGroup(this, "Existing", { name: attributes.name });
    this.name = existing.name;
    this.id = existing.id;
  }
}
