import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { validateConfig } from "../../config/load";
import {
  externalDnsCredentialsInput,
  privateLinkCredentialsInput,
  kubernetesInputs,
  pullSecretInput,
  signingKeyInput,
  sshPublicKeyInput,
} from "../../config/plan-time-inputs";
import { synthesize } from "../../stacks/app";
import { WorkspacesDocument, WORKSPACES_FILE } from "../../stacks/workspaces";
import { EXAMPLES, REPO, tempDir } from "../helpers";
import { outsideReferences } from "./outside-references";

/**
 * workspaces.json must list exactly what each synthesized stack declares and reads, so a user or
 * a script can set workspaces up from it; help/terraform-cloud.md must name the same variables.
 */

const EXAMPLE_FILES = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(".yaml"));
const BACKENDS: Array<[string, Record<string, unknown> | undefined]> = [
  ["as written", undefined],
  ["cloud", { type: "cloud", organization: "acme" }],
];

function synth(file: string, backend?: Record<string, unknown>) {
  const raw = parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8"));
  const loaded = validateConfig(backend ? { ...raw, backend } : raw, EXAMPLES, file);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  const work = tempDir();
  try {
    const outdir = path.join(work, "cdktf.out");
    synthesize(loaded, outdir);
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(outdir, file), "utf8"));
    const manifest = read("manifest.json");
    const stacks: Record<string, { json: any; dependencies: string[]; folder: string[] }> = Object.fromEntries(
      Object.values(manifest.stacks as Record<string, any>).map((s) => [
        s.name,
        { json: read(s.synthesizedStackPath), dependencies: s.dependencies, folder: fs.readdirSync(path.join(outdir, s.workingDirectory)) },
      ]),
    );
    return { document: read(WORKSPACES_FILE) as WorkspacesDocument, stacks };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const cases = EXAMPLE_FILES.flatMap((file) => BACKENDS.map(([label, backend]) => [file, label, backend] as const));
const documents = new Map<string, WorkspacesDocument>();

describe.each(cases)("workspaces.json of examples/%s (backend %s)", (file, label, backend) => {
  const { document, stacks } = synth(file, backend);
  documents.set(`${file} ${label}`, document);

  it("has one entry per stack, in an order that respects dependencies", () => {
    expect(document.workspaces.map((w) => w.stack).sort()).toEqual(Object.keys(stacks).sort());
    expect(document.runOrder.flat().sort()).toEqual(Object.keys(stacks).sort());
    const wave = new Map(document.runOrder.flatMap((stacksOfWave, i) => stacksOfWave.map((s) => [s, i] as const)));
    for (const entry of document.workspaces) {
      expect(entry.dependsOn).toEqual(stacks[entry.stack].dependencies);
      for (const dependency of entry.dependsOn) expect(wave.get(dependency)!).toBeLessThan(wave.get(entry.stack)!);
    }
  });

  it("lists every Terraform variable a stack declares, and no more, with its sensitivity and description", () => {
    for (const entry of document.workspaces) {
      const declared = (stacks[entry.stack].json.variable ?? {}) as Record<string, any>;
      const listed = entry.variables.filter((v) => v.category === "terraform");
      expect({ stack: entry.stack, names: listed.map((v) => v.name).sort() }).toEqual({ stack: entry.stack, names: Object.keys(declared).sort() });
      for (const v of listed) {
        expect(v.sensitive).toBe(declared[v.name].sensitive === true);
        expect(v.description).toBe(declared[v.name].description);
        expect(v.required).toBe(!("default" in declared[v.name]));
      }
    }
  });

  it("lists the environment each stack's providers read", () => {
    for (const entry of document.workspaces) {
      const providers = stacks[entry.stack].json.provider ?? {};
      const env = entry.variables.filter((v) => v.category === "env").map((v) => v.name);
      expect(env.includes("TFC_AZURE_PROVIDER_AUTH")).toBe(label === "cloud" && Boolean(providers.azurerm || providers.azuread));
      const kubernetes = providers.kubernetes?.[0];
      expect(env.includes("KUBE_HOST")).toBe(Boolean(kubernetes && !kubernetes.host && !kubernetes.config_path));
    }
  });

  it("names the stacks whose state each one reads", () => {
    for (const entry of document.workspaces) {
      const remote = Object.keys(stacks[entry.stack].json.data?.terraform_remote_state ?? {});
      expect(entry.readsStateOf).toEqual(remote.map((id) => id.replace(/-state$/, "")).sort());
      for (const producer of entry.readsStateOf) expect(Object.keys(stacks)).toContain(producer);
    }
  });

  // A Terraform Cloud remote run uploads only the stack's folder and runs Terraform there.
  if (label === "cloud") {
    it("every stack folder is self-contained (a remote run has nothing else)", () => {
      for (const [stack, { json, folder }] of Object.entries(stacks)) {
        expect({ stack, folder }).toEqual({ stack, folder: ["cdk.tf.json"] });
        expect({ stack, outside: outsideReferences(json) }).toEqual({ stack, outside: [] });
      }
    });
  }

  it("holds no absolute path of this machine", () => {
    for (const entry of document.workspaces) {
      expect(path.isAbsolute(entry.state)).toBe(false);
      for (const file of entry.files) expect(path.isAbsolute(file)).toBe(false);
    }
    if (label === "cloud") expect(document.backend).toBe("cloud");
  });
});

describe("help/terraform-cloud.md", () => {
  const doc = fs.readFileSync(path.join(REPO, "help", "terraform-cloud.md"), "utf8");
  /** Every plan-time variable the code can declare, whether or not an example uses it. */
  const catalogue = [
    pullSecretInput("u", "k", "f"),
    signingKeyInput("c", "k", "f"),
    sshPublicKeyInput("c", "k", "f"),
    externalDnsCredentialsInput("f"),
    privateLinkCredentialsInput("f"),
    ...kubernetesInputs(),
  ];

  it("names every variable and environment variable that any example's workspaces need", () => {
    const names = new Set([...documents.values()].flatMap((d) => d.workspaces.flatMap((w) => w.variables.map((v) => v.name))));
    for (const spec of catalogue) names.add(spec.variable);
    expect(names.size).toBeGreaterThan(10);
    expect([...names].filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it("documents no variable that no stack declares", () => {
    const known = new Set([...documents.values()].flatMap((d) => d.workspaces.flatMap((w) => w.variables.map((v) => v.name))));
    for (const spec of catalogue) known.add(spec.variable);
    const section = doc.slice(doc.indexOf("## 4. Set the variables"), doc.indexOf("## 5."));
    const table = section.split("\n").filter((line) => /^\| `[a-z_]+` \|/.test(line));
    expect(table.length).toBeGreaterThan(5);
    expect(table.map((line) => line.match(/^\| `([a-z_]+)` \|/)![1]).filter((name) => !known.has(name))).toEqual([]);
  });
});
