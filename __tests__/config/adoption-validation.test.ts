import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { ConfigErrors, validateConfig } from "../../config/load";
import { EXAMPLES } from "../helpers";

/** The adoption rules (config/rules/adopt.ts): each bad variant of examples/adopt.yaml names its field. */

const base = parse(fs.readFileSync(path.join(EXAMPLES, "adopt.yaml"), "utf8"));
const cluster = base.clusters[0];
const withCluster = (changes: Record<string, unknown>) => ({ ...base, clusters: [{ ...cluster, ...changes }] });
const withHosted = (changes: Record<string, unknown>) => withCluster({ hostedCluster: { ...cluster.hostedCluster, ...changes } });

function issuesOf(input: unknown): ConfigErrors["issues"] {
  const result = validateConfig(input, EXAMPLES);
  return result.ok ? [] : result.issues;
}

describe("adoption rules", () => {
  it("examples/adopt.yaml is valid", () => {
    expect(issuesOf(base)).toEqual([]);
  });

  it.each<[string, unknown, string, RegExp]>([
    [
      "a cluster adopted without adopt",
      { ...base, adopt: undefined, externalDns: undefined },
      "clusters[0].adopt",
      /needs adopt with the guide's oidcStorageAccountName/,
    ],
    ["aroHcp topology", { ...base, topology: "aroHcp" }, "topology", /seed 004's commands build the selfManaged topology/],
    ["per-cluster issuer", { ...base, oidc: { issuer: "perCluster" } }, "oidc.issuer", /must be shared with adopt/],
    [
      "another group name",
      { ...base, resourceGroup: { name: "other-rg" }, adopt: { ...base.adopt, resourceGroupName: "os4-common" } },
      "resourceGroup.name",
      /differs from adopt.resourceGroupName "os4-common"/,
    ],
    [
      "another account name",
      { ...base, oidc: { storageAccountName: "someotheraccount" } },
      "oidc.storageAccountName",
      /differs from adopt.oidcStorageAccountName "myprefixoidc1705432123"/,
    ],
    ["another container", { ...base, oidc: { containerName: "issuer" } }, "oidc.containerName", /must be the storage account name "myprefixoidc1705432123"/],
    ["least-privilege ExternalDNS roles", { ...base, externalDns: { roles: "leastPrivilege" } }, "externalDns.roles", /must be seed with adopt.externalDns/],
    ["no externalDns", { ...base, externalDns: undefined }, "adopt.externalDns", /needs dns and externalDns/],
    [
      "no infraId",
      withHosted({ infraId: undefined }),
      "clusters[0].hostedCluster.infraId",
      /HyperShift chose a random one; read it with kubectl get hostedcluster myprefix-hc -n clusters/,
    ],
    [
      "one resource group",
      withHosted({ network: { singleResourceGroup: true } }),
      "clusters[0].hostedCluster.network.singleResourceGroup",
      /the guide made separate VNet and NSG groups/,
    ],
  ])("%s: the config fails", (_what, input, pathName, message) => {
    const issue = issuesOf(input).find((i) => i.path === pathName);
    expect(issue?.message).toMatch(message);
    expect(issue?.message).toContain("(help/adopt.md)");
  });

  it("without infrastructure adoption the infraId may stay derived", () => {
    expect(issuesOf(withCluster({ adopt: { infrastructure: false }, hostedCluster: { ...cluster.hostedCluster, infraId: undefined } }))).toEqual([]);
  });

  it("the same name in resourceGroup.name and adopt.resourceGroupName is fine; resourceGroup.name alone names the group", () => {
    expect(issuesOf({ ...base, resourceGroup: { name: "os4-common" } })).toEqual([]);
    const result = validateConfig({ ...base, resourceGroup: { name: "my-common" }, adopt: { ...base.adopt, resourceGroupName: undefined } }, EXAMPLES);
    expect(result.ok && result.names.resourceGroup.name).toBe("my-common");
  });

  it("an existing group (create: false) is named by adopt: os4-common by default, no resourceGroup.name needed", () => {
    const result = validateConfig({ ...base, resourceGroup: { create: false } }, EXAMPLES);
    expect(result.ok && result.names.resourceGroup.name).toBe("os4-common");
    expect(result.ok && [...result.names.adoption.imports.get("shared")!].some((i) => i.type === "azurerm_resource_group")).toBe(false);
  });

  it("object IDs and role assignment names are UUIDs (lowercased)", () => {
    const bad = { ...base, adopt: { ...base.adopt, externalDns: { ...base.adopt.externalDns, applicationObjectId: "not-a-guid" } } };
    expect(issuesOf(bad)).toEqual([expect.objectContaining({ path: "adopt.externalDns.applicationObjectId" })]);
    const upper = {
      ...base,
      adopt: { ...base.adopt, externalDns: { ...base.adopt.externalDns, applicationObjectId: "AAAAAAAA-2222-2222-2222-222222222222" } },
    };
    const result = validateConfig(upper, EXAMPLES);
    expect(result.ok && result.config.adopt?.externalDns?.applicationObjectId).toBe("aaaaaaaa-2222-2222-2222-222222222222");
  });
});
