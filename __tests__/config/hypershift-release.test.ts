import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { cliPrivateZoneName, hostedClusterApi, releaseAtLeast, releaseMinorOf } from "../../config/hypershift-release";
import { LoadedConfig, validateConfig } from "../../config/load";
import { uuidv5 } from "../../config/uuid";
import { parseOperatorBundle } from "../../config/operator-bundle";
import { EXAMPLES, REPO, synthStacks, tempDir } from "../helpers";

/**
 * The HyperShift release the user runs (managementCluster.operator.hypershiftRelease, or the
 * bundle's): adoption names per release, the gates of options an older operator lacks, and the
 * release read from a render. Upstream facts: help/adopt.md and help/management-cluster.md cite them.
 */

const parsedExamples = new Map<string, unknown>();
/** examples/<file>, parsed once per file run; each call gets its own copy (tests edit it). */
const example = (file: string): any => {
  if (!parsedExamples.has(file)) parsedExamples.set(file, parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8")));
  return structuredClone(parsedExamples.get(file));
};
const withRelease = (config: any, release: string | undefined) => ({
  ...config,
  managementCluster: { ...config.managementCluster, operator: { ...config.managementCluster.operator, hypershiftRelease: release } },
});
const validated = new Map<string, ReturnType<typeof validateConfig>>();
/** validateConfig(input), once per distinct input in this file (many tests read one config at one release). */
const validate = (input: unknown) => {
  const key = JSON.stringify(input, (_key, value) => (value === undefined ? "(undefined)" : value));
  if (!validated.has(key)) validated.set(key, validateConfig(input, EXAMPLES));
  return validated.get(key)!;
};
const issuesOf = (input: unknown) => {
  const loaded = validate(input);
  return loaded.ok ? [] : loaded.issues;
};
/** As helpers.ts loadInline (fails with the issues), through `validate`. */
const loadInline = (input: unknown): LoadedConfig => {
  const loaded = validate(input);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
};
const BUNDLE = fs.readFileSync(path.join(EXAMPLES, "operator", "hypershift-operator-external-dns.yaml"), "utf8");
const IMAGE = "image: quay.io/hypershift/hypershift-operator:latest";

describe("releases", () => {
  it.each([
    ["4.21", "4.22", false],
    ["4.22", "4.22", true],
    ["4.23", "4.22", true],
    ["5.0", "4.23", true],
    ["5.0", "4.24", false],
    ["5.1", "4.24", true],
    ["4.9", "4.22", false],
  ])("%s is at least %s: %s", (release, since, expected) => {
    expect(releaseAtLeast(release, since)).toBe(expected);
  });
  it.each([
    ["4.20", "hc-azurecluster.example.com"],
    ["4.21", "hc-azurecluster.example.com"],
    ["4.22", "hc-azurecluster.example.com"],
    ["4.23", "hc.example.com"],
    ["5.0", "hc.example.com"],
    [undefined, "hc.example.com"],
  ])("the CLI at %s names the private zone %s", (release, zone) => expect(cliPrivateZoneName(release, "hc", "example.com")).toBe(zone));
  it("an unknown release counts as HyperShift main", () => expect(releaseAtLeast(undefined, "4.22")).toBe(true));
  it.each([
    ["4.21.0", "4.21"],
    ["v4.22.3", "4.22"],
    ["4.21", "4.21"],
    ["latest", undefined],
    ["sha256", undefined],
  ])("the minor of %s is %s", (version, minor) => expect(releaseMinorOf(version)).toBe(minor));
});

describe("adoption names by the CLI release (cmd/infra/azure/networking.go, rbac.go on each branch)", () => {
  const adopt = example("adopt.yaml");
  const namesAt = (release: string | undefined) => loadInline(withRelease(adopt, release)).names.clusters[0].hosted!;
  const infraId = "myprefix-hc-x7k2p";
  // HyperShift's GenerateRoleAssignmentName of the `cpo` component on the managed, NSG and VNet groups.
  const groups = namesAt(undefined).resourceGroups;
  const cpoNames = [groups.managed.id, groups.nsg.id, groups.vnet.id].map((scope) => uuidv5(`${infraId}-cpo-${scope}`)).sort();

  it.each([
    ["4.21", "myprefix-hc-azurecluster.example.com", "imageRegistry"],
    ["4.22", "myprefix-hc-azurecluster.example.com", undefined],
    ["4.23", "myprefix-hc.example.com", undefined],
    [undefined, "myprefix-hc.example.com", undefined],
  ])("release %s: private zone %s; the cpo Contributor names belong to %s", (release, zone, cpoHolder) => {
    const hosted = namesAt(release);
    expect(hosted.privateZone.name).toBe(zone);
    expect(hosted.privateZone.linkName).toBe(`myprefix-hc-${infraId}`);
    const assignments = hosted.roleAssignments.kind === "selfManaged" ? hosted.roleAssignments.workloadIdentities : [];
    const cpo = assignments.filter((a) => a.component === "cpo");
    if (cpoHolder) {
      expect(cpo.map((a) => a.name).sort()).toEqual(cpoNames);
      expect(new Set(cpo.map((a) => `${a.identity} ${a.roleName} ${a.grant}`))).toEqual(new Set(["imageRegistry Contributor cpo"]));
    } else {
      // main: the control-plane operator's own (its identity is created here, not by the guide).
      expect(new Set(cpo.map((a) => a.identity))).toEqual(new Set(cpo.length ? ["controlPlaneOperator"] : []));
    }
  });

  it("4.21: every role assignment name appears once, and the infra stack imports the three Contributor assignments", () => {
    const loaded = loadInline(withRelease(adopt, "4.21"));
    const hosted = loaded.names.clusters[0].hosted!;
    const assignments = hosted.roleAssignments.kind === "selfManaged" ? hosted.roleAssignments.workloadIdentities : [];
    expect(new Set(assignments.map((a) => a.name)).size).toBe(assignments.length);
    const imports = loaded.names.adoption.imports.get(hosted.infraStack)!.map((i) => i.id);
    for (const name of cpoNames) expect(imports.some((id) => id.endsWith(`/roleAssignments/${name}`))).toBe(true);
    expect(imports).toContain(`${groups.managed.id}/providers/Microsoft.Network/privateDnsZones/myprefix-hc-azurecluster.example.com`);
  });

  it("4.21 defaults the control-plane operator's identity off (its AzureWorkloadIdentities has none); main on", () => {
    const keys = (release?: string) => loadInline(withRelease(adopt, release)).names.clusters[0].identities;
    expect(JSON.stringify(keys("4.21"))).not.toContain("controlPlaneOperator");
    expect(JSON.stringify(keys(undefined))).toContain("controlPlaneOperator");
  });

  it("a cluster made here keeps <name>.<baseDomain> whatever the release (the HostedCluster names it by ID)", () => {
    const basic = example("external-dns.yaml");
    expect(loadInline(withRelease(basic, "4.21")).names.clusters[0].hosted!.privateZone.name).toBe(
      loadInline(withRelease(basic, undefined)).names.clusters[0].hosted!.privateZone.name,
    );
  });

  it("4.21: every Azure resource of the identities and infra stacks is imported, but the ingress role on the base domain's group (help/adopt.md) and the two creation guards", () => {
    const stacks = synthStacks(loadInline(withRelease(adopt, "4.21")), ["identities-myprefix-hc", "infra-myprefix-hc"]);
    const added = (name: string) => {
      const imported = new Set(stacks[name].import.map((b: { to: string }) => b.to));
      const all = Object.entries(stacks[name].resource as Record<string, object>).flatMap(([type, rs]) => Object.keys(rs).map((id) => `${type}.${id}`));
      return all.filter((address) => !imported.has(address)).map((address) => address.replace(/_[0-9A-F]{8}$/, ""));
    };
    expect(added("identities-myprefix-hc")).toEqual([]);
    expect(added("infra-myprefix-hc")).toEqual([
      "azurerm_role_assignment.WorkloadIdentityRoles_ingress_dnsZone",
      "terraform_data.CreationGuard_EndpointAccess",
      "terraform_data.CreationGuard",
    ]);
  });

  it("4.21: the infra stack's import blocks reach the image-registry identity's three `cpo` Contributor assignments", () => {
    const stacks = synthStacks(loadInline(withRelease(adopt, "4.21")), ["infra-myprefix-hc"]);
    const blocks: Array<{ to: string; id: string }> = stacks["infra-myprefix-hc"].import;
    const cpo = blocks.filter((b) => cpoNames.some((name) => b.id.endsWith(`/roleAssignments/${name}`)));
    expect(cpo.map((b) => b.to.split(".")[1]).sort()).toEqual([
      expect.stringMatching(/imageRegistry_managed-cpo/),
      expect.stringMatching(/imageRegistry_nsg-cpo/),
      expect.stringMatching(/imageRegistry_vnet-cpo/),
    ]);
  });
});

/** examples/adopt.yaml with the example bundle's operator image tagged `tag`, written in a new folder (remove `dir` after). */
function adoptWithBundleTag(tag: string): { dir: string; config: any } {
  const dir = tempDir("hs-release-");
  const bundle = path.join(dir, "bundle.yaml");
  fs.writeFileSync(bundle, BUNDLE.replace(IMAGE, `image: quay.io/hypershift/hypershift-operator:${tag}`));
  const adopt = example("adopt.yaml");
  return {
    dir,
    config: { ...adopt, managementCluster: { ...adopt.managementCluster, operator: { ...adopt.managementCluster.operator, bundleFile: bundle } } },
  };
}

describe("the release read from the bundle (hypershift install render)", () => {
  it.each([
    ["the CLI's default image :latest says nothing", BUNDLE, undefined],
    ["a version tag of the operator image", BUNDLE.replace(IMAGE, "image: quay.io/hypershift/hypershift-operator:4.21"), "4.21"],
    ["a v-prefixed patch tag", BUNDLE.replace(IMAGE, "image: registry.example.com/hypershift/hypershift-operator:v4.22.3"), "4.22"],
    ["a digest says nothing", BUNDLE.replace(IMAGE, "image: quay.io/hypershift/hypershift-operator@sha256:0123"), undefined],
  ])("%s", (_what, text, release) => {
    const read = parseOperatorBundle(text);
    expect(read.ok).toBe(true);
    expect(read.ok ? read.bundle.release?.release : "not read").toBe(release);
  });

  it("the annotation wins over the image tag: `Latest supported OCP` is the branch's LatestSupportedVersion", () => {
    const annotated = BUNDLE.replace(
      /(kind: Deployment\nmetadata:\n {2}creationTimestamp: null\n {2}name: operator\n {2}namespace: hypershift\n)/,
      `$1  annotations:\n    hypershift.openshift.io/install-cli-version: "openshift/hypershift: 1600118f. Latest supported OCP: 4.21.0"\n`,
    ).replace(IMAGE, "image: quay.io/hypershift/hypershift-operator:4.22");
    expect(annotated).toContain("install-cli-version");
    const read = parseOperatorBundle(annotated);
    expect(read.ok && read.bundle.release).toEqual({
      release: "4.21",
      from: 'annotation hypershift.openshift.io/install-cli-version "openshift/hypershift: 1600118f. Latest supported OCP: 4.21.0"',
    });
  });

  it("a bundle tagged 4.21 drives the adoption names without hypershiftRelease; a different hypershiftRelease is a config error", () => {
    const { dir, config } = adoptWithBundleTag("4.21");
    expect(loadInline(config).names.clusters[0].hosted!.privateZone.name).toBe("myprefix-hc-azurecluster.example.com");
    expect(issuesOf(withRelease(config, "4.21"))).toEqual([]);
    expect(issuesOf(withRelease(config, "4.23"))).toEqual([
      {
        path: "managementCluster.operator.hypershiftRelease",
        value: "4.23",
        message: `disagrees with the bundle, rendered by HyperShift 4.21 (operator image quay.io/hypershift/hypershift-operator:4.21): set it to "4.21", or render the bundle with the 4.23 CLI`,
      },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a malformed hypershiftRelease is a schema error", () => {
    expect(issuesOf(withRelease(example("adopt.yaml"), "release-4.21"))).toEqual([
      expect.objectContaining({ path: "managementCluster.operator.hypershiftRelease", value: "release-4.21" }),
    ]);
  });

  it.each([
    ["4.9", /is older than 4\.21, the first release whose CLI takes --workload-identities-file/],
    ["4.20", /is older than 4\.21/],
    ["4.24", /is not a release: 4\.23 is the last 4\.y minor \(5\.0 is the same release\); write 5\.y for later ones/],
    ["4.30", /4\.23 is the last 4\.y minor/],
    ["04.22", /must be a HyperShift release minor such as "4\.21"/],
    ["4.21.3", /must be a HyperShift release minor/],
    ["v4.21", /must be a HyperShift release minor/],
    ["6.0", /is not a release this tool knows: 4\.21 to 4\.23, or 5\.y/],
  ])("hypershiftRelease %s is refused, saying why", (release, message) => {
    const issues = issuesOf(withRelease(example("adopt.yaml"), release));
    expect(issues).toEqual([expect.objectContaining({ path: "managementCluster.operator.hypershiftRelease", value: release })]);
    expect(issues[0].message).toMatch(message);
  });

  it.each(["4.21", "4.22", "4.23", "5.0", "5.1", "5.4"])("hypershiftRelease %s is a release", (release) => {
    expect(issuesOf(withRelease(example("adopt.yaml"), release)).filter((i: { path: string }) => i.path.endsWith("hypershiftRelease"))).toEqual([]);
  });

  it("a bundle rendered by a release older than 4.21 is refused, naming where the release was read", () => {
    const { dir, config } = adoptWithBundleTag("4.20");
    expect(issuesOf(config)).toEqual([
      {
        path: "managementCluster.operator.bundleFile",
        value: "4.20",
        message: expect.stringMatching(
          /^was rendered by HyperShift 4\.20 \(the bundle's operator image quay\.io\/hypershift\/hypershift-operator:4\.20\), which is older than 4\.21/,
        ),
      },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("options an older operator lacks", () => {
  it("private endpoint access: 4.22 passes, 4.21 names the release that adds it", () => {
    const privateExample = example("private.yaml");
    expect(issuesOf(withRelease(privateExample, "4.22"))).toEqual([]);
    const issues = issuesOf(withRelease(privateExample, "4.21"));
    expect(issues.map((i) => [i.path, i.value])).toEqual([
      ["clusters[0].hostedCluster.endpointAccess", "Private"],
      ["clusters[1].hostedCluster.endpointAccess", "PublicAndPrivate"],
    ]);
    expect(issues[0].message).toMatch(
      /^needs HyperShift 4\.22 or later for private endpoint access on Azure .*you run 4\.21 \(managementCluster\.operator\.hypershiftRelease\)/,
    );
    expect(issues[0].message).toContain("cmd/install/install.go");
  });

  it("hostedCluster.monitoring and identities.controlPlaneOperator: true need 4.22", () => {
    const base = example("external-dns.yaml");
    const cluster = base.clusters[0];
    const config = {
      ...base,
      clusters: [{ ...cluster, identities: { controlPlaneOperator: true }, hostedCluster: { ...cluster.hostedCluster, monitoring: { metricsSet: "SRE" } } }],
    };
    expect(issuesOf(withRelease(config, "4.22"))).toEqual([]);
    expect(issuesOf(withRelease(config, "4.21")).map((i) => [i.path, i.message.split(" for ")[0]])).toEqual([
      ["clusters[0].hostedCluster.monitoring", "needs HyperShift 4.22 or later"],
      ["clusters[0].identities.controlPlaneOperator", "needs HyperShift 4.22 or later"],
    ]);
  });

  it("a release image newer than the operator accepts (LatestSupportedVersion of its branch): HostedCluster and NodePool", () => {
    const base = example("basic.yaml");
    const hosted = base.clusters[0].hostedCluster;
    const at = (image: string, poolImage?: string) => ({
      ...base,
      clusters: [
        {
          ...base.clusters[0],
          hostedCluster: {
            ...hosted,
            releaseImage: `quay.io/openshift-release-dev/ocp-release:${image}`,
            nodePools: hosted.nodePools.map((pool: any) => ({
              ...pool,
              ...(poolImage ? { releaseImage: `quay.io/openshift-release-dev/ocp-release:${poolImage}` } : {}),
            })),
          },
        },
      ],
    });
    const refused = (config: unknown) => issuesOf(config).filter((i) => i.message.includes("LatestSupportedVersion"));
    const issues = refused(withRelease(at("4.22.1-x86_64"), "4.21"));
    expect(issues.map((i) => [i.path, i.value])).toEqual([
      ["clusters[0].hostedCluster.releaseImage", "quay.io/openshift-release-dev/ocp-release:4.22.1-x86_64"],
    ]);
    expect(issues[0].message).toBe(
      "is OpenShift 4.22.1, newer than HyperShift 4.21's operator accepts (managementCluster.operator.hypershiftRelease): at most 4.21 " +
        "(support/supportedversion/version.go LatestSupportedVersion on release-4.21); the operator would refuse the release (condition ValidReleaseImage False) " +
        "and never reconcile the cluster. Upgrade the operator first (render the bundle with a newer CLI and update hypershiftRelease), or use a 4.21 or older release image",
    );
    // At the limit, and older: accepted; 4.23 (= 5.0) takes up to 5.1, not 5.2 or 6.0; a digest names no version.
    expect(refused(withRelease(at("4.21.9-x86_64"), "4.21"))).toEqual([]);
    expect(refused(withRelease(at("4.22.0-x86_64", "4.21.3-x86_64"), "4.22"))).toEqual([]);
    expect(refused(withRelease(at("5.1.0-x86_64"), "4.23"))).toEqual([]);
    expect(refused(withRelease(at("5.2.0-x86_64"), "5.0")).map((i) => i.path)).toEqual(["clusters[0].hostedCluster.releaseImage"]);
    expect(refused(withRelease(at("6.0.0-x86_64"), "4.23")).map((i) => i.path)).toEqual(["clusters[0].hostedCluster.releaseImage"]);
    expect(refused(withRelease(at("4.22.0-x86_64", "4.22.0-x86_64"), "4.21")).map((i) => i.path)).toEqual([
      "clusters[0].hostedCluster.releaseImage",
      "clusters[0].hostedCluster.nodePools[0].releaseImage",
    ]);
    expect(refused(withRelease(at("4.22.1-x86_64@sha256:" + "a".repeat(64)), "4.21")).length).toBe(1);
    expect(
      refused({
        ...withRelease(at("4.22.1-x86_64"), "4.21"),
        clusters: [
          { ...at("x").clusters[0], hostedCluster: { ...hosted, releaseImage: "quay.io/openshift-release-dev/ocp-release@sha256:" + "a".repeat(64) } },
        ],
      }),
    ).toEqual([]);
    // Unknown release (main) or a later branch: not checked here (the plan reads the operator's own list).
    expect(refused(at("5.9.0-x86_64"))).toEqual([]);
  });

  it("without a release (neither set nor in the bundle) nothing is gated: the code follows main", () => {
    expect(issuesOf(example("private.yaml"))).toEqual([]);
  });

  it("values the release's CRDs refuse: containerRegistry, oauthPublishing LoadBalancer (4.22), self-managed KMS and autoscaling.min 0 (4.23)", () => {
    const config = example("production.yaml");
    const hosted = config.clusters[0].hostedCluster;
    hosted.oauthPublishing = "LoadBalancer";
    hosted.kms = {
      keyId: "https://mykeys.vault.azure.net/keys/etcd/0123456789abcdef0123456789abcdef",
      keyVaultId: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/security-rg/providers/Microsoft.KeyVault/vaults/mykeys",
    };
    const pool = hosted.nodePools.findIndex((p: any) => p.autoscaling);
    hosted.nodePools[pool].autoscaling.min = 0;
    const gated = (release: string) => issuesOf(withRelease(config, release)).map((i) => [i.path, i.value, i.message.split(" for ")[0]]);
    expect(gated("4.21")).toEqual([
      ["clusters[0].hostedCluster.containerRegistry", undefined, "needs HyperShift 4.22 or later"],
      ["clusters[0].hostedCluster.oauthPublishing", "LoadBalancer", "needs HyperShift 4.22 or later"],
      ["clusters[0].hostedCluster.kms", undefined, "needs HyperShift 4.23 or later"],
      [`clusters[0].hostedCluster.nodePools[${pool}].autoscaling.min`, 0, "needs HyperShift 4.23 or later"],
    ]);
    expect(gated("4.22").map(([path]) => path)).toEqual(["clusters[0].hostedCluster.kms", `clusters[0].hostedCluster.nodePools[${pool}].autoscaling.min`]);
    expect(gated("4.23")).toEqual([]);
    const messages = issuesOf(withRelease(config, "4.22")).map((i) => i.message);
    expect(messages[0]).toMatch(
      /you run 4\.22 \(managementCluster\.operator\.hypershiftRelease\)\. Install the 4\.23\+ operator .*, or remove it\. Source: api\/hypershift\/v1beta1\/azure\.go: /,
    );
    expect(messages[1]).toContain(", or set it to 1 or more. Source: NodePool CRD: ");
  });

  it("ARO HCP's KMS form (a managed identity's credentials secret) is in every release's CRD: not gated", () => {
    const config = example("aro-hcp.yaml");
    config.clusters[0].hostedCluster.kms = { keyVault: { keyName: "etcd-encryption", network: { allowedIpRanges: ["203.0.113.7"] } } };
    expect(issuesOf(withRelease(config, "4.21"))).toEqual([]);
  });
});

describe("the HostedCluster fields each operator release's CRD has (rendering, __tests__/e2e/release-crds.test.ts checks them against the CRDs)", () => {
  it.each([
    ["4.21", { azureTopology: false, kmsKeyVaultType: false }],
    ["4.22", { azureTopology: true, kmsKeyVaultType: false }],
    ["4.23", { azureTopology: true, kmsKeyVaultType: false }],
    ["5.0", { azureTopology: true, kmsKeyVaultType: false }],
    ["5.1", { azureTopology: true, kmsKeyVaultType: true }],
    [undefined, { azureTopology: true, kmsKeyVaultType: true }],
  ])("%s: %j", (release, api) => expect(hostedClusterApi(release)).toEqual(api));

  const platformAndKms = (config: any, release: string | undefined) => {
    const name = `cluster-${config.clusters[0].name}`;
    const stacks = synthStacks(loadInline(withRelease(config, release)), [name]);
    const manifest = Object.values(stacks[name].resource.kubernetes_manifest as Record<string, any>).find((r) => r.manifest.kind === "HostedCluster").manifest;
    return { topology: manifest.spec.platform.azure.topology, kms: manifest.spec.secretEncryption.kms?.azure };
  };

  it("a self-managed Public cluster: topology Public from 4.22 (as that CLI writes it), none on 4.21 (its CRD and CLI have none)", () => {
    expect(platformAndKms(example("basic.yaml"), "4.21").topology).toBeUndefined();
    expect(platformAndKms(example("basic.yaml"), "4.22").topology).toBe("Public");
    expect(platformAndKms(example("basic.yaml"), undefined).topology).toBe("Public");
  });

  it("KMS: keyVaultType only from 5.1 (main); self-managed workloadIdentity from 4.23", () => {
    const kms = example("kms.yaml");
    expect(platformAndKms(kms, "4.23").kms).toEqual(expect.objectContaining({ workloadIdentity: expect.anything() }));
    expect(platformAndKms(kms, "4.23").kms).not.toHaveProperty("keyVaultType");
    expect(platformAndKms(kms, "5.1").kms).toHaveProperty("keyVaultType", "KeyVault");
    const aro = example("aro-hcp.yaml");
    aro.clusters[0].hostedCluster.kms = { keyVault: { keyName: "etcd-encryption", network: { allowedIpRanges: ["203.0.113.7"] } } };
    expect(platformAndKms(aro, "4.21").kms).toEqual({
      activeKey: expect.anything(),
      kms: { credentialsSecretName: expect.any(String), objectEncoding: "utf-8" },
    });
  });
});

describe("DNS zone IDs fit the release's HostedCluster CRD (spec.dns maxLength, read from the vendored CRDs)", () => {
  const FIXTURES = path.join(REPO, "__tests__", "fixtures", "hypershift-crds");
  const maxLengths = (release: string) => {
    const dns = JSON.parse(fs.readFileSync(path.join(FIXTURES, `release-${release}`, "hostedcluster.v1beta1.schema.json"), "utf8")).properties.spec.properties
      .dns.properties;
    return { publicZoneID: dns.publicZoneID.maxLength as number, privateZoneID: dns.privateZoneID.maxLength as number };
  };
  /**
   * basic.yaml at `release` with a baseDomain making the public zone's ARM ID `length` characters
   * long, and the two IDs' lengths (each ID is a fixed part and the baseDomain: the fixed parts come
   * from the short example, since a config with a too long ID derives no names).
   */
  const withPublicZoneIdOf = (release: string, length: number) => {
    const config = withRelease(example("basic.yaml"), release);
    const hosted = (config.clusters[0].hostedCluster = { ...config.clusters[0].hostedCluster, publicZone: { resourceGroupName: "dns-rg" } });
    const short = loadInline(config).names.clusters[0].hosted!;
    const [publicFixed, privateFixed] = [short.publicZone.id.length, short.privateZone.id.length].map((n) => n - hosted.baseDomain.length);
    const labels = ["a".repeat(60), "b".repeat(60), "c".repeat(60)].join(".");
    hosted.baseDomain = `${labels.slice(0, length - publicFixed - ".example.com".length).replace(/\.$/, "x")}.example.com`;
    return { config, lengths: { publicZoneID: publicFixed + hosted.baseDomain.length, privateZoneID: privateFixed + hosted.baseDomain.length } };
  };

  it("the limits: 253 and 253 on 4.21, 258 and 265 from 4.22", () => {
    expect(["4.21", "4.22", "4.23"].map(maxLengths)).toEqual([
      { publicZoneID: 253, privateZoneID: 253 },
      { publicZoneID: 258, privateZoneID: 265 },
      { publicZoneID: 258, privateZoneID: 265 },
    ]);
  });

  it.each(["4.21", "4.22", "4.23"].flatMap((release) => [0, 1].map((over) => [release, over])))(
    "release %s, public zone ID %i over the limit",
    (release, over) => {
      const max = maxLengths(release as string);
      const { config, lengths } = withPublicZoneIdOf(release as string, max.publicZoneID + (over as number));
      expect(lengths.publicZoneID).toBe(max.publicZoneID + (over as number));
      const expected = (["publicZoneID", "privateZoneID"] as const).filter((field) => lengths[field] > max[field]);
      const issues = issuesOf(withRelease(config, release as string));
      expect(issues.map((i) => [i.path, /spec\.dns\.(\w+)/.exec(i.message)?.[1]])).toEqual(
        expected.map((field) => ["clusters[0].hostedCluster.baseDomain", field]),
      );
      expect(expected.includes("publicZoneID")).toBe(over === 1);
      if (over === 1) {
        expect(issues[0].message).toContain(
          `(${lengths.publicZoneID} characters); HyperShift ${release}'s (managementCluster.operator.hypershiftRelease) HostedCluster CRD takes at most ${max.publicZoneID}: use a shorter baseDomain`,
        );
      }
    },
  );
});
