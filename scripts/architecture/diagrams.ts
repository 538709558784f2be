/**
 * The three diagrams of help/architecture.md, from the app graph: the stacks in deploy order, one
 * stack's resources, and one hosted cluster's path from config to Azure to Kubernetes. Repeated
 * parts are collapsed: a cluster's stacks are drawn once for all clusters (`infra-<cluster>`),
 * and the blocks of one type in one construct are one node (`azurerm_role_assignment ×15`).
 */
import { AppGraph, Block, leaves } from "./graph";
import { Flowchart, mermaidId } from "./flowchart";

/** What a stack is, with the cluster's name taken out: `infra-<cluster>` for `infra-hc1`. */
export interface StackKind {
  readonly kind: string;
  readonly cluster?: string;
}

/** Stack name -> kind, from the clusters' stack lists (names.clusters[].stacks). */
export function stackKinds(stacks: readonly string[], clusters: readonly { name: string; stacks: readonly string[] }[]): Map<string, StackKind> {
  const kinds = new Map<string, StackKind>(stacks.map((s) => [s, { kind: s }]));
  for (const cluster of clusters) {
    for (const stack of cluster.stacks) kinds.set(stack, { kind: stack.replace(cluster.name, "<cluster>"), cluster: cluster.name });
  }
  return kinds;
}

const kindOf = (kinds: ReadonlyMap<string, StackKind>, stack: string) => kinds.get(stack)?.kind ?? stack;

/** Stacks as nodes (per-cluster kinds once, with their clusters), dependencies as edges: deploy order. */
export function stacksDiagram(graph: AppGraph, kinds: ReadonlyMap<string, StackKind>): string {
  const chart = new Flowchart("LR");
  const byKind = new Map<string, { stacks: string[]; clusters: string[] }>();
  for (const stack of graph.stacks) {
    const kind = kinds.get(stack.name) ?? { kind: stack.name };
    const entry = byKind.get(kind.kind) ?? { stacks: [], clusters: [] };
    entry.stacks.push(stack.name);
    if (kind.cluster) entry.clusters.push(kind.cluster);
    byKind.set(kind.kind, entry);
  }
  const clusterNames = [...new Set([...byKind.values()].flatMap((e) => e.clusters))];
  for (const [kind, { stacks, clusters }] of byKind) {
    const counts = stacks.map((s) => graph.blocks.filter((b) => b.stack === s && b.mode === "resource").length);
    const range = Math.min(...counts) === Math.max(...counts) ? `${counts[0]}` : `${Math.min(...counts)}-${Math.max(...counts)}`;
    const path: [string, string][] = clusters.length > 0 ? [["per_cluster", `one per cluster (${clusterNames.length}: ${clusterNames.join(", ")})`]] : [];
    chart.node(mermaidId("s", kind), [kind, `${range} resources`], "box", path);
  }
  for (const stack of graph.stacks) {
    for (const dependency of stack.dependsOn) chart.edge(mermaidId("s", kindOf(kinds, dependency)), mermaidId("s", kindOf(kinds, stack.name)));
  }
  return chart.render();
}

/**
 * The construct that holds a block, with a cluster's name taken out: the shared stack's
 * `ControlPlaneIdentities_<cluster>` is drawn once for all clusters.
 */
function groupOf(block: Block, kinds: ReadonlyMap<string, StackKind>): string {
  const clusters = [...new Set([...kinds.values()].flatMap((k) => (k.cluster ? [k.cluster] : [])))].sort((a, b) => b.length - a.length);
  return clusters.reduce((group, cluster) => group.split(cluster).join("<cluster>"), block.group);
}

/**
 * A node's key: blocks of one type in one construct of one stack kind; with `byObjectKind`,
 * Kubernetes objects of different kinds apart (a HostedCluster and its NodePools).
 */
function nodeKey(block: Block, kinds: ReadonlyMap<string, StackKind>, byObjectKind: boolean): string {
  const objectKind = byObjectKind && typeof block.body?.manifest?.kind === "string" ? ` ${block.body.manifest.kind}` : "";
  return `${kindOf(kinds, block.stack)} ${block.mode} ${groupOf(block, kinds)} ${block.type}${objectKind}`;
}

function nodeLines(blocks: readonly Block[], graph: AppGraph, kinds: ReadonlyMap<string, StackKind>, stack: string): string[] {
  const [first] = blocks;
  const count = blocks.length > 1 ? ` ×${blocks.length}` : "";
  const lines = [`${first.mode === "data" ? "data " : ""}${first.type}${count}`];
  const objectKinds = [...new Set(blocks.map((b) => b.body?.manifest?.kind).filter((k) => typeof k === "string"))];
  if (objectKinds.length > 0) lines.push(objectKinds.sort().join(", "));
  const remote = [...new Set(blocks.map((b) => graph.remoteStateOf.get(b)).filter((s) => s !== undefined))];
  if (remote.length > 0) lines.push(`outputs of ${remote.map((s) => kindOf(kinds, s)).join(", ")}`);
  const sources = [
    ...new Set(
      graph.edges.filter((e) => blocks.includes(e.to) && e.from.stack !== stack && e.from.stack !== e.to.stack).map((e) => kindOf(kinds, e.from.stack)),
    ),
  ];
  if (sources.length > 0) lines.push(`made by ${sources.join(", ")}`);
  return lines;
}

/**
 * Collapsed nodes and edges of the blocks in `stacks`, added to `chart`, each node inside
 * `pathOf(its blocks)`. Returns block -> node id.
 */
function addBlocks(
  chart: Flowchart,
  graph: AppGraph,
  kinds: ReadonlyMap<string, StackKind>,
  stacks: readonly string[],
  pathOf: (block: Block) => [string, string][],
  byObjectKind = false,
): Map<Block, string> {
  const groups = new Map<string, Block[]>();
  for (const block of graph.blocks.filter((b) => stacks.includes(b.stack))) {
    const key = nodeKey(block, kinds, byObjectKind);
    groups.set(key, [...(groups.get(key) ?? []), block]);
  }
  const ids = new Map<Block, string>();
  for (const [key, blocks] of groups) {
    const id = mermaidId("n", key);
    chart.node(id, nodeLines(blocks, graph, kinds, blocks[0].stack), blocks[0].mode === "data" ? "rounded" : "box", pathOf(blocks[0]));
    for (const b of blocks) ids.set(b, id);
  }
  for (const edge of graph.edges) {
    const from = ids.get(edge.from);
    const to = ids.get(edge.to);
    if (from && to) chart.edge(from, to, edge.kind === "dependsOn");
  }
  return ids;
}

function groupPath(kinds: ReadonlyMap<string, StackKind>, block: Block): [string, string] {
  const group = groupOf(block, kinds);
  return [mermaidId("g", `${kindOf(kinds, block.stack)} ${group}`), group || "(in the stack)"];
}

/** One stack's resources and data sources, grouped per construct. */
export function stackDiagram(graph: AppGraph, kinds: ReadonlyMap<string, StackKind>, stack: string): string {
  const chart = new Flowchart("LR");
  addBlocks(chart, graph, kinds, [stack], (block) => [groupPath(kinds, block)]);
  return chart.render();
}

/** Where a config key of a cluster is drawn: its section, at most two keys deep (`hostedCluster.network`). */
function sectionOf(path: readonly (string | number)[]): string {
  const parts: string[] = [];
  for (const part of path.slice(0, -1)) {
    if (typeof part === "number") parts[parts.length - 1] += `[${part}]`;
    else if (parts.length < 2) parts.push(part);
    else break;
  }
  return parts.join(".");
}

function* configLeaves(value: unknown, path: (string | number)[] = []): Generator<[(string | number)[], string | number | boolean]> {
  if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* configLeaves(item, [...path, i]);
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) yield* configLeaves(v, [...path, k]);
  else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") yield [path, value];
}

const normalized = (key: string) => key.toLowerCase().replace(/_/g, "");

/**
 * Whether a config value reaches a block: a string of 3+ characters appears as a whole value;
 * a number or boolean, under a key of the same name (`replicas: 2` -> `spec.replicas: 2`).
 */
function carries(block: Block, key: string, value: string | number | boolean): boolean {
  for (const [k, v] of leaves(block.body)) {
    if (k === "depends_on" || v !== value) continue;
    if (typeof value === "string" ? value.length >= 3 : normalized(k) === normalized(key)) return true;
  }
  return false;
}

/**
 * One hosted cluster: its config sections, linked to the blocks that carry their values, and
 * those blocks through its stacks (identities, infra: Azure; cluster: Kubernetes objects).
 */
export function clusterPathDiagram(
  graph: AppGraph,
  kinds: ReadonlyMap<string, StackKind>,
  cluster: { name: string; stacks: readonly string[] },
  config: unknown,
  index: number,
): string {
  const chart = new Flowchart("LR");
  const stacks = [...cluster.stacks].reverse(); // deploy order: identities, infra, cluster
  const title = (stack: string) => (stack.startsWith("cluster-") ? `Kubernetes objects: ${stack}` : `Azure: ${stack}`);
  const ids = addBlocks(chart, graph, kinds, stacks, (block) => [[mermaidId("st", block.stack), title(block.stack)]], true);
  const links = new Map<string, { keys: Set<string>; targets: Set<string> }>();
  for (const [path, value] of configLeaves(config)) {
    const key = String(path[path.length - 1]);
    const targets = [...ids].filter(([block]) => carries(block, key, value)).map(([, id]) => id);
    if (targets.length === 0) continue;
    const section = sectionOf(path);
    const entry = links.get(section) ?? { keys: new Set(), targets: new Set() };
    entry.keys.add(key);
    for (const t of targets) entry.targets.add(t);
    links.set(section, entry);
  }
  for (const [section, { keys, targets }] of links) {
    const id = mermaidId("c", section || "cluster");
    chart.node(id, [`clusters[${index}]${section ? `.${section}` : ""}`, [...keys].join(", ")], "rounded", [
      ["config", `config: clusters[${index}] (${cluster.name})`],
    ]);
    for (const t of targets) chart.edge(id, t);
  }
  return chart.render();
}
