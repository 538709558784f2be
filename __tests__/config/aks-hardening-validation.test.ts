import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { formatIssues, validateConfig } from "../../config/load";
import { EXAMPLES } from "../helpers";

/** managementCluster.aks hardening (config/rules/aro-hcp.ts): each mistake names its field. Configs start from examples/aro-hcp.yaml. */

type RawConfig = Record<string, any>;
const base = (): RawConfig => parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));

function issuesOf(mutate: (c: RawConfig) => void) {
  const config = base();
  mutate(config);
  const result = validateConfig(config, EXAMPLES);
  if (result.ok) throw new Error("expected the config to be invalid, but it validated");
  return result.issues;
}

function valid(mutate: (c: RawConfig) => void) {
  const config = base();
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

describe("managementCluster.aks.entraIdRbac", () => {
  it("defaults to local accounts (disabled Entra RBAC), azurecli, deployer grant", () => {
    expect(valid(() => undefined).config.managementCluster?.aks?.entraIdRbac).toEqual({
      enabled: false,
      kubeloginMode: "azurecli",
      grantDeployerClusterAdmin: true,
    });
  });

  it("rejects an unknown kubelogin mode, naming the field", () => {
    const issues = issuesOf((c) => (c.managementCluster.aks.entraIdRbac = { enabled: true, kubeloginMode: "devicecode" }));
    expect(issues.map((i) => i.path)).toEqual(["managementCluster.aks.entraIdRbac.kubeloginMode"]);
  });

  it.each([
    ["kubeloginMode", { kubeloginMode: "spn" }],
    ["grantDeployerClusterAdmin", { grantDeployerClusterAdmin: false }],
  ])("rejects %s without enabled: true", (field, block) => {
    const issues = issuesOf((c) => (c.managementCluster.aks.entraIdRbac = block));
    expect(issues).toEqual([
      expect.objectContaining({ path: `managementCluster.aks.entraIdRbac.${field}`, message: "is only used with entraIdRbac.enabled: true" }),
    ]);
  });

  it("warns with a Terraform Cloud backend (hosted runners have no kubelogin), not with the local backend", () => {
    const entra = (c: RawConfig) => (c.managementCluster.aks.entraIdRbac = { enabled: true });
    expect(valid(entra).warnings.filter((w) => w.includes("kubelogin"))).toEqual([]);
    const cloud = valid((c) => {
      entra(c);
      c.backend = { type: "cloud", organization: "acme" };
    });
    expect(cloud.warnings).toContainEqual(expect.stringContaining("managementCluster.aks.entraIdRbac.enabled with backend cloud"));
  });
});
