import * as fs from "node:fs";
import * as path from "node:path";
import { ARO_HCP_NAME_RULES, ARO_HCP_STRUCTURE_RULES } from "../../config/rules/aro-hcp";
import { AKS_NAME_RULE, AKS_RULES } from "../../config/rules/aks";
import { CONTROL_PLANE_CREDENTIALS_NAME_RULES, CONTROL_PLANE_CREDENTIALS_RULES } from "../../config/rules/control-plane-credentials";
import { configSchema, GUID } from "../../config/schema";
import { guid } from "../../config/schema/primitives";
import { REPO } from "../helpers";

/** The config schema by section (config/schema/) and the ARO HCP rules by topic (config/rules/). */

const SCHEMA_DIR = path.join(REPO, "config", "schema");
const schemaFiles = fs.readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".ts"));

describe("config/schema/", () => {
  it.each(schemaFiles)("%s is under 300 lines", (file) => {
    const lines = fs.readFileSync(path.join(SCHEMA_DIR, file), "utf8").split("\n").length;
    expect(lines).toBeLessThan(300);
  });

  it("is what ./schema resolves to (no config/schema.ts beside it)", () => {
    expect(fs.existsSync(path.join(REPO, "config", "schema.ts"))).toBe(false);
    expect(require.resolve("../../config/schema")).toBe(path.join(SCHEMA_DIR, "index.ts"));
    expect(configSchema.safeParse({}).success).toBe(false);
  });

  it("spells the GUID pattern out once, in primitives.ts (config/schema and config/rules)", () => {
    const spelled = /\[0-9a-f(A-F)?\]\{8\}-\[0-9a-f(A-F)?\]\{4\}-/;
    const dirs = [SCHEMA_DIR, path.join(REPO, "config", "rules")];
    const files = dirs.flatMap((dir) => fs.readdirSync(dir).map((f) => path.join(dir, f)));
    const spelling = files.filter((f) => spelled.test(fs.readFileSync(f, "utf8"))).map((f) => path.relative(REPO, f));
    expect(spelling).toEqual([path.join("config", "schema", "primitives.ts")]);
  });

  it.each([
    ["00000000-0000-0000-0000-000000000000", true],
    ["ABCDEF01-abcd-ABCD-0000-00000000000f", true],
    ["0000000g-0000-0000-0000-000000000000", false],
    ["00000000-0000-0000-0000-0000000000000", false],
    ["{00000000-0000-0000-0000-000000000000}", false],
  ])("GUID and guid() agree on %s: %s", (value, ok) => {
    expect(GUID.test(value)).toBe(ok);
    const parsed = guid("subscription").safeParse(value);
    expect(parsed.success).toBe(ok);
    if (!parsed.success) expect(parsed.error.issues[0].message).toBe("must be a UUID like 00000000-0000-0000-0000-000000000000 (subscription)");
  });
});

describe("ARO HCP rules by topic", () => {
  it("registers every AKS and control-plane-credentials structure rule once", () => {
    const topical = [...Object.values(AKS_RULES), ...Object.values(CONTROL_PLANE_CREDENTIALS_RULES)];
    for (const rule of topical) expect(ARO_HCP_STRUCTURE_RULES.filter((r) => r === rule)).toHaveLength(1);
    expect(new Set(ARO_HCP_STRUCTURE_RULES).size).toBe(ARO_HCP_STRUCTURE_RULES.length);
  });

  it("registers every AKS and control-plane-credentials name rule once", () => {
    for (const rule of [AKS_NAME_RULE, ...CONTROL_PLANE_CREDENTIALS_NAME_RULES]) expect(ARO_HCP_NAME_RULES.filter((r) => r === rule)).toHaveLength(1);
    expect(ARO_HCP_NAME_RULES).toHaveLength(CONTROL_PLANE_CREDENTIALS_NAME_RULES.length + 1);
  });
});
