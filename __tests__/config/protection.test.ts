import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { formatIssues, validateConfig } from "../../config/load";
import { protectedLifecycle, protectionOf } from "../../config/protection";
import { EXAMPLES, hostedClusterSpec, loadInline, minimalConfig } from "../helpers";

const example = (file: string): Record<string, any> => parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8"));

describe("protectionOf", () => {
  it("protects everything by default", () => {
    const protection = protectionOf(loadInline(example("aro-hcp.yaml")).config);
    expect(Object.entries(protection).filter(([, on]) => !on)).toEqual([]);
    expect(Object.keys(protection).sort()).toEqual(
      [
        "aksCluster",
        "controlPlaneIdentities",
        "dnsZone",
        "externalDnsPrincipal",
        "privateLinkPrincipal",
        "keyVault",
        "oidcIssuer",
        "operator",
        "persistentResourceGroup",
        "workloadIdentities",
      ].sort(),
    );
  });

  it("protection.preventDestroy: false turns every protection off", () => {
    const protection = protectionOf(loadInline({ ...example("aro-hcp.yaml"), protection: { preventDestroy: false } }).config);
    expect(Object.entries(protection).filter(([, on]) => on)).toEqual([]);
  });

  it("each per-resource key overrides the switch for its own resource only, in both directions", () => {
    const base = example("aro-hcp.yaml");
    const keepFour = loadInline({
      ...base,
      protection: { preventDestroy: false },
      resourceGroup: { ...base.resourceGroup, preventDestroy: true },
      dns: { ...base.dns, preventDestroy: true },
      aroHcp: { ...base.aroHcp, keyVault: { ...base.aroHcp.keyVault, preventDestroy: true } },
      managementCluster: { ...base.managementCluster, operator: { ...base.managementCluster.operator, preventDestroy: true } },
    }).config;
    const on = Object.entries(protectionOf(keepFour))
      .filter(([, value]) => value)
      .map(([key]) => key);
    expect(on.sort()).toEqual(["dnsZone", "keyVault", "operator", "persistentResourceGroup"]);
    const openZone = loadInline({ ...base, dns: { ...base.dns, preventDestroy: false } }).config;
    expect(
      Object.entries(protectionOf(openZone))
        .filter(([, value]) => !value)
        .map(([key]) => key),
    ).toEqual(["dnsZone"]);
  });

  it("protectedLifecycle writes prevent_destroy only when on (default on)", () => {
    expect(protectedLifecycle(undefined)).toEqual({ preventDestroy: true });
    expect(protectedLifecycle(true)).toEqual({ preventDestroy: true });
    expect(protectedLifecycle(false)).toBeUndefined();
  });
});

describe("protection warnings", () => {
  it("none with the defaults; one naming what is unprotected otherwise", () => {
    expect(loadInline(example("aro-hcp.yaml")).warnings.filter((w) => w.startsWith("protection:"))).toEqual([]);
    const base = example("external-dns.yaml");
    const warnings = loadInline({ ...base, dns: { ...base.dns, preventDestroy: false } }).warnings.filter((w) => w.startsWith("protection:"));
    expect(warnings).toEqual([expect.stringMatching(/^protection: prevent_destroy is off for the DNS zone: /)]);
    const all = loadInline({ ...base, protection: { preventDestroy: false } }).warnings.filter((w) => w.startsWith("protection:"));
    // external-dns.yaml adopts its group and is self-managed: neither the group nor a vault is named.
    expect(all).toEqual([
      "protection: prevent_destroy is off for the OIDC storage account and containers, the identities and federated credentials, the DNS zone, ExternalDNS's principal, the operator's CRDs and namespaces: a destroy, or a change that replaces them, deletes them without asking. Set protection.preventDestroy: true again once done (help/destroy.md).",
    ]);
  });
});

describe("protection and destroy config keys", () => {
  const issuesOf = (input: unknown) => {
    const result = validateConfig(input, EXAMPLES);
    if (result.ok) throw new Error("expected the config to be invalid, but it validated");
    return { issues: result.issues, text: formatIssues(result) };
  };

  it("rejects a non-boolean protection.preventDestroy, naming the field", () => {
    const { issues, text } = issuesOf(minimalConfig({ protection: { preventDestroy: "no" } }));
    expect(issues.map((i) => i.path)).toEqual(["protection.preventDestroy"]);
    expect(text).toMatch(/protection\.preventDestroy/);
  });

  it("rejects an unknown key under protection", () => {
    expect(issuesOf(minimalConfig({ protection: { persistentResources: false } })).text).toMatch(/protection/);
  });

  it("deleteResourceGroupsWithContents defaults to false and must be a boolean", () => {
    const cluster = { name: "hc1", hostedCluster: hostedClusterSpec() };
    const management = { operator: { bundleFile: "operator/hypershift-operator.yaml" } };
    expect(
      loadInline(minimalConfig({ clusters: [cluster], managementCluster: management })).config.clusters[0].hostedCluster?.deleteResourceGroupsWithContents,
    ).toBe(false);
    const bad = { name: "hc1", hostedCluster: { ...hostedClusterSpec(), deleteResourceGroupsWithContents: "yes" } };
    const { issues } = issuesOf(minimalConfig({ clusters: [bad], managementCluster: management }));
    expect(issues.map((i) => i.path)).toEqual(["clusters[0].hostedCluster.deleteResourceGroupsWithContents"]);
  });
});
