import { Testing } from "cdktf";
import { addStacks } from "../../stacks/app";
import { loadExample, loadInline, minimalConfig, resources, synthStacks } from "../helpers";

const EXAMPLES = ["basic.yaml", "isolated-clusters.yaml", "external-dns.yaml", "adopt.yaml"];

describe.each(EXAMPLES)("stacks of examples/%s", (example) => {
  const loaded = loadExample(example);
  const stacks = synthStacks(loaded);

  it("has a shared stack, identities per cluster, the management stack when configured, and infra + cluster stacks per hosted cluster", () => {
    const expected = [
      "shared",
      ...loaded.names.clusters.map((c) => `identities-${c.name}`),
      ...(loaded.config.managementCluster ? ["management"] : []),
      ...loaded.config.clusters.flatMap((c) => (c.hostedCluster ? [`infra-${c.name}`, `cluster-${c.name}`] : [])),
    ];
    expect(Object.keys(stacks).sort()).toEqual(expected.sort());
  });

  it.each(Object.keys(stacks))("snapshot of stack %s", (name) => {
    expect(stacks[name]).toMatchSnapshot();
  });

  it("reads remote state only for the ExternalDNS credentials (management from shared), never cdktf cross-stack references", () => {
    for (const [name, stack] of Object.entries(stacks)) {
      const remote = Object.keys(stack.data?.terraform_remote_state ?? {});
      expect(remote).toEqual(name === "management" && loaded.config.externalDns ? ["shared-state"] : []);
      expect(JSON.stringify(stack)).not.toMatch(/cross-stack/);
    }
  });

  it("configures the Azure provider from config and the environment only (no credentials)", () => {
    for (const stack of Object.values(stacks).filter((s) => s.provider.azurerm)) {
      const [provider] = stack.provider.azurerm;
      expect(provider).toEqual({
        // No example opts in to deleting non-empty groups (clusters[].hostedCluster.deleteResourceGroupsWithContents).
        features: [{}],
        storage_use_azuread: true,
        subscription_id: loaded.config.subscriptionId,
        tenant_id: loaded.config.tenantId,
      });
    }
  });
});

describe("stack order (deploy follows it; destroy reverses it)", () => {
  it("each hosted cluster: identities → infra → cluster, and cluster after management; no cluster depends on another", () => {
    const app = Testing.app();
    const stacks = addStacks(app, loadExample("external-dns.yaml"), "/tmp/cdktf.out");
    const deps = Object.fromEntries(stacks.map((s) => [s.node.id, s.dependencies.map((d) => d.node.id).sort()]));
    expect(deps).toEqual({
      shared: [],
      management: ["shared"],
      // An adopted group and the shared issuer: the identities need nothing of the shared stack.
      "identities-myprefix-hc": [],
      "identities-myprefix-dev": [],
      "infra-myprefix-hc": ["identities-myprefix-hc", "shared"],
      "infra-myprefix-dev": ["identities-myprefix-dev", "shared"],
      "cluster-myprefix-hc": ["infra-myprefix-hc", "management"],
      "cluster-myprefix-dev": ["infra-myprefix-dev", "management"],
    });
  });

  it("identities wait for the shared stack only when it creates their group or their issuer container needs it", () => {
    const deps = (overrides: Record<string, unknown>) => {
      const stacks = addStacks(Testing.app(), loadInline(minimalConfig(overrides)), "/tmp/cdktf.out");
      return Object.fromEntries(stacks.map((s) => [s.node.id, s.dependencies.map((d) => d.node.id)]));
    };
    expect(deps({ resourceGroup: { name: "os4-common", create: false } })["identities-hc1"]).toEqual([]);
    expect(deps({})["identities-hc1"]).toEqual(["shared"]); // the shared stack creates the group
    const perCluster = deps({
      resourceGroup: { name: "os4-common", create: false },
      oidc: { issuer: "perCluster" },
      serviceAccountSigningKey: undefined,
      clusters: [{ name: "hc1", serviceAccountSigningKey: { publicKeyFile: "keys/cluster-a-signer.public" } }],
    });
    expect(perCluster["identities-hc1"]).toEqual(["shared"]); // the blob role on the shared account
  });
});

describe("shared stack", () => {
  it("adopts an existing resource group through a data source, never a managed resource", () => {
    const shared = synthStacks(loadExample("basic.yaml")).shared;
    expect(resources(shared, "azurerm_resource_group")).toHaveLength(0);
    expect(Object.values(shared.data.azurerm_resource_group)).toMatchObject([{ name: "os4-common" }]);
  });

  it("creates the resource group with prevent_destroy when asked to", () => {
    const shared = synthStacks(loadExample("isolated-clusters.yaml")).shared;
    expect(resources(shared, "azurerm_resource_group")).toMatchObject([
      { name: "acme-hcp-hcp-persistent", location: "westeurope", lifecycle: { prevent_destroy: true } },
    ]);
  });

  it("holds the shared issuer; with per-cluster issuers only the storage account", () => {
    const basic = synthStacks(loadExample("basic.yaml"));
    expect(resources(basic.shared, "azurerm_storage_container")).toHaveLength(1);
    expect(basic.shared.output.oidc_issuer_url.value).toBe(basic["identities-myprefix-hc"].output.oidc_issuer_url.value);
    const isolated = synthStacks(loadExample("isolated-clusters.yaml"));
    expect(resources(isolated.shared, "azurerm_storage_container")).toHaveLength(0);
    expect(resources(isolated.shared, "azurerm_storage_account")).toHaveLength(1);
  });
});

describe("identities stacks with per-cluster issuers", () => {
  const loaded = loadExample("isolated-clusters.yaml");
  const stacks = synthStacks(loaded);

  it("each cluster has its own container, JWKS and issuer, and its credentials trust only that issuer", () => {
    const jwks = new Set<string>();
    for (const cluster of loaded.names.clusters) {
      const stack = stacks[cluster.identitiesStack];
      expect(resources(stack, "azurerm_storage_container")).toMatchObject([{ name: cluster.name, container_access_type: "blob" }]);
      const blobs = resources(stack, "azurerm_storage_blob");
      const discovery = JSON.parse(blobs.find((b) => b.name === ".well-known/openid-configuration").source_content);
      expect(discovery.issuer).toBe(`https://${loaded.names.storageAccount.name}.blob.core.windows.net/${cluster.name}`);
      jwks.add(blobs.find((b) => b.name === "openid/v1/jwks").source_content);
      for (const credential of resources(stack, "azurerm_federated_identity_credential")) expect(credential.issuer).toBe(discovery.issuer);
    }
    expect(jwks.size).toBe(loaded.names.clusters.length);
  });

  it("finds the shared storage account by its derived ARM ID, and deploys after the shared stack", () => {
    const cluster = loaded.names.clusters[0];
    const [container] = resources(stacks[cluster.identitiesStack], "azurerm_storage_container");
    expect(container.storage_account_id).toBe(
      `/subscriptions/${loaded.config.subscriptionId}/resourceGroups/acme-hcp-hcp-persistent/providers/Microsoft.Storage/storageAccounts/${loaded.names.storageAccount.name}`,
    );
    const app = Testing.app();
    const [shared, ...clusterStacks] = addStacks(app, loaded, "/out");
    expect(shared.node.id).toBe("shared");
    for (const stack of clusterStacks) expect(stack.dependencies).toEqual([shared]);
  });
});

describe("backends", () => {
  const input = (backend?: unknown) => minimalConfig(backend ? { backend } : {});

  it("local (default): one state file per stack beside the config, as a relative path", () => {
    const stacks = synthStacks(loadInline(input()));
    expect(stacks.shared.terraform.backend).toEqual({
      local: { path: "../../../examples/terraform-state/00000000-0000-0000-0000-000000000000/demo/shared.tfstate" },
    });
    expect(stacks["identities-hc1"].terraform.backend.local.path).toBe(
      "../../../examples/terraform-state/00000000-0000-0000-0000-000000000000/demo/identities-hc1.tfstate",
    );
  });

  it("azurerm: one key per stack under the prefix, Entra ID auth", () => {
    const stacks = synthStacks(loadInline(input({ type: "azurerm", resourceGroupName: "tf", storageAccountName: "tfstate1", containerName: "state" })));
    expect(stacks["identities-hc1"].terraform.backend.azurerm).toMatchObject({
      key: "hcp-azure/demo/identities-hc1.tfstate",
      container_name: "state",
      storage_account_name: "tfstate1",
      resource_group_name: "tf",
      use_azuread_auth: true,
    });
  });

  it("cloud: one named workspace per stack", () => {
    const stacks = synthStacks(loadInline(input({ type: "cloud", organization: "acme", workspacePrefix: "hcp-" })));
    expect(stacks.shared.terraform.cloud).toEqual({ hostname: "app.terraform.io", organization: "acme", workspaces: { name: "hcp-shared" } });
    expect(stacks["identities-hc1"].terraform.cloud.workspaces).toEqual({ name: "hcp-identities-hc1" });
  });
});
