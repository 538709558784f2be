/**
 * The synthesized app as a graph: every resource and data source of every stack, the references
 * between them (`${type.name.attr}` in any value, and `depends_on`), and the links across stacks
 * (a data source that looks up what another stack creates, a remote state that reads another
 * stack's outputs). Read from the Terraform JSON only, so it shows what Terraform will see.
 */

/** One synthesized stack. */
export interface SynthesizedStack {
  readonly name: string;
  /** Stacks this one deploys after. */
  readonly dependsOn: readonly string[];
  /** The stack's Terraform JSON (cdk.tf.json, parsed). */
  readonly json: any;
}

/** A resource or data source. */
export interface Block {
  readonly stack: string;
  /** Terraform address: `azurerm_subnet.Network_Subnet_8D9C3287`, `data.terraform_remote_state.shared-state`. */
  readonly address: string;
  readonly mode: "resource" | "data";
  readonly type: string;
  /** The top-level construct that holds it (`Network`), or "" for one made directly in the stack. */
  readonly group: string;
  readonly body: any;
}

/** How one block uses another: through a value, or only by ordering (`depends_on`). */
export type EdgeKind = "reference" | "dependsOn";

export interface BlockEdge {
  /** The block used. */
  readonly from: Block;
  /** The block that uses it. */
  readonly to: Block;
  readonly kind: EdgeKind;
}

export interface AppGraph {
  readonly stacks: readonly SynthesizedStack[];
  readonly blocks: readonly Block[];
  /** Edges inside a stack, and across stacks (data lookups, remote state). */
  readonly edges: readonly BlockEdge[];
  /** The stack whose outputs a `terraform_remote_state` data source reads, by its address. */
  readonly remoteStateOf: ReadonlyMap<Block, string>;
}

export function blocksOf(stack: SynthesizedStack): Block[] {
  const blocks: Block[] = [];
  for (const mode of ["resource", "data"] as const) {
    for (const [type, byName] of Object.entries<Record<string, any>>(stack.json[mode] ?? {})) {
      for (const [name, body] of Object.entries(byName)) {
        const segments = String(body?.["//"]?.metadata?.path ?? `${stack.name}/${name}`).split("/");
        blocks.push({
          stack: stack.name,
          address: mode === "data" ? `data.${type}.${name}` : `${type}.${name}`,
          mode,
          type,
          group: segments.length > 2 ? segments[1] : "",
          body,
        });
      }
    }
  }
  return blocks;
}

/** Every string in a value, with the key that holds it (the construct metadata skipped). */
export function* leaves(value: unknown, key = ""): Generator<[string, string | number | boolean]> {
  if (Array.isArray(value)) for (const item of value) yield* leaves(item, key);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) if (k !== "//") yield* leaves(v, k);
  } else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") yield [key, value];
}

const ADDRESS = /\b(?:data\.)?[a-z][a-z0-9_]*\.[A-Za-z0-9_-]+/g;

/** Addresses a block's values interpolate (`${...}`), and those it lists in depends_on. */
export function referencesOf(block: Block): { references: Set<string>; dependsOn: Set<string> } {
  const references = new Set<string>();
  for (const [key, value] of leaves(block.body)) {
    if (key === "depends_on" || typeof value !== "string") continue;
    for (const expression of value.match(/\$\{[^}]*\}/g) ?? []) for (const address of expression.match(ADDRESS) ?? []) references.add(address);
  }
  return { references, dependsOn: new Set<string>(block.body?.depends_on ?? []) };
}

/** The stack a remote state reads: its state file, key or workspace ends with the stack's name. */
function remoteStack(block: Block, stackNames: readonly string[]): string | undefined {
  const config = block.body?.config ?? {};
  const where = String(config.path ?? config.key ?? config.workspaces?.name ?? "")
    .replace(/\.tfstate$/, "")
    .split("/")
    .pop();
  return stackNames.find((name) => where === name || where?.endsWith(`-${name}`));
}

export function buildGraph(stacks: readonly SynthesizedStack[]): AppGraph {
  const blocks = stacks.flatMap(blocksOf);
  const byAddress = new Map(blocks.map((b) => [`${b.stack} ${b.address}`, b]));
  const edges: BlockEdge[] = [];
  for (const to of blocks) {
    const { references, dependsOn } = referencesOf(to);
    for (const address of new Set([...references, ...dependsOn])) {
      const from = byAddress.get(`${to.stack} ${address}`);
      if (from && from !== to) edges.push({ from, to, kind: references.has(address) ? "reference" : "dependsOn" });
    }
  }
  // A data source that looks up, by name, what another stack creates: the link is by value.
  const created = blocks.filter((b) => b.mode === "resource" && typeof b.body?.name === "string");
  for (const to of blocks.filter((b) => b.mode === "data" && typeof b.body?.name === "string")) {
    for (const from of created) {
      // A group given by reference (`${azurerm_resource_group.x.name}`) is not compared.
      const groups = [from.body.resource_group_name, to.body.resource_group_name];
      const sameGroup = groups.some((g) => typeof g !== "string" || g.includes("${")) || groups[0] === groups[1];
      if (from.stack !== to.stack && from.type === to.type && from.body.name === to.body.name && sameGroup) edges.push({ from, to, kind: "reference" });
    }
  }
  const stackNames = stacks.map((s) => s.name);
  const remoteStateOf = new Map<Block, string>();
  for (const block of blocks.filter((b) => b.address.startsWith("data.terraform_remote_state."))) {
    const stack = remoteStack(block, stackNames);
    if (stack) remoteStateOf.set(block, stack);
  }
  return { stacks, blocks, edges, remoteStateOf };
}
