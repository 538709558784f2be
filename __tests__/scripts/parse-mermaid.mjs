// Parses Mermaid diagrams with Mermaid itself (the parser GitHub's renderer runs), in Node:
// Mermaid sanitizes labels with DOMPurify, which needs a DOM, so jsdom provides the window.
// stdin: a JSON array of diagram texts; stdout: a JSON array of { ok, type } or { ok: false, error }.
import process from "node:process";
import { JSDOM } from "jsdom";

globalThis.window = new JSDOM("").window;
const { default: mermaid } = await import("mermaid");

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
