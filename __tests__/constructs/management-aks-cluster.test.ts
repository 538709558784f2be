import { TerraformOutput, Testing } from "cdktf";
import { IManagementAksCluster, ManagementAksCluster, ManagementAksClusterProps } from "../../constructs/aks/management-aks-cluster";
import { only, resources } from "../helpers";

const SUB = "00000000-0000-0000-0000-000000000000";
const RG = `/subscriptions/${SUB}/resourceGroups/mgmt-rg`;
const AKS_ID = `${RG}/providers/Microsoft.ContainerService/managedClusters/mgmt-aks`;
const VAULT_A = `/subscriptions/${SUB}/resourceGroups/persistent-rg/providers/Microsoft.KeyVault/vaults/hcp-identities`;
const VAULT_B = `/subscriptions/${SUB}/resourceGroups/other-rg/providers/Microsoft.KeyVault/vaults/hcp-extra`;
const SECRET_A1 = `${VAULT_A}/secrets/hc1-cpo`;
const SECRET_A2 = `${VAULT_A}/secrets/hc1-disk`;
const SECRET_B = `${VAULT_B}/secrets/hc1-cpo`;
const ROLE = (guid: string) => `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
// Built-in role GUIDs, written out here (not imported) so a wrong constant fails the test.
const KEY_VAULT_SECRETS_USER = "4633458b-17de-408a-b874-0445c86b69e6";
const MANAGED_IDENTITY_OPERATOR = "f1a07417-d97a-45cb-824c-7a7467783830";

const BASE: ManagementAksClusterProps = {
  name: "mgmt-aks",
  resourceGroupName: "mgmt-rg",
  location: "eastus",
  subscriptionId: SUB,
  systemPool: { vmSize: "Standard_D4s_v5", minCount: 2, maxCount: 3 },
  userPool: { name: "hcp", vmSize: "Standard_D8s_v5", minCount: 1, maxCount: 10, osDiskSizeGb: 128, zones: ["1", "2", "3"] },
  identityNames: { cluster: "mgmt-aks-cluster", kubelet: "mgmt-aks-kubelet" },
  keyVaultSecretIds: [SECRET_A1, SECRET_A2, SECRET_B],
};

/** ManagementAksCluster.fromExisting with BASE's name, group, subscription and secrets. */
function synthExisting() {
  let aks!: IManagementAksCluster;
  const parsed = JSON.parse(
    Testing.synthScope((scope) => {
      aks = ManagementAksCluster.fromExisting(scope, "Aks", BASE);
    }),
  );
  return { aks, parsed };
}

function synthAks(props: Partial<ManagementAksClusterProps> = {}) {
  let aks!: ManagementAksCluster;
  const parsed = JSON.parse(
    Testing.synthScope((scope) => {
      aks = new ManagementAksCluster(scope, "Aks", { ...BASE, ...props });
    }),
  );
  return { aks, parsed };
}

const cluster = (parsed: any) => only(parsed.resource.azurerm_kubernetes_cluster);
const key = (parsed: any, type: string, name: string) => Object.entries(parsed.resource[type]).find(([, r]: [string, any]) => r.name === name)![0];
const kvGrants = (parsed: any) => resources(parsed, "azurerm_role_assignment").filter((r) => r.role_definition_id === ROLE(KEY_VAULT_SECRETS_USER));

describe("ManagementAksCluster", () => {
  it("enables the OIDC issuer and workload identity", () => {
    expect(cluster(synthAks().parsed)).toMatchObject({ oidc_issuer_enabled: true, workload_identity_enabled: true });
  });

  it("enables the Key Vault Secrets Provider with rotation, every 2m by default or the given interval", () => {
    expect(cluster(synthAks().parsed).key_vault_secrets_provider).toEqual({ secret_rotation_enabled: true, secret_rotation_interval: "2m" });
    expect(cluster(synthAks({ secretRotationInterval: "1h30m" }).parsed).key_vault_secrets_provider.secret_rotation_interval).toBe("1h30m");
  });

  it("system pool: autoscaled, critical add-ons only, AzureLinux, 250 pods, rotation name and explicit max surge", () => {
    expect(cluster(synthAks().parsed).default_node_pool).toEqual({
      name: "system",
      vm_size: "Standard_D4s_v5",
      auto_scaling_enabled: true,
      min_count: 2,
      max_count: 3,
      only_critical_addons_enabled: true,
      os_sku: "AzureLinux",
      max_pods: 250,
      temporary_name_for_rotation: "systemtmp",
      upgrade_settings: { max_surge: "10%" },
    });
  });

  it("user pool: a separate autoscaled User-mode pool on the cluster", () => {
    const { parsed } = synthAks();
    expect(only(parsed.resource.azurerm_kubernetes_cluster_node_pool)).toEqual({
      name: "hcp",
      kubernetes_cluster_id: `\${azurerm_kubernetes_cluster.${Object.keys(parsed.resource.azurerm_kubernetes_cluster)[0]}.id}`,
      mode: "User",
      vm_size: "Standard_D8s_v5",
      auto_scaling_enabled: true,
      min_count: 1,
      max_count: 10,
      os_disk_size_gb: 128,
      zones: ["1", "2", "3"],
      os_sku: "AzureLinux",
      max_pods: 250,
      temporary_name_for_rotation: "usertmp",
      upgrade_settings: { max_surge: "10%" },
      tags: {},
      lifecycle: { create_before_destroy: true },
    });
  });

  it("network, SKU tier, DNS prefix and local accounts as the HyperShift script sets them", () => {
    expect(cluster(synthAks().parsed)).toMatchObject({
      network_profile: { network_plugin: "azure", network_policy: "azure", load_balancer_sku: "standard" },
      sku_tier: "Standard",
      dns_prefix: "mgmt-aks",
      local_account_disabled: false,
    });
    expect(cluster(synthAks({ skuTier: "Premium", dnsPrefix: "mgmt" }).parsed)).toMatchObject({ sku_tier: "Premium", dns_prefix: "mgmt" });
  });

  it("kubernetesVersion pins the control plane and both pools", () => {
    const { parsed } = synthAks({ kubernetesVersion: "1.33" });
    expect(cluster(parsed).kubernetes_version).toBe("1.33");
    expect(cluster(parsed).default_node_pool.orchestrator_version).toBe("1.33");
    expect(only(parsed.resource.azurerm_kubernetes_cluster_node_pool).orchestrator_version).toBe("1.33");
    expect(cluster(synthAks().parsed).kubernetes_version).toBeUndefined();
  });

  it("wires the user-assigned cluster identity and the kubelet identity", () => {
    const { parsed } = synthAks();
    const clusterId = key(parsed, "azurerm_user_assigned_identity", "mgmt-aks-cluster");
    const kubeletId = key(parsed, "azurerm_user_assigned_identity", "mgmt-aks-kubelet");
    expect(resources(parsed, "azurerm_user_assigned_identity")).toHaveLength(2);
    expect(cluster(parsed)).toMatchObject({
      identity: { type: "UserAssigned", identity_ids: [`\${azurerm_user_assigned_identity.${clusterId}.id}`] },
      kubelet_identity: {
        client_id: `\${azurerm_user_assigned_identity.${kubeletId}.client_id}`,
        object_id: `\${azurerm_user_assigned_identity.${kubeletId}.principal_id}`,
        user_assigned_identity_id: `\${azurerm_user_assigned_identity.${kubeletId}.id}`,
      },
    });
  });

  it("grants the cluster identity Managed Identity Operator on the kubelet identity, before the cluster", () => {
    const { parsed } = synthAks();
    const clusterId = key(parsed, "azurerm_user_assigned_identity", "mgmt-aks-cluster");
    const kubeletId = key(parsed, "azurerm_user_assigned_identity", "mgmt-aks-kubelet");
    const [grantKey, grant] = Object.entries(parsed.resource.azurerm_role_assignment).find(
      ([, r]: [string, any]) => r.role_definition_id === ROLE(MANAGED_IDENTITY_OPERATOR),
    ) as [string, any];
    expect(grant).toMatchObject({
      scope: `\${azurerm_user_assigned_identity.${kubeletId}.id}`,
      principal_id: `\${azurerm_user_assigned_identity.${clusterId}.principal_id}`,
      principal_type: "ServicePrincipal",
    });
    // Deterministic: built only from strings known at synth.
    expect(grant.name).toMatch(/^\$\{uuidv5\("url", "[^$]*"\)\}$/);
    expect(cluster(parsed).depends_on).toContain(`azurerm_role_assignment.${grantKey}`);
  });

  it("grants Key Vault Secrets User on each secret ID exactly, never a vault or a resource group, to the add-on identity", () => {
    const { parsed } = synthAks();
    const clusterKey = Object.keys(parsed.resource.azurerm_kubernetes_cluster)[0];
    const grants = kvGrants(parsed);
    expect(grants.map((g) => g.scope).sort()).toEqual([SECRET_A1, SECRET_A2, SECRET_B].sort());
    for (const grant of grants) {
      expect(grant).toMatchObject({
        principal_id: `\${azurerm_kubernetes_cluster.${clusterKey}.key_vault_secrets_provider[0].secret_identity[0].object_id}`,
        principal_type: "ServicePrincipal",
        name: `\${uuidv5("url", "${grant.scope}/${KEY_VAULT_SECRETS_USER}/${AKS_ID}")}`,
      });
    }
  });

  it("fromExisting: creates nothing, reads the cluster, and still grants the secrets to its add-on identity", () => {
    const { aks, parsed } = synthExisting();
    expect(Object.keys(parsed.resource)).toEqual(["azurerm_role_assignment"]);
    const lookupKey = Object.keys(parsed.data.azurerm_kubernetes_cluster)[0];
    expect(parsed.data.azurerm_kubernetes_cluster[lookupKey]).toMatchObject({ name: "mgmt-aks", resource_group_name: "mgmt-rg" });
    // A cluster without the add-on, the issuer or (Terraform signs in through kubelogin by default)
    // Entra ID integration fails the plan with a message that names them.
    expect(parsed.data.azurerm_kubernetes_cluster[lookupKey].lifecycle.postcondition).toEqual([
      {
        condition: "${length(self.key_vault_secrets_provider) > 0 && self.oidc_issuer_enabled}",
        error_message: expect.stringContaining("needs the azure-keyvault-secrets-provider add-on and the OIDC issuer"),
      },
      {
        condition: "${length(self.azure_active_directory_role_based_access_control) > 0}",
        error_message: expect.stringMatching(
          /has no Microsoft Entra ID integration.*az aks update --enable-aad --enable-azure-rbac.*entraIdRbac\.enabled: false/,
        ),
      },
    ]);
    const grants = kvGrants(parsed);
    expect(grants.map((g) => g.scope).sort()).toEqual([SECRET_A1, SECRET_A2, SECRET_B].sort());
    for (const grant of grants) {
      expect(grant.principal_id).toBe(`\${data.azurerm_kubernetes_cluster.${lookupKey}.key_vault_secrets_provider[0].secret_identity[0].object_id}`);
    }
    expect(aks.id).toBe(AKS_ID);
  });

  it("grants keep their construct IDs (Terraform addresses) between created and existing modes", () => {
    const created = Object.keys(synthAks().parsed.resource.azurerm_role_assignment);
    const existing = Object.keys(synthExisting().parsed.resource.azurerm_role_assignment);
    expect(existing).toHaveLength(3);
    expect(existing.every((k) => created.includes(k))).toBe(true);
  });

  it("exposes the ARM ID at synth and the issuer, add-on identity and kube config as references", () => {
    const parsed = JSON.parse(
      Testing.synthScope((scope) => {
        const aks = new ManagementAksCluster(scope, "Aks", BASE);
        new TerraformOutput(scope, "id", { value: aks.id });
        new TerraformOutput(scope, "issuer", { value: aks.oidcIssuerUrl });
        new TerraformOutput(scope, "clientId", { value: aks.keyVaultSecretsProviderClientId });
        new TerraformOutput(scope, "host", { value: aks.kubeConfig.host, sensitive: true });
        new TerraformOutput(scope, "ca", { value: aks.kubeConfig.clusterCaCertificate, sensitive: true });
      }),
    );
    const clusterKey = Object.keys(parsed.resource.azurerm_kubernetes_cluster)[0];
    expect(parsed.output.id.value).toBe(AKS_ID);
    expect(parsed.output.issuer.value).toBe(`\${azurerm_kubernetes_cluster.${clusterKey}.oidc_issuer_url}`);
    expect(parsed.output.clientId.value).toBe(`\${azurerm_kubernetes_cluster.${clusterKey}.key_vault_secrets_provider[0].secret_identity[0].client_id}`);
    expect(parsed.output.host.value).toBe(`\${azurerm_kubernetes_cluster.${clusterKey}.kube_config[0].host}`);
    expect(parsed.output.ca.value).toBe(`\${azurerm_kubernetes_cluster.${clusterKey}.kube_config[0].cluster_ca_certificate}`);
  });

  it.each<[string, Partial<ManagementAksClusterProps>, RegExp]>([
    ["name too long for the default DNS prefix", { name: "a".repeat(60) }, /dnsPrefix "a{60}" \(default: the name\) must be 1-54/],
    [
      "a vault ID, not a secret's",
      { keyVaultSecretIds: [VAULT_A] },
      /keyVaultSecretIds\[0\] "\/subscriptions\/.*\/vaults\/hcp-identities" must be a Key Vault secret ARM ID/,
    ],
    [
      "bad vault name",
      { keyVaultSecretIds: [`${RG}/providers/Microsoft.KeyVault/vaults/1bad/secrets/s`] },
      /keyVaultSecretIds\[0\] ".*vaults\/1bad\/secrets\/s" must be a Key Vault secret ARM ID/,
    ],
    ["bad secret name", { keyVaultSecretIds: [`${VAULT_A}/secrets/a_b`] }, /keyVaultSecretIds\[0\] ".*secrets\/a_b" must be a Key Vault secret ARM ID/],
    [
      "duplicate secret",
      { keyVaultSecretIds: [SECRET_A1, SECRET_A1.toUpperCase()] },
      /keyVaultSecretIds\[1\] ".*": secret "HC1-CPO" of vault "HCP-IDENTITIES" appears twice/,
    ],
  ])("fails for %s", (_, props, message) => {
    expect(() => synthAks(props)).toThrow(message);
  });

  it("reports every problem at once", () => {
    expect(() => synthAks({ name: "a".repeat(60), keyVaultSecretIds: [SECRET_A1, SECRET_A1] })).toThrow(/keyVaultSecretIds\[1\].*; dnsPrefix "a{60}"/);
  });

  it("fromExisting checks the secret IDs its grants are named by", () => {
    expect(() =>
      Testing.synthScope((scope) => ManagementAksCluster.fromExisting(scope, "Aks", { ...BASE, keyVaultSecretIds: [SECRET_A1, SECRET_A1.toUpperCase()] })),
    ).toThrow(/keyVaultSecretIds\[1\] ".*": secret "HC1-CPO" of vault "HCP-IDENTITIES" appears twice/);
  });

  it("fromExisting with entraIdSignIn: false (client certificates) does not ask for Entra ID integration", () => {
    const parsed = JSON.parse(Testing.synthScope((scope) => ManagementAksCluster.fromExisting(scope, "Aks", { ...BASE, entraIdSignIn: false })));
    expect(only(parsed.data.azurerm_kubernetes_cluster).lifecycle.postcondition).toHaveLength(1);
  });
});

describe("ManagementAksCluster: protection and hardening", () => {
  const AKS_RBAC_CLUSTER_ADMIN = "b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b";

  it("protects the cluster by default, not the user pool or the identities; preventDestroy: false removes it", () => {
    const { parsed } = synthAks();
    expect(cluster(parsed).lifecycle).toEqual({ prevent_destroy: true });
    // A renamed user pool is replaced new-one-first, never left out while the control planes need it.
    expect(only(parsed.resource.azurerm_kubernetes_cluster_node_pool).lifecycle).toEqual({ create_before_destroy: true });
    expect(only(synthAks({ preventDestroy: false }).parsed.resource.azurerm_kubernetes_cluster_node_pool).lifecycle).toEqual({
      create_before_destroy: true,
    });
    for (const identity of resources(parsed, "azurerm_user_assigned_identity")) expect(identity.lifecycle).toBeUndefined();
    expect(cluster(synthAks({ preventDestroy: false }).parsed).lifecycle).toBeUndefined();
  });

  it("without hardening options: local accounts, no Entra block, no authorized ranges", () => {
    const created = cluster(synthAks().parsed);
    expect(created.local_account_disabled).toBe(false);
    expect(created.azure_active_directory_role_based_access_control).toBeUndefined();
    expect(created.api_server_access_profile).toBeUndefined();
  });

  it("apiServerAuthorizedIpRanges restricts the API server to exactly those ranges", () => {
    const created = cluster(synthAks({ apiServerAuthorizedIpRanges: ["203.0.113.0/24", "198.51.100.7/32"] }).parsed);
    expect(created.api_server_access_profile).toEqual({ authorized_ip_ranges: ["203.0.113.0/24", "198.51.100.7/32"] });
  });

  it("entraIdRbac: Azure RBAC in the tenant, local accounts disabled, and the deployer made RBAC Cluster Admin on the cluster", () => {
    const { parsed } = synthAks({ entraIdRbac: { tenantId: "11111111-1111-1111-1111-111111111111" } });
    const created = cluster(parsed);
    expect(created.local_account_disabled).toBe(true);
    expect(created.azure_active_directory_role_based_access_control).toEqual({ azure_rbac_enabled: true, tenant_id: "11111111-1111-1111-1111-111111111111" });
    const admin = resources(parsed, "azurerm_role_assignment").filter((r) => r.role_definition_id === ROLE(AKS_RBAC_CLUSTER_ADMIN));
    expect(admin).toHaveLength(1);
    expect(admin[0]).toMatchObject({ scope: `\${azurerm_kubernetes_cluster.${key(parsed, "azurerm_kubernetes_cluster", "mgmt-aks")}.id}` });
    expect(admin[0].principal_id).toMatch(/^\$\{data\.azurerm_client_config\.[\w]+\.object_id\}$/);
    expect(admin[0].name).toContain(AKS_ID);
  });

  it("entraIdRbac with grantDeployerClusterAdmin: false grants nothing", () => {
    const { parsed } = synthAks({ entraIdRbac: { tenantId: "11111111-1111-1111-1111-111111111111", grantDeployerClusterAdmin: false } });
    expect(resources(parsed, "azurerm_role_assignment").filter((r) => r.role_definition_id === ROLE(AKS_RBAC_CLUSTER_ADMIN))).toEqual([]);
    expect(parsed.data?.azurerm_client_config).toBeUndefined();
  });
});
