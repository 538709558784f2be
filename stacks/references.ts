import { TerraformStack } from "cdktf";

/**
 * cdktf's `app.synth()` resolves every element of every stack twice: a "preparing" pass whose only
 * job is to turn references to another stack's resources into outputs and remote state, then the
 * real one. The stacks here never reference each other's resources: values cross stacks through
 * explicit remote state (`stack-setup.ts` `remoteState`) or derived names. So the preparing pass
 * only costs time (a third of a 100-cluster synth, measured with `--cpu-prof`) and is skipped; the
 * backend check it also does is kept. Without it a cross-stack reference would be written as an
 * address the stack does not declare, so `danglingReferences` fails the synth on one instead.
 */
export function skipPreparingResolve(stacks: readonly TerraformStack[]): void {
  for (const stack of stacks) {
    const withBackend = stack as unknown as { ensureBackendExists(): void };
    stack.prepareStack = () => withBackend.ensureBackendExists();
  }
}

/**
 * Checks each stack's Terraform JSON for dangling references as the synthesizer produces it (no
 * second read of the written files): returns the list the problems are added to, filled by
 * `app.synth()`, one `<stack>: <addresses>` entry per stack that has any.
 */
export function checkReferencesWhenSynthesized(stacks: readonly TerraformStack[]): string[] {
  const problems: string[] = [];
  for (const stack of stacks) {
    const toTerraform = stack.toTerraform.bind(stack);
    stack.toTerraform = () => {
      const json = toTerraform();
      const dangling = danglingReferences(json);
      if (dangling.length > 0) problems.push(`${stack.node.id}: ${dangling.join(", ")}`);
      return json;
    };
  }
  return problems;
}

/** `type.name` or `data.type.name`: a resource type has a provider prefix and an underscore. */
const ADDRESS = /(?<![\w.[\]"])(data\.)?([a-z][a-z0-9]*_[a-z0-9_]+)\.([A-Za-z_][A-Za-z0-9_-]*)/g;

const [DOLLAR, QUOTE, BACKSLASH, OPEN, CLOSE] = ["$", '"', "\\", "{", "}"].map((c) => c.charCodeAt(0));

/** The `${...}` expressions of a string, with their quoted literals removed (messages may quote anything). */
function expressions(text: string): string[] {
  const found: string[] = [];
  for (let start = text.indexOf("${"); start >= 0; start = text.indexOf("${", start + 2)) {
    // `$${` is an escaped literal, not an expression.
    if (start > 0 && text.charCodeAt(start - 1) === DOLLAR) continue;
    let depth = 0;
    let quoted = false;
    // The unquoted text (opening quotes included), copied a run at a time: manifests make long strings.
    let body = "";
    let from = start + 2;
    let i = start + 2;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (quoted) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) {
          quoted = false;
          from = i + 1;
        }
        continue;
      }
      if (c === QUOTE) {
        quoted = true;
        body += text.slice(from, i + 1);
      } else if (c === OPEN) depth++;
      else if (c === CLOSE && depth-- === 0) break;
    }
    if (!quoted) body += text.slice(from, i);
    found.push(body);
  }
  return found;
}

/**
 * References in a synthesized stack (its parsed Terraform JSON) to resources or data sources it
 * does not declare: in expressions, `depends_on` and `replace_triggered_by`. Empty when the stack
 * is self-contained.
 */
export function danglingReferences(stack: Record<string, any>): string[] {
  const declared = new Set<string>();
  for (const [type, byName] of Object.entries<Record<string, unknown>>(stack.resource ?? {}))
    for (const name of Object.keys(byName)) declared.add(`${type}.${name}`);
  for (const [type, byName] of Object.entries<Record<string, unknown>>(stack.data ?? {}))
    for (const name of Object.keys(byName)) declared.add(`data.${type}.${name}`);
  const dangling = new Set<string>();
  const check = (address: string) => {
    if (!declared.has(address)) dangling.add(address);
  };
  const walk = (value: unknown, key?: string): void => {
    if (typeof value === "string") {
      if (!value.includes("${")) return;
      for (const expression of expressions(value)) for (const [, data, type, name] of expression.matchAll(ADDRESS)) check(`${data ?? ""}${type}.${name}`);
    } else if (Array.isArray(value)) {
      for (const item of value) {
        // depends_on and replace_triggered_by hold plain addresses.
        if ((key === "depends_on" || key === "replace_triggered_by") && typeof item === "string" && !item.includes("${")) {
          const match = /^(data\.)?([a-z][a-z0-9]*_[a-z0-9_]+)\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(item);
          if (match) check(`${match[1] ?? ""}${match[2]}.${match[3]}`);
        } else walk(item, key);
      }
    } else if (value && typeof value === "object") {
      // Object.keys, not Object.entries: no pair per key (a 300-stack synth walks ~15 MB of JSON).
      for (const k of Object.keys(value)) walk((value as Record<string, unknown>)[k], k);
    }
  };
  walk(stack.resource);
  walk(stack.data);
  walk(stack.output);
  walk(stack.locals);
  walk(stack.provider);
  return [...dangling].sort();
}
