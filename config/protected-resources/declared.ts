/** What the synthesized stacks declare: their resources, and which carry prevent_destroy. */

/** One stack's Terraform JSON. */
export type StackJson = Record<string, any>;

/** `<stack>/<address>` of every resource with `lifecycle.prevent_destroy = true` in the synthesized stacks. */
export function protectedResourcesOf(stacks: ReadonlyMap<string, StackJson>): Set<string> {
  const ids = new Set<string>();
  for (const [stack, json] of stacks) {
    for (const [type, byName] of Object.entries<any>(json?.resource ?? {})) {
      for (const [name, body] of Object.entries<any>(byName ?? {})) if (body?.lifecycle?.prevent_destroy === true) ids.add(`${stack}/${type}.${name}`);
    }
  }
  return ids;
}

/** `<stack>/<address>` of every resource the stacks declare, and of every `moved` block's old address (the resource lives on). */
export function declaredResources(stacks: ReadonlyMap<string, StackJson>): Set<string> {
  const ids = new Set<string>();
  for (const [stack, json] of stacks) {
    for (const [type, byName] of Object.entries<any>(json?.resource ?? {})) for (const name of Object.keys(byName ?? {})) ids.add(`${stack}/${type}.${name}`);
    for (const moved of Array.isArray(json?.moved) ? json.moved : []) if (typeof moved?.from === "string") ids.add(`${stack}/${moved.from}`);
  }
  return ids;
}
