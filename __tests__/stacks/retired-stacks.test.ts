import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import Module from "node:module";
import * as path from "node:path";
import { stringify } from "yaml";
import { main } from "../../main";
import { LoadedConfig } from "../../config/load";
import { CDKTF_COMMAND_ENV, deployHint } from "../../stacks/retired-stacks";
import { sh as shellWord } from "../../config/deployed-clusters/messages";
import { EXAMPLES, hostedClusterSpec, REPO, tempDir } from "../helpers";

/**
 * A retired cluster does not block the others (issue 24 item 5): under `npm run deploy` the app
 * leaves the retired cluster's stacks out of the manifest, so the cdktf CLI's `deploy '*'`
 * selects every other stack and none whose RetiredClusterGuard would fail the deploy; `destroy`
 * and `diff` still see them. The guard itself, with Terraform: __tests__/constructs/retired-cluster-guard.test.ts.
 */

const RETIRED = ["cluster-hc2", "infra-hc2", "identities-hc2"];

interface CliCore {
  getMultipleStacks: typeof import("@cdktf/cli-core/src/lib/helpers/stack-helpers").getMultipleStacks;
  SynthStack: typeof import("@cdktf/cli-core/src/lib/synth-stack").SynthStack;
}
let cliCore: CliCore | undefined;

/**
 * The cdktf CLI's own code that reads the synthesized stacks and selects them by pattern
 * (cli-core's SynthStack.readSynthesizedStacks and getMultipleStacks). Two modules it requires are
 * loaded only when used: @cdktf/commons (logging, telemetry, errors; at load it also loads Sentry
 * and runs `terraform version -json`) and @cdktf/hcl-tools (HCL formatting). Neither is on the
 * path these tests take (getMultipleStacks uses commons only for its errors), and loading them
 * was ~0.8 CPU-s of this file alone. Their placeholders leave the module cache once cli-core holds
 * them: a later require gets the real module, and so does a placeholder's first use.
 */
function loadCliCore(): CliCore {
  const cache = (Module as unknown as { _cache: Record<string, NodeJS.Module> })._cache;
  const from = path.dirname(require.resolve("@cdktf/cli-core/package.json"));
  const lazy = ["@cdktf/commons", "@cdktf/hcl-tools"].map((name) => require.resolve(name, { paths: [from] }));
  const placeholders = lazy.map((file) => {
    const placeholder = new Module(file);
    placeholder.filename = file;
    placeholder.loaded = true;
    placeholder.exports = new Proxy(
      {},
      {
        get: (_target, key) => {
          if (cache[file] === placeholder) delete cache[file];
          return require(file)[key];
        },
      },
    );
    if (!cache[file]) cache[file] = placeholder;
    return placeholder;
  });
  try {
    return { ...require("@cdktf/cli-core/src/lib/helpers/stack-helpers"), ...require("@cdktf/cli-core/src/lib/synth-stack") };
  } finally {
    lazy.forEach((file, i) => {
      if (cache[file] === placeholders[i]) delete cache[file];
    });
  }
}

function run(work: string, env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const outdir = path.join(work, "cdktf.out");
  const code = main([], { CDKTF_OUTDIR: outdir, ...env }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n"), outdir };
}

describe("a retired cluster's stacks and deploy '*'", () => {
  let work: string;
  let config: string;
  beforeAll(() => {
    work = tempDir();
    config = path.join(work, "dev.yaml");
    fs.copyFileSync(path.join(EXAMPLES, "keys", "example-signer.public"), path.join(work, "signer.public"));
    fs.copyFileSync(path.join(EXAMPLES, "operator", "hypershift-operator.yaml"), path.join(work, "bundle.yaml"));
    const cluster = (name: string, extra: Record<string, unknown> = {}) => ({
      name,
      ...extra,
      hostedCluster: { ...hostedClusterSpec(), nodePools: [{ name }] },
    });
    fs.writeFileSync(
      config,
      stringify({
        prefix: "demo",
        subscriptionId: "00000000-0000-0000-0000-000000000000",
        tenantId: "11111111-1111-1111-1111-111111111111",
        location: "eastus",
        serviceAccountSigningKey: { publicKeyFile: "signer.public" },
        clusters: [cluster("hc1"), cluster("hc2", { retired: true })],
        managementCluster: { operator: { bundleFile: "bundle.yaml" } },
        secrets: { source: "files", filesOnlyWhereTerraformRuns: true },
      }),
    );
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  const cli = (command: string) => ({ CDKTF_CONTEXT_JSON: "{}", HCP_AZURE_CONFIG: config, [CDKTF_COMMAND_ENV]: command });
  const selected = async (outdir: string) => {
    const { getMultipleStacks, SynthStack } = (cliCore ??= loadCliCore());
    return getMultipleStacks(await SynthStack.readSynthesizedStacks(outdir), ["*"], "deploy").map((s) => s.name);
  };

  it("npm run deploy: the cdktf CLI's '*' selects every stack but the retired cluster's, with their dependencies intact", async () => {
    const result = run(work, cli("deploy"));
    expect(result.code).toBe(0);
    const names = await selected(result.outdir);
    expect(names).toEqual(expect.arrayContaining(["shared", "identities-hc1", "management", "infra-hc1", "cluster-hc1"]));
    expect(names.filter((name) => RETIRED.includes(name))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(result.outdir, "manifest.json"), "utf8"));
    for (const stack of Object.values(manifest.stacks) as any[]) expect(stack.dependencies.filter((d: string) => !names.includes(d))).toEqual([]);
    // None of the selected stacks holds a retired-cluster guard: deploy '*' plans them as usual.
    for (const name of names) expect(fs.readFileSync(path.join(result.outdir, "stacks", name, "cdk.tf.json"), "utf8")).not.toContain("RetiredClusterGuard");
    // The summary lists what deploy will see; the warning names the destroy command.
    expect(result.out).not.toMatch(/^\s+cluster-hc2\s/m);
    expect(result.out).toContain("npm run destroy -- cluster-hc2 infra-hc2 identities-hc2");
  });

  it.each(["destroy", "diff", "synth", ""])(
    "cdktf %s (an empty command: cdktf run without scripts/cdktf.sh) sees the retired stacks, guard and all",
    async (command) => {
      const result = run(work, cli(command));
      expect(result.code).toBe(0);
      const names = await selected(result.outdir);
      expect(names).toEqual(expect.arrayContaining(RETIRED));
      expect(fs.readFileSync(path.join(result.outdir, "stacks", "cluster-hc2", "cdk.tf.json"), "utf8")).toContain("RetiredClusterGuard");
    },
  );

  it("npm run synth's closing hint gives deploy '*' and the retired cluster's destroy command", () => {
    const result = run(work, { HCP_AZURE_CONFIG: config });
    expect(result.code).toBe(0);
    const hint = result.out.slice(result.out.indexOf("deploy: "));
    expect(hint).toContain(`HCP_AZURE_CONFIG=${config} npm run deploy -- '*'`);
    expect(hint).toContain(`it leaves out the retired clusters' stacks; destroy them with: HCP_AZURE_CONFIG=${config} npm run destroy -- ${RETIRED.join(" ")}`);
  });

  it("scripts/cdktf.sh tells the app which command it runs", () => {
    const bin = path.join(work, "bin");
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, "cdktf"), `#!/bin/sh\necho "$${CDKTF_COMMAND_ENV}" > "${path.join(work, "command")}"\n`, { mode: 0o755 });
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, CDKTF_OUTDIR: path.join(work, "none") };
    expect(spawnSync("sh", [path.join(REPO, "scripts", "cdktf.sh"), "deploy", "*"], { cwd: work, env }).status).toBe(0);
    expect(fs.readFileSync(path.join(work, "command"), "utf8")).toBe("deploy\n");
  });
});

describe("npm run synth's closing hint, pasted into a shell", () => {
  const retiredCluster = { names: { clusters: [{ retired: true, stacks: ["cluster-hc2"] }] } } as unknown as LoadedConfig;

  it("keeps a plain path as it is (the usual hint, byte for byte)", () => {
    expect(deployHint("examples/basic.yaml", { names: { clusters: [] } } as unknown as LoadedConfig)).toBe(
      "deploy: HCP_AZURE_CONFIG=examples/basic.yaml npm run deploy -- '*'   (needs Terraform and Azure credentials; help/getting-started.md)",
    );
    expect(shellWord("/home/me/envs/prod-eastus_2.yml")).toBe("/home/me/envs/prod-eastus_2.yml");
  });

  it("quotes a path with spaces, $(...), quotes or a newline, so that sh reads exactly the path (one sh run)", () => {
    const paths = ["/tmp/my envs/$(id)/basic.yaml", "it's `x`.yaml", 'a"b;c&d|e*f?.yaml', "line\nbreak.yaml", "~/x.yaml", "", "'"];
    // Each word printed back by sh, and the hint's deploy and destroy lines run with npm replaced by a printer.
    const hint = deployHint(paths[0], retiredCluster);
    const [deployLine, destroyLine] = hint.split("\n").map((line) => line.slice(line.indexOf("HCP_AZURE_CONFIG="), line.indexOf(" npm run ")));
    const script = [
      ...paths.map((p) => `printf '%s\\0' ${shellWord(p)}`),
      `${deployLine} sh -c 'printf "%s\\0" "$HCP_AZURE_CONFIG"'`,
      `${destroyLine} sh -c 'printf "%s\\0" "$HCP_AZURE_CONFIG"'`,
    ].join("\n");
    const run = spawnSync("sh", ["-c", script], { encoding: "utf8" });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(run.stdout.split("\0").slice(0, -1)).toEqual([...paths, paths[0], paths[0]]);
    expect(hint).toContain("HCP_AZURE_CONFIG='/tmp/my envs/$(id)/basic.yaml' npm run deploy -- '*'");
  });
});
