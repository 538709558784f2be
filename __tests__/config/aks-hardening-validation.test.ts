import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { formatIssues, validateConfig } from "../../config/load";
import { EXAMPLES } from "../helpers";

/** managementCluster.aks hardening (config/rules/aro-hcp.ts): each mistake names its field. Configs start from examples/aro-hcp.yaml. */

type RawConfig = Record<string, any>;
const read = (example: string): RawConfig => parse(fs.readFileSync(path.join(EXAMPLES, example), "utf8"));
const base = (): RawConfig => read("aro-hcp.yaml");

function issuesOf(mutate: (c: RawConfig) => void, config: RawConfig = base()) {
  mutate(config);
  const result = validateConfig(config, EXAMPLES);
  if (result.ok) throw new Error("expected the config to be invalid, but it validated");
  return result.issues;
}

function valid(mutate: (c: RawConfig) => void, config: RawConfig = base()) {
  mutate(config);
  const result = validateConfig(config, EXAMPLES);
  if (!result.ok) throw new Error(formatIssues(result));
  return result;
}

const RANGES = "managementCluster.aks.apiServerAuthorizedIpRanges";

describe("managementCluster.aks.apiServerAuthorizedIpRanges", () => {
  it("accepts aligned IPv4 CIDRs, single addresses as /32", () => {
    expect(
      valid((c) => (c.managementCluster.aks.apiServerAuthorizedIpRanges = ["203.0.113.0/24", "198.51.100.7/32"])).config.managementCluster?.aks
        ?.apiServerAuthorizedIpRanges,
    ).toEqual(["203.0.113.0/24", "198.51.100.7/32"]);
  });

  it.each([
    ["not a CIDR", ["203.0.113.7"], `${RANGES}[0]`, /must be an IPv4 CIDR/],
    ["an octet over 255", ["10.0.0.0/8", "256.0.0.0/8"], `${RANGES}[1]`, /must be an IPv4 CIDR/],
    ["IPv6", ["2001:db8::/32"], `${RANGES}[0]`, /must be an IPv4 CIDR/],
    ["host bits set", ["203.0.113.7/24"], `${RANGES}[0]`, /host bits set; did you mean 203\.0\.113\.0\/24\?/],
    ["a range listed twice", ["203.0.113.0/24", "203.0.113.0/24"], `${RANGES}[1]`, /listed twice/],
    ["an empty list", [], RANGES, /at least one CIDR; omit the key/],
  ])("rejects %s", (_, ranges, issuePath, message) => {
    const issues = issuesOf((c) => (c.managementCluster.aks.apiServerAuthorizedIpRanges = ranges));
    expect(issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: issuePath, message: expect.stringMatching(message) })]));
  });

  it("rejects ranges for an existing cluster", () => {
    const issues = issuesOf((c) => {
      c.managementCluster.aks = { existing: true, name: "mgmt", resourceGroupName: "mgmt-rg", apiServerAuthorizedIpRanges: ["203.0.113.0/24"] };
    });
    expect(issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: RANGES, message: expect.stringMatching(/not used with existing: true/) })]));
  });
});

describe("managementCluster.aks API server warning", () => {
  const warning = (c: RawConfig) => valid((x) => Object.assign(x, c)).warnings.filter((w) => w.includes("apiServerAuthorizedIpRanges"));

  it("warns about a created cluster's public API server without authorized ranges, naming the key and the fix", () => {
    const warnings = valid((c) => delete c.managementCluster.aks.apiServerAuthorizedIpRanges).warnings.filter((w) => w.includes("apiServerAuthorizedIpRanges"));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^aks: managementCluster\.aks\.apiServerAuthorizedIpRanges is not set: .* answers any address .* apiServerAuthorizedIpRanges: \[203\.0\.113\.0\/24\]/,
      ),
    ]);
  });

  it("is silent with ranges, and for an existing cluster (its own ranges)", () => {
    expect(warning({})).toEqual([]);
    expect(
      valid((c) => (c.managementCluster.aks = { existing: true, name: "mgmt", resourceGroupName: "mgmt-rg" })).warnings.filter((w) =>
        w.includes("apiServerAuthorizedIpRanges"),
      ),
    ).toEqual([]);
  });
});

describe("managementCluster.aks.entraIdRbac", () => {
  it("defaults to Entra ID with Azure RBAC and no local accounts, azurecli, deployer grant", () => {
    expect(valid(() => undefined).config.managementCluster?.aks?.entraIdRbac).toEqual({
      enabled: true,
      kubeloginMode: "azurecli",
      grantDeployerClusterAdmin: true,
    });
  });

  it("re-enables local accounts only when told: enabled: false", () => {
    expect(valid((c) => (c.managementCluster.aks.entraIdRbac = { enabled: false })).config.managementCluster?.aks?.entraIdRbac.enabled).toBe(false);
  });

  it("rejects an unknown kubelogin mode, naming the field", () => {
    const issues = issuesOf((c) => (c.managementCluster.aks.entraIdRbac = { enabled: true, kubeloginMode: "devicecode" }));
    expect(issues.map((i) => i.path)).toEqual(["managementCluster.aks.entraIdRbac.kubeloginMode"]);
  });

  it.each([
    ["kubeloginMode", { kubeloginMode: "spn" }],
    ["grantDeployerClusterAdmin", { grantDeployerClusterAdmin: false }],
  ])("rejects %s with enabled: false", (field, block) => {
    const issues = issuesOf((c) => (c.managementCluster.aks.entraIdRbac = { enabled: false, ...block }));
    expect(issues).toEqual([
      expect.objectContaining({ path: `managementCluster.aks.entraIdRbac.${field}`, message: "is only used with entraIdRbac.enabled: true" }),
    ]);
  });

  it("warns with a Terraform Cloud backend (hosted runners have no kubelogin), by default too; not with the local backend", () => {
    const cloud = (c: RawConfig) => (c.backend = { type: "cloud", organization: "acme" });
    expect(valid(() => undefined).warnings.filter((w) => w.includes("kubelogin"))).toEqual([]);
    expect(valid(cloud).warnings).toContainEqual(expect.stringContaining("managementCluster.aks.entraIdRbac.enabled with backend cloud"));
    const localAccounts = valid((c) => {
      cloud(c);
      c.managementCluster.aks.entraIdRbac = { enabled: false };
    });
    expect(localAccounts.warnings.filter((w) => w.includes("kubelogin"))).toEqual([]);
  });
});

/** The vaults' firewalls (aroHcp.keyVault.network, kms.keyVault.network): closed by default, and something must be let in. */
describe.each([
  ["aroHcp.keyVault.network", "aro-hcp.yaml", (c: RawConfig) => c.aroHcp.keyVault, /Key Vault secrets provider/],
  ["clusters[0].hostedCluster.kms.keyVault.network", "kms.yaml", (c: RawConfig) => c.clusters[0].hostedCluster.kms.keyVault, /KMS plugin/],
])("%s", (at, example, vaultOf, reader) => {
  const withNetwork = (network: unknown) => (c: RawConfig) => {
    if (network === undefined) delete vaultOf(c).network;
    else vaultOf(c).network = network;
  };
  const issues = (network: unknown) => issuesOf(withNetwork(network), read(example));
  const networkOf = (network: unknown): any => vaultOf(valid(withNetwork(network), read(example)).config as RawConfig).network;

  it("refuses a vault nothing may reach (the default), saying exactly what to add", () => {
    for (const network of [undefined, {}, { allowedIpRanges: [], allowedSubnetIds: [] }]) {
      expect(issues(network)).toEqual([
        expect.objectContaining({
          path: at,
          message: expect.stringMatching(
            /^lets nothing through the vault's firewall, which denies every network by default: Terraform .* would get 403 ForbiddenByFirewall\. Add allowedIpRanges: .* or set allowPublicNetworkAccess: true/,
          ),
        }),
      ]);
      expect(issues(network)[0].message).toMatch(reader);
    }
  });

  it.each([
    ["addresses and CIDRs", { allowedIpRanges: ["203.0.113.7", "198.51.100.0/28"] }],
    [
      "subnets",
      {
        allowedSubnetIds: [
          `/subscriptions/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/s`,
        ],
      },
    ],
    [
      "a private endpoint only",
      {
        privateEndpoint: {
          subnetId: `/subscriptions/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/pe`,
        },
      },
    ],
    ["the explicit opt-out", { allowPublicNetworkAccess: true }],
  ])("accepts %s", (_, network) => {
    expect(networkOf(network)).toMatchObject(network);
  });

  it.each([
    ["a private address", { allowedIpRanges: ["10.1.2.3"] }, `${at}.allowedIpRanges[0]`, /non-public range 10\.0\.0\.0\/8, which Key Vault IP rules refuse/],
    ["a range holding private addresses", { allowedIpRanges: ["192.0.0.0/2"] }, `${at}.allowedIpRanges[0]`, /non-public range/],
    ["host bits set", { allowedIpRanges: ["203.0.113.7/24"] }, `${at}.allowedIpRanges[0]`, /did you mean 203\.0\.113\.0\/24\?/],
    ["a repeated address", { allowedIpRanges: ["203.0.113.7", "203.0.113.7/32"] }, `${at}.allowedIpRanges[1]`, /listed twice/],
    ["not an address", { allowedIpRanges: ["my-laptop"] }, `${at}.allowedIpRanges[0]`, /public IPv4 address or CIDR/],
    ["a subnet that is not an ARM ID", { allowedSubnetIds: ["subnet-1"] }, `${at}.allowedSubnetIds[0]`, /full ARM ID/],
    [
      "ranges with the opt-out",
      { allowPublicNetworkAccess: true, allowedIpRanges: ["203.0.113.7"] },
      `${at}.allowedIpRanges`,
      /not used with allowPublicNetworkAccess: true/,
    ],
  ])("refuses %s", (_, network, issuePath, message) => {
    expect(issues(network)).toEqual(expect.arrayContaining([expect.objectContaining({ path: issuePath, message: expect.stringMatching(message) })]));
  });
});
