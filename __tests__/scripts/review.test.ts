import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { FORCE_NEW, forcesReplacement } from "../../scripts/change-review/force-new";
import { MAX_COMMENT, messageMarkdown } from "../../scripts/change-review/markdown";
import { Review, reviewChanges } from "../../scripts/change-review/review";
import { synthAtRef, writeOutputFolder } from "../../scripts/change-review/sides";
import { cleanUpOnSignals, configForWorktree, main } from "../../scripts/review";
import { EXAMPLES, REPO, loadInline, synthStacks, tempDir } from "../helpers";

/**
 * `npm run review` on paired synths of real edits of examples/basic.yaml: each edit is synthesized
 * once (synthStacks caches), written as an output folder, and reviewed against the example.
 */
const CHECK_MANIFESTS = path.resolve(REPO, "..", "shared", "tools", "check-manifests.mjs");
const HAVE_CHECK_MANIFESTS = fs.existsSync(CHECK_MANIFESTS);
/** A path where no tool is: the review must degrade to the creation guard's immutable fields. */
const NO_TOOL = path.join(REPO, "no-such-dir", "check-manifests.mjs");

type Config = Record<string, any>;
const basic = (): Config => parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8"));
const hosted = (config: Config) => config.clusters[0].hostedCluster;

const EDITS: Record<string, (config: Config) => void> = {
  base: () => undefined,
  scale: (c) => (hosted(c).nodePools[0].replicas = 3),
  addNodePool: (c) => hosted(c).nodePools.push({ name: "extra", replicas: 1 }),
  changeCidr: (c) => (hosted(c).network = { vnetCidr: "10.1.0.0/16", subnetCidr: "10.1.0.0/24" }),
  serviceNetwork: (c) => (hosted(c).network = { serviceNetwork: "172.30.0.0/16" }),
  // Signing-key changes (help/oidc-issuer.md#rotating-the-signing-key): a plain swap, then the rotation's steps.
  swapKey: (c) => (c.serviceAccountSigningKey.publicKeyFile = "keys/cluster-a-signer.public"),
  rotationStart: (c) => {
    c.serviceAccountSigningKey.publicKeyFile = "keys/cluster-a-signer.public";
    c.serviceAccountSigningKey.previousPublicKeyFiles = ["keys/example-signer.public"];
  },
  rotationEnd: (c) => (c.serviceAccountSigningKey.publicKeyFile = "keys/cluster-a-signer.public"),
  tenant: (c) => (c.tenantId = "22222222-2222-2222-2222-222222222222"),
  subscription: (c) => (c.subscriptionId = "33333333-3333-3333-3333-333333333333"),
  issuerUrl: (c) => (c.oidc = { containerName: "newissuer" }),
  twoClusters: (c) => {
    const second = structuredClone(c.clusters[0]);
    second.name = "second";
    second.hostedCluster.nodePools[0].name = "second";
    c.clusters.push(second);
  },
};

const work = tempDir("hcp-azure-review-test-");
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** The output folder of one edit (synthesized once per file). */
const folders = new Map<string, string>();
function folder(edit: keyof typeof EDITS): string {
  let dir = folders.get(edit);
  if (!dir) {
    const config = basic();
    EDITS[edit](config);
    dir = path.join(work, edit);
    writeOutputFolder(dir, synthStacks(loadInline(config)));
    folders.set(edit, dir);
  }
  return dir;
}

/** A copy of an output folder with `edit` applied to its parsed stacks. */
function edited(from: string, name: string, edit: (stacks: Record<string, any>) => void): string {
  const stacks: Record<string, any> = {};
  for (const stack of fs.readdirSync(path.join(from, "stacks")))
    stacks[stack] = JSON.parse(fs.readFileSync(path.join(from, "stacks", stack, "cdk.tf.json"), "utf8"));
  edit(stacks);
  const dir = path.join(work, name);
  writeOutputFolder(dir, stacks);
  return dir;
}

const review = (oldDir: string, newDir: string, checkManifests = NO_TOOL): Review =>
  reviewChanges({ oldLabel: path.basename(oldDir), newLabel: path.basename(newDir), oldDir, newDir, checkManifests });

/** The review reduced to what a reviewer acts on: changed stacks, resource actions, findings. */
function classification(r: Review) {
  return {
    stacks: Object.fromEntries(r.stacks.filter((s) => s.status !== "unchanged").map((s) => [s.stack, s.status])),
    actions: r.stacks.flatMap((s) => (s.status === "changed" ? s.resources.map((c) => `${s.stack} ${c.action} ${c.type}`) : [])).sort(),
    /** Stack and the message up to its first colon. */
    dangers: r.findings.filter((f) => f.severity === "danger").map((f) => `${f.stack}: ${f.message.split(":")[0]}`),
    dangerous: r.dangerous,
  };
}

describe("review of real edits of examples/basic.yaml", () => {
  test("scaling a NodePool is one in-place update of its replicas, nothing dangerous", () => {
    const r = review(folder("base"), folder("scale"));
    expect(classification(r)).toEqual({
      stacks: { "cluster-myprefix-hc": "changed" },
      actions: ["cluster-myprefix-hc update kubernetes_manifest"],
      dangers: [],
      dangerous: false,
    });
    const [nodePool] = r.stacks.find((s) => s.stack === "cluster-myprefix-hc")!.resources;
    expect(nodePool.attributes.map((a) => [a.path, a.before, a.after])).toEqual([["manifest.spec.replicas", 2, 3]]);
    expect(r.markdown).toMatch(/manifest\.spec\.replicas<\/code> \| <code>2<\/code> \| <code>3<\/code>/);
    expect(r.markdown).toContain("✅ **Nothing dangerous.**");
  });

  test("adding a NodePool creates its manifest and its creation guard, nothing dangerous", () => {
    const r = review(folder("base"), folder("addNodePool"));
    expect(classification(r)).toEqual({
      stacks: { "cluster-myprefix-hc": "changed" },
      actions: ["cluster-myprefix-hc create kubernetes_manifest", "cluster-myprefix-hc create terraform_data"],
      dangers: [],
      dangerous: false,
    });
    const created = r.stacks.flatMap((s) => s.resources).find((c) => c.type === "kubernetes_manifest")!;
    expect(created.after.manifest).toMatchObject({ kind: "NodePool", metadata: { name: "extra" }, spec: { replicas: 1 } });
  });

  test("changing the VNet and subnet CIDRs updates both in place (address_space and address_prefixes are not ForceNew)", () => {
    const r = review(folder("base"), folder("changeCidr"));
    expect(classification(r)).toEqual({
      stacks: { "infra-myprefix-hc": "changed" },
      actions: ["infra-myprefix-hc update azurerm_subnet", "infra-myprefix-hc update azurerm_virtual_network"],
      dangers: [],
      dangerous: false,
    });
    const paths = r.stacks.flatMap((s) => s.resources).flatMap((c) => c.attributes.map((a) => `${c.type} ${a.path} ${a.forcesReplacement}`));
    expect(paths).toEqual(["azurerm_subnet address_prefixes false", "azurerm_virtual_network address_space false"]);
  });

  test("removing a cluster removes its three stacks: each is dangerous, and the identities it holds are named", () => {
    const r = review(folder("twoClusters"), folder("base"));
    expect(classification(r)).toEqual({
      stacks: { "cluster-second": "removed", "identities-second": "removed", "infra-second": "removed" },
      actions: [],
      dangers: ["cluster-second: stack removed", "identities-second: stack removed", "infra-second: stack removed"],
      dangerous: true,
    });
    const removed = r.stacks.find((s) => s.stack === "identities-second")!.before!;
    const count = (type: string) => Object.keys(removed.resource[type]).length;
    const identities = r.findings.find((f) => f.stack === "identities-second")!;
    expect(identities.message).toContain(
      `It holds ${count("azurerm_federated_identity_credential")} azurerm_federated_identity_credential, ${count("azurerm_user_assigned_identity")} azurerm_user_assigned_identity`,
    );
    // The seven HyperShift requires, plus the control-plane-operator identity (on by default, as `create iam azure`).
    expect(count("azurerm_user_assigned_identity")).toBe(8);
    expect(r.findings.find((f) => f.stack === "cluster-second")!.message).toContain("1 HostedCluster");
  });

  test("adding a cluster adds stacks; their role assignments are listed for review, not failed", () => {
    const r = review(folder("base"), folder("twoClusters"));
    expect(classification(r).dangerous).toBe(false);
    const grants = Object.keys(r.stacks.find((s) => s.stack === "infra-second")!.after!.resource.azurerm_role_assignment).length;
    expect(grants).toBeGreaterThan(0);
    expect(r.findings).toEqual([{ severity: "review", stack: "infra-second", message: `new stack grants ${grants} role assignments (listed in its details)` }]);
  });

  test("changing an immutable HostedCluster field is refused: found by the creation guard's list without the CRD tool", () => {
    const r = review(folder("base"), folder("serviceNetwork"));
    expect(r.crd.status).toBe("unavailable");
    expect(r.markdown).toContain("CRD check not run:");
    expect(classification(r).dangers).toEqual(["cluster-myprefix-hc: HostedCluster clusters/myprefix-hc"]);
    expect(r.findings[0].message).toContain("the API server refuses the change of `spec.networking.serviceNetwork`");
    expect(r.findings[0]).toMatchObject({ crdKey: "HostedCluster/myprefix-hc spec.networking.serviceNetwork" });
    expect(r.findings[0].message).toContain("172.31.0.0/16 → 172.30.0.0/16");
  });

  (HAVE_CHECK_MANIFESTS ? test : test.skip)("with ../shared, the real CRDs refuse the same edit (reported once) and accept a scale", () => {
    const refused = review(folder("base"), folder("serviceNetwork"), CHECK_MANIFESTS);
    expect(refused.crd.status).toBe("checked");
    expect(refused.crd.rejections.map((x) => `${x.kind}/${x.name} ${x.path}`)).toEqual(["HostedCluster/myprefix-hc spec.networking.serviceNetwork"]);
    expect(refused.findings.filter((f) => f.severity === "danger")).toHaveLength(1);
    const scaled = review(folder("base"), folder("scale"), CHECK_MANIFESTS);
    expect([scaled.crd.status, scaled.crd.rejections, scaled.dangerous]).toEqual(["checked", [], false]);
  });
});

describe("breaking changes of the OIDC trust, tenant and subscription", () => {
  const dangers = (r: Review) => r.findings.filter((f) => f.severity === "danger").map((f) => `${f.stack} ${f.message}`);
  const reviews = (r: Review) => r.findings.filter((f) => f.severity === "review").map((f) => `${f.stack} ${f.message}`);

  test("swapping the signing key is dangerous: the JWKS no longer publishes the key every cluster signs with", () => {
    const r = review(folder("base"), folder("swapKey"));
    expect(r.dangerous).toBe(true);
    expect(dangers(r)).toEqual([
      expect.stringMatching(
        /^shared the JWKS stops publishing the signing key \S+ \(now \S+\): Entra ID rejects every token signed with it, for every cluster on this issuer/,
      ),
    ]);
  });

  test("a rotation that keeps the old key published is safe; dropping it afterwards is listed for review", () => {
    const start = review(folder("base"), folder("rotationStart"));
    expect(dangers(start)).toEqual([]);
    // The blob itself is replaced (source_content is ForceNew), listed as before; the JWKS finding says it is safe.
    expect(reviews(start)).toEqual([
      "shared replaces azurerm_storage_blob (destroy, then create), forced by `source_content`",
      expect.stringMatching(/^shared the JWKS adds the key \S+ and keeps \S+: a safe rotation step/),
    ]);
    // The old key's kid stays, second: the JWKS holds both.
    const jwks = (dir: string) =>
      JSON.parse(
        Object.values<any>(JSON.parse(fs.readFileSync(path.join(dir, "stacks", "shared", "cdk.tf.json"), "utf8")).resource.azurerm_storage_blob).find(
          (b) => b.name === "openid/v1/jwks",
        ).source_content,
      ).keys.map((k: any) => k.kid);
    const [oldKid] = jwks(folder("base"));
    const [newKid] = jwks(folder("swapKey"));
    expect(jwks(folder("rotationStart"))).toEqual([newKid, oldKid]);
    const end = review(folder("rotationStart"), folder("rotationEnd"));
    expect(dangers(end)).toEqual([]);
    expect(reviews(end)).toEqual([
      "shared replaces azurerm_storage_blob (destroy, then create), forced by `source_content`",
      `shared the JWKS stops publishing the previous key ${oldKid}: tokens signed with it are rejected from now on; safe once every cluster signs with ${newKid} and their older tokens have expired`,
    ]);
  });

  test.each([
    ["tenant", "tenant_id", "tenant"],
    ["subscription", "subscription_id", "subscription"],
  ] as const)("a new %s is dangerous for every stack", (edit, attribute, word) => {
    const r = review(folder("base"), folder(edit));
    const providerDangers = r.findings.filter((f) => f.severity === "danger" && f.message.startsWith("the provider azurerm"));
    expect(providerDangers.map((f) => f.stack).sort()).toEqual(["cluster-myprefix-hc", "identities-myprefix-hc", "infra-myprefix-hc", "shared"]);
    for (const f of providerDangers) expect(f.message).toMatch(new RegExp(`changes \`${attribute}\` .*: the state's resources live in the old ${word}`));
  });

  test("a new issuer URL is dangerous, and so is each federated credential it re-targets", () => {
    const r = review(folder("base"), folder("issuerUrl"));
    expect(dangers(r)).toContainEqual(expect.stringMatching(/^shared the issuer URL changes \(https:\/\/\S+\/myprefixoidc\w+ → https:\/\/\S+\/newissuer\)/));
    const retargeted = r.findings.filter((f) => f.message.startsWith("re-targets the federated credential"));
    const credentials = Object.keys(
      JSON.parse(fs.readFileSync(path.join(folder("base"), "stacks", "identities-myprefix-hc", "cdk.tf.json"), "utf8")).resource
        .azurerm_federated_identity_credential,
    );
    expect(retargeted.map((f) => f.address).sort()).toEqual(credentials.map((name) => `azurerm_federated_identity_credential.${name}`).sort());
    for (const f of retargeted)
      expect(f).toMatchObject({ severity: "danger", message: expect.stringMatching(/`issuer` ".*myprefixoidc\w+" → ".*\/newissuer"/) });
  });

  test("a federated credential's new subject re-targets it", () => {
    const r = review(
      folder("base"),
      edited(
        folder("base"),
        "subject",
        (s) => (Object.values<any>(s["identities-myprefix-hc"].resource.azurerm_federated_identity_credential)[0].subject = "system:serviceaccount:x:y"),
      ),
    );
    expect(dangers(r)).toEqual([
      expect.stringMatching(/^identities-myprefix-hc re-targets the federated credential \S+ \(`subject` ".*" → "system:serviceaccount:x:y"\)/),
    ]);
  });
});

describe("config text in findings is shown, never rendered", () => {
  const PAYLOAD =
    "https://oidc.example.com/mgmt<img src=https://attacker.example/p.png><details open><summary>✅ <b>Nothing dangerous.</b></summary>[x](https://attacker.example)_*`";

  test("a federated credential re-targeted to an issuer holding HTML and Markdown: escaped in the findings list", () => {
    const r = review(
      folder("base"),
      edited(
        folder("base"),
        "htmlIssuer",
        (s) => (Object.values<any>(s["identities-myprefix-hc"].resource.azurerm_federated_identity_credential)[0].issuer = PAYLOAD),
      ),
    );
    const line = r.markdown.split("\n").find((l) => l.includes("re-targets the federated credential"));
    expect(line).toContain("&lt;img src=https://attacker.example/p.png&gt;&lt;details open&gt;");
    expect(line).not.toMatch(/<(?!\/?code>)|\[x\]|[_*]`?"?\)/);
    expect(r.markdown).not.toMatch(/<img|<details open|<b>Nothing/);
    // Nor a link or image in the details tables (their values are <code>, inside which Markdown still renders).
    expect(r.markdown).toContain("&#91;x&#93;(https://attacker.example)");
    expect(r.markdown).not.toMatch(/\[x\]\(/);
  });

  test("code spans stay code; their text is escaped too", () => {
    expect(messageMarkdown("changes `a<b>*c*` (x_y → [z](w))")).toBe("changes <code>a&lt;b&gt;&#42;c&#42;</code> (x&#95;y → &#91;z&#93;(w))");
  });
});

describe("dangers from the ForceNew table and persistence", () => {
  const cases: { name: string; edit: (stacks: Record<string, any>) => void; expected: string[] }[] = [
    {
      name: "renaming a workload identity replaces it (name is ForceNew) and, through parent_id, its federated credential",
      edit: (s) => (Object.values<any>(s["identities-myprefix-hc"].resource.azurerm_user_assigned_identity)[0].name = "renamed"),
      expected: [
        "danger identities-myprefix-hc replaces azurerm_federated_identity_credential (destroy, then create), forced by `parent_id` (refers to the replaced azurerm_user_assigned_identity.",
        "danger identities-myprefix-hc replaces azurerm_user_assigned_identity (destroy, then create), forced by `name`: it has prevent_destroy",
      ],
    },
    {
      name: "renaming the OIDC storage account replaces it and, through references, its container, blobs and role assignment",
      edit: (s) => (Object.values<any>(s.shared.resource.azurerm_storage_account)[0].name = "renamedoidc"),
      expected: [
        "danger shared replaces the role assignment Storage Blob Data Contributor on `${azurerm_storage_account.OidcStorage_829F6EB3.id}/blobServices/default/containers/myprefixoidc2832a9`",
        "danger shared replaces azurerm_storage_account (destroy, then create), forced by `name`: it has prevent_destroy",
        "review shared replaces azurerm_storage_blob (destroy, then create), forced by `storage_container_name` (refers to the replaced azurerm_storage_container.",
        "review shared replaces azurerm_storage_blob (destroy, then create), forced by `storage_container_name` (refers to the replaced azurerm_storage_container.",
        "danger shared replaces azurerm_storage_container (destroy, then create), forced by `storage_account_id` (refers to the replaced azurerm_storage_account.",
      ],
    },
    {
      name: "a role assignment to another principal is a replacement: access revoked, then granted",
      edit: (s) => (Object.values<any>(s.shared.resource.azurerm_role_assignment)[0].principal_id = "22222222-2222-2222-2222-222222222222"),
      expected: [
        "danger shared replaces the role assignment Storage Blob Data Contributor on `${azurerm_storage_account.OidcStorage_829F6EB3.id}/blobServices/default/containers/myprefixoidc2832a9` to ",
      ],
    },
    {
      name: "dropping the OIDC storage account destroys persistent storage",
      edit: (s) => delete s.shared.resource.azurerm_storage_account,
      expected: [
        "danger shared destroys azurerm_storage_account: its block leaves the configuration, and prevent_destroy with it, so Terraform destroys it without refusing. Synth refuses this config while the deployment holds it, unless protection.release names shared/azurerm_storage_account.OidcStorage_829F6EB3",
      ],
    },
    {
      name: "lifting prevent_destroy is listed for review",
      edit: (s) => delete Object.values<any>(s.shared.resource.azurerm_storage_container)[0].lifecycle,
      expected: ["review shared lifts prevent_destroy from azurerm_storage_container: a later destroy deletes it"],
    },
    {
      name: "a NodePool in another namespace is a replacement of a running object",
      edit: (s) => (Object.values<any>(s["cluster-myprefix-hc"].resource.kubernetes_manifest)[1].manifest.metadata.namespace = "other"),
      expected: ["danger cluster-myprefix-hc replaces NodePool clusters/myprefix-hc (destroy, then create), forced by `manifest.metadata.namespace`"],
    },
    {
      name: "a changed state backend is dangerous",
      edit: (s) => (s.shared.terraform.backend = { local: { path: "elsewhere.tfstate" } }),
      expected: [
        "danger shared the state backend changes: Terraform would read another state and plan to create every resource again (migrate with `terraform init -migrate-state`)",
      ],
    },
  ];
  test.each(cases)("$name", ({ name, edit, expected }) => {
    const r = review(folder("base"), edited(folder("base"), name.replace(/\W+/g, "-"), edit));
    expect(r.findings.map((f, i) => `${f.severity} ${f.stack} ${f.message}`.slice(0, expected[i]?.length))).toEqual(expected);
  });
});

describe("local state paths: the file, not its spelling", () => {
  /** Copies `from` to `to` with each local state path re-spelled relative to the new stack folder, naming the same file. */
  function moved(from: string, to: string, target = (file: string) => file): string {
    const stacks: Record<string, any> = {};
    for (const stack of fs.readdirSync(path.join(from, "stacks"))) {
      const json = JSON.parse(fs.readFileSync(path.join(from, "stacks", stack, "cdk.tf.json"), "utf8"));
      const file = target(path.resolve(from, "stacks", stack, json.terraform.backend.local.path));
      json.terraform.backend.local.path = path.relative(path.join(to, "stacks", stack), file);
      stacks[stack] = json;
    }
    writeOutputFolder(to, stacks);
    return to;
  }

  test("an output folder synthesized elsewhere (CDKTF_OUTDIR) names the same state files: nothing changes", () => {
    const elsewhere = moved(folder("base"), path.join(work, "deeper", "out", "cdktf.out"));
    const shared = JSON.parse(fs.readFileSync(path.join(elsewhere, "stacks", "shared", "cdk.tf.json"), "utf8"));
    const original = JSON.parse(fs.readFileSync(path.join(folder("base"), "stacks", "shared", "cdk.tf.json"), "utf8"));
    expect(shared.terraform.backend.local.path).not.toBe(original.terraform.backend.local.path);
    const r = review(folder("base"), elsewhere);
    expect(r.findings).toEqual([]);
    expect(r.stacks.every((s) => s.status === "unchanged")).toBe(true);
  });

  test("the same synth copied elsewhere compares as no changes: state, file() and config_path paths resolve from each copy's own place", () => {
    const withFiles = edited(folder("base"), "with-files", (stacks) => {
      const cluster = stacks["cluster-myprefix-hc"];
      cluster.locals = { ...cluster.locals, pull: '${file("../../../secrets/pull-secret.json")}' };
      cluster.provider.kubernetes = [{ config_path: "../../../secrets/mgmt.kubeconfig" }];
    });
    const copy = path.join(work, "copies", "ci", "runner", "cdktf.out");
    fs.cpSync(withFiles, copy, { recursive: true });
    const r = review(withFiles, copy);
    expect(r.findings).toEqual([]);
    expect(r.stacks.filter((s) => s.status !== "unchanged")).toEqual([]);
    // A file that really changes still shows, as the file each side names.
    const other = edited(copy, "copies/ci/other/cdktf.out", (stacks) => {
      stacks["cluster-myprefix-hc"].provider.kubernetes = [{ config_path: "../../../secrets/other.kubeconfig" }];
    });
    const changed = review(withFiles, other);
    expect(changed.stacks.filter((s) => s.status !== "unchanged").map((s) => s.stack)).toEqual(["cluster-myprefix-hc"]);
    expect(changed.markdown).toContain(path.join(work, "copies", "ci", "other", "secrets", "other.kubeconfig"));
  });

  test("a git ref's temporary worktree stands in for the repository; a state file at another place in it is another state", () => {
    const tree = path.join(work, "worktree");
    // The same layout under the worktree: its relative paths resolve into the worktree, not `work`.
    const inTree = moved(folder("base"), path.join(tree, "base"), (file) => path.join(tree, path.relative(work, file)));
    const mapped = reviewChanges({
      oldLabel: "base",
      newLabel: "ref",
      oldDir: folder("base"),
      newDir: inTree,
      newCheckout: { tree, repo: work },
      checkManifests: NO_TOOL,
    });
    expect(mapped.findings).toEqual([]);
    const elsewhere = moved(folder("base"), path.join(tree, "other"), (file) => path.join(tree, "other-state", path.basename(file)));
    const other = reviewChanges({
      oldLabel: "base",
      newLabel: "ref",
      oldDir: folder("base"),
      newDir: elsewhere,
      newCheckout: { tree, repo: work },
      checkManifests: NO_TOOL,
    });
    expect(other.findings.map((f) => f.message)).toContain(
      "the state backend changes: Terraform would read another state and plan to create every resource again (migrate with `terraform init -migrate-state`)",
    );
  });
});

test("a new size of the etcd KMS key is a replacement (key_size is ForceNew): dangerous, unlike the in-place update it looks like", () => {
  const withKey = (size: number) => (s: Record<string, any>) => {
    s["identities-myprefix-hc"].resource.azurerm_key_vault_key = {
      KmsKey_Key: {
        name: "etcd-encryption",
        key_vault_id: "/subscriptions/x/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv",
        key_type: "RSA",
        key_size: size,
      },
    };
  };
  const r = review(edited(folder("base"), "kms-2048", withKey(2048)), edited(folder("base"), "kms-4096", withKey(4096)));
  expect(r.dangerous).toBe(true);
  expect(r.findings.map((f) => `${f.severity} ${f.stack} ${f.message}`)).toEqual([
    expect.stringMatching(/^danger identities-myprefix-hc replaces azurerm_key_vault_key \(destroy, then create\), forced by `key_size`.*Key Vault key/),
  ]);
});

describe("size", () => {
  test("details that would overflow a pull-request comment are left out, the summary stays", () => {
    const newDir = edited(folder("base"), "huge", (s) => {
      s.huge = { resource: { terraform_data: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`Item_${i}`, { input: i }])) } };
    });
    const r = review(folder("base"), newDir);
    expect(r.markdown.length).toBeLessThanOrEqual(MAX_COMMENT);
    expect(r.markdown).toContain("| huge | added | 3000 | 0 | 0 | 0 |");
    expect(r.markdown).toContain("_Details of huge left out to fit a pull-request comment");
  });
});

describe("moved and import blocks", () => {
  test("a moved block turns a delete and a create into one change of address; an import block makes a create an adoption", () => {
    const newDir = edited(folder("base"), "moved-and-imported", (s) => {
      const nsgs = s["infra-myprefix-hc"].resource.azurerm_network_security_group;
      const [oldName] = Object.keys(nsgs);
      nsgs.Renamed = nsgs[oldName];
      delete nsgs[oldName];
      s["infra-myprefix-hc"].moved = [{ from: `azurerm_network_security_group.${oldName}`, to: "azurerm_network_security_group.Renamed" }];
      s.shared.resource.azurerm_dns_zone = { Adopted: { name: "example.com", resource_group_name: "dns-rg" } };
      s.shared.import = [{ to: "azurerm_dns_zone.Adopted", id: "/subscriptions/x/resourceGroups/dns-rg/providers/Microsoft.Network/dnsZones/example.com" }];
    });
    const r = review(folder("base"), newDir);
    const changes = r.stacks.flatMap((s) => s.resources.map((c) => `${s.stack} ${c.action} ${c.address}${c.movedFrom ? ` from ${c.movedFrom}` : ""}`));
    expect(changes).toEqual([
      expect.stringMatching(/^infra-myprefix-hc update azurerm_network_security_group\.Renamed from azurerm_network_security_group\.Network_SecurityGroup_/),
      "shared import azurerm_dns_zone.Adopted",
    ]);
    expect(r.dangerous).toBe(false);
  });

  test("an import block new for a resource both sides have (an adopted cluster's HostedCluster, its Secrets) is listed to review: the deploy takes the object over", () => {
    const withImport = edited(folder("base"), "import-added", (s) => {
      const cluster = s["cluster-myprefix-hc"];
      const [hostedCluster] = Object.keys(cluster.resource.kubernetes_manifest).filter(
        (name) => cluster.resource.kubernetes_manifest[name].manifest.kind === "HostedCluster",
      );
      const [pullSecret] = Object.keys(cluster.resource.kubernetes_secret_v1).filter((name) => name.includes("PullSecret"));
      cluster.import = [
        { to: `kubernetes_manifest.${hostedCluster}`, id: "apiVersion=hypershift.openshift.io/v1beta1,kind=HostedCluster,namespace=clusters,name=myprefix-hc" },
        { to: `kubernetes_secret_v1.${pullSecret}`, id: "clusters/myprefix-hc-pull-secret" },
      ];
    });
    const added = review(folder("base"), withImport);
    expect(added.findings.map((f) => `${f.severity} ${f.message}`)).toEqual([
      "review takes over the existing HostedCluster clusters/myprefix-hc (a new import block, ID apiVersion=hypershift.openshift.io/v1beta1,kind=HostedCluster,namespace=clusters,name=myprefix-hc) unless the state holds it already",
      "review takes over the existing Secret clusters/myprefix-hc-pull-secret (a new import block, ID clusters/myprefix-hc-pull-secret) unless the state holds it already",
    ]);
    expect(added.dangerous).toBe(false);
    // The adopted form generates no SSH key pair: its removal (a cluster this tool created, configured as adopted) is dangerous.
    const keyDropped = edited(folder("base"), "ssh-key-dropped", (s) => delete s["cluster-myprefix-hc"].resource.tls_private_key);
    expect(review(folder("base"), keyDropped).findings.map((f) => `${f.severity} ${f.message}`)).toEqual([
      "danger destroys tls_private_key: the workers' SSH private key, generated in Terraform state: its only copy (output ssh_private_key)",
    ]);
    // Kept from one synth to the next, the import block is no change.
    expect(
      review(
        withImport,
        edited(withImport, "import-kept", () => undefined),
      ).findings,
    ).toEqual([]);
  });
});

describe("secrets never reach the report", () => {
  const SENTINELS = ["SENTINEL-VARIABLE-7f3a", "SENTINEL-AUTH-91bc", "SENTINEL-PEM-55de", "SENTINEL-OUTPUT-0c1d", "SENTINEL-VAULT-3e2f"];
  let r: Review;
  beforeAll(() => {
    const newDir = edited(folder("base"), "sentinels", (s) => {
      const cluster = s["cluster-myprefix-hc"];
      cluster.variable.pull_secret.default = SENTINELS[0];
      // Secret values are write-only now (data_wo, issue 22): the sentinels go there.
      const pullSecret = Object.values<any>(cluster.resource.kubernetes_secret_v1).find((x) => x.metadata.name.endsWith("pull-secret"));
      pullSecret.data_wo[".dockerconfigjson"] = JSON.stringify({ auths: { "quay.io": { auth: SENTINELS[1] } } });
      const signingKey = Object.values<any>(cluster.resource.kubernetes_secret_v1).find((x) => x.metadata.name.endsWith("token-issuer-key"));
      signingKey.data_wo.key = `-----BEGIN RSA PRIVATE KEY-----\n${SENTINELS[2]}\n-----END RSA PRIVATE KEY-----\n`;
      cluster.output.leaked = { value: SENTINELS[3], sensitive: true };
      s.shared.resource.azurerm_key_vault_secret = { Leak: { name: "leak", key_vault_id: "/subscriptions/x", value: SENTINELS[4] } };
    });
    r = review(folder("base"), newDir);
  });

  test("no sentinel value appears anywhere in the Markdown", () => {
    for (const sentinel of SENTINELS) expect(r.markdown).not.toContain(sentinel);
  });

  test("each secret change is still reported, as (sensitive)", () => {
    for (const row of [
      /var\.pull_secret<\/code>: changed\n\n\| Attribute[^\n]*\n[^\n]*\n\| <code>default<\/code> \| — \| \(sensitive\) \|/,
      /<code>data_wo&#91;"\.dockerconfigjson"&#93;<\/code> \| \(sensitive\) \| \(sensitive\) \|/,
      /<code>data_wo\.key<\/code> \| \(sensitive\) \| \(sensitive\) \|/,
      /<code>output\.leaked<\/code>: added/,
      /<code>azurerm_key_vault_secret\.Leak<\/code>[^\n]*: create/,
    ]) {
      expect(r.markdown).toMatch(row);
    }
  });

  test("files mode: the pull secret read at plan time is masked, and the change still shows", () => {
    const files = edited(folder("base"), "files-mode", (s) => {
      const secret = Object.values<any>(s["cluster-myprefix-hc"].resource.kubernetes_secret_v1).find((x) => x.metadata.name.endsWith("pull-secret"));
      secret.data_wo[".dockerconfigjson"] = '${sensitive(file("/home/me/pull-secret.json"))}';
    });
    const markdown = review(folder("base"), files).markdown;
    expect(markdown).not.toContain("/home/me/pull-secret.json");
    expect(markdown).toMatch(/dockerconfigjson[^\n]*\| \(sensitive\) \| \(sensitive\) \|/);
  });
});

describe("npm run review (main): exit codes", () => {
  const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = main(argv, { HCP_AZURE_CHECK_MANIFESTS: NO_TOOL, ...env }, { out: (t) => out.push(t), err: (t) => err.push(t) }, REPO);
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  test.each([
    { name: "nothing dangerous", argv: () => [folder("base"), folder("scale")], code: 0 },
    { name: "dangerous", argv: () => [folder("base"), folder("serviceNetwork")], code: 1 },
    { name: "dangerous, --allow-dangerous", argv: () => ["--allow-dangerous", folder("base"), folder("serviceNetwork")], code: 0 },
    { name: "one side only", argv: () => [folder("base")], code: 2 },
    { name: "unknown option", argv: () => ["--force", folder("base"), folder("scale")], code: 2 },
    { name: "neither a folder nor a ref", argv: () => [folder("base"), "no-such-ref-or-folder"], code: 2 },
  ])("$name: exit $code", ({ argv, code }) => {
    const result = run(argv());
    expect(result.code).toBe(code);
    if (code !== 2) expect(result.out).toContain("## hcp-azure change review");
  });

  test("--output writes the same Markdown it prints", () => {
    const file = path.join(work, "comment.md");
    const result = run(["--output", file, folder("base"), folder("scale")]);
    expect(fs.readFileSync(file, "utf8")).toBe(result.out);
  });
});

describe("git refs: each side synthesized in a temporary worktree", () => {
  const git = (repo: string, ...args: string[]) => gitWith(undefined, repo, ...args);
  const gitWith = (input: string | undefined, repo: string, ...args: string[]) => {
    const result = spawnSync("git", ["-C", repo, "-c", "user.name=test", "-c", "user.email=test@example.com", ...args], { encoding: "utf8", input });
    if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  };
  const RUN_JS = `const fs = require("node:fs"), path = require("node:path");
const [, , entry, config] = process.argv;
if (entry !== "main") process.exit(3);
const { replicas } = JSON.parse(fs.readFileSync(config, "utf8"));
const dir = path.join(process.env.CDKTF_OUTDIR, "stacks", "cluster-a");
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "cdk.tf.json"), JSON.stringify({ resource: { terraform_data: { Pool: { input: { replicas } } } } }));
`;
  /** A `git fast-import` commit on main (after the previous one) that writes `files`. */
  const commit = (message: string, files: Record<string, string>) =>
    `commit refs/heads/main\ncommitter test <test@example.com> 1700000000 +0000\ndata ${Buffer.byteLength(message)}\n${message}\n` +
    Object.entries(files)
      .map(([file, text]) => `M 100644 inline ${file}\ndata ${Buffer.byteLength(text)}\n${text}\n`)
      .join("");
  /**
   * A repository whose scripts/run.js stands in for the synth (`node scripts/run.js main <config>`
   * writes one stack into $CDKTF_OUTDIR): two commits with replicas 1, then 2, written by one
   * `git fast-import` (the review reads commits only, never the working tree).
   */
  let repo: string;
  beforeAll(() => {
    repo = path.join(work, "repo");
    git(work, "init", "--quiet", "--initial-branch=main", repo);
    gitWith(
      commit("one", { "scripts/run.js": RUN_JS, "env.json": JSON.stringify({ replicas: 1 }), "bad.json": "{" }) +
        commit("two", { "env.json": JSON.stringify({ replicas: 2 }), "envs/new.json": JSON.stringify({ replicas: 1 }) }),
      repo,
      "fast-import",
      "--quiet",
    );
  });

  const run = (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = main(argv, { HCP_AZURE_CHECK_MANIFESTS: NO_TOOL }, { out: (t) => out.push(t), err: (t) => err.push(t) }, repo);
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  test("two refs are synthesized with --config and compared; the worktrees are removed", () => {
    const result = run(["--config", path.join(repo, "env.json"), "HEAD~1", "HEAD"]);
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toMatch(/<code>HEAD~1 \([0-9a-f]{12}\)<\/code> → <code>HEAD \([0-9a-f]{12}\)<\/code>/);
    expect(result.out).toContain("| <code>input.replicas</code> | <code>1</code> | <code>2</code> |");
    expect(git(repo, "worktree", "list").trim().split("\n")).toHaveLength(1);
  });

  test("a ref whose synth fails is exit 2 with the synth's words, and leaves no worktree", () => {
    // A config inside the repository is passed repository-relative: it is read from the ref's tree.
    const result = run(["--config", path.join(repo, "bad.json"), "HEAD~1", "HEAD"]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/synth of bad\.json at HEAD~1 failed \(exit 1\):\n[^]*JSON/);
    expect(git(repo, "worktree", "list").trim().split("\n")).toHaveLength(1);
  });

  test("a config inside the repository that a ref lacks (a new environment's): exit 2, saying so, before any worktree", () => {
    const result = run(["--config", path.join(repo, "envs", "new.json"), "HEAD~1", "HEAD"]);
    expect(result).toMatchObject({ code: 2, out: "" });
    expect(result.err).toBe(
      `review: ${path.join("envs", "new.json")} is not in HEAD~1: a config inside the repository is read as each ref has it; commit it, or pass a path outside the repository`,
    );
  });

  test("a config spelled through a symlink to the repository is inside it (read at each ref)", () => {
    const link = path.join(work, "repo-link");
    fs.symlinkSync(repo, link, "dir");
    expect(configForWorktree(path.join(link, "envs", "new.json"), repo)).toBe(path.join("envs", "new.json"));
    expect(configForWorktree(path.join(link, "envs", "not-yet", "x.json"), link)).toBe(path.join("envs", "not-yet", "x.json"));
    expect(configForWorktree(path.join(work, "repo-other.json"), link)).toBe(path.join(fs.realpathSync(work), "repo-other.json"));
  });

  test("a config outside the repository: both refs synthesize the same file, and the report says it was not compared", () => {
    const outside = path.join(work, "outside.json");
    fs.writeFileSync(outside, JSON.stringify({ replicas: 1 }));
    const result = run(["--config", outside, "HEAD~1", "HEAD"]);
    expect(result.code).toBe(0);
    expect(result.out).toContain("No stack changed.");
    expect(result.out).toContain(`_the config ${fs.realpathSync(outside)} is outside the repository: both refs were synthesized with this same file`);
  });

  test("interrupted (SIGINT, SIGTERM): the signal handler removes the worktrees, then exits 130 or 143", () => {
    for (const [signal, code] of [
      ["SIGINT", 130],
      ["SIGTERM", 143],
    ] as const) {
      const handlers = new Map<string, () => void>();
      const exits: number[] = [];
      cleanUpOnSignals({ once: (name: string, handler: () => void) => handlers.set(name, handler), exit: (c: number) => exits.push(c) } as any);
      const side = synthAtRef({ repo, ref: "HEAD", config: "env.json" });
      expect(git(repo, "worktree", "list").trim().split("\n")).toHaveLength(2);
      handlers.get(signal)!();
      expect(exits).toEqual([code]);
      expect(git(repo, "worktree", "list").trim().split("\n")).toHaveLength(1);
      expect(fs.existsSync(side.dir)).toBe(false);
    }
  });
});

describe("forcesReplacement", () => {
  test.each([
    ["azurerm_virtual_network", "address_space", ["10.0.0.0/16"], ["10.1.0.0/16"], false],
    ["azurerm_virtual_network", "name", "a", "b", true],
    ["azurerm_role_assignment", "principal_id", "a", "b", true],
    ["azurerm_storage_account", "account_replication_type", "LRS", "GRS", false],
    ["azurerm_storage_account", "account_replication_type", "LRS", "ZRS", true],
    ["azurerm_storage_account", "account_replication_type", "RAGZRS", "GZRS", false],
    ["azurerm_storage_account", "account_kind", "Storage", "BlobStorage", false],
    ["azurerm_storage_account", "account_kind", "BlobStorage", "StorageV2", false],
    ["azurerm_storage_account", "account_kind", "StorageV2", "BlobStorage", true],
    ["kubernetes_manifest", "manifest.spec.replicas", 2, 3, false],
    ["kubernetes_manifest", "manifest.metadata.name", "a", "b", true],
    ["kubernetes_manifest", "manifest.metadata.namespaceSelector", "a", "b", false],
    ["azurerm_kubernetes_cluster", "network_profile[0].pod_cidr", "a", "b", true],
    ["azurerm_something_new", "name", "a", "b", undefined],
  ])("%s %s: %p → %p replaces: %p", (type, attribute, before, after, expected) => {
    expect(forcesReplacement(type, attribute, before, after)).toBe(expected);
  });
});

describe("help/review.md", () => {
  test("its ForceNew table is the one the review uses (scripts/change-review/force-new.ts)", () => {
    const doc = fs.readFileSync(path.join(REPO, "help", "review.md"), "utf8");
    const section = doc.slice(doc.indexOf("## ForceNew arguments"), doc.indexOf("## Limits"));
    const rows = [...section.matchAll(/^\| `([a-z0-9_]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2]]);
    const expected = Object.entries(FORCE_NEW).map(([type, entry]) => [
      type,
      `${entry.attributes.map((a) => `\`${a}\``).join(", ")}${entry.note ? `; ${entry.note}` : ""}`,
    ]);
    expect(rows).toEqual(expected);
  });
});
