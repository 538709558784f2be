import * as fs from "node:fs";
import * as path from "node:path";

/**
 * Many cases in one terraform run (each run costs ~0.05-0.1 CPU-s, `terraform init` more):
 * built-in-only configurations combined into one root module with their names prefixed
 * (combineCases, caseDiagnostics, caseOutput), or, where each case's names must stay as
 * synthesized, one local module per case (writeModuleCases, moduleCaseOutcomes). Keep a case a run
 * of its own only when it proves a whole run's exit status or stops Terraform before the others.
 */

/**
 * Cases of built-in-only Terraform JSON combined into one configuration, so that one terraform run
 * checks them all (each run costs ~0.1 CPU-s): every root-level name of a case (variable, local,
 * output, check, resource, data source) becomes `<case>__<name>`, and so does every reference to it
 * (`var.x`, `local.x`, `terraform_data.x`, `data.t.x`: in expressions, import `to`, depends_on).
 * Write it with JSON.stringify(config, null, 2): the line a diagnostic quotes is then the case's own.
 */
export function combineCases(cases: Record<string, Record<string, any>>): Record<string, any> {
  const combined: Record<string, any> = {};
  for (const [prefix, config] of Object.entries(cases)) {
    const references = new Map<string, string>();
    const refer = (head: string, block: Record<string, unknown> = {}) =>
      Object.keys(block).forEach((name) => references.set(`${head}${name}`, `${head}${prefix}__${name}`));
    refer("var.", config.variable);
    refer("local.", config.locals);
    for (const [type, block] of Object.entries<any>(config.resource ?? {})) refer(`${type}.`, block);
    for (const [type, block] of Object.entries<any>(config.data ?? {})) refer(`data.${type}.`, block);
    const escaped = [...references.keys()].sort((a, b) => b.length - a.length).map((r) => r.replace(/[.-]/g, "\\$&"));
    const pattern = new RegExp(`(?<![\\w.-])(${escaped.join("|") || "(?!)"})(?![\\w-])`, "g");
    const renamed = JSON.parse(JSON.stringify(config), (_key, value) =>
      typeof value === "string" ? value.replace(pattern, (r) => references.get(r)!) : value,
    );
    // Names that hold "__" could meet (a + b__c, a__b + c): a name taken twice is an error, not a silent overwrite.
    const put = (into: Record<string, unknown>, name: string, body: unknown) => {
      if (`${prefix}__${name}` in into) throw new Error(`combineCases: ${prefix}__${name} is taken twice`);
      into[`${prefix}__${name}`] = body;
    };
    for (const [block, content] of Object.entries<any>(renamed)) {
      if (["variable", "locals", "output", "check"].includes(block)) {
        for (const [name, body] of Object.entries(content)) put((combined[block] ??= {}), name, body);
      } else if (block === "resource" || block === "data") {
        for (const [type, byName] of Object.entries<any>(content)) {
          for (const [name, body] of Object.entries(byName)) put(((combined[block] ??= {})[type] ??= {}), name, body);
        }
      } else if (block === "import") (combined.import ??= []).push(...content);
      else if (block !== "//" && JSON.stringify(content) !== "{}") throw new Error(`combineCases: case ${prefix}'s "${block}" block cannot be renamed`);
    }
  }
  return combined;
}

/**
 * The diagnostics of a run's output ("Error: ..." or "Warning: ..." up to the next one or to the
 * run's summary), each with the case (a combineCases prefix) whose object its "on ... in ..." line names.
 */
export function caseDiagnostics(output: string, cases: readonly string[]): Array<{ case: string | undefined; text: string }> {
  const starts = [...output.matchAll(/^[│ ]*(Error|Warning): /gm)].map((m) => m.index);
  return starts.map((start, i) => {
    const text = output.slice(start, starts[i + 1] ?? output.length).split(/^(?=Apply complete!|Plan: |No changes\.|Changes to Outputs:|Outputs:)/m)[0];
    const context = /^[│ ]*on \S+ line \d+, in ([^\n]*):$/m.exec(text)?.[1] ?? "";
    // The longest case name that prefixes a name there (case `a` must not claim `a__b__x` of case `a__b`).
    const named = cases.filter((c) => new RegExp(`(^|[."])${c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}__`).test(context));
    return { case: named.sort((a, b) => b.length - a.length)[0], text };
  });
}

/** What a run of `name` alone would have printed: `output` without the other cases' diagnostics. */
export function caseOutput(output: string, cases: readonly string[], name: string): string {
  return caseDiagnostics(output, cases)
    .filter((d) => d.case !== undefined && d.case !== name)
    .reduce((text, d) => text.replace(d.text, ""), output);
}

/**
 * Cases whose names must stay as synthesized, in one terraform run, one local module each
 * (`case_<i>`; the creation-guard tests): each case's configuration in its folder, a root module
 * calling them, a state holding each case's resources under its module address (`state`, else
 * `base`'s), and the modules' manifest `terraform init` would write (for local modules init only
 * records where they are, and costs ~1 CPU-s reading every case; a manifest Terraform refuses
 * fails the plan, an error of no case for moduleCaseOutcomes).
 */
export function writeModuleCases(dir: string, base: { resources: object[] }, cases: ReadonlyArray<{ config: object; state?: { resources: object[] } }>): void {
  const module = (i: number) => `case_${i}`;
  cases.forEach(({ config }, i) => {
    fs.mkdirSync(path.join(dir, module(i)), { recursive: true });
    fs.writeFileSync(path.join(dir, module(i), "main.tf.json"), JSON.stringify(config));
  });
  fs.writeFileSync(
    path.join(dir, "main.tf.json"),
    JSON.stringify({ module: Object.fromEntries(cases.map((_, i) => [module(i), { source: `./${module(i)}` }])) }),
  );
  const resources = cases.flatMap(({ state }, i) => (state ?? base).resources.map((resource) => ({ ...resource, module: `module.${module(i)}` })));
  fs.writeFileSync(path.join(dir, "terraform.tfstate"), JSON.stringify({ ...base, resources }));
  fs.mkdirSync(path.join(dir, ".terraform", "modules"), { recursive: true });
  const manifest = [{ Key: "", Source: "", Dir: "." }, ...cases.map((_, i) => ({ Key: module(i), Source: `./${module(i)}`, Dir: module(i) }))];
  fs.writeFileSync(path.join(dir, ".terraform", "modules", "modules.json"), JSON.stringify({ Modules: manifest }));
}

/**
 * Each writeModuleCases case's outcome in the output of `terraform plan -detailed-exitcode -json`:
 * its errors (`summary: detail`, the diagnostics from its folder) and the status a plan of that
 * case alone returns (1 with an error, 2 with a planned change of its module, else 0). Throws on an
 * error of no case; the run's exit code must be the worst of the cases'.
 */
export function moduleCaseOutcomes(run: { status: number | null; stdout: string; stderr: string }, count: number): Array<{ status: number; errors: string[] }> {
  const messages = run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
  const errors = messages.filter((message) => message["@level"] === "error");
  const unplaced = errors.filter((message) => !/^case_\d+\//.test(message.diagnostic?.range?.filename ?? ""));
  if (unplaced.length > 0) throw new Error(`errors of no case:\n${JSON.stringify(unplaced, null, 2)}\n${run.stderr}`);
  // A case Terraform refuses before planning (at validation) stops the plan of every case: the
  // others would read as unchanged. A plan that ran to its end writes its change summary.
  if (!messages.some((message) => message.type === "change_summary")) {
    throw new Error(`the plan stopped before planning every case (no change summary):\n${JSON.stringify(errors, null, 2)}\n${run.stderr}`);
  }
  const outcomes = Array.from({ length: count }, (_, i) => {
    const own = errors
      .filter((message) => message.diagnostic.range.filename.startsWith(`case_${i}/`))
      .map((message) => `${message.diagnostic.summary}: ${message.diagnostic.detail}`);
    const changed = messages.some((message) => message.type === "planned_change" && message.change.resource.module === `module.case_${i}`);
    return { status: own.length > 0 ? 1 : changed ? 2 : 0, errors: own };
  });
  const statuses = outcomes.map((o) => o.status);
  expect(run.status).toBe(statuses.includes(1) ? 1 : statuses.includes(2) ? 2 : 0);
  return outcomes;
}
