import { Testing } from "cdktf";
import * as fs from "node:fs";
import * as path from "node:path";
import { renderWorkloadIdentitiesJson, WorkloadIdentities, WorkloadIdentitySpec } from "../../constructs/workload-identities/workload-identities";
import { managedIdentitiesOf } from "../../config/names";
import { parse } from "yaml";
import { EXAMPLES, loadExample, loadInline, minimalConfig, resources, synthStacks } from "../helpers";

/**
 * Seed 004's Phase 1 steps 1 and 4 (the identities and their federated credentials), from the
 * committed fixture of the seed's commands, with shell variables substituted, parsed into what they create.
 */
function seedCommands(clusterName: string, issuer: string) {
  const fixture = fs.readFileSync(path.join(__dirname, "..", "fixtures", "seed-004-commands.sh"), "utf8");
  const steps = fixture.split(/^# ---- /m).filter((block) => /^Phase 1 step [14]:/.test(block));
  expect(steps).toHaveLength(2);
  const script = steps.join("\n");
  const vars: Record<string, string> = { CLUSTER_NAME: clusterName, OIDC_ISSUER_URL: issuer, PERSISTENT_RG_NAME: "os4-common" };
  const expand = (text: string) => text.replace(/\$\{(\w+)\}/g, (_, v: string) => vars[v] ?? `<unset ${v}>`);
  for (const [, name, value] of script.matchAll(/^(\w+_MI_NAME)="(.+)"$/gm)) vars[name] = expand(value);
  const identities = [...script.matchAll(/^\s+\["([a-z-]+)"\]="[a-z-]+"$/gm)].map((m) => `${clusterName}-${m[1]}`);
  const credentials = script
    .split("az identity federated-credential create")
    .slice(1)
    .map((command) => {
      const flag = (name: string) => expand(command.match(new RegExp(`--${name} "?([^"\\s]+)"?`))?.[1] ?? "");
      return { name: flag("name"), identity: flag("identity-name"), issuer: flag("issuer"), subject: flag("subject"), audience: flag("audience") };
    });
  return { identities, credentials };
}

/** examples/basic.yaml with the control-plane-operator identity opted out: exactly seed 004's set (the default adds it, as create iam azure). */
function seedEquivalent() {
  const config = parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8"));
  config.clusters[0].identities = { controlPlaneOperator: false };
  return loadInline(config);
}

describe("WorkloadIdentities", () => {
  const loaded = seedEquivalent();
  const cluster = loaded.names.clusters[0];
  const stack = synthStacks(loaded)[cluster.identitiesStack];
  const identityResources = resources(stack, "azurerm_user_assigned_identity");
  const credentialResources = resources(stack, "azurerm_federated_identity_credential");
  const identityKeyByName = Object.fromEntries(Object.entries(stack.resource.azurerm_user_assigned_identity).map(([key, r]: [string, any]) => [r.name, key]));

  it("creates exactly seed 004's seven identities, in the persistent resource group", () => {
    const seed = seedCommands(cluster.name, cluster.issuer.url);
    expect(seed.identities).toHaveLength(7);
    expect(identityResources.map((r) => r.name).sort()).toEqual([...seed.identities].sort());
    for (const r of identityResources) expect(r).toMatchObject({ resource_group_name: "os4-common", location: "eastus" });
  });

  it("creates exactly seed 004's twelve credentials: names, identities, subjects, audience openshift, issuer", () => {
    const seed = seedCommands(cluster.name, cluster.issuer.url);
    expect(seed.credentials).toHaveLength(12);
    const ours = credentialResources.map((r) => {
      const identityName = Object.keys(identityKeyByName).find((n) => r.parent_id === `\${azurerm_user_assigned_identity.${identityKeyByName[n]}.id}`);
      return { name: r.name, identity: identityName, issuer: r.issuer, subject: r.subject, audience: r.audience.join(",") };
    });
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(ours.sort(byName)).toEqual(seed.credentials.sort(byName));
  });

  it("credentials use the issuer URL as a string known at synth, not a reference to the storage account", () => {
    for (const r of credentialResources) {
      expect(r.issuer).toBe(cluster.issuer.url);
      expect(r.depends_on ?? []).not.toContainEqual(expect.stringContaining("storage"));
    }
  });

  it("chains each identity's credentials with depends_on, and only within the identity", () => {
    const byKey = stack.resource.azurerm_federated_identity_credential;
    const chains = new Map<string, string[]>();
    for (const [key, r] of Object.entries(byKey) as Array<[string, any]>) {
      chains.set(r.parent_id, [...(chains.get(r.parent_id) ?? []), key]);
    }
    for (const keys of chains.values()) {
      const roots = keys.filter((k) => !byKey[k].depends_on);
      expect(roots).toHaveLength(1); // exactly one credential starts each chain
      let current = roots[0];
      const visited = [current];
      for (;;) {
        const next = keys.find((k) => byKey[k].depends_on?.includes(`azurerm_federated_identity_credential.${current}`));
        if (!next) break;
        expect(byKey[next].depends_on).toHaveLength(1);
        visited.push((current = next));
      }
      expect(visited.sort()).toEqual([...keys].sort()); // one chain covers every credential
    }
  });

  it("outputs workload-identities.json with seed 004's keys, order and layout", () => {
    const json: string = stack.output.workload_identities_json.value;
    const keys = [...json.matchAll(/^ {2}"(\w+)": \{$/gm)].map((m) => m[1]);
    expect(keys).toEqual(["imageRegistry", "ingress", "file", "disk", "nodePoolManagement", "cloudProvider", "network"]);
    const resolved = json.replace(/\$\{azurerm_user_assigned_identity\.(\w+)\.client_id\}/g, "00000000-0000-0000-0000-00000000000a");
    expect(Object.values(JSON.parse(resolved))).toEqual(Array(7).fill({ clientID: "00000000-0000-0000-0000-00000000000a" }));
  });

  it("examples/basic.yaml as written adds the control-plane-operator identity to seed 004's seven (the default, as create iam azure)", () => {
    const example = loadExample("basic.yaml");
    const names = resources(synthStacks(example)[example.names.clusters[0].identitiesStack], "azurerm_user_assigned_identity").map((r) => r.name);
    expect(names.sort()).toEqual([...identityResources.map((r) => r.name), "myprefix-hc-control-plane-operator"].sort());
  });

  it("opt-in control-plane-operator and KMS identities get HyperShift's subjects; KMS is kmsClientID", () => {
    const isolated = loadExample("isolated-clusters.yaml");
    const teamB = isolated.names.clusters.find((c) => c.name === "team-b")!;
    const stackB = synthStacks(isolated)[teamB.identitiesStack];
    const subjects = resources(stackB, "azurerm_federated_identity_credential").map((r) => [r.name, r.subject]);
    expect(subjects).toContainEqual(["team-b-control-plane-operator-fed-id", "system:serviceaccount:kube-system:control-plane-operator"]);
    expect(subjects).toContainEqual(["team-b-kms-fed-id", "system:serviceaccount:kube-system:kms-provider"]);
    expect(subjects).toHaveLength(14);
    const json: string = stackB.output.workload_identities_json.value;
    expect(json).toMatch(/"controlPlaneOperator": \{\n {4}"clientID": /);
    expect(json).toMatch(/\n {2}"kmsClientID": "\$\{azurerm_user_assigned_identity\.\w+\.client_id\}"\n\}\n$/);
  });

  it("identity name prefix is overridable", () => {
    const custom = loadInline(minimalConfig({ clusters: [{ name: "hc1", identities: { namePrefix: "shared-hc1" } }] }));
    expect(managedIdentitiesOf(custom.names.clusters[0].identities).map((i) => i.name)).toContain("shared-hc1-disk-csi");
    expect(managedIdentitiesOf(custom.names.clusters[0].identities)[3].credentials[0].name).toBe("shared-hc1-disk-csi-fed-id-node");
  });

  it("rejects more than 20 credentials on one identity and invalid names", () => {
    const many: WorkloadIdentitySpec = {
      key: "disk",
      name: "hc-disk-csi",
      credentials: Array.from({ length: 21 }, (_, i) => ({ name: `hc-disk-csi-fed-id-${i}`, subject: `system:serviceaccount:ns:sa-${i}` })),
    };
    const build = (spec: WorkloadIdentitySpec) => () =>
      Testing.synthScope((scope) => {
        new WorkloadIdentities(scope, "W", { resourceGroupName: "rg", location: "eastus", issuerUrl: "https://a.blob.core.windows.net/c", identities: [spec] });
      });
    expect(build(many)).toThrow(/21 federated credentials; Azure allows at most 20/);
    expect(build({ ...many, name: "x", credentials: [] })).toThrow(/identity name "x" must be 3-128/);
    expect(build({ ...many, credentials: [{ name: "-bad", subject: "s" }] })).toThrow(/credential name "-bad" must match/);
  });

  it("renders the JSON from any client IDs", () => {
    expect(renderWorkloadIdentitiesJson(new Map([["ingress", "id-1"]]))).toBe('{\n  "ingress": {\n    "clientID": "id-1"\n  }\n}\n');
  });
});

describe("WorkloadIdentities: protection (prevent_destroy)", () => {
  const cluster = loadExample("basic.yaml").names.clusters[0];
  const synth = (preventDestroy?: boolean) =>
    JSON.parse(
      Testing.synthScope((scope) => {
        new WorkloadIdentities(scope, "Identities", {
          resourceGroupName: "rg",
          location: "eastus",
          issuerUrl: cluster.issuer.url,
          identities: managedIdentitiesOf(cluster.identities),
          preventDestroy,
        });
      }),
    );

  it("protects every identity and every federated credential by default", () => {
    const parsed = synth();
    const all = [...resources(parsed, "azurerm_user_assigned_identity"), ...resources(parsed, "azurerm_federated_identity_credential")];
    expect(all.length).toBeGreaterThan(7);
    for (const resource of all) expect(resource.lifecycle).toEqual({ prevent_destroy: true });
  });

  it("preventDestroy: false leaves no lifecycle", () => {
    const parsed = synth(false);
    for (const resource of [...resources(parsed, "azurerm_user_assigned_identity"), ...resources(parsed, "azurerm_federated_identity_credential")]) {
      expect(resource.lifecycle).toBeUndefined();
    }
  });
});
