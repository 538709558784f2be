// Parses Mermaid diagrams with Mermaid itself (the parser GitHub's renderer runs), in Node:
// Mermaid sanitizes labels with DOMPurify, which needs a DOM, so jsdom provides the window.
// stdin: a JSON array of diagram texts; stdout: a JSON array of { ok, type } or { ok: false, error }.
// Mermaid's ESM bundle (what a browser's `import` of Mermaid loads: the same release, its dependencies
// bundled into chunks) loads in ~0.07 CPU-s; the package's main entry, mermaid.core.mjs, imports its
// dependencies file by file (lodash-es, d3...) and took ~0.65. Both give the same results (checked on
// every diagram of help/ and broken ones).
import process from "node:process";
import { JSDOM } from "jsdom";

globalThis.window = new JSDOM("").window;
const { default: mermaid } = await import("mermaid/dist/mermaid.esm.mjs");

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const text of JSON.parse(input)) {
  try {
    const { diagramType } = await mermaid.parse(text);
    results.push({ ok: true, type: diagramType });
  } catch (error) {
    results.push({ ok: false, error: String(error?.message ?? error) });
  }
}
process.stdout.write(JSON.stringify(results));
