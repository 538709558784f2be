import * as fs from "node:fs";
import * as path from "node:path";
import { importSpecifiers } from "./source-imports";

const REPO = path.resolve(__dirname, "..");

/**
 * No import cycles in the product sources (main.ts, config/, constructs/, stacks/, scripts/*.ts),
 * type-only imports included: a cycle makes a module's meaning depend on load order, and a
 * type-only one still ties two layers into one (the next edit turns it into a value import).
 * Relative imports only; packages cannot import us back.
 */

const ROOTS = ["main.ts", "config", "constructs", "stacks", path.join("scripts", "*.ts")];

/** Every `.ts` file of the roots (folders recursively; `scripts/*.ts` at its top level only). */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) files.push(full);
    }
  };
  for (const root of ROOTS) {
    const full = path.join(REPO, root);
    if (root.endsWith("*.ts")) {
      const dir = path.dirname(full);
      files.push(
        ...fs
          .readdirSync(dir)
          .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
          .map((f) => path.join(dir, f)),
      );
    } else if (fs.statSync(full).isDirectory()) walk(full);
    else files.push(full);
  }
  return files.sort();
}

/** How the walker reads the tree (the real file system, or a table in the walker's own test). */
interface SourceHost {
  readonly read: (file: string) => string;
  readonly isFile: (file: string) => boolean;
}

const FILE_SYSTEM: SourceHost = {
  read: (file) => fs.readFileSync(file, "utf8"),
  isFile: (file) => fs.existsSync(file) && fs.statSync(file).isFile(),
};

/** A relative specifier's file (`x.ts`, `x/index.ts`, or a `.js` file as is); undefined for packages. */
function resolve(host: SourceHost, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const found = [`${base}.ts`, path.join(base, "index.ts"), base].find(host.isFile);
  if (!found) throw new Error(`${path.relative(REPO, from)}: cannot resolve "${specifier}"`);
  return found;
}

/** The import graph of `files`: each file's relative imports among the `.ts` sources it can reach. */
function importGraph(files: readonly string[], host: SourceHost = FILE_SYSTEM): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [...files];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (graph.has(file)) continue;
    const targets = file.endsWith(".ts") ? importSpecifiers(file, host.read(file)).flatMap((s) => resolve(host, file, s) ?? []) : [];
    graph.set(file, [...new Set(targets)]);
    pending.push(...targets.filter((t) => !graph.has(t)));
  }
  return graph;
}

/** A set of files that import each other (a strongly connected component), and one cycle through them. */
interface Tangle {
  readonly files: readonly string[];
  /** The shortest cycle through the first file, first file repeated at the end. */
  readonly cycle: readonly string[];
}

/**
 * Every tangle of the graph, once each: Tarjan's strongly connected components, each shown with
 * one shortest cycle through its first file (what to break is the maintainer's choice; a tangle
 * of several cycles keeps failing, with its next cycle, until all are gone).
 */
function findTangles(graph: ReadonlyMap<string, readonly string[]>): Tangle[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const selfImport = (graph.get(file) ?? []).includes(file);
      if (component.length > 1 || selfImport) components.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return components.map((files) => ({ files, cycle: shortestCycle(graph, files[0], new Set(files)) }));
}

/** The shortest path from `start` back to itself inside `members` (breadth first). */
function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, start: string, members: ReadonlySet<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const cycle = [file];
        while (cycle[0] !== start) cycle.unshift(previous.get(cycle[0]) as string);
        return [...cycle, start];
      }
      if (!previous.has(next) && next !== start) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

describe("import cycles", () => {
  it("the walker finds a cycle, with `import type` and re-exports, and lists it in order", () => {
    const files: Record<string, string> = {
      "/x/a.ts": 'import type { B } from "./b";\nexport const a = 1;',
      "/x/b.ts": 'export * from "./c";\nexport type B = string;',
      "/x/c.ts": 'import { a } from "./a";\nimport * as fs from "node:fs";',
      "/x/d.ts": 'import { a } from "./a";',
    };
    const graph = importGraph(["/x/d.ts"], { read: (f) => files[f], isFile: (f) => f in files });
    expect(findTangles(graph)).toEqual([{ files: ["/x/a.ts", "/x/b.ts", "/x/c.ts"], cycle: ["/x/a.ts", "/x/b.ts", "/x/c.ts", "/x/a.ts"] }]);
  });

  it("the walker finds no cycle in a tree, and fails on an import it cannot resolve", () => {
    const files: Record<string, string> = {
      "/x/a.ts": 'import { b } from "./b";\nimport { c } from "./c";',
      "/x/b.ts": 'import { c } from "./c";',
      "/x/c.ts": "",
    };
    expect(findTangles(importGraph(["/x/a.ts"], { read: (f) => files[f], isFile: (f) => f in files }))).toEqual([]);
    expect(() => importGraph(["/x/a.ts"], { read: () => 'import "./missing";', isFile: (f) => f === "/x/a.ts" })).toThrow(/cannot resolve ".\/missing"/);
  });

  it("none in main.ts, config/, constructs/, stacks/ and scripts/*.ts (type-only imports included)", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const relative = (list: readonly string[]) => list.map((file) => path.relative(REPO, file));
    const tangles = findTangles(importGraph(files)).map(
      (tangle) =>
        `${relative(tangle.cycle).join(" -> ")}${tangle.files.length > tangle.cycle.length - 1 ? ` (files that import each other: ${relative(tangle.files).join(", ")})` : ""}`,
    );
    expect(tangles).toEqual([]);
  });
});
