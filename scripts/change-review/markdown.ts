import type { CrdCheck } from "./crd-check";
import type { Finding } from "./dangers";
import { AttributeChange, BlockChange, ResourceChange, StackDiff, StackJson, flatten } from "./diff";
import { MASK, MaskedValues, SensitivityContext, isSensitive, sensitivityContext } from "./sensitive";
import { clusterHeadlines, isGuardLocal, isGuardResource, objectSummary, retiredStacks } from "./summaries";

export interface MarkdownInput {
  readonly oldLabel: string;
  readonly newLabel: string;
  readonly stacks: readonly StackDiff[];
  readonly findings: readonly Finding[];
  readonly crd: CrdCheck;
  /** Review-mode notes of the synths (placeholder keys). @default - none */
  readonly notes?: readonly string[];
}

/** Longest value shown in a table cell; longer ones are cut (a PR comment holds 65,536 characters). */
const MAX_VALUE = 160;
/** GitHub's limit for a pull-request comment. */
export const MAX_COMMENT = 65536;
/** Attribute rows shown per resource. */
const MAX_ROWS = 40;

const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\|/g, "&#124;").replace(/\n/g, " ");
/** A value as code: Markdown still renders inside <code>, so its brackets are entities (no link or image). */
const code = (text: string) => `<code>${html(text).replace(/[[\]]/g, (c) => `&#${c.charCodeAt(0)};`)}</code>`;
/** Markdown punctuation that could make text a link, an image, emphasis or a code span: shown as itself. */
const inline = (text: string) => html(text).replace(/[\\`*_[\]!~]/g, (c) => `&#${c.charCodeAt(0)};`);

function shown(value: unknown): string {
  if (value === undefined) return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return code(text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text);
}

/** The block kind and type isSensitive needs, for a resource or another block. */
interface Owner {
  readonly kind: string;
  readonly type: string;
  readonly before?: any;
  readonly after?: any;
}

function attributeRows(owner: Owner, attributes: readonly AttributeChange[], context: SensitivityContext, masked: MaskedValues): string[] {
  const rows = ["| Attribute | Before | After |", "|---|---|---|"];
  for (const change of attributes.slice(0, MAX_ROWS)) {
    const secret =
      isSensitive(owner.kind, owner.type, owner.before, change.path, [change.before, change.after], context) ||
      isSensitive(owner.kind, owner.type, owner.after, change.path, [change.before, change.after], context);
    if (secret) [change.before, change.after].forEach((value) => masked.add(value));
    const value = (v: unknown) => (secret && v !== undefined ? MASK : shown(v));
    const marks = [change.forcesReplacement ? " **forces replacement**" : "", change.ignored ? " _(ignore_changes: not applied)_" : ""].join("");
    rows.push(`| ${code(change.path)}${marks} | ${value(change.before)} | ${value(change.after)} |`);
  }
  if (attributes.length > MAX_ROWS) rows.push(`| … ${attributes.length - MAX_ROWS} more | | |`);
  return rows;
}

const ACTION_WORD: Record<ResourceChange["action"], string> = {
  create: "create",
  import: "import (adopt)",
  delete: "destroy",
  update: "update in place",
  replace: "**replace**",
};

function resourceLine(change: ResourceChange): string {
  const where = change.constructPath ? ` (${code(change.constructPath)})` : "";
  const moved = change.movedFrom ? `, moved from ${code(change.movedFrom)}` : "";
  const cascade = change.replacedWith ? `, because it refers to a replaced resource (${change.replacedWith.map(code).join(", ")})` : "";
  const action = change.movedFrom && change.attributes.length === 0 ? "address change only" : ACTION_WORD[change.action];
  const summary = objectSummary(change);
  return `- ${code(change.address)}${where}: ${action}${moved}${cascade}${summary ? ` — ${html(summary)}` : ""}`;
}

function blockSection(block: BlockChange, context: SensitivityContext, masked: MaskedValues): string[] {
  // The creation guard's locals are its internals: counted as "guards updated" (stackDetails).
  if (block.kind === "locals") block = { ...block, attributes: block.attributes.filter((a) => !isGuardLocal(a.path)) };
  if (block.action === "change" && block.attributes.length === 0) return [];
  if (block.action !== "change") return [`- ${code(block.address)}: ${block.action === "add" ? "added" : "removed"}`];
  const owner = { kind: block.kind, type: block.address.split(".")[0], before: block.before, after: block.after };
  return [`- ${code(block.address)}: changed`, "", ...attributeRows(owner, block.attributes, context, masked), ""];
}

function counts(diff: StackDiff): { added: number; removed: number; updated: number; replaced: number } {
  const n = (...actions: ResourceChange["action"][]) => diff.resources.filter((r) => actions.includes(r.action) && !isGuardResource(r)).length;
  return { added: n("create", "import"), removed: n("delete"), updated: n("update"), replaced: n("replace") };
}

function stackDetails(diff: StackDiff, context: SensitivityContext, masked: MaskedValues): string[] {
  const c = counts(diff);
  const lines = [`<details><summary><b>${html(diff.stack)}</b> (${diff.status}): +${c.added} −${c.removed} ~${c.updated} ±${c.replaced}</summary>`, ""];
  const guards = diff.resources.filter(isGuardResource).length + (guardLocalsChanged(diff) ? 1 : 0);
  if (guards > 0) lines.push("_Creation guards updated._", "");
  const group = (title: string, actions: ResourceChange["action"][]) => {
    const members = diff.resources.filter((r) => actions.includes(r.action) && !isGuardResource(r));
    if (members.length === 0) return;
    lines.push(`**${title}**`, "");
    for (const change of members) {
      lines.push(resourceLine(change));
      if (change.attributes.length > 0) {
        const owner = { kind: "resource", type: change.type, before: change.before, after: change.after };
        lines.push("", ...attributeRows(owner, change.attributes, context, masked).map((row) => `  ${row}`), "");
      }
    }
    lines.push("");
  };
  group("Replaced", ["replace"]);
  group("Removed", ["delete"]);
  group("Changed", ["update"]);
  group("Added", ["create", "import"]);
  const blocks = diff.blocks.map((block) => blockSection(block, context, masked)).filter((section) => section.length > 0);
  if (blocks.length > 0) lines.push("**Other blocks** (backend, providers, variables, locals, data sources, outputs)", "", ...blocks.flat(), "");
  lines.push("</details>", "");
  return lines;
}

function guardLocalsChanged(diff: StackDiff): boolean {
  return diff.blocks.some((b) => b.kind === "locals" && b.attributes.some((a) => isGuardLocal(a.path)));
}

/** A retirement lifts prevent_destroy from everything its stacks protect: one line per stack, not one per resource. */
function reviewLines(findings: readonly Finding[], stacks: readonly StackDiff[]): string[] {
  const retired = retiredStacks(stacks);
  const lifted = (f: Finding) => retired.has(f.stack) && f.message.startsWith("lifts prevent_destroy");
  const lines = findings.filter((f) => !lifted(f)).map(findingLine);
  for (const stack of retired) {
    const count = findings.filter((f) => f.stack === stack && lifted(f)).length;
    if (count > 0)
      lines.push(`- **${html(stack)}**: lifts prevent_destroy from ${count} resource${count === 1 ? "" : "s"} (the retirement: the destroy deletes them)`);
  }
  return lines;
}

/** Registers every sensitive leaf of a stack, so no later text can carry it (MaskedValues.scrub). */
function collectSecrets(stack: StackJson | undefined, context: SensitivityContext, masked: MaskedValues): void {
  for (const kind of ["resource", "data", "variable", "output", "locals", "provider"]) {
    const section = stack?.[kind];
    if (!section || typeof section !== "object") continue;
    const twoLevel = kind === "resource" || kind === "data" || kind === "provider";
    const entries: [string, any][] = twoLevel
      ? Object.entries<any>(section).flatMap(([type, byName]) => Object.values<any>(byName ?? {}).map((body): [string, any] => [type, body]))
      : kind === "locals"
        ? [["locals", section]]
        : Object.values<any>(section).map((body): [string, any] => [kind, body]);
    for (const [type, body] of entries) {
      for (const [path, value] of flatten(body)) if (isSensitive(kind, type, body, path, [value], context)) masked.add(value);
    }
  }
}

/**
 * A finding's message as Markdown. Messages are plain text (config values interpolated as they
 * are) with code spans between backticks: every segment is escaped, so no value can become HTML,
 * a link or an image. A backtick inside a value can only move the code formatting.
 */
export function messageMarkdown(message: string): string {
  return message
    .split("`")
    .map((part, index) => (index % 2 === 1 ? `<code>${inline(part)}</code>` : inline(part)))
    .join("");
}

function findingLine(finding: Finding): string {
  return `- **${html(finding.stack)}**${finding.address ? ` ${code(finding.address)}` : ""}: ${messageMarkdown(finding.message)}`;
}

/** The review as a pull-request comment: summary and dangers first, every stack's details folded. */
export function renderMarkdown(input: MarkdownInput): string {
  const masked = new MaskedValues();
  const dangers = input.findings.filter((f) => f.severity === "danger");
  const reviews = input.findings.filter((f) => f.severity === "review");
  const changed = input.stacks.filter((s) => s.status !== "unchanged");
  const unchanged = input.stacks.filter((s) => s.status === "unchanged");
  const lines = ["## hcp-azure change review", "", `${code(input.oldLabel)} → ${code(input.newLabel)}`, ""];
  lines.push(
    dangers.length > 0
      ? `⛔ **${dangers.length} dangerous change${dangers.length === 1 ? "" : "s"}**: this check fails. Read them; to go ahead anyway, rerun with \`--allow-dangerous\`.`
      : "✅ **Nothing dangerous.**",
    "",
  );
  for (const note of input.notes ?? []) lines.push(`_${html(note)}_`, "");
  for (const headline of clusterHeadlines(input.stacks)) lines.push(headline, "");
  if (changed.length === 0) lines.push("No stack changed.", "");
  else {
    lines.push("| Stack | Status | Added | Removed | Changed | Replaced |", "|---|---|---:|---:|---:|---:|");
    for (const diff of changed) {
      const c = counts(diff);
      lines.push(`| ${html(diff.stack)} | ${diff.status} | ${c.added} | ${c.removed} | ${c.updated} | ${c.replaced} |`);
    }
    lines.push("");
  }
  if (unchanged.length > 0) lines.push(`Unchanged: ${unchanged.map((s) => html(s.stack)).join(", ")}.`, "");
  if (dangers.length > 0) lines.push("### ⛔ Dangerous", "", ...dangers.map(findingLine), "");
  if (reviews.length > 0) lines.push("### ⚠️ To review", "", ...reviewLines(reviews, input.stacks), "");
  lines.push(`_${html(input.crd.note)}_`, "");
  const footer = "<sub>`npm run review` (help/review.md): configuration-level review of two synths; `terraform plan` remains the word on live state.</sub>\n";
  // Secrets of every stack are collected before anything is scrubbed.
  const details = changed.map((diff) => {
    const context = sensitivityContext(diff.before, diff.after);
    collectSecrets(diff.before, context, masked);
    collectSecrets(diff.after, context, masked);
    return stackDetails(diff, context, masked).join("\n");
  });
  let text = `${masked.scrub(lines.join("\n"))}\n`;
  if (details.length > 0) text += "### Details\n\n";
  // The summary always fits; stack details are added while the comment stays under GitHub's limit.
  const omitted: string[] = [];
  details.forEach((block, index) => {
    const scrubbed = `${masked.scrub(block)}\n`;
    if (omitted.length === 0 && text.length + scrubbed.length + footer.length + 300 <= MAX_COMMENT) text += scrubbed;
    else omitted.push(changed[index].stack);
  });
  if (omitted.length > 0) text += `_Details of ${omitted.map(html).join(", ")} left out to fit a pull-request comment (${MAX_COMMENT} characters)._\n\n`;
  return text + footer;
}
