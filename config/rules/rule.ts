import { NameRule } from "../azure-rules";

/** One problem in the config: the field path, the value received and the rule it breaks. */
export interface ConfigIssue {
  readonly path: string;
  readonly value?: unknown;
  readonly message: string;
}

/** A value as an issue shows it: JSON, cut to 100 characters. */
export function showValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/**
 * A config rule: a name (what must hold) and a check that returns every issue it finds in its
 * context (the config, the derived names, or one hosted cluster). All rules have this shape.
 */
export interface Rule<Context> {
  readonly rule: string;
  readonly check: (context: Context) => ConfigIssue[];
}

/** Runs every rule on `context` and returns all their issues, in rule order. */
export function runRules<Context>(rules: ReadonlyArray<Rule<Context>>, context: Context): ConfigIssue[] {
  return rules.flatMap((r) => r.check(context));
}

/** An issue when `name` breaks an Azure naming rule. */
export function nameIssue(rule: NameRule, name: string, origin: string, what: string): ConfigIssue[] {
  return rule.test(name) ? [] : [{ path: origin, value: name, message: `gives the ${what} "${name}", which ${rule.rule}` }];
}

/** An issue for every entry whose key an earlier entry already had. */
export function duplicates(entries: Array<{ key: string; path: string; value?: unknown }>, message: string): ConfigIssue[] {
  const seen = new Set<string>();
  const issues: ConfigIssue[] = [];
  for (const entry of entries) {
    if (seen.has(entry.key)) issues.push({ path: entry.path, value: entry.value ?? entry.key, message });
    seen.add(entry.key);
  }
  return issues;
}
