import { TerraformResource, TerraformStack } from "cdktf";
import { Construct } from "constructs";

/** An existing cloud object for a resource of the stack to take over. */
export interface ImportTarget {
  /** Construct path of the resource inside the stack, e.g. `OidcStorage/Resource`. */
  readonly path: string;
  /** Terraform resource type that path must hold, e.g. `azurerm_storage_account`. */
  readonly type: string;
  /** The provider's import ID of the existing object. */
  readonly id: string;
}

/** An existing cloud object: the Terraform resource type its import ID is for, and the ID. */
export interface ExistingObject {
  readonly type: string;
  readonly id: string;
}

/** The import target that makes `resource` take over `existing`: the resource's path inside its stack, from the construct tree. */
export function importTargetOf(resource: TerraformResource, existing: ExistingObject): ImportTarget {
  const stack = TerraformStack.of(resource);
  return { path: resource.node.path.slice(stack.node.path.length + 1), type: existing.type, id: existing.id };
}

/**
 * The import targets of an adoptable construct: each existing object given, by the construct's
 * own key, into the resource the construct holds under that key. Fails for an object whose
 * resource the construct does not create (an import would have nothing to take it over).
 */
export function importTargetsOf<K extends string>(
  owner: Construct,
  resources: Readonly<Record<K, TerraformResource | undefined>>,
  existing: Partial<Readonly<Record<K, ExistingObject>>>,
): ImportTarget[] {
  return (Object.keys(resources) as K[]).flatMap((key) => {
    const object = existing[key];
    if (!object) return [];
    const resource = resources[key];
    if (!resource) throw new Error(`${owner.node.path}: no ${key} resource here to import ${object.type} ${object.id} into`);
    return [importTargetOf(resource, object)];
  });
}

/** An existing object among several of one kind, by the name its resource is given (a blob, a credential, a role assignment). */
export interface ExistingNamedObject {
  readonly name: string;
  readonly resource: ExistingObject;
}

/** The import targets of named resources: each existing object into the resource of its name. */
export function importTargetsByName(
  owner: Construct,
  resources: ReadonlyMap<string, TerraformResource>,
  existing: readonly ExistingNamedObject[],
): ImportTarget[] {
  return existing.map(({ name, resource: object }) => {
    const resource = resources.get(name);
    if (!resource) throw new Error(`${owner.node.path}: no resource named ${name} here to import ${object.type} ${object.id} into`);
    return importTargetOf(resource, object);
  });
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
