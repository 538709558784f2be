/** Mermaid flowchart text: nodes in (nested) subgraphs, solid and dotted edges, escaped labels. */

export type Shape = "box" | "rounded";

interface FlowNode {
  readonly id: string;
  readonly label: string;
  readonly shape: Shape;
}

interface Subgraph {
  readonly id: string;
  readonly title: string;
  readonly nodes: FlowNode[];
  readonly children: Map<string, Subgraph>;
}

/** Text shown as is in a label: quotes and angle brackets as Mermaid entity codes. */
export function escapeLabel(text: string): string {
  return text.replace(/#/g, "#35;").replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;");
}

/** A Mermaid identifier from any text: letters, digits and `_`, never a keyword such as `end`. */
export function mermaidId(prefix: string, text: string): string {
  return `${prefix}_${text.replace(/[^A-Za-z0-9]+/g, "_")}`;
}

export class Flowchart {
  private readonly root: Subgraph = { id: "", title: "", nodes: [], children: new Map() };
  private readonly ids = new Set<string>();
  private readonly edges = new Map<string, boolean>();

  constructor(private readonly direction: "LR" | "TB") {}

  /**
   * Adds a node inside the subgraphs `path` names (outermost first, each `[id, title]`).
   * `lines` are escaped and joined with line breaks.
   */
  node(id: string, lines: readonly string[], shape: Shape, path: readonly (readonly [string, string])[] = []): void {
    if (this.ids.has(id)) throw new Error(`diagram node ${id} added twice`);
    this.ids.add(id);
    let graph = this.root;
    for (const [sid, title] of path) {
      let child = graph.children.get(sid);
      if (!child) {
        if (this.ids.has(sid)) throw new Error(`diagram subgraph ${sid} reuses a node id`);
        this.ids.add(sid);
        child = { id: sid, title, nodes: [], children: new Map() };
        graph.children.set(sid, child);
      }
      graph = child;
    }
    graph.nodes.push({ id, label: lines.map(escapeLabel).join("<br/>"), shape });
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** `to` uses `from` (solid), or only waits for it (dotted). A solid edge wins over a dotted one. */
  edge(from: string, to: string, dotted = false): void {
    if (from === to) return;
    for (const id of [from, to]) if (!this.ids.has(id)) throw new Error(`diagram edge to unknown node ${id}`);
    const key = `${from} ${to}`;
    this.edges.set(key, (this.edges.get(key) ?? true) && dotted);
  }

  render(): string {
    const lines = [`flowchart ${this.direction}`];
    const write = (graph: Subgraph, indent: string) => {
      for (const n of graph.nodes) lines.push(`${indent}${n.id}${n.shape === "rounded" ? `("${n.label}")` : `["${n.label}"]`}`);
      for (const child of graph.children.values()) {
        lines.push(`${indent}subgraph ${child.id}["${escapeLabel(child.title)}"]`);
        write(child, `${indent}  `);
        lines.push(`${indent}end`);
      }
    };
    write(this.root, "  ");
    for (const [key, dotted] of [...this.edges].sort(([a], [b]) => a.localeCompare(b))) {
      const [from, to] = key.split(" ");
      lines.push(`  ${from} ${dotted ? "-.->" : "-->"} ${to}`);
    }
    return lines.join("\n");
  }
}
