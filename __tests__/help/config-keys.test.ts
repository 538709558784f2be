import * as fs from "node:fs";
import * as path from "node:path";
import { REPO } from "../helpers";

/**
 * help/ names config keys that exist (issue 24 item 7): every key path in backticks in
 * help/*.md (`clusters[].hostedCluster.fips`, `clusters[1].retired`, `hostedCluster.autoscaling`,
 * `nodePools[].releaseImage`, `managementCluster.aks.systemPool`...) resolves in the published JSON
 * Schema, and no sentence that says something is not in the config ("not in the config", "no
 * config key", "not offered"...) names a key the schema has.
 */

const SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO, "config", "hcp-azure.schema.json"), "utf8"));
const PAGES = fs
  .readdirSync(path.join(REPO, "help"))
  .filter((file) => file.endsWith(".md") && file !== "architecture.md") // architecture.md is generated
  .sort();
const read = (page: string) => fs.readFileSync(path.join(REPO, "help", page), "utf8");

/** The schema node(s) a JSON Schema node stands for, union branches included. */
const branches = (node: any): any[] =>
  [node, ...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])].flatMap((n) => (n === node ? [n] : branches(n)));

/** Whether `segments` (`clusters`, `[]`, `hostedCluster`...) name a place in the schema under `node`. */
function resolves(node: any, segments: readonly string[]): boolean {
  if (segments.length === 0) return true;
  const [head, ...rest] = segments;
  return branches(node).some((n) => {
    if (head === "[]") return n.items !== undefined && resolves(n.items, rest);
    // A key may hold dots (`evictionHard.memory.available`): the longest key that matches wins.
    for (let end = segments.length; end > 0; end--) {
      const key = segments.slice(0, end).join(".");
      if (n.properties?.[key]) return resolves(n.properties[key], segments.slice(end));
    }
    // A map (tags, labels): any key below it is the user's.
    return n.additionalProperties !== undefined && n.additionalProperties !== false && !n.properties;
  });
}

const ROOTS = Object.keys(SCHEMA.properties).filter((key) => key !== "$schema");
/** Key paths are written from the root, or from a cluster's `hostedCluster` or a pool's `nodePools[]`. */
const PREFIXES: Record<string, string[]> = {
  hostedCluster: ["clusters", "[]"],
  nodePools: ["clusters", "[]", "hostedCluster"],
};

/** The segments of a backticked key path, or undefined when the text is not one. */
function keyPath(text: string): string[] | undefined {
  const token = text.split(/[:=\s]/)[0];
  if (!/^[A-Za-z][A-Za-z0-9]*(\[\d*\])?([.[][A-Za-z0-9[\]]*)+$/.test(token) || token.includes("..")) return undefined;
  const segments = token
    .replace(/\[\d*\]/g, ".[]")
    .split(".")
    .filter(Boolean);
  // A file (`adopt.yaml`), or a field below a text key (`prefix.prefixString` of a claim mapping) is not a key path.
  if (/^(yaml|yml|json|md|ts|tf|js)$/.test(segments[segments.length - 1])) return undefined;
  if (ROOTS.includes(segments[0]) && segments.length > 1) return SCHEMA.properties[segments[0]].type === "string" ? undefined : segments;
  if (PREFIXES[segments[0]] && segments.length > 1) return [...PREFIXES[segments[0]], ...segments];
  return undefined;
}

/** Every key name the schema has, at any depth. */
function keyNames(node: any, names = new Set<string>()): Set<string> {
  for (const n of branches(node)) {
    for (const [key, child] of Object.entries(n.properties ?? {})) {
      names.add(key);
      keyNames(child, names);
    }
    if (n.items) keyNames(n.items, names);
  }
  return names;
}

describe("config keys named in help/", () => {
  it("every key path in backticks resolves in config/hcp-azure.schema.json", () => {
    const unknown: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const [, text] of read(page).matchAll(/`([^`\n]+)`/g)) {
        const segments = keyPath(text);
        if (!segments) continue;
        checked += 1;
        if (!resolves(SCHEMA, segments)) unknown.push(`help/${page}: \`${text}\``);
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(unknown).toEqual([]);
  });

  it("no sentence saying something is not in the config names a key the schema has", () => {
    const names = keyNames(SCHEMA);
    const NOT_IN_CONFIG = /not in the config|no config key|(has|have) no (config )?key|not offered:|no key writes|not configurable|cannot be configured/i;
    const offenders: string[] = [];
    for (const page of PAGES) {
      // Sentences (a table row is one), with a key's full path taken for what it is: a key.
      for (const sentence of read(page).split(/(?<=[.!?])\s+|\n(?=\|)|\n\n/)) {
        if (!NOT_IN_CONFIG.test(sentence)) continue;
        const before = sentence.split(NOT_IN_CONFIG)[0];
        const tokens = [...before.matchAll(/`([^`\n]+)`/g)].map(([, text]) => text);
        // Backticked key names, and long plain words that are key names ("NodePool autoscaling").
        const plain = before.replace(/`[^`\n]*`/g, " ").match(/\b[a-z][A-Za-z]{7,}\b/g) ?? [];
        const named = [...tokens.filter((t) => names.has(t) || keyPath(t)), ...plain.filter((word) => names.has(word))];
        if (named.length > 0) offenders.push(`help/${page}: ${named.join(", ")} in "${sentence.trim().slice(0, 160)}"`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
