import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { renderJsonSchema } from "../scripts/write-json-schema";
import { REPO } from "./helpers";

const read = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8");

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(REPO, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
}

/** Every leaf key path of a JSON Schema (`a.b`, `list[].c`), union branches merged. */
function schemaPaths(schema: any, prefix = ""): string[] {
  const branches = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return branches.flatMap((s: any) => [
    ...Object.entries(s.properties ?? {}).flatMap(([key, child]: [string, any]) => {
      const inner = schemaPaths(child, `${prefix}${key}.`);
      return inner.length > 0 ? inner : [`${prefix}${key}`];
    }),
    ...(s.items ? schemaPaths(s.items, `${prefix.replace(/\.$/, "")}[].`) : []),
  ]);
}

describe("project", () => {
  it("cdktf.json carries a fixed projectId, so the cdktf CLI never rewrites the tracked file", () => {
    expect(JSON.parse(read("cdktf.json")).projectId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("git ignores the secret files help/ tells users to keep beside the config", () => {
    const files = [
      "pull-secret.json",
      "my-env/pull-secret.json",
      "prod-pull-secret.json",
      "azure_mgmt.json",
      "keys/serviceaccount-signer.private",
      "mgmt.kubeconfig",
      "secrets.auto.tfvars",
      "cdktf.out/stacks/shared/plan",
    ];
    const check = spawnSync("git", ["check-ignore", "--no-index", ...files], { cwd: REPO, encoding: "utf8" });
    expect(check.stdout.trim().split("\n").sort()).toEqual([...files].sort());
  });

  it("the published JSON Schema is current (npm run schema regenerates it)", () => {
    expect(read("config/hcp-azure.schema.json")).toBe(renderJsonSchema());
  });

  it("help/configuration.md documents every config key", () => {
    const doc = read("help/configuration.md");
    const keys = [...new Set(schemaPaths(JSON.parse(read("config/hcp-azure.schema.json"))))];
    expect(keys.length).toBeGreaterThan(25);
    expect(keys.filter((key) => !doc.includes(`\`${key}\``))).toEqual([]);
  });

  it("imports provider classes from per-resource paths, never the package barrel", () => {
    const offenders = [
      "main.ts",
      ...sourceFiles("config"),
      ...sourceFiles("constructs"),
      ...sourceFiles("stacks"),
      ...sourceFiles("scripts"),
      ...sourceFiles("__tests__"),
    ].filter((file) => /from ["']@cdktf\/provider-[a-z]+["']/.test(read(file)));
    expect(offenders).toEqual([]);
  });

  it("README's quick start has the two commands, and CI runs the README's test command", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm ci && npm run synth");
    expect(readme).toContain("npm test");
    expect(read(".ci/run")).toMatch(/^npm test$/m);
  });

  it("every example config is referenced from the help", () => {
    const help = fs
      .readdirSync(path.join(REPO, "help"))
      .map((f) => read(path.join("help", f)))
      .join("\n");
    for (const example of fs.readdirSync(path.join(REPO, "examples")).filter((f) => f.endsWith(".yaml"))) {
      expect(help).toContain(`examples/${example}`);
    }
  });
});
