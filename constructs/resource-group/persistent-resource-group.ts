import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import { DataAzurermResourceGroup } from "@cdktf/provider-azurerm/lib/data-azurerm-resource-group";
import { Construct } from "constructs";
import { literalTags } from "../terraform-literal";
import { protectedLifecycle } from "../../config/protection";

export interface PersistentResourceGroupProps {
  /** Resource group name (1-90 characters, validated by the config). */
  readonly name: string;
  /** Azure region; used only when the group is created. */
  readonly location: string;
  /**
   * Create and manage the group (true), or adopt an existing one (false): an adopted group is
   * read through a data source, so Terraform can never change or delete it.
   * @default true
   */
  readonly create?: boolean;
  /**
   * With `create`, make Terraform refuse to destroy the group: it holds identities and the
   * OIDC issuer that outlive every hosted cluster.
   * @default true
   */
  readonly preventDestroy?: boolean;
  /** Tags of a created group. @default {} */
  readonly tags?: Record<string, string>;
}

/** The long-lived resource group of seed 004 (e.g. `os4-common`): created, or adopted untouched. */
export class PersistentResourceGroup extends Construct {
  /**
   * The group's name as a reference, so resources in the same stack wait for the group (created)
   * or for the lookup (adopted). Other stacks use the derived name string instead.
   */
  public readonly name: string;
  /** The group's ARM ID as a reference (same ordering guarantee as `name`). */
  public readonly id: string;
  /** The group resource when created; undefined when adopted. */
  public readonly resource?: ResourceGroup;

  constructor(scope: Construct, id: string, props: PersistentResourceGroupProps) {
    super(scope, id);
    if (props.create ?? true) {
      this.resource = new ResourceGroup(this, "Resource", {
        name: props.name,
        location: props.location,
        tags: literalTags(props.tags),
        lifecycle: protectedLifecycle(props.preventDestroy),
      });
      this.name = this.resource.name;
      this.id = this.resource.id;
    } else {
      // Fails the plan early with "not found" instead of failing later resources one by one.
      const existing = new DataAzurermResourceGroup(this, "Existing", { name: props.name });
      this.name = existing.name;
      this.id = existing.id;
    }
  }
}
