import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { REPO } from "./helpers";

/**
 * Issue 23: no product source file over 300 lines, no function over 60 lines unless a comment
 * right above it says why it is long (a comment that mentions "long" or "longer").
 */

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;

function productSources(): string[] {
  const files = ["main.ts"];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(rel);
    }
  };
  for (const dir of ["config", "constructs", "stacks", "scripts", "runtime"]) walk(dir);
  return files.sort();
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

/** Functions longer than the limit without a comment above them saying why. */
function longFunctions(file: string, text: string): string[] {
  // A file of no more lines than the limit holds no function over it: not parsed (95 of 260 files).
  if (lineCount(text) <= MAX_FUNCTION_LINES) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > MAX_FUNCTION_LINES) {
        // The comment may sit on the function, or on the statement that holds it (const f = () => ...).
        let holder: ts.Node = node;
        while (holder.parent && !ts.isSourceFile(holder.parent) && !ts.isBlock(holder.parent) && !ts.isClassLike(holder.parent)) holder = holder.parent;
        const comments = [node, holder].flatMap((n) => ts.getLeadingCommentRanges(text, n.getFullStart()) ?? []).map((r) => text.slice(r.pos, r.end));
        if (!comments.some((c) => /\blong(er)?\b/i.test(c))) {
          const name = (node as ts.FunctionLikeDeclaration).name?.getText(source) ?? "(anonymous)";
          found.push(`${file}:${start + 1} ${name} is ${end - start + 1} lines`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("source shape (issue 23)", () => {
  const files = productSources();

  it("finds the product sources", () => {
    expect(files.length).toBeGreaterThan(150);
    expect(files).toEqual(expect.arrayContaining(["main.ts", path.join("config", "load.ts"), path.join("runtime", "fast-token-resolver.js")]));
  });

  it(`no product source file is over ${MAX_FILE_LINES} lines`, () => {
    const long = files.map((file) => ({ file, lines: lineCount(fs.readFileSync(path.join(REPO, file), "utf8")) })).filter((f) => f.lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines without a comment saying why`, () => {
    expect(files.flatMap((file) => longFunctions(file, fs.readFileSync(path.join(REPO, file), "utf8")))).toEqual([]);
  });

  it("the function check finds a long function and accepts one whose comment says why", () => {
    const body = Array.from({ length: 70 }, (_, i) => `  const x${i} = ${i};`).join("\n");
    expect(longFunctions("a.ts", `function big() {\n${body}\n}\n`)).toEqual(["a.ts:1 big is 72 lines"]);
    expect(longFunctions("a.ts", `// Long because it lists every case.\nfunction big() {\n${body}\n}\n`)).toEqual([]);
    expect(longFunctions("a.ts", `/** Longer than 60 lines: one table. */\nconst big = () => {\n${body}\n};\n`)).toEqual([]);
    const exactly = Array.from({ length: MAX_FUNCTION_LINES - 2 }, (_, i) => `  const x${i} = ${i};`).join("\n");
    expect(longFunctions("a.ts", `function full() {\n${exactly}\n}\n`)).toEqual([]);
    expect(longFunctions("a.ts", `function over() {\n${exactly}\n  return;\n}\n`)).toEqual(["a.ts:1 over is 61 lines"]);
  });
});
