import { Document, LineCounter, visit } from "yaml";

/**
 * YAML aliases (`*name`) that name no anchor (`&name`) before them. The YAML library throws
 * "Unresolved alias (the anchor must be set before the alias): name" from toJS without saying
 * where; the config (boundary.ts), the operator bundle and the kubeconfig check report the place.
 */

/** Where an alias is that names no anchor. */
interface UnresolvedAlias {
  /** The anchor name the alias uses (`*name`). */
  readonly name: string;
  readonly line: number;
  readonly col: number;
}

/**
 * The first alias (`*name`) of `document` that no anchor (`&name`) before it defines, with its
 * line and column; undefined when every alias resolves, or when the document is too deep to walk
 * (the walk recurses per nesting level).
 */
function unresolvedAlias(document: Document, lineCounter: LineCounter): UnresolvedAlias | undefined {
  let found: UnresolvedAlias | undefined;
  try {
    visit(document, {
      Alias(_, node) {
        if (node.resolve(document) !== undefined) return undefined;
        found = { name: node.source.length > 100 ? `${node.source.slice(0, 97)}...` : node.source, ...lineCounter.linePos(node.range?.[0] ?? 0) };
        return visit.BREAK;
      },
    });
  } catch {
    return undefined;
  }
  return found;
}

/** The message for an alias no anchor defines. */
export function unresolvedAliasMessage(name: string): string {
  return `uses the alias *${name}, but no anchor &${name} comes before it (an alias repeats a value marked &${name} earlier in the file); mark that value with &${name} above this line, or write the value out`;
}

/**
 * Why `document.toJS()` threw on a document without syntax errors: an alias no anchor defines
 * (where), an alias bomb (the YAML library's "Excessive alias count indicates a resource
 * exhaustion attack"), or another error (its first line). Each caller words it for its file.
 */
export function toJsProblem(
  error: unknown,
  document: Document,
  lineCounter: LineCounter,
): ({ readonly kind: "unresolved alias" } & UnresolvedAlias) | { readonly kind: "alias bomb" } | { readonly kind: "other"; readonly message: string } {
  const alias = unresolvedAlias(document, lineCounter);
  if (alias) return { kind: "unresolved alias", ...alias };
  const message = String((error as Error)?.message ?? error).split("\n")[0];
  return /excessive alias count/i.test(message) ? { kind: "alias bomb" } : { kind: "other", message };
}
