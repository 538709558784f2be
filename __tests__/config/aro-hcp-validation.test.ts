import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { ConfigErrors, formatIssues, validateConfig } from "../../config/load";
import { EXAMPLES } from "../helpers";

/**
 * Bad-input suite of the ARO HCP-style topology (schema-aro-hcp.ts, config/rules/aro-hcp.ts and the
 * bundle check in rules.ts): each mistake fails validation with an issue that names the field
 * (and shows the value when one was given). Configs start from examples/aro-hcp.yaml.
 */

// The config is mutated into invalid shapes on purpose: a loose type is the honest one here.
type RawConfig = Record<string, any>;

const EXAMPLE_TEXT = fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8");

/** A fresh copy of examples/aro-hcp.yaml, parsed. */
const base = (): RawConfig => parse(EXAMPLE_TEXT);

function expectInvalid(input: unknown): ConfigErrors {
  const result = validateConfig(input, EXAMPLES);
  if (result.ok) throw new Error("expected the config to be invalid, but it validated");
  return result;
}

/** Turns the example into a self-managed config (kubeconfig management cluster, no aroHcp block). */
function selfManaged(c: RawConfig): RawConfig {
  c.topology = "selfManaged";
  delete c.aroHcp;
  delete c.managementCluster.aks;
  c.managementCluster.operator.bundleFile = "operator/hypershift-operator-external-dns.yaml";
  return c;
}

interface BadCase {
  name: string;
  mutate: (c: RawConfig) => void;
  path: string;
  value?: unknown;
  message: RegExp;
}

const KV_RULE = /3-24 letters, digits or '-', start with a letter, end with a letter or digit, and contain no '--'/;

const cases: BadCase[] = [
  // Key Vault
  { name: "a 2-character vault name", mutate: (c) => (c.aroHcp.keyVault.name = "kv"), path: "aroHcp.keyVault.name", value: "kv", message: KV_RULE },
  {
    name: "a vault name starting with a digit",
    mutate: (c) => (c.aroHcp.keyVault.name = "1hcp-kv"),
    path: "aroHcp.keyVault.name",
    value: "1hcp-kv",
    message: KV_RULE,
  },
  { name: "a vault name with '--'", mutate: (c) => (c.aroHcp.keyVault.name = "hcp--kv"), path: "aroHcp.keyVault.name", value: "hcp--kv", message: KV_RULE },
  {
    name: "a vault name ending with '-'",
    mutate: (c) => (c.aroHcp.keyVault.name = "hcp-kv-"),
    path: "aroHcp.keyVault.name",
    value: "hcp-kv-",
    message: KV_RULE,
  },
  {
    name: "a 25-character vault name",
    mutate: (c) => (c.aroHcp.keyVault.name = `k${"v".repeat(24)}`),
    path: "aroHcp.keyVault.name",
    value: `k${"v".repeat(24)}`,
    message: KV_RULE,
  },
  {
    name: "6 days of soft delete",
    mutate: (c) => (c.aroHcp.keyVault.softDeleteRetentionDays = 6),
    path: "aroHcp.keyVault.softDeleteRetentionDays",
    value: 6,
    message: /at least 7 days/,
  },
  {
    name: "91 days of soft delete",
    mutate: (c) => (c.aroHcp.keyVault.softDeleteRetentionDays = 91),
    path: "aroHcp.keyVault.softDeleteRetentionDays",
    value: 91,
    message: /at most 90 days/,
  },
  {
    name: "a fractional soft-delete retention",
    mutate: (c) => (c.aroHcp.keyVault.softDeleteRetentionDays = 30.5),
    path: "aroHcp.keyVault.softDeleteRetentionDays",
    value: 30.5,
    message: /whole number/,
  },

  // certificates
  {
    name: "a 23h certificate",
    mutate: (c) => (c.aroHcp.certificates = { validity: "23h", renewBefore: "1h" }),
    path: "aroHcp.certificates.validity",
    value: "23h",
    message: /between 24h and 17520h/,
  },
  {
    name: "a 17521h certificate",
    mutate: (c) => (c.aroHcp.certificates.validity = "17521h"),
    path: "aroHcp.certificates.validity",
    value: "17521h",
    message: /between 24h and 17520h/,
  },
  {
    name: "renewal as long as the validity",
    mutate: (c) => (c.aroHcp.certificates = { validity: "720h", renewBefore: "720h" }),
    path: "aroHcp.certificates.renewBefore",
    value: "720h",
    message: /must be shorter than aroHcp\.certificates\.validity 720h/,
  },
  {
    name: "renewal longer than the validity",
    mutate: (c) => (c.aroHcp.certificates.renewBefore = "9000h"),
    path: "aroHcp.certificates.renewBefore",
    value: "9000h",
    message: /must be shorter than aroHcp\.certificates\.validity 8760h/,
  },
  {
    name: "a validity in days",
    mutate: (c) => (c.aroHcp.certificates.validity = "365d"),
    path: "aroHcp.certificates.validity",
    value: "365d",
    message: /whole number of hours/,
  },

  // management cluster
  {
    name: "a management cluster without aks",
    mutate: (c) => delete c.managementCluster.aks,
    path: "managementCluster.aks",
    message: /is required with topology: aroHcp/,
  },
  {
    name: "a kubeconfig beside aks",
    mutate: (c) => (c.managementCluster.kubeconfig = { path: "~/.kube/config" }),
    path: "managementCluster.kubeconfig",
    message: /is not used with managementCluster\.aks/,
  },
  {
    name: "aks with topology selfManaged",
    mutate: (c) => {
      selfManaged(c);
      c.managementCluster.aks = { name: "myprefix-mgmt" };
    },
    path: "managementCluster.aks",
    message: /only used with topology: aroHcp/,
  },
  {
    name: "an aroHcp block with topology selfManaged",
    mutate: (c) => {
      selfManaged(c);
      c.aroHcp = { keyVault: { name: "myprefix-hcp-kv" } };
    },
    path: "aroHcp",
    message: /only used with topology: aroHcp/,
  },
  {
    name: "an AKS user pool whose minCount exceeds maxCount",
    mutate: (c) => (c.managementCluster.aks.userPool.minCount = 7),
    path: "managementCluster.aks.userPool.minCount",
    value: 7,
    message: /must be at most maxCount 6/,
  },
  {
    name: "an AKS system pool whose minCount exceeds maxCount",
    mutate: (c) => (c.managementCluster.aks.systemPool = { minCount: 4, maxCount: 3 }),
    path: "managementCluster.aks.systemPool.minCount",
    value: 4,
    message: /must be at most maxCount 3/,
  },
  // AKS rules that live only here (ManagementAksCluster no longer repeats them)
  {
    name: "an invalid AKS cluster name",
    mutate: (c) => (c.managementCluster.aks.name = "-mgmt"),
    path: "managementCluster.aks.name",
    value: "-mgmt",
    message: /1-63/,
  },
  {
    name: "an AKS pool without nodes",
    mutate: (c) => (c.managementCluster.aks.systemPool.minCount = 0),
    path: "managementCluster.aks.systemPool.minCount",
    value: 0,
    message: /at least 1/,
  },
  {
    name: "an AKS pool over 1000 nodes",
    mutate: (c) => (c.managementCluster.aks.userPool.maxCount = 1001),
    path: "managementCluster.aks.userPool.maxCount",
    value: 1001,
    message: /at most 1000/,
  },
  {
    name: "a fractional AKS node count",
    mutate: (c) => (c.managementCluster.aks.userPool.minCount = 1.5),
    path: "managementCluster.aks.userPool.minCount",
    value: 1.5,
    message: /whole number/,
  },
  {
    name: "an AKS OS disk over 2048 GB",
    mutate: (c) => (c.managementCluster.aks.userPool.osDiskSizeGb = 4096),
    path: "managementCluster.aks.userPool.osDiskSizeGb",
    value: 4096,
    message: /2048/,
  },
  {
    name: "an AKS zone 4",
    mutate: (c) => (c.managementCluster.aks.userPool.zones = [1, 4]),
    path: "managementCluster.aks.userPool.zones[1]",
    value: "4",
    message: /one of 1, 2, 3/,
  },
  {
    name: "an AKS VM size that is not one",
    mutate: (c) => (c.managementCluster.aks.systemPool.vmSize = ""),
    path: "managementCluster.aks.systemPool.vmSize",
    message: /Azure VM size/,
  },
  {
    name: "a secret rotation interval in words",
    mutate: (c) => (c.managementCluster.aks.secretRotationInterval = "2 minutes"),
    path: "managementCluster.aks.secretRotationInterval",
    value: "2 minutes",
    message: /duration such as 2m/,
  },
  {
    name: "a zero secret rotation interval",
    mutate: (c) => (c.managementCluster.aks.secretRotationInterval = "0m"),
    path: "managementCluster.aks.secretRotationInterval",
    value: "0m",
    message: /duration such as 2m/,
  },
  {
    name: "an unknown AKS SKU tier",
    mutate: (c) => (c.managementCluster.aks.skuTier = "Gold"),
    path: "managementCluster.aks.skuTier",
    value: "Gold",
    message: /Free/,
  },
  {
    name: "an invalid AKS user pool name",
    mutate: (c) => (c.managementCluster.aks.userPool.name = "control-plane"),
    path: "managementCluster.aks.userPool.name",
    value: "control-plane",
    message: /1-12 lowercase letters or digits/,
  },

  // clusters
  {
    name: "the control-plane-operator workload identity",
    mutate: (c) => (c.clusters[0].identities = { controlPlaneOperator: true }),
    path: "clusters[0].identities.controlPlaneOperator",
    value: true,
    message: /is not used with topology: aroHcp/,
  },
  {
    name: "the KMS workload identity",
    mutate: (c) => (c.clusters[0].identities = { kms: true }),
    path: "clusters[0].identities.kms",
    value: true,
    message: /is not used with topology: aroHcp: the KMS identity there is a certificate service principal, made when hostedCluster\.kms is set/,
  },
  {
    name: "two clusters with the same identity name prefix (one vault: the secret names clash)",
    mutate: (c) => c.clusters.push({ name: "myprefix-dev", identities: { namePrefix: "myprefix-hc" } }),
    path: "clusters[1].identities.namePrefix",
    value: "myprefix-hc-cpo",
    message: /control-plane secret name another cluster also uses/,
  },

  // operator bundle
  {
    name: "a bundle rendered without --managed-service ARO-HCP",
    mutate: (c) => (c.managementCluster.operator.bundleFile = "operator/hypershift-operator-external-dns.yaml"),
    path: "managementCluster.operator.bundleFile",
    message: /has no MANAGED_SERVICE=ARO-HCP on the operator; .*--managed-service ARO-HCP/,
  },
  {
    name: "the ARO HCP bundle with topology selfManaged",
    mutate: (c) => {
      selfManaged(c);
      c.managementCluster.operator.bundleFile = "operator/hypershift-operator-aro-hcp.yaml";
    },
    path: "managementCluster.operator.bundleFile",
    value: "ARO-HCP",
    message: /rendered with --managed-service ARO-HCP, which only fits topology: aroHcp/,
  },
  // review findings: tenant-wide display names, ExternalDNS on AKS, reserved pool names, shared groups
  {
    name: "two clusters whose control-plane display names meet (myprefix-hc and hc)",
    mutate: (c) => c.clusters.push({ name: "hc", hostedCluster: { ...c.clusters[0].hostedCluster, nodePools: [] } }),
    path: "clusters[1].name",
    value: "myprefix-hc-cloud-provider",
    message: /Entra display name another identity of this deployment also has/,
  },
  {
    name: "a hosted cluster without ExternalDNS",
    mutate: (c) => (c.clusters[0].hostedCluster.externalDns = false),
    path: "clusters[0].hostedCluster.externalDns",
    value: false,
    message: /required with topology: aroHcp .* no OpenShift router/,
  },
  {
    name: "the user pool named system",
    mutate: (c) => (c.managementCluster.aks.userPool.name = "system"),
    path: "managementCluster.aks.userPool.name",
    value: "system",
    message: /must not be system, systemtmp, usertmp/,
  },
  {
    name: "the AKS resource group being a hosted cluster's managed group",
    mutate: (c) => (c.managementCluster.aks.resourceGroupName = "myprefix-hc-managed-rg"),
    path: "managementCluster.aks.resourceGroupName",
    value: "myprefix-hc-managed-rg",
    message: /also a resource group of hosted cluster myprefix-hc/,
  },
];

describe("aroHcp config validation: bad input", () => {
  it("the example itself is valid (the baseline every case changes)", () => {
    const result = validateConfig(base(), EXAMPLES);
    expect(result.ok && result.names.topology.kind === "aroHcp" ? result.names.topology.keyVault : result).toEqual({
      name: "myprefix-hcp-kv",
      id: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/os4-common/providers/Microsoft.KeyVault/vaults/myprefix-hcp-kv",
      origin: "aroHcp.keyVault.name",
    });
  });

  it.each(cases)("rejects $name at $path", ({ mutate, path: issuePath, value, message }) => {
    const config = base();
    mutate(config);
    const result = expectInvalid(config);
    const wanted: Record<string, unknown> = { path: issuePath, message: expect.stringMatching(message) };
    if (value !== undefined) wanted.value = value;
    expect(result.issues).toEqual(expect.arrayContaining([expect.objectContaining(wanted)]));
    // The value shows in the formatted line, which starts with the field's path.
    const line = formatIssues(result)
      .split("\n")
      .find((l) => l.startsWith(`  ${issuePath}: `) && (value === undefined || l.includes(JSON.stringify(value))));
    expect(line).toBeDefined();
  });

  it("a clash of identity name prefixes names every clashing control-plane secret", () => {
    const config = base();
    config.clusters.push({ name: "myprefix-dev", identities: { namePrefix: "myprefix-hc" } });
    const clashes = expectInvalid(config)
      .issues.filter((i) => /control-plane secret name/.test(i.message))
      .map((i) => [i.path, i.value]);
    expect(clashes).toEqual(
      ["cloud-provider", "nodepool-mgmt", "cpo", "image-registry", "ingress", "network", "disk", "file"].map((s) => [
        "clusters[1].identities.namePrefix",
        `myprefix-hc-${s}`,
      ]),
    );
  });
});

describe("aroHcp config validation: derived Key Vault names", () => {
  /** The example without a vault name, for `prefix`, with the DNS zone the bundle's external-dns filters on. */
  function derived(prefix: string) {
    const config = base();
    config.prefix = prefix;
    delete config.aroHcp.keyVault.name;
    config.dns.zoneName = "myprefix.example.com";
    return validateConfig(config, EXAMPLES);
  }

  // Expected suffixes: sha256("<subscription>/<persistent group ID>/<prefix>")[:6], computed with Python's hashlib.
  it.each([
    ["a--b", "a-b-kv-98472b"],
    ["abcdefghijkl--mnopq", "abcdefghijkl-kv-a0b93a"],
  ])("prefix %s gives the valid vault name %s (no '--', no trailing '-')", (prefix, name) => {
    const result = derived(prefix);
    expect(result.ok && result.names.topology.kind === "aroHcp" ? result.names.topology.keyVault : result).toEqual({
      name,
      id: `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/os4-common/providers/Microsoft.KeyVault/vaults/${name}`,
      origin: "prefix",
    });
  });
});

describe("aroHcp config warnings", () => {
  it("warns when the AKS control-plane pool spans fewer than 2 zones, and not for the example's 3", () => {
    const c = base();
    const ok = validateConfig(c, EXAMPLES);
    if (!ok.ok) throw new Error(formatIssues(ok));
    expect(ok.warnings.filter((w) => w.includes("zones"))).toEqual([]);
    delete c.managementCluster.aks.userPool.zones;
    const loaded = validateConfig(c, EXAMPLES);
    if (!loaded.ok) throw new Error(formatIssues(loaded));
    expect(loaded.warnings).toContainEqual(expect.stringContaining("managementCluster.aks.userPool.zones lists fewer than 2 zones"));
  });
});
