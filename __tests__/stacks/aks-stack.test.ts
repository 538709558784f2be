import { TerraformStack, Testing } from "cdktf";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { addStacks } from "../../stacks/app";
import { AKS_ENTRA_SERVER_ID } from "../../stacks/stack-setup";
import { EXAMPLES, loadInline, only, REPO, resources } from "../helpers";

/** The AKS hardening options from the config to the aks stack, and how the later stacks then sign in. */

type RawConfig = Record<string, any>;
const TENANT = "11111111-1111-1111-1111-111111111111";

const apps = new Map<string, { stacks: Map<string, TerraformStack>; synthesized: Map<string, string> }>();
/**
 * The stack `name` of examples/aro-hcp.yaml with `aks` over its managementCluster.aks. The whole
 * app is built once per `aks` (as synthStacks does), but only the stacks the tests read are
 * synthesized, each once (the tests only read it).
 */
function aroHcpStack(name: string, aks: RawConfig = {}): Record<string, any> {
  const key = JSON.stringify(aks, (_key, value) => (value === undefined ? "(undefined)" : value));
  let app = apps.get(key);
  if (!app) {
    const config: RawConfig = parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));
    config.managementCluster.aks = { ...config.managementCluster.aks, ...aks };
    // A repo-relative outdir, as synthStacks (helpers.ts).
    const stacks = addStacks(Testing.app(), loadInline(config), path.join(REPO, "cdktf.out"));
    app = { stacks: new Map(stacks.map((stack) => [stack.node.id, stack])), synthesized: new Map() };
    apps.set(key, app);
  }
  if (!app.synthesized.has(name)) app.synthesized.set(name, Testing.synth(app.stacks.get(name)!));
  return JSON.parse(app.synthesized.get(name)!);
}

/** The aks stack of examples/aro-hcp.yaml with `aks` over its managementCluster.aks. */
const synthAroHcp = (aks: RawConfig = {}) => ({ aks: aroHcpStack("aks", aks) });

describe("aks stack: hardening from the config", () => {
  it("by default: Entra ID with Azure RBAC, local accounts disabled, the deployer's cluster-admin role, protected cluster", () => {
    const aks = synthAroHcp().aks;
    const cluster = only(aks.resource.azurerm_kubernetes_cluster);
    expect(cluster).toMatchObject({
      local_account_disabled: true,
      azure_active_directory_role_based_access_control: { azure_rbac_enabled: true, tenant_id: TENANT },
      lifecycle: { prevent_destroy: true },
    });
    expect(resources(aks, "azurerm_role_assignment").map((r) => r.role_definition_id)).toContainEqual(
      expect.stringMatching(/b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b$/),
    );
  });

  it("apiServerAuthorizedIpRanges reach the cluster; none: no access profile", () => {
    const cluster = only(synthAroHcp({ apiServerAuthorizedIpRanges: ["198.51.100.0/24"] }).aks.resource.azurerm_kubernetes_cluster);
    expect(cluster.api_server_access_profile).toEqual({ authorized_ip_ranges: ["198.51.100.0/24"] });
    const open = only(synthAroHcp({ apiServerAuthorizedIpRanges: undefined }).aks.resource.azurerm_kubernetes_cluster);
    expect(open.api_server_access_profile).toBeUndefined();
  });

  it("entraIdRbac.enabled: false re-enables local accounts: no Entra block, no cluster-admin grant", () => {
    const aks = synthAroHcp({ entraIdRbac: { enabled: false } }).aks;
    const cluster = only(aks.resource.azurerm_kubernetes_cluster);
    expect(cluster.local_account_disabled).toBe(false);
    expect(cluster.azure_active_directory_role_based_access_control).toBeUndefined();
    expect(resources(aks, "azurerm_role_assignment").map((r) => r.role_definition_id)).not.toContainEqual(
      expect.stringMatching(/b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b$/),
    );
  });

  it("an existing cluster: the plan checks its Entra ID integration unless local accounts are asked for", () => {
    const existing = {
      existing: true,
      name: "mgmt",
      resourceGroupName: "mgmt-rg",
      systemPool: undefined,
      userPool: undefined,
      secretRotationInterval: undefined,
      apiServerAuthorizedIpRanges: undefined,
    };
    const conditions = (aks: RawConfig) =>
      only(synthAroHcp({ ...existing, ...aks }).aks.data.azurerm_kubernetes_cluster).lifecycle.postcondition.map((p: any) => p.condition);
    expect(conditions({})).toContainEqual("${length(self.azure_active_directory_role_based_access_control) > 0}");
    expect(conditions({ entraIdRbac: { enabled: false } })).not.toContainEqual(expect.stringContaining("azure_active_directory"));
  });

  it("the add-on identity reads each control-plane secret, never the whole vault", () => {
    const scopes = resources(synthAroHcp().aks, "azurerm_role_assignment")
      .filter((r) => r.role_definition_id.endsWith("4633458b-17de-408a-b874-0445c86b69e6"))
      .map((r) => r.scope);
    const vault = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/os4-common/providers/Microsoft.KeyVault/vaults/myprefix-hcp-kv";
    expect(scopes.sort()).toEqual(
      ["cloud-provider", "cpo", "disk", "file", "image-registry", "ingress", "network", "nodepool-mgmt"].map((c) => `${vault}/secrets/myprefix-hc-${c}`),
    );
  });
});

describe.each(["management", "cluster-myprefix-hc"])("%s stack: Kubernetes provider", (stackName) => {
  it("by default (entraIdRbac) signs in through kubelogin: no client certificate, no client-certificate postcondition", () => {
    const stack = aroHcpStack(stackName, { entraIdRbac: { kubeloginMode: "workloadidentity" } });
    const id = Object.keys(stack.data.azurerm_kubernetes_cluster)[0];
    const kube = `data.azurerm_kubernetes_cluster.${id}.kube_config[0]`;
    expect(stack.provider.kubernetes).toEqual([
      {
        host: `\${${kube}.host}`,
        cluster_ca_certificate: `\${base64decode(${kube}.cluster_ca_certificate)}`,
        exec: [
          {
            api_version: "client.authentication.k8s.io/v1beta1",
            command: "kubelogin",
            args: ["get-token", "--login", "workloadidentity", "--server-id", AKS_ENTRA_SERVER_ID, "--tenant-id", TENANT],
          },
        ],
      },
    ]);
    expect(only(stack.data.azurerm_kubernetes_cluster).lifecycle).toBeUndefined();
  });

  it("with local accounts (entraIdRbac.enabled: false) keeps the client certificate and the postcondition that names entraIdRbac", () => {
    const stack = aroHcpStack(stackName, { entraIdRbac: { enabled: false } });
    expect(stack.provider.kubernetes[0].client_key).toMatch(/client_key/);
    expect(stack.provider.kubernetes[0].exec).toBeUndefined();
    expect(only(stack.data.azurerm_kubernetes_cluster).lifecycle.postcondition[0].error_message).toMatch(/managementCluster\.aks\.entraIdRbac\.enabled/);
  });
});
