import * as fs from "node:fs";
import * as path from "node:path";
import { parse, stringify } from "yaml";
import { parseClusterRecord } from "../../config/deployed-clusters";
import { LOCAL_PROTECTED_RECORD, parseLocalProtectedRecord } from "../../config/protected-resources";
import { main } from "../../main";
import { EXAMPLES, HAVE_TERRAFORM, tempDir, terraformApply, tree } from "../helpers";

/**
 * Protected means protected, whatever the edit (config/protected-resources.ts): four config edits
 * that take protected resources out of the configuration (where prevent_destroy cannot stop
 * Terraform), each deployed as a deploy would leave it, then refused by synth naming the
 * resources; accepted once each is released, and the release retired once the resources are gone.
 */

const SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";
type Config = Record<string, any>;

/** An example as a config in `work`: files it reads made absolute, plan-time secrets as variables (nothing read at synth). */
function example(file: string): Config {
  const config = parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8"));
  config.serviceAccountSigningKey.publicKeyFile = path.join(EXAMPLES, config.serviceAccountSigningKey.publicKeyFile);
  if (config.managementCluster?.operator?.bundleFile)
    config.managementCluster.operator.bundleFile = path.join(EXAMPLES, config.managementCluster.operator.bundleFile);
  config.secrets = { source: "variables" };
  return config;
}

function run(configFile: string, outdir: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main([configFile], { CDKTF_OUTDIR: outdir, ...env }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The first synth of each example, by file: the folder that deployment's tests copy (deployedCopy). */
const firstSynths = new Map<string, string>();

/**
 * Step 1 of a deployment: the example as it was, synthesized under the cdktf CLI (which records the
 * protected resources beside the state), in a folder of its own. The synth runs once per example
 * in this file; each test gets a copy of its folder (the output and the record hold no absolute
 * path), so the tests that start from the same deployment share that one synth.
 */
function deployedCopy(file: string): { configFile: string; outdir: string; states: string } {
  let first = firstSynths.get(file);
  if (!first) {
    first = tempDir();
    const configFile = path.join(first, "env.yaml");
    fs.writeFileSync(configFile, stringify(example(file)));
    expect(run(configFile, path.join(first, "cdktf.out"), { CDKTF_CONTEXT_JSON: "{}", HCP_AZURE_CONFIG: configFile }).code).toBe(0);
    firstSynths.set(file, first);
  }
  const work = tempDir();
  fs.cpSync(first, work, { recursive: true });
  const states = path.join(work, "terraform-state", SUBSCRIPTION, example(file).prefix);
  return { configFile: path.join(work, "env.yaml"), outdir: path.join(work, "cdktf.out"), states };
}

/** `<stack>/<address>` of every resource an output folder declares, per stack. */
function declared(outdir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const stack of fs.readdirSync(path.join(outdir, "stacks"))) {
    const json = JSON.parse(fs.readFileSync(path.join(outdir, "stacks", stack, "cdk.tf.json"), "utf8"));
    out.set(
      stack,
      Object.entries<any>(json.resource ?? {}).flatMap(([type, byName]) => Object.keys(byName).map((name) => `${type}.${name}`)),
    );
  }
  return out;
}

/** What a deploy of the output leaves in the local backend: one state file per stack listing every resource it declares (Terraform's v4 format). */
function deployLocally(outdir: string, states: string): void {
  fs.mkdirSync(states, { recursive: true });
  for (const [stack, addresses] of declared(outdir)) {
    const resources = addresses.map((address) => {
      const [type, name] = [address.slice(0, address.indexOf(".")), address.slice(address.indexOf(".") + 1)];
      return {
        mode: "managed",
        type,
        name,
        provider: 'provider["registry.terraform.io/hashicorp/x"]',
        instances: [{ schema_version: 0, attributes: { id: name } }],
      };
    });
    fs.writeFileSync(
      path.join(states, `${stack}.tfstate`),
      JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 1, lineage: "x", outputs: {}, resources }),
    );
  }
}

/** Released IDs (the refusal's YAML, parsed back). */
function releaseBlock(err: string): string[] {
  return [...err.matchAll(/^ {10}- (\S+)$/gm)].map((m) => m[1]);
}

/** The refusal's issues: each from its `  <path>: ` line to the next. */
function issues(err: string): string[] {
  return err
    .split("\n")
    .filter((line) => !line.startsWith("config error(s)") && line !== "nothing was written.")
    .join("\n")
    .split(/\n(?= {2}\S)/);
}

interface EditCase {
  name: string;
  file: string;
  edit: (config: Config) => void;
  /** The issue's path, and the dropped resources (patterns, in sorted order). */
  path: string;
  dropped: RegExp[];
  /**
   * A cluster that leaves the config: retired and its stacks destroyed first (help/retire-cluster.md),
   * which refuses the edit before retirement also for the cluster's stacks and its identities.
   */
  retire?: { index: number; stacks: string[]; issuesBefore: number };
  /** What the refusal says of the edit, beyond the common text. */
  says?: RegExp;
}

const CASES: EditCase[] = [
  {
    name: "identities.controlPlaneOperator: false drops the identity and its federated credential",
    file: "basic.yaml",
    edit: (c) => (c.clusters[0].identities = { controlPlaneOperator: false }),
    path: "clusters[0].identities.controlPlaneOperator",
    dropped: [
      /^identities-myprefix-hc\/azurerm_federated_identity_credential\.WorkloadIdentities_controlPlaneOperator_fed-id_[0-9A-F]{8}$/,
      /^identities-myprefix-hc\/azurerm_user_assigned_identity\.WorkloadIdentities_controlPlaneOperator_Identity_[0-9A-F]{8}$/,
    ],
  },
  {
    name: 'operator.hypershiftRelease: "4.21" drops the control-plane operator identity (its default before 4.22) and its federated credential',
    file: "basic.yaml",
    edit: (c) => (c.managementCluster.operator.hypershiftRelease = "4.21"),
    path: "clusters[0].identities.controlPlaneOperator",
    says: /is not created before HyperShift 4\.22 \(managementCluster\.operator\.hypershiftRelease: 4\.21\), whose HostedCluster has no field for it: nothing uses it there, so releasing it is safe/,
    dropped: [
      /^identities-myprefix-hc\/azurerm_federated_identity_credential\.WorkloadIdentities_controlPlaneOperator_fed-id_[0-9A-F]{8}$/,
      /^identities-myprefix-hc\/azurerm_user_assigned_identity\.WorkloadIdentities_controlPlaneOperator_Identity_[0-9A-F]{8}$/,
    ],
  },
  {
    name: "removing externalDns drops its application and service principal",
    file: "external-dns.yaml",
    edit: (c) => {
      delete c.externalDns;
      c.managementCluster.operator.bundleFile = path.join(EXAMPLES, "operator", "hypershift-operator.yaml");
      for (const cluster of c.clusters) delete cluster.hostedCluster.externalDns;
    },
    path: "externalDns",
    dropped: [
      /^shared\/azuread_application\.ExternalDns_Application_[0-9A-F]{8}$/,
      /^shared\/azuread_service_principal\.ExternalDns_ServicePrincipal_[0-9A-F]{8}$/,
    ],
  },
  {
    name: "oidc.issuer: shared → perCluster drops the shared issuer's container",
    file: "basic.yaml",
    edit: (c) => {
      c.oidc = { issuer: "perCluster" };
      c.clusters[0].serviceAccountSigningKey = c.serviceAccountSigningKey;
      delete c.serviceAccountSigningKey;
    },
    path: "oidc.issuer",
    dropped: [/^shared\/azurerm_storage_container\.OidcIssuer_Container_[0-9A-F]{8}$/],
  },
  {
    name: "renaming an aroHcp cluster drops its 8 control-plane applications, service principals and Key Vault secrets",
    file: "aro-hcp.yaml",
    edit: (c) => {
      c.clusters[0].name = "renamed-hc";
      c.clusters[0].hostedCluster.nodePools[0].name = "renamed-hc";
    },
    path: "clusters",
    retire: { index: 0, stacks: ["cluster-myprefix-hc", "infra-myprefix-hc", "identities-myprefix-hc"], issuesBefore: 3 },
    dropped: ["azuread_application", "azuread_service_principal", "azurerm_key_vault_secret"].flatMap((type) =>
      ["cloudProvider", "controlPlaneOperator", "disk", "file", "imageRegistry", "ingress", "network", "nodePoolManagement"].map(
        (component) =>
          new RegExp(
            `^shared/${type}\\.ControlPlaneIdentities_myprefix-hc_${component}_${type === "azurerm_key_vault_secret" ? "Secret" : type === "azuread_application" ? "Application" : "ServicePrincipal"}_[0-9A-F]{8}$`,
          ),
      ),
    ),
  },
];

describe("local backend: an edit that drops protected resources is refused until they are released", () => {
  test("the five edits drop 31 protected resources in all", () => {
    expect(CASES.reduce((sum, c) => sum + c.dropped.length, 0)).toBe(31);
  });

  test.each(CASES)("$name", ({ file, edit, path: at, dropped, retire, says }) => {
    // 1. Deploy the config as it was: synth under the cdktf CLI (it records the protected resources
    // beside the state), and the state a deploy leaves.
    const { configFile, outdir, states } = deployedCopy(file);
    deployLocally(outdir, states);
    const recorded = parseLocalProtectedRecord(fs.readFileSync(path.join(states, LOCAL_PROTECTED_RECORD), "utf8"));
    expect(recorded.ok).toBe(true);

    // 2. The edit: refused, naming the config edit and every resource it drops, and nothing written.
    const after = example(file);
    edit(after);
    fs.writeFileSync(configFile, stringify(after));
    const output = tree(outdir);
    const refused = run(configFile, outdir);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("nothing was written.");
    expect(tree(outdir)).toEqual(output);
    const expectIssue = (err: string, count: number) => {
      const all = issues(err);
      expect(all).toHaveLength(count);
      const issue = all.find((text) => text.startsWith(`  ${at}: `) && text.includes(` drops ${dropped.length} protected resource`));
      expect(issue).toMatch(/the deployment holds .*prevent_destroy does not stop this/);
      if (says) expect(issue).toMatch(says);
      const ids = releaseBlock(issue!);
      expect(ids).toHaveLength(dropped.length);
      ids.forEach((id, i) => expect(id).toMatch(dropped[i]));
      for (const id of ids) expect(recorded.ok && recorded.protected.has(id)).toBe(true);
      return ids;
    };
    let ids = expectIssue(refused.err, retire?.issuesBefore ?? 1);
    if (retire) {
      // The way a cluster leaves: retired (its identities' protection lifted), its stacks destroyed;
      // then the edit is refused for what stays protected while retired (aroHcp: its principals in shared).
      const retiring = example(file);
      retiring.clusters[retire.index].retired = true;
      fs.writeFileSync(configFile, stringify(retiring));
      expect(run(configFile, outdir).code).toBe(0);
      for (const stack of retire.stacks) fs.writeFileSync(path.join(states, `${stack}.tfstate`), JSON.stringify({ version: 4, resources: [] }));
      fs.writeFileSync(configFile, stringify(after));
      ids = expectIssue(run(configFile, outdir).err, 1);
    }

    // 3. Released, one by one: accepted; the next deploy destroys them, and synth says so.
    after.protection = { release: ids };
    fs.writeFileSync(configFile, stringify(after));
    const released = run(configFile, outdir);
    expect(released.code).toBe(0);
    for (const id of ids)
      expect(released.err).toContain(`warning: ${id} is released (protection.release): the next deploy of ${id.split("/")[0]} destroys it.`);
    const record = parseLocalProtectedRecord(fs.readFileSync(path.join(states, LOCAL_PROTECTED_RECORD), "utf8"));
    expect(record.ok && ids.map((id) => record.protected.get(id))).toEqual(ids.map(() => ({ released: true })));

    // 4. The deploy destroyed them: the releases are stale (said), the record forgets them, and
    // without the releases the config synthesizes cleanly.
    deployLocally(outdir, states);
    const stale = run(configFile, outdir);
    expect(stale.code).toBe(0);
    ids.forEach((id, i) => expect(stale.err).toContain(`protection.release[${i}] (${id}): the deployment holds no such protected resource`));
    const forgotten = parseLocalProtectedRecord(fs.readFileSync(path.join(states, LOCAL_PROTECTED_RECORD), "utf8"));
    expect(forgotten.ok && ids.filter((id) => forgotten.protected.has(id))).toEqual([]);
    delete after.protection;
    fs.writeFileSync(configFile, stringify(after));
    const clean = run(configFile, outdir);
    expect(clean.code).toBe(0);
    expect(clean.err).not.toContain("protection.release");
  });

  test("a protected resource recorded but no longer in the state (never deployed, or destroyed) does not stop an edit", () => {
    const { configFile, outdir, states } = deployedCopy("basic.yaml");
    expect(fs.readdirSync(states)).toEqual([LOCAL_PROTECTED_RECORD]); // recorded, no state
    const after = example("basic.yaml");
    CASES[0].edit(after);
    fs.writeFileSync(configFile, stringify(after));
    expect(run(configFile, outdir).code).toBe(0);
  });

  test("a release that names a resource the config still declares is said to have no effect", () => {
    const work = tempDir();
    const configFile = path.join(work, "env.yaml");
    const outdir = path.join(work, "cdktf.out");
    const config = example("basic.yaml");
    fs.writeFileSync(configFile, stringify(config));
    expect(run(configFile, outdir).code).toBe(0);
    const [storage] = [...declared(outdir).get("shared")!].filter((a) => a.startsWith("azurerm_storage_account."));
    config.protection = { release: [`shared/${storage}`, "shared/azurerm_dns_zone.Typo_00000000"] };
    fs.writeFileSync(configFile, stringify(config));
    const result = run(configFile, outdir);
    expect(result.code).toBe(0);
    expect(result.err).toContain(`protection.release[0] (shared/${storage}): this config still declares it, protected: the release has no effect`);
    expect(result.err).toContain("protection.release[1] (shared/azurerm_dns_zone.Typo_00000000): the deployment holds no such protected resource");
  });

  test("a malformed release entry is a config error naming the form", () => {
    const work = tempDir();
    const configFile = path.join(work, "env.yaml");
    fs.writeFileSync(configFile, stringify({ ...example("basic.yaml"), protection: { release: ["ExternalDns_Application"] } }));
    const result = run(configFile, path.join(work, "cdktf.out"));
    expect(result.code).toBe(1);
    expect(result.err).toContain('protection.release[0]: "ExternalDns_Application" must be <stack>/<resource address>');
  });

  (HAVE_TERRAFORM ? test : test.skip)("the state Terraform itself writes is read: a recorded resource a real apply left in shared.tfstate is refused", () => {
    const work = tempDir();
    const configFile = path.join(work, "env.yaml");
    const outdir = path.join(work, "cdktf.out");
    const states = path.join(work, "terraform-state", SUBSCRIPTION, "myprefix");
    // A built-in-only stand-in of the shared stack, applied for real (no provider needed).
    const standIn = path.join(work, "stand-in");
    fs.mkdirSync(standIn);
    fs.writeFileSync(path.join(standIn, "main.tf.json"), JSON.stringify({ resource: { terraform_data: { Standin_0123ABCD: { input: "protected" } } } }));
    terraformApply(standIn);
    fs.mkdirSync(states, { recursive: true });
    fs.copyFileSync(path.join(standIn, "terraform.tfstate"), path.join(states, "shared.tfstate"));
    fs.writeFileSync(path.join(states, LOCAL_PROTECTED_RECORD), "protected: shared/terraform_data.Standin_0123ABCD\n");
    fs.writeFileSync(configFile, stringify(example("basic.yaml")));
    const result = run(configFile, outdir);
    expect(result.code).toBe(1);
    expect(result.err).toContain("drops 1 protected resource the deployment holds");
    expect(releaseBlock(result.err)).toEqual(["shared/terraform_data.Standin_0123ABCD"]);
  });
});

describe("remote backend: the committed record lists the protected resources", () => {
  const AZURERM = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate" };
  const RECORD = "azurerm+acmetfstate+tfstate+hcp-azure%2Fmyprefix%2F.clusters.lock";

  test("a record from before (cluster stacks only) gains protected lines; the edit is then refused, released, and the line deleted by hand", () => {
    const work = tempDir();
    const configFile = path.join(work, "env.yaml");
    const outdir = path.join(work, "cdktf.out");
    const record = path.join(work, RECORD);
    const before = { ...example("external-dns.yaml"), backend: AZURERM };
    fs.writeFileSync(configFile, stringify(before));
    // The record as synth wrote it before protected resources were recorded: still read.
    fs.writeFileSync(
      record,
      `backend: {"type":"azurerm","storageAccountName":"acmetfstate","containerName":"tfstate","keyPrefix":"hcp-azure/myprefix/"}\nconfigs: ["env.yaml"]\nidentities-myprefix-dev\nidentities-myprefix-hc\ninfra-myprefix-dev\ninfra-myprefix-hc\ncluster-myprefix-dev\ncluster-myprefix-hc\n`,
    );
    const upgraded = run(configFile, outdir);
    expect(upgraded.code).toBe(0);
    expect(upgraded.err).toContain(`${RECORD} listed no protected resources (written before they were recorded): synth now records`);
    const parsed = parseClusterRecord(fs.readFileSync(record, "utf8"));
    expect(parsed.ok && parsed.record.size).toBe(6);
    const protectedIds = parsed.ok ? [...parsed.protected.keys()] : [];
    expect(protectedIds.filter((id) => id.startsWith("shared/azuread_"))).toEqual([
      expect.stringMatching(/^shared\/azuread_application\.ExternalDns_Application_/),
      expect.stringMatching(/^shared\/azuread_service_principal\.ExternalDns_ServicePrincipal_/),
    ]);

    const after: Config = { ...example("external-dns.yaml"), backend: AZURERM };
    CASES.find((c) => c.path === "externalDns")!.edit(after);
    fs.writeFileSync(configFile, stringify(after));
    const refused = run(configFile, outdir);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      new RegExp(`^  externalDns: drops 2 protected resources the deployment holds \\([^)]*${RECORD.replace(/[.+%]/g, "\\$&")}\\)`, "m"),
    );
    const ids = releaseBlock(refused.err);
    expect(ids).toEqual(protectedIds.filter((id) => id.startsWith("shared/azuread_")));

    after.protection = { release: ids };
    fs.writeFileSync(configFile, stringify(after));
    const released = run(configFile, outdir);
    expect(released.code).toBe(0);
    expect(released.err).toMatch(
      new RegExp(`Once that deploy has run, delete its line from [^ ]*${RECORD.replace(/[.+%]/g, "\\$&")} and remove it from protection.release.`),
    );
    const text = fs.readFileSync(record, "utf8");
    for (const id of ids) expect(text).toContain(`protected: ${id} released\n`);

    // After the deploy: the lines deleted by hand, the releases removed.
    fs.writeFileSync(
      record,
      text
        .split("\n")
        .filter((line) => !line.endsWith(" released"))
        .join("\n"),
    );
    delete after.protection;
    fs.writeFileSync(configFile, stringify(after));
    const done = run(configFile, outdir);
    expect(done.code).toBe(0);
    expect(done.err).not.toMatch(/protection\.release|protected resources/);

    // Without the hand edit (the line kept, the release removed), synth refuses again: it cannot know the deploy ran.
    fs.writeFileSync(record, text);
    expect(run(configFile, outdir).code).toBe(1);
  });

  test("a malformed protected line is a config error naming the line", () => {
    expect(parseClusterRecord("identities-hc1\nprotected: shared\nprotected: shared/a.b gone\n")).toEqual({
      ok: false,
      problems: [
        'line 2: "protected: shared" must be protected: <stack>/<resource address>, optionally followed by "released"',
        'line 3: "protected: shared/a.b gone" must be protected: <stack>/<resource address>, optionally followed by "released"',
      ],
    });
  });
});
