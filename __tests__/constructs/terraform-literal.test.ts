import { DataTerraformRemoteStateLocal, Fn, LocalBackend, Testing, TerraformOutput, TerraformStack, TerraformVariable } from "cdktf";
import * as fc from "fast-check";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { escapeTemplates, fileContents, functionArgument, literalTags } from "../../constructs/terraform-literal";
import { binaryString } from "../arbitraries";
import { HAVE_TERRAFORM, tempDir, terraformApply, terraformLiteral } from "../helpers";

/** Strings with every character that means something to Terraform templates, HCL or JSON. */
const TRICKY = [
  '${file("/etc/hostname")}',
  "%{if true}x%{endif}",
  'a"b',
  "back\\slash\\",
  "$${x}",
  "%%{x}",
  "tab\there",
  "new\nline",
  "ünïcødé 😀",
  "${",
  "%{",
  "$",
  "a}{b",
];

describe("escapeTemplates", () => {
  it("round trip: Terraform reads back any string unchanged (property)", () => {
    const pieces = fc.constantFrom("$", "%", "{", "}", "$$", "%%", "${", "%{", '"', "\\", "x");
    const text = fc.oneof(
      binaryString(),
      fc.array(pieces).map((p) => p.join("")),
    );
    fc.assert(
      fc.property(text, (s) => terraformLiteral(escapeTemplates(s) as string) === s),
      { numRuns: 200 },
    );
  });

  it("literalTags escapes names and values and defaults to {}", () => {
    expect(literalTags({ "a${b}": "%{c}" })).toEqual({ "a$${b}": "%%{c}" });
    expect(literalTags(undefined)).toEqual({});
  });
});

describe("fileContents", () => {
  it("renders file() with an escaped HCL string, also for quotes, backslashes and templates", () => {
    const synth = (file: string) => {
      const app = Testing.app();
      const stack = new TerraformStack(app, "s");
      new TerraformOutput(stack, "o", { value: fileContents(file) });
      return JSON.parse(Testing.synth(stack)).output.o.value;
    };
    expect(synth("pull-secret.json")).toBe('${file("pull-secret.json")}');
    expect(synth('a"b\\c${d}%{e}\tf\ng')).toBe('${file("a\\"b\\\\c$${d}%%{e}\\u0009f\\ng")}');
    expect(synth(Fn.lower("A.json"))).toBe('${file(lower("A.json"))}');
  });
});

describe("functionArgument", () => {
  it("leaves plain text as it is and escapes what cdktf leaves in a function's quoted argument", () => {
    const id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg_(1).x/providers/Microsoft.Network/virtualNetworks/v.1";
    expect(functionArgument(id)).toBe(id);
    expect(functionArgument('a"b\\c${d}%{e}\tf')).toBe('a\\"b\\\\c${d}%%{e}\\u0009f');
  });
});

/** uuidv5(url namespace, name), as Terraform's uuidv5("url", name) computes it (RFC 4122 §4.3). */
function uuidv5Url(name: string): string {
  const namespace = Buffer.from("6ba7b8119dad11d180b400c04fd430c8", "hex");
  const hash = createHash("sha1")
    .update(Buffer.concat([namespace, Buffer.from(name, "utf8")]))
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

const ENV = { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

/** The outputs Terraform stored in a state file (what `terraform output` prints), by name. */
function stateOutputs(stateFile: string): Record<string, unknown> {
  const state = JSON.parse(fs.readFileSync(stateFile, "utf8"));
  return Object.fromEntries(Object.entries(state.outputs).map(([name, output]) => [name, (output as { value: unknown }).value]));
}

/**
 * Three terraform runs: the producer (init, as it declares a backend; apply) holds both tests'
 * outputs; the consumer, which reads the producer's state (built-in terraform_remote_state, no
 * backend: no init), is applied after it.
 */
(HAVE_TERRAFORM ? describe : describe.skip)("as Terraform 1.11 reads them (needs terraform)", () => {
  const attack = '${file("canary.txt")}%{if true}x%{endif}';
  const stateFile = 'state-${x}%{y}"\\.tfstate';
  let dir: string;
  let producer: string;
  let produced: Record<string, unknown>;
  let read: Record<string, unknown>;

  beforeAll(() => {
    dir = tempDir();
    producer = path.join(dir, "producer");
    const consumer = path.join(dir, "consumer");
    fs.mkdirSync(producer);
    fs.mkdirSync(consumer);
    // A canary file a live file() would read (its content must never appear in an output).
    fs.writeFileSync(path.join(producer, "canary.txt"), "CANARY-CONTENT");
    const stack = new TerraformStack(Testing.app(), "literals");
    // As configureBackend writes it: the backend block is not a template.
    new LocalBackend(stack, { path: stateFile });
    TRICKY.forEach((text, i) => {
      // File names cannot hold '/' (nor NUL); the content is the same text.
      const name = `f${i}-${text.replace(/\//g, "_")}`;
      fs.writeFileSync(path.join(producer, name), text);
      new TerraformOutput(stack, `literal_${i}`, { value: escapeTemplates(text) });
      new TerraformOutput(stack, `file_${i}`, { value: fileContents(name) });
    });
    const variable = new TerraformVariable(stack, "v", { type: "string", default: "VAL" });
    // What main (4692bd5) skipped: a string that merely contains a token marker.
    new TerraformOutput(stack, "after", { value: escapeTemplates(`${variable.stringValue}${attack}`) as string });
    new TerraformOutput(stack, "before", { value: escapeTemplates(`${attack}${variable.stringValue}`) as string });
    new TerraformOutput(stack, "nested", { value: escapeTemplates({ [`k${attack}`]: [`${variable.stringValue}-${attack}`] }) as object });
    // A role assignment's name: uuidv5 of a config ID around a reference (cdktf warns about `${`, which it escapes).
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      TRICKY.forEach((text, i) => {
        new TerraformOutput(stack, `uuid_${i}`, { value: Fn.uuidv5("url", `${functionArgument(text)}/${variable.stringValue}`) });
        new TerraformOutput(stack, `uuid_literal_${i}`, { value: Fn.uuidv5("url", functionArgument(text)) });
      });
    } finally {
      warn.mockRestore();
    }
    fs.writeFileSync(path.join(producer, "main.tf.json"), Testing.synth(stack));
    const init = spawnSync("terraform", ["init", "-input=false", "-no-color"], { cwd: producer, env: ENV, encoding: "utf8" });
    expect({ status: init.status, stderr: init.stderr }).toMatchObject({ status: 0 });
    terraformApply(producer, ENV);
    produced = fs.existsSync(path.join(producer, stateFile)) ? stateOutputs(path.join(producer, stateFile)) : {};

    // As remoteState writes it: the same file, read through an escaped path.
    const reader = new TerraformStack(Testing.app(), "reader");
    const state = new DataTerraformRemoteStateLocal(reader, "producer", { path: escapeTemplates(`../producer/${stateFile}`) as string });
    new TerraformOutput(reader, "read", { value: state.getString("literal_0") });
    fs.writeFileSync(path.join(consumer, "main.tf.json"), Testing.synth(reader));
    terraformApply(consumer, ENV);
    read = stateOutputs(path.join(consumer, "terraform.tfstate"));
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("text around a real cdktf reference stays a literal: a marker in the text never carries a template along (issue 21)", () => {
    expect(produced.after).toBe(`VAL${attack}`);
    expect(produced.before).toBe(`${attack}VAL`);
    expect(produced.nested).toEqual({ [`k${attack}`]: [`VAL-${attack}`] });
    expect(JSON.stringify(produced)).not.toContain("CANARY-CONTENT");
  });

  it("function arguments: uuidv5 of any text, alone or around a reference, is the uuid of that text", () => {
    TRICKY.forEach((text, i) => {
      expect({ text, uuid: produced[`uuid_${i}`] }).toEqual({ text, uuid: uuidv5Url(`${text}/VAL`) });
      expect({ text, uuid: produced[`uuid_literal_${i}`] }).toEqual({ text, uuid: uuidv5Url(text) });
    });
  });

  it("literals and file() paths come back byte for byte; backend paths are verbatim, remote-state paths templates", () => {
    TRICKY.forEach((text, i) => {
      expect(produced[`literal_${i}`]).toBe(text);
      expect(produced[`file_${i}`]).toBe(text);
    });
    expect(fs.existsSync(path.join(producer, stateFile))).toBe(true);
    expect(read.read).toBe(TRICKY[0]);
  });
});
