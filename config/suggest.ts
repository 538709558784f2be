import { z } from "zod";
import { editDistance } from "./azure-regions";
import { formatPath } from "./boundary";
import { GO_DURATION } from "./schema";

/**
 * "Did you mean" for an unknown config key: the keys valid at that place within a small edit
 * distance (`nodepools` → nodePools, `relaseImage` → releaseImage), and the key itself where it is
 * valid one level up or one level down (a key indented one level too deep or too shallow). The
 * keys come from the config's own JSON Schema, built only when a key is unknown.
 */

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

let cached: JsonSchema | undefined;

function rootSchema(schema: z.ZodType): JsonSchema {
  cached ??= z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return cached;
}

/** The schema nodes a value at `path` may match (every branch of a union). */
function nodesAt(root: JsonSchema, path: readonly PropertyKey[]): JsonSchema[] {
  let nodes = flatten([root]);
  for (const segment of path) {
    nodes = flatten(
      nodes.flatMap((node) => {
        if (typeof segment === "number") return node.items ? [node.items] : [];
        const property = node.properties?.[String(segment)];
        if (property) return [property];
        return typeof node.additionalProperties === "object" ? [node.additionalProperties] : [];
      }),
    );
  }
  return nodes;
}

function flatten(nodes: JsonSchema[]): JsonSchema[] {
  return nodes.flatMap((node) => [node, ...flatten([...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])]);
}

function keysAt(root: JsonSchema, path: readonly PropertyKey[]): string[] {
  return [...new Set(nodesAt(root, path).flatMap((node) => Object.keys(node.properties ?? {})))].filter((key) => key !== "$schema");
}

/** A hint for the unknown `key` at `path` (the map it is in), or undefined when nothing is near. */
export function suggestKey(schema: z.ZodType, path: readonly PropertyKey[], key: string): string | undefined {
  const root = rootSchema(schema);
  const valid = keysAt(root, path);
  const limit = key.length <= 4 ? 1 : key.length <= 10 ? 2 : 3;
  const near = valid
    .map((candidate) => ({ candidate, distance: Math.min(editDistance(key, candidate), editDistance(key.toLowerCase(), candidate.toLowerCase()) + 0.5) }))
    .filter((c) => c.distance <= limit)
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, 3)
    .map((c) => c.candidate);
  const hints: string[] = [];
  if (near.length > 0) hints.push(`did you mean ${near.join(" or ")}?`);
  // Valid one level up: the key was indented one level too deep.
  const stripped = trailingIndexes(path);
  if (stripped.length > 0) {
    const parent = trailingIndexes(stripped.slice(0, -1));
    if (keysAt(root, parent).includes(key)) hints.push(`${key} is a key of ${formatPath(parent)}: indent it one level less`);
  }
  // Valid one level down: under one of the keys here (a list's items included).
  const below = valid.flatMap((child) => {
    const childPath = [...path, child];
    if (keysAt(root, childPath).includes(key)) return [formatPath(childPath)];
    return keysAt(root, [...childPath, 0]).includes(key) ? [`each item of ${formatPath(childPath)}`] : [];
  });
  if (below.length > 0) hints.push(`${key} is a key of ${below.join(" and ")}: move it there`);
  return hints.length > 0 ? hints.join("; ") : undefined;
}

/** `path` without the list indexes at its end (the map a list item belongs to). */
function trailingIndexes(path: readonly PropertyKey[]): PropertyKey[] {
  const result = [...path];
  while (result.length > 0 && typeof result[result.length - 1] === "number") result.pop();
  return result;
}

/** Whether the field at `path` takes a Go duration (its pattern is GO_DURATION). */
export function expectsDuration(schema: z.ZodType, path: readonly PropertyKey[]): boolean {
  return nodesAt(rootSchema(schema), path).some((node) => (node as { pattern?: string }).pattern === GO_DURATION.source);
}
