import { App, Testing } from "cdktf";
import { spawnSync } from "node:child_process";
import { createHash, generateKeyPairSync } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { format } from "node:util";
import { threadId } from "node:worker_threads";
import { LoadedConfig, loadConfigFile, validateConfig } from "../config/load";
import { managementAksOf } from "../config/names";
import { ClusterStack } from "../stacks/cluster-stack";
import type { WorkloadIdentityClientIds } from "../constructs/hosted-cluster/hosted-cluster-identities";

export const REPO = path.resolve(__dirname, "..");
export const EXAMPLES = path.join(REPO, "examples");

/** Loads a bundled example; fails the test with the formatted issues if it is invalid. */
export function loadExample(file: string): LoadedConfig {
  const loaded = loadConfigFile(path.join(EXAMPLES, file));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

/** Validates an inline config whose relative paths resolve against examples/. */
export function loadInline(input: unknown): LoadedConfig {
  const loaded = validateConfig(input, EXAMPLES);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

/**
 * Every stack of a config, synthesized to parsed Terraform JSON, by stack name. Synthesis is
 * deterministic, so a config this worker already synthesized (for this test file or an earlier
 * one: jest-light-runner shares modules between the files a worker runs) is not synthesized
 * again: the caller gets its own copy of the earlier result. Each stack is synthesized on first
 * request: `only: "cluster"` builds the whole app but synthesizes (and returns) only the
 * cluster-<name> stacks, `only: [names]` only the stacks of those names; a later request for the
 * other stacks of the same config synthesizes only those.
 */
export function synthStacks(loaded: LoadedConfig, only: StackSelection = "all"): Record<string, any> {
  return structuredClone(synthesizedApp(loaded, only).stacks);
}

/** The stacks each stack of synthStacks(loaded, only) depends on (`addDependency`), by stack name: from the same app, built once. */
export function stackDependencies(loaded: LoadedConfig, only: StackSelection = "all"): Record<string, string[]> {
  return structuredClone(synthesizedApp(loaded, only).dependencies);
}

/** Which stacks synthStacks synthesizes: all, the cluster-<name> ones, or those named. */
export type StackSelection = "cluster" | "all" | readonly string[];

function synthesizedApp(loaded: LoadedConfig, only: StackSelection) {
  const key = fingerprint(loaded);
  let app = synthesizedApps.get(key);
  if (!app) {
    const built = buildApp(loaded);
    app = {
      built,
      ids: built.map((stack) => stack.node.id),
      dependencies: Object.fromEntries(built.map((stack) => [stack.node.id, stack.dependencies.map((d) => d.node.id)])),
      json: new Map(),
    };
    synthesizedApps.set(key, app);
  }
  const ids = app.ids.filter((id) => (only === "all" ? true : only === "cluster" ? id.startsWith("cluster-") : only.includes(id)));
  for (const id of ids.filter((name) => !app.json.has(name))) {
    // The construct tree is kept for the last few configs only (memory); an older one is built again.
    const built = (app.built ??= buildApp(loaded));
    app.json.set(id, JSON.parse(Testing.synth(built.find((stack) => stack.node.id === id)!)));
  }
  builtApps.delete(key);
  builtApps.add(key);
  if (builtApps.size > 4) {
    const oldest = builtApps.values().next().value!;
    builtApps.delete(oldest);
    synthesizedApps.get(oldest)!.built = undefined;
  }
  return {
    stacks: Object.fromEntries(ids.map((id) => [id, app.json.get(id)])),
    dependencies: Object.fromEntries(ids.map((id) => [id, app.dependencies[id]])),
  };
}

/** Every stack of `loaded`'s app, as `npm run synth` builds it. */
function buildApp(loaded: LoadedConfig): import("cdktf").TerraformStack[] {
  // Required here, not at the top: files that never synthesize do not load every stack and provider.
  const { addStacks } = require("../stacks/app") as typeof import("../stacks/app");
  // A repo-relative outdir keeps local backend paths identical on every machine.
  return addStacks(Testing.app(), loaded, path.join(REPO, "cdktf.out"));
}

/**
 * Per config fingerprint, its app's stack names and dependencies, each stack synthesized (on first
 * request, once), and the app's construct tree while it is among the last few used (`builtApps`).
 */
const synthesizedApps = new Map<
  string,
  { built?: import("cdktf").TerraformStack[]; ids: string[]; dependencies: Record<string, string[]>; json: Map<string, any> }
>();
const builtApps = new Set<string>();

/** Everything a synth reads from a loaded config, as text (Maps and Sets included). */
export function fingerprint(loaded: LoadedConfig): string {
  return JSON.stringify(loaded, (_key, value) => (value instanceof Map ? { Map: [...value] } : value instanceof Set ? { Set: [...value] } : value));
}

/** Resources of one type in a synthesized stack, as a list. */
export function resources(stack: any, type: string): any[] {
  return Object.values(stack.resource?.[type] ?? {});
}

/** The single value of a Terraform block (resources of one type, data sources, ...); fails otherwise. */
export function only(block: Record<string, any> | undefined): any {
  const values = Object.values(block ?? {});
  expect(values).toHaveLength(1);
  return values[0];
}

/** Runs `fn` and returns it with every path fs.readFileSync was asked for meanwhile. */
export function recordingReads<T>(fn: () => T): { result: T; reads: string[] } {
  const reads: string[] = [];
  // The CommonJS module object: the project's `import * as fs` bindings read through to it.
  const fsModule: typeof fs = require("node:fs");
  const original = fsModule.readFileSync;
  const spy = jest.spyOn(fsModule, "readFileSync").mockImplementation(((file: fs.PathOrFileDescriptor, options?: any) => {
    reads.push(String(file));
    return original(file, options);
  }) as typeof fs.readFileSync);
  // config/read-file.ts opens files itself (size limits, no FIFO hangs).
  const originalOpen = fsModule.openSync;
  const openSpy = jest.spyOn(fsModule, "openSync").mockImplementation(((file: fs.PathLike, ...rest: any[]) => {
    reads.push(String(file));
    return (originalOpen as any)(file, ...rest);
  }) as typeof fs.openSync);
  try {
    return { result: fn(), reads };
  } finally {
    spy.mockRestore();
    openSpy.mockRestore();
  }
}

export { tempDir } from "./temp-dir";

const keyPairs = new Map<string, { privateKey: string; publicKey: string }>();

/**
 * An RSA key pair as PEM (PKCS#1 private, SPKI public), one per size and `name` for the whole run
 * (generating one takes 0.1–1 s): the first worker to need it writes it to the run's temporary
 * folder, later test files and the other worker read it. No test needs its key to differ from
 * another test's; a test that needs two different keys asks for two names.
 */
export function rsaKeyPair(bits = 2048, name = "default"): { privateKey: string; publicKey: string } {
  const key = `${bits}-${name}`;
  let pair = keyPairs.get(key);
  if (!pair) {
    const file = process.env.HCP_AZURE_TEST_TMPDIR && path.join(process.env.HCP_AZURE_TEST_TMPDIR, `rsa-${key}.json`);
    try {
      pair = file ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
    } catch {
      pair = undefined;
    }
    if (!pair) {
      pair = generateKeyPairSync("rsa", {
        modulusLength: bits,
        privateKeyEncoding: { type: "pkcs1", format: "pem" },
        publicKeyEncoding: { type: "spki", format: "pem" },
      });
      if (file) {
        const temporary = `${file}.${process.pid}.${threadId}.tmp`;
        fs.writeFileSync(temporary, JSON.stringify(pair), { mode: 0o600 });
        fs.renameSync(temporary, file);
      }
    }
    keyPairs.set(key, Object.freeze(pair!));
  }
  return keyPairs.get(key)!;
}

/** The smallest valid config (prefix `demo`, one cluster `hc1`), with top-level overrides. */
export function minimalConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    prefix: "demo",
    subscriptionId: "00000000-0000-0000-0000-000000000000",
    tenantId: "11111111-1111-1111-1111-111111111111",
    location: "eastus",
    serviceAccountSigningKey: { publicKeyFile: "keys/example-signer.public" },
    clusters: [{ name: "hc1" }],
    ...overrides,
  };
}

export const RELEASE_IMAGE = "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64";

/** The required part of a `hostedCluster` section (no ExternalDNS, base domain zone in dns-rg). */
export function hostedClusterSpec(): Record<string, unknown> {
  return { releaseImage: RELEASE_IMAGE, baseDomain: "example.com", publicZone: { resourceGroupName: "dns-rg" }, pullSecretFile: "pull-secret.json" };
}

/**
 * HyperShift's control-plane identity keys with seed 003's Key Vault secret suffixes, in seed
 * order; written out here (not imported) so a wrong constant in config/components.ts fails.
 */
export const SEED_003_CONTROL_PLANE_SUFFIXES = {
  cloudProvider: "cloud-provider",
  nodePoolManagement: "nodepool-mgmt",
  controlPlaneOperator: "cpo",
  imageRegistry: "image-registry",
  ingress: "ingress",
  network: "network",
  disk: "disk",
  file: "file",
} as const;

export interface ToolRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The shared folder beside the project (../shared): CRDs and tools; absent in some checkouts. */
export const SHARED = path.resolve(REPO, "..", "shared");
/** ../shared/tools/check-manifests.mjs: validates HostedClusters and NodePools against the real CRDs. */
export const CHECK_MANIFESTS = path.join(SHARED, "tools", "check-manifests.mjs");
/**
 * Whether the CRD check can run: the tool is there (tests that need it skip cleanly without
 * ../shared). A tool without its CRDs fails the tests that use it, with the tool's own error.
 */
export const HAVE_CRDS = fs.existsSync(CHECK_MANIFESTS);

/** The tool's module, imported once per test worker. */
let checkManifestsModule: Promise<{ main(argv: string[]): number }> | undefined;

/**
 * Runs check-manifests once per argument list, in this thread (its exported `main`, console
 * output captured per run): what separate `node check-manifests.mjs ...args` runs print and
 * exit with, without a process start and module load per run. `main` is synchronous, so no other
 * test's output can land in a capture.
 */
export async function checkManifestsEach(argvs: readonly (readonly string[])[]): Promise<ToolRun[]> {
  if (!HAVE_CRDS) throw new Error(`${CHECK_MANIFESTS} is absent: run this test only when HAVE_CRDS`);
  checkManifestsModule ??= import(pathToFileURL(CHECK_MANIFESTS).href);
  const { main } = await checkManifestsModule;
  return argvs.map((argv) => {
    let stdout = "";
    let stderr = "";
    let status: number;
    const saved = { log: console.log, error: console.error, warn: console.warn };
    console.log = (...args: unknown[]) => void (stdout += `${format(...args)}\n`);
    console.error = console.warn = (...args: unknown[]) => void (stderr += `${format(...args)}\n`);
    try {
      status = main([...argv]);
    } catch (error) {
      status = 1;
      stderr += `${(error as Error)?.stack ?? String(error)}\n`;
    } finally {
      Object.assign(console, saved);
    }
    return { status, stdout, stderr };
  });
}

/** One check-manifests run (see checkManifestsEach). */
export async function checkManifests(...argv: string[]): Promise<ToolRun> {
  return (await checkManifestsEach([argv]))[0];
}

/**
 * What Terraform reads from a synthesized literal (its `$${` and `%%{` escapes): an unescaped `${` or
 * `%{` would be a template, so it throws.
 */
export function terraformLiteral(text: string): string {
  let out = "";
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if ((c === "$" || c === "%") && text[i + 1] === c && text[i + 2] === "{") {
      out += `${c}{`;
      i += 3;
    } else if ((c === "$" || c === "%") && text[i + 1] === "{") {
      throw new Error(`Terraform would read a template in ${JSON.stringify(text)}`);
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** Every file under `dir` with its SHA-256, by relative path. */
export function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(dir, full)] = createHash("sha256").update(fs.readFileSync(full)).digest("hex");
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return files;
}

/** Fixed client IDs of the seven workload identities, for manifests built without Azure. */
export const CLIENT_IDS: WorkloadIdentityClientIds = {
  imageRegistry: "00000000-0000-0000-0000-00000000000a",
  ingress: "00000000-0000-0000-0000-00000000000b",
  file: "00000000-0000-0000-0000-00000000000c",
  disk: "00000000-0000-0000-0000-00000000000d",
  nodePoolManagement: "00000000-0000-0000-0000-00000000000e",
  cloudProvider: "00000000-0000-0000-0000-00000000000f",
  network: "00000000-0000-0000-0000-000000000010",
};

const terraformVersion = spawnSync("terraform", ["version", "-json"], { encoding: "utf8" });
/** Whether `terraform` is on PATH (tests that run it skip cleanly without it). */
export const HAVE_TERRAFORM = terraformVersion.status === 0;
/** The installed Terraform's version ("1.11.4"), from the same probe; "" without Terraform. */
export const TERRAFORM_VERSION: string = HAVE_TERRAFORM ? JSON.parse(terraformVersion.stdout).terraform_version : "";

/**
 * `terraform apply -auto-approve` in `dir`, expected to succeed; a failure shows Terraform's own
 * words. No `terraform init`: a configuration of built-in things only (terraform_data,
 * terraform_remote_state, locals, checks), with no backend, provider or module, needs none (the
 * tests that run Terraform write such configurations, and init cost ~0.13 CPU-s each).
 */
export function terraformApply(dir: string, env: NodeJS.ProcessEnv = { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" }): void {
  const args = ["apply", "-auto-approve", "-input=false", "-no-color"];
  const run = spawnSync("terraform", args, { cwd: dir, env, encoding: "utf8" });
  expect({ args, status: run.status, stderr: run.stderr }).toMatchObject({ args, status: 0 });
}

/**
 * The first cluster's stack of `loaded`, synthesized alone into `outdir` as `cdktf synth` writes
 * it (stacks/<name>/cdk.tf.json, for check-manifests); returns its Terraform JSON.
 */
export function synthClusterStackInto(loaded: LoadedConfig, outdir: string): any {
  fs.mkdirSync(outdir, { recursive: true });
  const app = new App({ outdir, skipValidation: true }); // no `terraform version` per terraform_data (stacks/app.ts)
  const stack = new ClusterStack(app, {
    config: loaded.config,
    names: loaded.names,
    outdir: path.join(REPO, "cdktf.out"),
    managementAks: managementAksOf(loaded.names.topology),
    cluster: loaded.names.clusters[0],
    trustBundles: loaded.trustBundles,
  });
  app.synth();
  return JSON.parse(fs.readFileSync(path.join(outdir, "stacks", stack.node.id, "cdk.tf.json"), "utf8"));
}
