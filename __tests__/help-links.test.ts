import * as fs from "node:fs";
import * as path from "node:path";
import { REPO } from "./helpers";

/**
 * Every link into help/ resolves: `[text](page.md#anchor)` in help/, README.md and CONTRIBUTING.md,
 * and `help/<page>.md#anchor` written in the source (error messages and warnings point users there).
 * Anchors follow GitHub's rules for headings.
 */

/** GitHub's anchor for a heading: its text lowercased, punctuation dropped, spaces as `-`. */
export function githubSlug(heading: string): string {
  // Code spans keep their text (`<name>` included); outside them, inline HTML is dropped.
  const text = heading
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith("`") ? part : part.replace(/<[^>]+>/g, "")))
    .join("")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The anchors of a Markdown page's headings, repeated ones numbered as GitHub does (`-1`, `-2`). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = !fence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const read = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8");

function files(dir: string, ext: string): string[] {
  return fs
    .readdirSync(path.join(REPO, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name), ext) : e.name.endsWith(ext) ? [path.join(dir, e.name)] : []));
}

interface Link {
  readonly from: string;
  readonly target: string; // repo-relative file
  readonly anchor?: string;
}

/** Links of a Markdown file to .md files of the repository (external URLs skipped). */
function markdownLinks(file: string): Link[] {
  const links: Link[] = [];
  let fence = false;
  for (const line of read(file).split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    for (const [, href] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(href)) continue;
      const [target, anchor] = href.split("#");
      if (target && !target.endsWith(".md")) continue;
      links.push({ from: file, target: target ? path.normalize(path.join(path.dirname(file), target)) : file, anchor });
    }
  }
  return links;
}

/** `help/<page>.md` and `help/<page>.md#anchor` written in a source file. */
function sourceLinks(file: string): Link[] {
  return [...read(file).matchAll(/\bhelp\/([\w.-]+\.md)(?:#([\w-]+))?/g)].map(([, page, anchor]) => ({ from: file, target: path.join("help", page), anchor }));
}

describe("links into help/", () => {
  const markdown = [...files("help", ".md"), "README.md", "CONTRIBUTING.md"];
  const sources = ["main.ts", ...files("config", ".ts"), ...files("constructs", ".ts"), ...files("stacks", ".ts"), ...files("scripts", ".ts")];
  const links = [...markdown.flatMap(markdownLinks), ...sources.flatMap(sourceLinks)];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => anchorCache.get(file) ?? anchorCache.set(file, anchorsOf(read(file))).get(file)!;

  it("finds the links it checks (help pages, the source's error messages, troubleshooting anchors)", () => {
    expect(links.length).toBeGreaterThan(100);
    expect(links.filter((l) => l.target === path.join("help", "troubleshooting.md") && l.anchor && !l.from.startsWith("help")).length).toBeGreaterThan(3);
  });

  it("every link points to an existing page and heading", () => {
    const broken = links.filter((l) => !fs.existsSync(path.join(REPO, l.target)) || (l.anchor !== undefined && !anchors(l.target).has(l.anchor)));
    expect(broken.map((l) => `${l.from} -> ${l.target}${l.anchor === undefined ? "" : `#${l.anchor}`}`)).toEqual([]);
  });

  it.each([
    ["Waiting for `Available`", "waiting-for-available"],
    ["What `cdktf destroy '*'` does with the defaults", "what-cdktf-destroy--does-with-the-defaults"],
    ["403 when writing Key Vault secrets (aroHcp)", "403-when-writing-key-vault-secrets-arohcp"],
    ["A [linked](x.md) heading: a/b", "a-linked-heading-ab"],
    ["clusters[].hostedCluster", "clustershostedcluster"],
    ["What `cluster-<name>` creates", "what-cluster-name-creates"],
    ["Keys <br> and `x`", "keys--and-x"],
  ])("slugs %j as GitHub does: %s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it("numbers repeated headings and ignores headings in code blocks", () => {
    expect([...anchorsOf("# A\n## A\n```\n# B\n```\n## A\n")]).toEqual(["a", "a-1", "a-2"]);
  });
});
