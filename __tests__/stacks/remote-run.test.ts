import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { validateConfig } from "../../config/load";
import { synthesize } from "../../stacks/app";
import { EXAMPLES, tempDir } from "../helpers";
import { Finding, outsideReferences } from "./outside-references";

function loadWithBackend(file: string, overrides: Record<string, unknown> = {}) {
  const raw = { ...parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8")), backend: { type: "cloud", organization: "acme" }, ...overrides };
  const loaded = validateConfig(raw, EXAMPLES, file);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

/** Synthesizes, then copies each stack folder alone into an empty directory, as a remote run sees it. */
function remoteRunFolders(file: string, overrides: Record<string, unknown> = {}): Record<string, Finding[]> {
  const work = tempDir();
  try {
    const outdir = path.join(work, "cdktf.out");
    synthesize(loadWithBackend(file, overrides), outdir);
    const result: Record<string, Finding[]> = {};
    for (const stack of fs.readdirSync(path.join(outdir, "stacks"))) {
      const alone = path.join(work, "remote", stack);
      fs.cpSync(path.join(outdir, "stacks", stack), alone, { recursive: true });
      expect(fs.readdirSync(alone)).toEqual(["cdk.tf.json"]);
      result[stack] = outsideReferences(JSON.parse(fs.readFileSync(path.join(alone, "cdk.tf.json"), "utf8")));
    }
    return result;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The examples with backend cloud are checked by workspaces.test.ts (one synth per example serves
 * both); here, that the check finds what it must.
 */
describe("Terraform Cloud remote runs: the outside-reference check", () => {
  it("the check finds what files mode writes (so it can fail): file(), ~/ and ../ paths", () => {
    // files mode with the cloud backend (a workspace in local execution mode) reads files.
    const folders = remoteRunFolders("basic.yaml", {
      secrets: { source: "files", filesOnlyWhereTerraformRuns: true },
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" }, kubeconfig: { path: "~/.kube/config" } },
    });
    const cluster = folders["cluster-myprefix-hc"].map((f) => f.value);
    expect(cluster).toEqual(expect.arrayContaining([expect.stringMatching(/^\$\{sensitive\(file\("(\.\.\/)+.*\/examples\/pull-secret\.json"\)\)\}$/)]));
    expect(cluster).toEqual(
      expect.arrayContaining([expect.stringMatching(/file\("(\.\.\/)+.*\/examples\/keys\/example-signer\.private"\)/), "~/.kube/config"]),
    );
    expect(folders.management).toEqual(expect.arrayContaining([{ at: ".provider.kubernetes[0].config_path", value: "~/.kube/config" }]));
  });

  it("recognises every kind of outside reference and leaves prose alone", () => {
    expect(
      outsideReferences({
        a: '${filebase64("x")}',
        b: { config_path: "/etc/kube" },
        c: "see ../docs",
        d: "~/x",
        e: { description: "value of ../pull-secret.json" },
        f: '${templatefile("t", {})}',
        g: "/subscriptions/0/resourceGroups/rg",
      }).map((f) => f.at),
    ).toEqual([".a", ".b.config_path", ".c", ".d", ".f"]);
  });
});
