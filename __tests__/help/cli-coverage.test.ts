import * as fs from "node:fs";
import * as path from "node:path";
import { REPO } from "../helpers";

/**
 * help/cli-coverage.md against the flag list taken from HyperShift's CLI source at a named commit
 * (__tests__/fixtures/hypershift-cli-flags.json): every flag has a row, every row is a listed
 * flag, and every config key a row names exists in the published JSON Schema.
 */

interface FlagList {
  readonly commit: string;
  readonly commands: Record<string, { readonly files: string[]; readonly flags: string[] }>;
}

const read = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8");
const flagList = JSON.parse(read("__tests__/fixtures/hypershift-cli-flags.json")) as FlagList;
const doc = read("help/cli-coverage.md");

interface Row {
  readonly flag: string;
  readonly keys: readonly string[];
  readonly how: string;
}

/** The rows of each `## \`hypershift <command>\`` section. */
function sections(markdown: string): Map<string, Row[]> {
  const result = new Map<string, Row[]>();
  let current: Row[] | undefined;
  for (const line of markdown.split("\n")) {
    const heading = /^## `hypershift (.+)`$/.exec(line);
    if (heading) {
      current = [];
      result.set(heading[1], current);
      continue;
    }
    if (line.startsWith("## ")) current = undefined;
    const row = /^\|\s*`--([A-Za-z-]+)`\s*\|\s*(.*?)\s*\|\s*(.*?)\s*\|$/.exec(line);
    if (row && current) {
      const cells = row[2].split(/,\s*/).filter((cell) => cell !== "—");
      current.push({
        flag: row[1],
        keys: cells.map((cell) => cell.replace(/^`|`$/g, "")),
        how: row[3].trim(),
      });
    }
  }
  return result;
}

/** Every key path of the JSON Schema and each of its prefixes (`a.b.c` gives `a`, `a.b`, `a.b.c`). */
function schemaKeys(schema: any, prefix = ""): string[] {
  const branches = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return branches.flatMap((s: any) => [
    ...Object.entries(s.properties ?? {}).flatMap(([key, child]: [string, any]) => [`${prefix}${key}`, ...schemaKeys(child, `${prefix}${key}.`)]),
    ...(s.items ? [prefix.replace(/\.$/, "[]"), ...schemaKeys(s.items, `${prefix.replace(/\.$/, "")}[].`)] : []),
  ]);
}

const bySection = sections(doc);
const known = new Set(schemaKeys(JSON.parse(read("config/hcp-azure.schema.json"))));
const cases = Object.entries(flagList.commands).map(([command, { flags }]) => ({ command, flags }));

describe(`help/cli-coverage.md against the CLI flags of openshift/hypershift@${flagList.commit.slice(0, 7)}`, () => {
  it("has the four commands and the flag counts of the issue (90 create cluster azure, 25 create nodepool azure)", () => {
    expect(cases.map((c) => c.command)).toEqual(["create cluster azure", "create nodepool azure", "create infra azure", "create iam azure"]);
    expect(flagList.commands["create cluster azure"].flags).toHaveLength(90);
    expect(flagList.commands["create nodepool azure"].flags).toHaveLength(25);
  });

  it.each(cases)("$command: every listed flag has exactly one row, and every row is a listed flag", ({ command, flags }) => {
    const rows = bySection.get(command) ?? [];
    const documented = rows.map((row) => row.flag);
    expect(flags.filter((flag) => !documented.includes(flag))).toEqual([]);
    expect(documented.filter((flag) => !flags.includes(flag))).toEqual([]);
    expect(documented.filter((flag, i) => documented.indexOf(flag) !== i)).toEqual([]);
  });

  it.each(cases)("$command: every row names a config key or says why none applies", ({ command }) => {
    const unexplained = (bySection.get(command) ?? []).filter((row) => row.keys.length === 0 && !/^(n\/a|not offered)\b/.test(row.how));
    expect(unexplained.map((row) => row.flag)).toEqual([]);
  });

  it.each(cases)("$command: every key a row names exists in the JSON Schema", ({ command }) => {
    const rows = bySection.get(command) ?? [];
    const missing = rows.flatMap((row) => row.keys.filter((key) => !known.has(key)).map((key) => `--${row.flag}: ${key}`));
    expect(missing).toEqual([]);
  });
});
