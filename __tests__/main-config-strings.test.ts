import * as fc from "fast-check";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { main } from "../main";
import { spawnSync } from "node:child_process";
import { binaryString } from "./arbitraries";
import { EXAMPLES, HAVE_TERRAFORM, REPO, tempDir, terraformApply, tree } from "./helpers";

/**
 * Issue 11 item 5: no config string is ever a Terraform template. Every string field of the
 * published JSON Schema gets arbitrary text (templates, directives, quotes, backslashes,
 * unicode); `npm run synth` must then either report config errors and write nothing, or write
 * Terraform JSON in which no template or directive carries injected text.
 */

/** A string field of the schema: its path (`[]` every item, `*` every value, `<key>` every key of a map). */
interface StringField {
  readonly path: readonly string[];
  /** No pattern: any text passes the schema, so the field must reach Terraform escaped. */
  readonly free: boolean;
  /** The backend variant the field belongs to. */
  readonly backend?: string;
}

function stringFields(): StringField[] {
  const schema = JSON.parse(fs.readFileSync(path.join(REPO, "config/hcp-azure.schema.json"), "utf8"));
  const fields: StringField[] = [];
  const walk = (node: any, at: string[], backend?: string): void => {
    if (!node || typeof node !== "object") return;
    for (const branch of node.anyOf ?? node.oneOf ?? []) walk(branch, at, branch.properties?.type?.const ?? backend);
    if (node.type === "string" && node.enum === undefined && node.const === undefined) fields.push({ path: at, free: node.pattern === undefined, backend });
    for (const [key, child] of Object.entries(node.properties ?? {})) if (key !== "$schema") walk(child, [...at, key], backend);
    if (node.items) walk(node.items, [...at, "[]"], backend);
    if (typeof node.additionalProperties === "object") walk(node.additionalProperties, [...at, "*"], backend);
    if (node.propertyNames) walk(node.propertyNames, [...at, "<key>"], backend);
  };
  walk(schema, []);
  return fields;
}

const FIELDS = stringFields();
const MARKER = "hcpq";

const BACKENDS: Record<string, object> = {
  local: { type: "local" },
  azurerm: { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "tfstate0001", containerName: "tfstate" },
  cloud: { type: "cloud", organization: "org" },
};

/** The bundled examples with every optional free-text field present, so injected text reaches the stacks. */
function bases(): Record<string, any> {
  const read = (file: string) => parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8"));
  const withExtras = (config: any) => {
    config.serviceAccountSigningKey.privateKeyFile = "keys/example-signer.private";
    const hosted = config.clusters[0].hostedCluster;
    hosted.sshPublicKeyFile = "keys/ssh.pub";
    hosted.nodePools[0].marketplace = { publisher: "azureopenshift", offer: "aro4", sku: "aro_419", version: "latest" };
    config.managementCluster.pullSecretFile = "pull-secret.json";
    config.managementCluster.externalDnsCredentialsFile = "azure_mgmt.json";
    if (!config.managementCluster.aks) {
      // files mode: the paths reach Terraform as file() arguments and config_path (aroHcp stays in
      // variables mode, where they reach the variables' descriptions).
      delete config.managementCluster.credentialsFromVariables;
      config.managementCluster.kubeconfig ??= { path: "kubeconfig", context: "management" };
      config.secrets = { source: "files", filesOnlyWhereTerraformRuns: true };
    }
    if (config.externalDns) config.externalDns = { ...config.externalDns, applicationName: "extdns", password: { rotation: "1" } };
    return config;
  };
  return { basic: withExtras(read("basic.yaml")), externalDns: withExtras(read("external-dns.yaml")), aroHcp: withExtras(read("aro-hcp.yaml")) };
}

/** Sets `value` at every place `field` names in `config`; `create`: also where objects on the way are missing. */
function inject(config: any, field: StringField, value: string, create = true): void {
  if (field.backend && config.backend?.type !== field.backend) config.backend = { ...BACKENDS[field.backend] };
  const visit = (node: any, rest: readonly string[]): void => {
    const [head, ...tail] = rest;
    if (head === "[]") {
      if (!Array.isArray(node)) return;
      // A list of strings (the path ends here): every item is the value, or the one item of an empty list.
      if (tail.length === 0) node.splice(0, node.length, ...(node.length > 0 ? node.map(() => value) : [value]));
      else for (const item of node) visit(item, tail);
    } else if (head === "*" || head === "<key>") {
      const entries = Object.entries(node).length > 0 ? Object.entries(node) : [["k", "v"]];
      for (const [key, child] of entries) {
        delete node[key];
        if (head === "*") node[key] = value;
        else node[value] = child;
      }
    } else if (tail.length === 0) {
      node[head] = value;
    } else {
      if (node[head] === undefined && create) node[head] = tail[0] === "[]" ? [] : {};
      if (node[head] !== undefined) visit(node[head], tail);
    }
  };
  visit(config, field.path);
}

/**
 * Template sequences (`${...}`, `%{...}`) Terraform would evaluate in `text` whose expression
 * mentions `marker` outside its quoted strings (a quoted string in an expression is a template
 * itself, e.g. the argument of file()).
 */
function evaluatedMentions(text: string, marker: string): string[] {
  const found: string[] = [];
  const template = (start: number, quoted: boolean): number => {
    let i = start;
    while (i < text.length) {
      if (text.startsWith("$${", i) || text.startsWith("%%{", i)) i += 3;
      else if (quoted && text[i] === "\\") i += 2;
      else if (quoted && text[i] === '"') return i + 1;
      else if (text.startsWith("${", i) || text.startsWith("%{", i)) i = expression(i + 2);
      else i += 1;
    }
    return i;
  };
  const expression = (start: number): number => {
    let depth = 1;
    let code = "";
    let i = start;
    while (i < text.length && depth > 0) {
      if (text[i] === '"') {
        i = template(i + 1, true);
        continue;
      }
      if (text[i] === "{") depth += 1;
      if (text[i] === "}") depth -= 1;
      code += text[i];
      i += 1;
    }
    if (code.includes(marker)) found.push(text.slice(start - 2, i));
    return i;
  };
  template(0, false);
  return found;
}

/**
 * Every string (keys too) Terraform reads as a template: all of a stack but its backend or cloud
 * block, which Terraform decodes verbatim (proven in constructs/terraform-literal.test.ts).
 */
function templateStrings(stacks: Record<string, any>): string[] {
  // Terraform reads the backend and cloud blocks, and variable descriptions, as plain text (proven
  // with Terraform 1.11 in __tests__/constructs/plan-time-input.test.ts): they are not templates.
  const withoutDescriptions = (variables: Record<string, any> | undefined) =>
    variables && Object.fromEntries(Object.entries(variables).map(([name, { description: _text, ...block }]) => [name, block]));
  return Object.values(stacks).flatMap(({ terraform, variable, ...rest }) =>
    strings([rest, withoutDescriptions(variable), { ...terraform, backend: undefined, cloud: undefined }]),
  );
}

/** Every string (keys too) of a parsed JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([key, child]) => [key, ...strings(child)]);
  return [];
}

interface SynthResult {
  readonly code: number;
  readonly err: string;
  /** Parsed Terraform JSON of every stack, when synth succeeded. */
  readonly stacks: Record<string, any>;
}

/** Writes `config` beside copies of the examples' key and bundle folders and runs `npm run synth` on it. */
function synth(work: string, config: unknown): SynthResult {
  const file = path.join(work, "config.yaml");
  fs.writeFileSync(file, JSON.stringify(config)); // JSON is YAML
  const outdir = path.join(work, "cdktf.out");
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.mkdirSync(outdir);
  fs.writeFileSync(path.join(outdir, "manifest.json"), "previous synth");
  const before = tree(work);
  const err: string[] = [];
  const code = main([file], { CDKTF_OUTDIR: outdir }, { out: () => undefined, err: (line) => err.push(line) });
  if (code !== 0) {
    // Nothing written: the output folder and its neighbours are as they were.
    expect(tree(work)).toEqual(before);
    return { code, err: err.join("\n"), stacks: {} };
  }
  const stacksDir = path.join(outdir, "stacks");
  const stacks = Object.fromEntries(
    fs.readdirSync(stacksDir).map((stack) => [stack, JSON.parse(fs.readFileSync(path.join(stacksDir, stack, "cdk.tf.json"), "utf8"))]),
  );
  return { code, err: err.join("\n"), stacks };
}

describe("config strings in synthesized Terraform", () => {
  let work: string;
  beforeAll(() => {
    work = tempDir();
    for (const folder of ["keys", "operator"]) fs.cpSync(path.join(EXAMPLES, folder), path.join(work, folder), { recursive: true });
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("finds every string field of the schema, free-text ones included", () => {
    const free = FIELDS.filter((f) => f.free).map((f) => f.path.join("."));
    expect(FIELDS.length).toBeGreaterThan(60);
    expect(free).toEqual(
      expect.arrayContaining([
        "tags.*",
        "tags.<key>",
        "externalDns.applicationName",
        "externalDns.password.rotation",
        "managementCluster.kubeconfig.path",
        "managementCluster.kubeconfig.context",
      ]),
    );
  });

  // basic.yaml is external-dns.yaml without ExternalDNS and kubeconfig: the property samples it.
  it.each(["externalDns", "aroHcp"])("%s: text in every free-text field reaches Terraform as a literal", (name) => {
    // No control character: tags refuse them (issue 21); the property below still tries them everywhere.
    const value = `\${${MARKER}}%{${MARKER}}"\\ü\u00a0`;
    const config = bases()[name];
    // The bundles (operator, trust) and the public key are read at synth: their paths must name real files.
    const injectable = FIELDS.filter((f) => f.free && !f.backend && !/publicKeyFile|bundleFile|additionalTrustBundleFile/.test(f.path.join(".")));
    for (const field of injectable) inject(config, field, field.path.at(-1) === "<key>" ? `${MARKER}\${x}"` : value, false);
    const result = synth(work, config);
    // Warnings only (example bundle, files absent here); the errors would show in the diff.
    expect({ code: result.code, err: result.err }).toMatchObject({ code: 0 });
    const all = templateStrings(result.stacks);
    expect(all.flatMap((s) => evaluatedMentions(s, MARKER))).toEqual([]);
    // The text arrived (escaped), e.g. in tags and the kubeconfig context.
    expect(all.filter((s) => s.includes(MARKER)).length).toBeGreaterThan(5);
  });

  (HAVE_TERRAFORM ? it : it.skip)("with Terraform 1.11: every synthesized literal holding injected text evaluates to that text, and no file() runs", () => {
    // A live file() would read the canary; a live template would change the text.
    const canary = path.join(work, "canary.txt");
    fs.writeFileSync(canary, "CANARY-CONTENT");
    const value = `\${file("${canary}")}%{if true}${MARKER}%{endif}`;
    const config = bases().externalDns;
    const injectable = FIELDS.filter(
      (f) => f.free && !f.backend && !/publicKeyFile|bundleFile|additionalTrustBundleFile|File$|kubeconfig\.path/.test(f.path.join(".")),
    );
    for (const field of injectable) inject(config, field, field.path.at(-1) === "<key>" ? `${MARKER}\${x}` : value, false);
    const result = synth(work, config);
    expect(result.code).toBe(0);
    // Strings with no live interpolation of their own: Terraform can evaluate them alone.
    const found = templateStrings(result.stacks).filter((s) => s.includes(MARKER) && !/(^|[^$])\$\{|(^|[^%])%\{/.test(s));
    expect(found.length).toBeGreaterThan(5);
    const literals = [...new Set(found)];
    const dir = tempDir();
    try {
      const output = Object.fromEntries(literals.map((text, i) => [`s${i}`, { value: text }]));
      fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ output }));
      terraformApply(dir);
      const json = JSON.parse(spawnSync("terraform", ["output", "-json"], { cwd: dir, encoding: "utf8" }).stdout);
      const values = literals.map((_, i) => json[`s${i}`].value as string);
      expect(values.join("\n")).not.toContain("CANARY-CONTENT");
      // Each comes back with the injected text verbatim (templates unevaluated).
      for (const text of values) expect(text.includes(value) || text.includes(`${MARKER}\${x}`)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("cdktf token markers in any string field: config errors naming the field, nothing written", () => {
    const markers = ["${TfToken[TOKEN.1]}", "#{TfToken[TOKEN.2]}", "&{TfToken[TOKEN.3]}", String(-1.8881545897087503e289)];
    const all = bases();
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(all)),
        fc.constantFrom(...FIELDS),
        fc.constantFrom(...markers),
        fc.string({ maxLength: 4 }),
        (base, field, marker, around) => {
          const config = structuredClone(all[base]);
          inject(config, field, `${around}${marker}\${file("/etc/passwd")}${around}`);
          const result = synth(work, config);
          // The field may not exist in this base (an adopt-only key): then synth succeeds with nothing injected.
          if (result.code === 0) expect(JSON.stringify(result.stacks)).not.toContain("TfToken");
          else expect(result.err).toMatch(/^config error\(s\) in /);
          expect(templateStrings(result.stacks).flatMap((s) => evaluatedMentions(s, "passwd"))).toEqual([]);
        },
      ),
      { numRuns: 12, seed: 21 },
    );
  });

  it("any text in any string fields: config errors with nothing written, or no injected template (property)", () => {
    const all = bases();
    const piece = fc.constantFrom("${", "%{", "}", '"', "\\", "$", "%", "{", "\n", "\t", "ü", "😀", "/", "..", " ", "x");
    const text = fc
      .tuple(fc.array(fc.oneof(piece, binaryString({ maxLength: 4 })), { maxLength: 6 }), fc.constantFrom(`\${${MARKER}}`, `%{${MARKER}}`, `\${ ${MARKER} }`))
      .map(([pieces, template]) => [...pieces.slice(0, 3), template, ...pieces.slice(3)].join(""));
    // Mostly free-text fields (they must synthesize); sometimes any field (the pattern rejects it).
    const fields = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.subarray(
          FIELDS.filter((f) => f.free),
          { minLength: 1, maxLength: 8 },
        ),
      },
      { weight: 1, arbitrary: fc.subarray(FIELDS, { minLength: 1, maxLength: 4 }) },
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(all)), fields, fc.array(text, { minLength: 8, maxLength: 8 }), (base, chosen, values) => {
        const config = structuredClone(all[base]);
        chosen.forEach((field, i) => inject(config, field, values[i % values.length]));
        const result = synth(work, config);
        expect([0, 1]).toContain(result.code);
        if (result.code === 1) expect(result.err).toMatch(/^config error\(s\) in .*\n[\s\S]*nothing was written\.$/);
        expect(templateStrings(result.stacks).flatMap((s) => evaluatedMentions(s, MARKER))).toEqual([]);
      }),
      { numRuns: 6 },
    );
  });
});
