import { TerraformResource, TerraformStack } from "cdktf";

/** An existing cloud object for a resource of the stack to take over. */
export interface ImportTarget {
  /** Construct path of the resource inside the stack, e.g. `OidcStorage/Resource`. */
  readonly path: string;
  /** Terraform resource type that path must hold, e.g. `azurerm_storage_account`. */
  readonly type: string;
  /** The provider's import ID of the existing object. */
  readonly id: string;
}

/**
 * Gives each target's resource a Terraform `import` block (cdktf `importFrom`: a top-level
 * `import { to, id }`, Terraform 1.5+), with the resource's own provider (an aliased provider
 * needs it named). Once the object is in state the block is a no-op, so it may stay.
 *
 * Fails the synth, listing every problem, when a path holds no resource, the wrong type, or is
 * targeted twice: an import block whose address matched nothing would let the plan create a
 * second object instead.
 */
export function importExisting(stack: TerraformStack, targets: readonly ImportTarget[]): void {
  if (targets.length === 0) return;
  const prefix = `${stack.node.path}/`;
  const byPath = new Map<string, TerraformResource>();
  for (const construct of stack.node.findAll()) {
    if (construct instanceof TerraformResource) byPath.set(construct.node.path.slice(prefix.length), construct);
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const target of targets) {
    const resource = byPath.get(target.path);
    if (seen.has(target.path)) problems.push(`${target.path} is targeted twice`);
    else if (!resource) problems.push(`${target.path} (${target.type}, import ID ${target.id}) is not a resource of this stack`);
    else if (resource.terraformResourceType !== target.type) problems.push(`${target.path} is a ${resource.terraformResourceType}, not a ${target.type}`);
    seen.add(target.path);
  }
  if (problems.length > 0) throw new Error(`importExisting(${stack.node.id}): ${problems.join("; ")}`);
  for (const target of targets) {
    const resource = byPath.get(target.path) as TerraformResource;
    resource.importFrom(target.id, resource.provider);
  }
}
