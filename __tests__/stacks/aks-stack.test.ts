import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { AKS_ENTRA_SERVER_ID } from "../../stacks/stack-setup";
import { EXAMPLES, loadInline, only, resources, synthStacks } from "../helpers";

/** The AKS hardening options from the config to the aks stack, and how the later stacks then sign in. */

type RawConfig = Record<string, any>;
const TENANT = "11111111-1111-1111-1111-111111111111";

function synthAroHcp(aks: RawConfig = {}): Record<string, any> {
  const config: RawConfig = parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));
  config.managementCluster.aks = { ...config.managementCluster.aks, ...aks };
  return synthStacks(loadInline(config));
}

describe("aks stack: hardening from the config", () => {
  it("by default: local accounts, no authorized ranges, no Entra block, protected cluster", () => {
    const cluster = only(synthAroHcp().aks.resource.azurerm_kubernetes_cluster);
    expect(cluster).toMatchObject({ local_account_disabled: false, lifecycle: { prevent_destroy: true } });
    expect(cluster.api_server_access_profile).toBeUndefined();
    expect(cluster.azure_active_directory_role_based_access_control).toBeUndefined();
  });

  it("apiServerAuthorizedIpRanges and entraIdRbac reach the cluster", () => {
    const aks = synthAroHcp({ apiServerAuthorizedIpRanges: ["203.0.113.0/24"], entraIdRbac: { enabled: true } }).aks;
    const cluster = only(aks.resource.azurerm_kubernetes_cluster);
    expect(cluster).toMatchObject({
      local_account_disabled: true,
      api_server_access_profile: { authorized_ip_ranges: ["203.0.113.0/24"] },
      azure_active_directory_role_based_access_control: { azure_rbac_enabled: true, tenant_id: TENANT },
    });
    expect(resources(aks, "azurerm_role_assignment").map((r) => r.role_definition_id)).toContainEqual(
      expect.stringMatching(/b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b$/),
    );
  });
});

describe.each(["management", "cluster-myprefix-hc"])("%s stack: Kubernetes provider", (stackName) => {
  it("with entraIdRbac signs in through kubelogin: no client certificate, no client-certificate postcondition", () => {
    const stack = synthAroHcp({ entraIdRbac: { enabled: true, kubeloginMode: "workloadidentity" } })[stackName];
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

  it("without it keeps the client certificate and the postcondition that names entraIdRbac", () => {
    const stack = synthAroHcp()[stackName];
    expect(stack.provider.kubernetes[0].client_key).toMatch(/client_key/);
    expect(stack.provider.kubernetes[0].exec).toBeUndefined();
    expect(only(stack.data.azurerm_kubernetes_cluster).lifecycle.postcondition[0].error_message).toMatch(/managementCluster\.aks\.entraIdRbac\.enabled/);
  });
});
