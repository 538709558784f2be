import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import {
  checkManifests,
  EXAMPLES,
  HAVE_CRDS,
  HAVE_TERRAFORM,
  loadExample,
  loadInline,
  only,
  resources,
  SEED_003_CONTROL_PLANE_SUFFIXES,
  stackDependencies,
  synthStacks,
  tempDir,
  terraformApply,
} from "../helpers";

/**
 * The ARO HCP-style topology (topology: aroHcp, seed 003) end to end, on examples/aro-hcp.yaml:
 * which stacks exist and in what order, and what each one holds that HyperShift (or Azure) reads.
 * Expected values are written out here, not imported from config/components.ts or config/uuid.ts,
 * so a wrong constant fails a test.
 */

const SUB = "00000000-0000-0000-0000-000000000000";
const TENANT = "11111111-1111-1111-1111-111111111111";
const RG = (name: string) => `/subscriptions/${SUB}/resourceGroups/${name}`;
const ROLE = (guid: string) => `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
const VAULT_ID = `${RG("os4-common")}/providers/Microsoft.KeyVault/vaults/myprefix-hcp-kv`;
const KEY_VAULT_SECRETS_USER = "4633458b-17de-408a-b874-0445c86b69e6";
const CONTRIBUTOR = "b24988ac-6180-42a0-ab88-20f7382dd24c";
const CLOUD_PROVIDER = "a1f96423-95ce-4224-ab27-4e3dc72facd4";
const INGRESS = "0336e1d3-7a87-462b-b6db-342b63f7802c";
const FILE = "0d7aedc0-15fd-4a67-a412-efad370c947e";
const DISK = "5b7237c5-45e1-49d6-bc18-a1f62f400748";
const NETWORK = "be7a6435-15ae-4171-8f30-4a343eff9e8f";
const IMAGE_REGISTRY = "8b32b316-c2f5-4ddf-b05b-83dacd2d08b5";

const CONTROL_PLANE: Record<string, string> = SEED_003_CONTROL_PLANE_SUFFIXES;

/** Go's uuid.NewSHA1(uuid.NameSpaceDNS, name): HyperShift's role assignment names (cmd/util/azure.go). */
function uuidv5Dns(name: string): string {
  const namespace = Buffer.from("6ba7b8109dad11d180b400c04fd430c8", "hex");
  const hash = createHash("sha1").update(namespace).update(name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

const loaded = loadExample("aro-hcp.yaml");
const stacks = synthStacks(loaded);
const shared = stacks.shared;
const aks = stacks.aks;
const identities = stacks["identities-myprefix-hc"];
const infra = stacks["infra-myprefix-hc"];
const cluster = stacks["cluster-myprefix-hc"];
const management = stacks.management;

const manifestsOf = (stack: any) => Object.values(stack.resource.kubernetes_manifest as Record<string, any>).map((r) => r.manifest);
const hostedClusterOf = (stack: any) => manifestsOf(stack).find((m) => m.kind === "HostedCluster");
const operatorOf = (stack: any) => manifestsOf(stack).find((m) => m.kind === "Deployment" && m.metadata.name === "operator");
/** Every string in a value, recursively. */
const strings = (value: unknown): string[] =>
  typeof value === "string" ? [value] : typeof value === "object" && value !== null ? Object.values(value).flatMap(strings) : [];
/** Every key in a value, recursively. */
const keys = (value: unknown): string[] => (typeof value === "object" && value !== null ? Object.entries(value).flatMap(([k, v]) => [k, ...keys(v)]) : []);

/** `<cluster>/<key>` of a reference into the shared stack's control_plane_principals output, else undefined. */
function recordedEntry(expression: string, field: "object_id" | "client_id"): string | undefined {
  const match = new RegExp(
    `^\\$\\{data\\.terraform_remote_state\\.shared-state\\.outputs\\.control_plane_principals\\["([\\w-]+)"\\]\\.(\\w+)\\.${field}\\}$`,
  ).exec(expression);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

describe("aroHcp stacks", () => {
  it("are exactly aks, shared, identities, management, infra and cluster", () => {
    expect(Object.keys(stacks).sort()).toEqual(["aks", "cluster-myprefix-hc", "identities-myprefix-hc", "infra-myprefix-hc", "management", "shared"]);
  });

  it("deploy in order: shared → aks → management; identities → infra → cluster, the cluster after management", () => {
    // From the app synthStacks built for `stacks` (helpers.ts), not a second one.
    const deps = Object.fromEntries(Object.entries(stackDependencies(loaded)).map(([name, on]) => [name, [...on].sort()]));
    expect(deps).toEqual({
      shared: [],
      aks: ["shared"],
      management: ["aks", "shared"],
      "identities-myprefix-hc": [],
      "infra-myprefix-hc": ["identities-myprefix-hc", "shared"],
      "cluster-myprefix-hc": ["infra-myprefix-hc", "management"],
    });
  });
});

describe("aroHcp shared stack", () => {
  const applications = resources(shared, "azuread_application");
  const expectedNames = Object.values(CONTROL_PLANE).map((suffix) => `myprefix-hc-${suffix}`);

  it("has an RBAC-mode Key Vault named as configured, with purge protection and 90 days of soft delete", () => {
    expect(resources(shared, "azurerm_key_vault")).toEqual([
      expect.objectContaining({
        name: "myprefix-hcp-kv",
        tenant_id: TENANT,
        rbac_authorization_enabled: true,
        purge_protection_enabled: true,
        soft_delete_retention_days: 90,
        lifecycle: { prevent_destroy: true },
      }),
    ]);
  });

  it("closes the vault's firewall but to the configured addresses (aroHcp.keyVault.network)", () => {
    expect(only(shared.resource.azurerm_key_vault)).toMatchObject({
      public_network_access_enabled: true,
      network_acls: { default_action: "Deny", bypass: "AzureServices", ip_rules: ["203.0.113.7", "198.51.100.0/28"], virtual_network_subnet_ids: [] },
    });
    expect(shared.resource.azurerm_private_endpoint).toBeUndefined();
  });

  it("has the 8 control-plane applications (plus ExternalDNS's), service principals, keys, certificates and secrets of the cluster", () => {
    expect(applications.map((a) => a.display_name).sort()).toEqual([...expectedNames, "myprefix-external-dns"].sort());
    expect(resources(shared, "azuread_service_principal")).toHaveLength(9);
    expect(resources(shared, "tls_private_key")).toHaveLength(8);
    expect(
      resources(shared, "tls_self_signed_cert")
        .map((c) => c.subject[0].common_name)
        .sort(),
    ).toEqual([...expectedNames].sort());
    expect(resources(shared, "azuread_application_certificate")).toHaveLength(8);
    expect(
      resources(shared, "azurerm_key_vault_secret")
        .map((s) => s.name)
        .sort(),
    ).toEqual([...expectedNames].sort());
  });

  it("certificates last the configured year and renew in the last 30 days", () => {
    for (const certificate of resources(shared, "tls_self_signed_cert"))
      expect(certificate).toMatchObject({ validity_period_hours: 8760, early_renewal_hours: 720 });
  });

  it("outputs HyperShift's --managed-identities-file for myprefix-hc, each client ID the application of that component", () => {
    const text: string = shared.output.control_plane_identities.value["myprefix-hc"];
    const resolved = text.replace(
      /\$\{azuread_application\.([\w-]+)\.client_id\}/g,
      (_, id: string) => `client-id-of ${shared.resource.azuread_application[id].display_name}`,
    );
    expect(resolved).not.toContain("${");
    const json = JSON.parse(resolved);
    expect(Object.keys(json)).toEqual(["managedIdentitiesKeyVault", ...Object.keys(CONTROL_PLANE)]);
    expect(json).toEqual({
      managedIdentitiesKeyVault: { name: "myprefix-hcp-kv", tenantID: TENANT },
      ...Object.fromEntries(
        Object.entries(CONTROL_PLANE).map(([key, suffix]) => [
          key,
          { clientID: `client-id-of myprefix-hc-${suffix}`, credentialsSecretName: `myprefix-hc-${suffix}`, objectEncoding: "utf-8" },
        ]),
      ),
    });
  });

  it("the secrets wait for the deployer's Secrets Officer role on the vault", () => {
    const officer = Object.entries(shared.resource.azurerm_role_assignment as Record<string, any>).filter(
      ([, r]) => r.role_definition_id === ROLE("b86a8fe4-44ce-4948-aee5-eccb2c155cd7"),
    );
    expect(officer).toHaveLength(1);
    for (const secret of resources(shared, "azurerm_key_vault_secret")) expect(secret.depends_on).toContain(`azurerm_role_assignment.${officer[0][0]}`);
  });
});

describe("aroHcp aks stack", () => {
  const cluster = only(aks.resource.azurerm_kubernetes_cluster);

  it("grants the Key Vault secrets provider add-on identity Key Vault Secrets User on each control-plane secret only, not the vault", () => {
    const grants = resources(aks, "azurerm_role_assignment").filter((r) => r.role_definition_id === ROLE(KEY_VAULT_SECRETS_USER));
    expect(grants.map((g) => g.scope).sort()).toEqual(
      Object.values(CONTROL_PLANE)
        .map((suffix) => `${VAULT_ID}/secrets/myprefix-hc-${suffix}`)
        .sort(),
    );
    for (const grant of grants)
      expect(grant.principal_id).toMatch(/^\$\{azurerm_kubernetes_cluster\.[\w-]+\.key_vault_secrets_provider\[0\]\.secret_identity\[0\]\.object_id\}$/);
  });

  it("disables local accounts (Entra ID with Azure RBAC) and takes the example's authorized API server ranges", () => {
    expect(cluster).toMatchObject({
      local_account_disabled: true,
      azure_active_directory_role_based_access_control: { azure_rbac_enabled: true, tenant_id: TENANT },
      api_server_access_profile: { authorized_ip_ranges: ["203.0.113.0/24"] },
    });
  });

  it("enables the OIDC issuer, workload identity and the secrets provider with 2m rotation", () => {
    expect(cluster).toMatchObject({
      name: "myprefix-mgmt",
      oidc_issuer_enabled: true,
      workload_identity_enabled: true,
      key_vault_secrets_provider: { secret_rotation_enabled: true, secret_rotation_interval: "2m" },
    });
  });

  it("outputs the add-on identity's client ID for hypershift install", () => {
    expect(aks.output.key_vault_secrets_provider_client_id.value).toMatch(
      /^\$\{azurerm_kubernetes_cluster\.[\w-]+\.key_vault_secrets_provider\[0\]\.secret_identity\[0\]\.client_id\}$/,
    );
  });
});

describe("aroHcp identities stack", () => {
  const issuer: string = shared.output.oidc_issuer_url.value;
  const identityResources = identities.resource.azurerm_user_assigned_identity as Record<string, any>;
  const credentials = identities.resource.azurerm_federated_identity_credential as Record<string, any>;
  /** Credentials of the identity named `name`, by credential name. */
  const credentialsOf = (name: string) => {
    const id = Object.keys(identityResources).find((k) => identityResources[k].name === name);
    return Object.fromEntries(
      Object.entries(credentials)
        .filter(([, c]) => c.parent_id === `\${azurerm_user_assigned_identity.${id}.id}`)
        .map(([key, c]) => [c.name, { ...c, address: `azurerm_federated_identity_credential.${key}` }]),
    );
  };

  it("has exactly the three data-plane identities, named dp-*, in the persistent group", () => {
    expect(
      Object.values(identityResources)
        .map((i) => i.name)
        .sort(),
    ).toEqual(["myprefix-hc-dp-disk", "myprefix-hc-dp-file", "myprefix-hc-dp-image-registry"]);
    for (const identity of Object.values(identityResources)) expect(identity.resource_group_name).toBe("os4-common");
  });

  it("federates each with the components' service accounts, audience openshift, on the shared issuer", () => {
    expect(issuer).toMatch(/^https:\/\/[a-z0-9]+\.blob\.core\.windows\.net\/[a-z0-9]+$/);
    const csi = "system:serviceaccount:openshift-cluster-csi-drivers";
    const subjects = (name: string) => Object.fromEntries(Object.values(credentialsOf(name)).map((c: any) => [c.name, c.subject]));
    expect(subjects("myprefix-hc-dp-image-registry")).toEqual({
      "myprefix-hc-dp-image-registry-fed-id-registry": "system:serviceaccount:openshift-image-registry:registry",
      "myprefix-hc-dp-image-registry-fed-id-operator": "system:serviceaccount:openshift-image-registry:cluster-image-registry-operator",
    });
    expect(subjects("myprefix-hc-dp-disk")).toEqual({
      "myprefix-hc-dp-disk-fed-id-node": `${csi}:azure-disk-csi-driver-node-sa`,
      "myprefix-hc-dp-disk-fed-id-operator": `${csi}:azure-disk-csi-driver-operator`,
      "myprefix-hc-dp-disk-fed-id-controller": `${csi}:azure-disk-csi-driver-controller-sa`,
    });
    expect(subjects("myprefix-hc-dp-file")).toEqual({
      "myprefix-hc-dp-file-fed-id-node": `${csi}:azure-file-csi-driver-node-sa`,
      "myprefix-hc-dp-file-fed-id-operator": `${csi}:azure-file-csi-driver-operator`,
      "myprefix-hc-dp-file-fed-id-controller": `${csi}:azure-file-csi-driver-controller-sa`,
    });
    expect(Object.keys(credentials)).toHaveLength(8);
    for (const credential of Object.values(credentials)) expect(credential).toMatchObject({ audience: ["openshift"], issuer });
  });

  it("creates each identity's credentials one after another (Azure refuses concurrent writes)", () => {
    const registry = credentialsOf("myprefix-hc-dp-image-registry");
    expect(registry["myprefix-hc-dp-image-registry-fed-id-registry"].depends_on).toBeUndefined();
    expect(registry["myprefix-hc-dp-image-registry-fed-id-operator"].depends_on).toEqual([registry["myprefix-hc-dp-image-registry-fed-id-registry"].address]);
    for (const kind of ["disk", "file"]) {
      const c = credentialsOf(`myprefix-hc-dp-${kind}`);
      const name = (suffix: string) => `myprefix-hc-dp-${kind}-fed-id-${suffix}`;
      expect(c[name("node")].depends_on).toBeUndefined();
      expect(c[name("operator")].depends_on).toEqual([c[name("node")].address]);
      expect(c[name("controller")].depends_on).toEqual([c[name("operator")].address]);
    }
  });

  it("outputs HyperShift's --data-plane-identities-file (and no workload-identities.json)", () => {
    const text: string = identities.output.data_plane_identities_json.value;
    const resolved = text.replace(
      /\$\{azurerm_user_assigned_identity\.([\w-]+)\.client_id\}/g,
      (_, id: string) => `client-id-of ${identityResources[id].name}`,
    );
    const json = JSON.parse(resolved);
    expect(Object.keys(json)).toEqual(["imageRegistryMSIClientID", "diskMSIClientID", "fileMSIClientID"]);
    expect(json).toEqual({
      imageRegistryMSIClientID: "client-id-of myprefix-hc-dp-image-registry",
      diskMSIClientID: "client-id-of myprefix-hc-dp-disk",
      fileMSIClientID: "client-id-of myprefix-hc-dp-file",
    });
    expect(identities.output.workload_identities_json).toBeUndefined();
  });
});

describe("aroHcp infra stack", () => {
  const infraId: string = infra.output.infra_id.value;
  const assignments = resources(infra, "azurerm_role_assignment");
  const dataPlane = assignments.filter((a) => a.principal_id.startsWith("${data.azurerm_user_assigned_identity."));
  const controlPlane = assignments.filter((a) => a.principal_id.startsWith("${data.azuread_service_principal."));
  /**
   * Who an assignment targets: the looked-up name of a managed identity, or for a service
   * principal the shared stack's recorded entry its object ID comes from (`<cluster>/<key>`).
   */
  const principalName = (assignment: any) => {
    const [, type, id] = /^\$\{data\.(\w+)\.([\w-]+)\.(?:principal_id|object_id)\}$/.exec(assignment.principal_id)!;
    const data = infra.data[type][id];
    return data.name ?? recordedEntry(data.object_id, "object_id");
  };
  const row = (a: any) => ({ principal: principalName(a), role: a.role_definition_id, scope: a.scope, name: a.name });
  const byRow = (a: { principal: string; scope: string }, b: { principal: string; scope: string }) =>
    (a.principal + a.scope).localeCompare(b.principal + b.scope);
  const managed = RG("myprefix-hc-managed-rg");
  const vnet = RG("myprefix-hc-customer-vnet-rg");
  const nsg = RG("myprefix-hc-customer-nsg-rg");
  const dnsZone = RG("myparent-dns-rg");

  it("the test's UUIDv5 is Go's uuid.NewSHA1 in the DNS namespace (values from Python's uuid.uuid5)", () => {
    expect(uuidv5Dns("www.example.com")).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2");
    expect(uuidv5Dns(`myprefix-hc-104e8-ciroWI-${managed}`)).toBe("693fbb5f-d630-5b89-9e1c-b9ac586fb3e7");
  });

  it("grants the three data-plane identities their ARO roles on the managed group only, with HyperShift's WI names", () => {
    expect(dataPlane.map(row).sort(byRow)).toEqual(
      [
        { principal: "myprefix-hc-dp-image-registry", role: ROLE(IMAGE_REGISTRY), scope: managed, name: uuidv5Dns(`${infraId}-ciroWI-${managed}`) },
        { principal: "myprefix-hc-dp-disk", role: ROLE(DISK), scope: managed, name: uuidv5Dns(`${infraId}-azure-diskWI-${managed}`) },
        { principal: "myprefix-hc-dp-file", role: ROLE(FILE), scope: managed, name: uuidv5Dns(`${infraId}-azure-fileWI-${managed}`) },
      ].sort(byRow),
    );
    expect(Object.values(infra.data.azurerm_user_assigned_identity).map((d: any) => d.resource_group_name)).toEqual(["os4-common", "os4-common", "os4-common"]);
  });

  it("grants the control-plane service principals ARO HCP's least-privilege 18 assignments (CPO always), found by the object IDs the shared stack recorded", () => {
    const keyOf = Object.fromEntries(Object.entries(CONTROL_PLANE).map(([key, suffix]) => [suffix, key]));
    const sp = (suffix: string) => `myprefix-hc/${keyOf[suffix]}`;
    const grant = (suffix: string, component: string, role: string, scope: string) => ({
      principal: sp(suffix),
      role: ROLE(role),
      scope,
      name: uuidv5Dns(`${infraId}-${component}-${scope}`),
    });
    // hostedCluster.roles: leastPrivilege (the default): ARO-HCP's role per operator, on the resources (help/roles.md).
    const vnetId = `${vnet}/providers/Microsoft.Network/virtualNetworks/myprefix-hc-customer-vnet`;
    const subnet = `${vnetId}/subnets/myprefix-hc-customer-subnet-1`;
    const nsgId = `${nsg}/providers/Microsoft.Network/networkSecurityGroups/myprefix-hc-customer-nsg`;
    const privateZone = `${managed}/providers/Microsoft.Network/privateDnsZones/myprefix-hc.example.com`;
    const publicZone = `${dnsZone}/providers/Microsoft.Network/dnszones/example.com`;
    const CAPI = "88366f10-ed47-4cc0-9fab-c8a06148393e";
    const CPO = "fc0c873f-45e9-4d0d-a7d1-585aab30c6ed";
    const expected = [
      grant("nodepool-mgmt", "capz", CAPI, managed),
      grant("nodepool-mgmt", "capz", CAPI, subnet),
      grant("cloud-provider", "cloud-provider", CLOUD_PROVIDER, managed),
      grant("cloud-provider", "cloud-provider", CLOUD_PROVIDER, nsgId),
      grant("cloud-provider", "cloud-provider", CLOUD_PROVIDER, subnet),
      grant("ingress", "ingress", INGRESS, privateZone),
      grant("ingress", "ingress", INGRESS, subnet),
      grant("ingress", "ingress", INGRESS, publicZone),
      grant("cpo", "cpo", CPO, managed),
      grant("cpo", "cpo", CPO, vnetId),
      grant("cpo", "cpo", CPO, nsgId),
      grant("file", "azure-file", FILE, managed),
      grant("file", "azure-file", FILE, nsgId),
      grant("file", "azure-file", FILE, subnet),
      grant("disk", "azure-disk", DISK, managed),
      grant("network", "cncc", NETWORK, managed),
      grant("network", "cncc", NETWORK, vnetId),
      grant("image-registry", "ciro", IMAGE_REGISTRY, managed),
    ];
    expect(expected).toHaveLength(18);
    expect(controlPlane.map(row).sort(byRow)).toEqual(expected.sort(byRow));
    expect(assignments.filter((a) => a.role_definition_id === ROLE(CONTRIBUTOR))).toEqual([]);
    expect(
      Object.values(infra.data.azuread_service_principal)
        .map((d: any) => recordedEntry(d.object_id, "object_id"))
        .sort(),
    ).toEqual(Object.values(CONTROL_PLANE).map(sp).sort());
    expect(assignments).toHaveLength(21);
    expect(new Set(assignments.map((a) => a.name)).size).toBe(21);
  });
});

describe("aroHcp cluster stack", () => {
  const hc = hostedClusterOf(cluster);
  const azure = hc.spec.platform.azure;
  const auth = azure.azureAuthenticationConfig;

  it("renders ManagedIdentities without topology or workloadIdentities, with the pod-security override ARO's scripts pass", () => {
    expect(auth.azureAuthenticationConfigType).toBe("ManagedIdentities");
    expect(azure.topology).toBeUndefined();
    expect(auth.workloadIdentities).toBeUndefined();
    expect(hc.metadata.annotations).toEqual({ "hypershift.openshift.io/pod-security-admission-label-override": "baseline" });
  });

  it("names the vault and the 8 control-plane secrets, utf-8, with client IDs of the service principals found by their recorded object IDs", () => {
    const controlPlane = auth.managedIdentities.controlPlane;
    expect(Object.keys(controlPlane).sort()).toEqual(["managedIdentitiesKeyVault", ...Object.keys(CONTROL_PLANE)].sort());
    expect(controlPlane.managedIdentitiesKeyVault).toEqual({ name: "myprefix-hcp-kv", tenantID: TENANT });
    for (const [key, suffix] of Object.entries(CONTROL_PLANE)) {
      const [, id] = /^\$\{data\.azuread_service_principal\.([\w-]+)\.client_id\}$/.exec(controlPlane[key].clientID)!;
      expect(recordedEntry(cluster.data.azuread_service_principal[id].object_id, "object_id")).toBe(`myprefix-hc/${key}`);
      expect(controlPlane[key]).toEqual({ clientID: controlPlane[key].clientID, credentialsSecretName: `myprefix-hc-${suffix}`, objectEncoding: "utf-8" });
    }
  });

  it("passes the three data-plane identities' client IDs, looked up by name", () => {
    const dataPlane = auth.managedIdentities.dataPlane;
    expect(Object.keys(dataPlane).sort()).toEqual(["diskMSIClientID", "fileMSIClientID", "imageRegistryMSIClientID"]);
    const lookedUp = (field: string) => {
      const [, id] = /^\$\{data\.azurerm_user_assigned_identity\.([\w-]+)\.client_id\}$/.exec(dataPlane[field])!;
      return cluster.data.azurerm_user_assigned_identity[id];
    };
    expect(lookedUp("imageRegistryMSIClientID")).toEqual({ name: "myprefix-hc-dp-image-registry", resource_group_name: "os4-common" });
    expect(lookedUp("diskMSIClientID")).toEqual({ name: "myprefix-hc-dp-disk", resource_group_name: "os4-common" });
    expect(lookedUp("fileMSIClientID")).toEqual({ name: "myprefix-hc-dp-file", resource_group_name: "os4-common" });
  });

  it.each([
    ["cluster", cluster],
    ["management", management],
  ])("%s stack reaches the AKS cluster through its kube config read at plan time, no kubeconfig file", (_, stack) => {
    const data = only(stack.data.azurerm_kubernetes_cluster);
    expect(data).toMatchObject({ name: "myprefix-mgmt", resource_group_name: "myprefix-mgmt-rg" });
    // Local accounts are disabled by default: an Entra token from kubelogin, no client certificate
    // (aks-stack.test.ts covers entraIdRbac.enabled: false and its client-certificate postcondition).
    expect(data.lifecycle).toBeUndefined();
    const id = Object.keys(stack.data.azurerm_kubernetes_cluster)[0];
    const kube = `data.azurerm_kubernetes_cluster.${id}.kube_config[0]`;
    expect(stack.provider.kubernetes).toEqual([
      {
        host: `\${${kube}.host}`,
        cluster_ca_certificate: `\${base64decode(${kube}.cluster_ca_certificate)}`,
        exec: [expect.objectContaining({ command: "kubelogin", args: expect.arrayContaining(["--login", "azurecli", "--tenant-id", TENANT]) })],
      },
    ]);
  });
});

describe("aroHcp management stack", () => {
  const env: Array<{ name: string; value?: string }> = operatorOf(management).spec.template.spec.containers.find((c: any) => c.name === "operator").env;

  it("sets ARO_HCP_KEY_VAULT_USER_CLIENT_ID to the add-on identity of the AKS cluster, replacing the rendered value", () => {
    const id = Object.keys(management.data.azurerm_kubernetes_cluster)[0];
    expect(env.filter((e) => e.name === "ARO_HCP_KEY_VAULT_USER_CLIENT_ID")).toEqual([
      {
        name: "ARO_HCP_KEY_VAULT_USER_CLIENT_ID",
        value: `\${data.azurerm_kubernetes_cluster.${id}.key_vault_secrets_provider[0].secret_identity[0].client_id}`,
      },
    ]);
  });

  it("keeps MANAGED_SERVICE=ARO-HCP from the bundle", () => {
    expect(env.filter((e) => e.name === "MANAGED_SERVICE")).toEqual([{ name: "MANAGED_SERVICE", value: "ARO-HCP" }]);
  });
});

describe("aroHcp secret hygiene", () => {
  it.each(Object.keys(stacks))("stack %s holds no private key and no literal client secret", (name) => {
    const stack = stacks[name];
    const text = JSON.stringify(stack);
    expect(text).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    // No PEM block of any kind (the signing key variable's validation spells its pattern with [ ]).
    expect(text).not.toMatch(/BEGIN [A-Z ]+-----/);
    expect(text).not.toContain("PRIVATE KEY");
    expect(keys(stack)).not.toContain("client_secret");
    // The credentials JSON names client_secret only as a Terraform expression over state.
    for (const value of strings(stack).filter((s) => s.includes('"client_secret"'))) {
      expect(value).toMatch(
        /"client_secret" = base64encode\(join\("", \[tls_self_signed_cert\.[\w-]+\.cert_pem, tls_private_key\.[\w-]+\.private_key_pem\]\)\)/,
      );
      expect(value).not.toMatch(/"client_secret" = "/);
    }
  });

  it("the credentials expressions are in the shared stack only, one per control-plane secret", () => {
    const counts = Object.fromEntries(
      Object.entries(stacks).map(([name, stack]) => [name, strings(stack).filter((s) => s.includes('"client_secret"')).length]),
    );
    expect(counts).toEqual({ aks: 0, shared: 8, "identities-myprefix-hc": 0, management: 0, "infra-myprefix-hc": 0, "cluster-myprefix-hc": 0 });
  });
});

describe("aroHcp control-plane principals: found by a key we own, checked at plan", () => {
  const consumers = { "infra-myprefix-hc": infra, "cluster-myprefix-hc": cluster };

  it("no stack of any example looks an Entra principal or application up by display name", () => {
    const examples = ["aro-hcp.yaml", "external-dns.yaml", "basic.yaml", "isolated-clusters.yaml"];
    const byName = examples.flatMap((example) =>
      Object.entries(example === "aro-hcp.yaml" ? stacks : synthStacks(loadExample(example))).flatMap(([name, stack]) =>
        ["azuread_service_principal", "azuread_application", "azuread_service_principals", "azuread_application_published_app_ids"].flatMap((type) =>
          Object.values(stack.data?.[type] ?? {})
            .filter((d: any) => d.display_name !== undefined || d.display_names !== undefined)
            .map(() => `${example} ${name} ${type}`),
        ),
      ),
    );
    expect(byName).toEqual([]);
  });

  it("the shared stack records, per cluster and component, the service principal's object ID and its application's client ID", () => {
    const recorded = shared.output.control_plane_principals.value["myprefix-hc"];
    expect(Object.keys(recorded).sort()).toEqual(Object.keys(CONTROL_PLANE).sort());
    const applicationOf = (key: string) =>
      Object.entries(shared.resource.azuread_application).find(([id]) => id.startsWith(`ControlPlaneIdentities_myprefix-hc_${key}_Application_`))![0];
    const principalOf = (key: string) =>
      Object.entries(shared.resource.azuread_service_principal).find(([id]) =>
        id.startsWith(`ControlPlaneIdentities_myprefix-hc_${key}_ServicePrincipal_`),
      )![0];
    for (const key of Object.keys(CONTROL_PLANE)) {
      expect(recorded[key]).toEqual({
        client_id: `\${azuread_application.${applicationOf(key)}.client_id}`,
        object_id: `\${azuread_service_principal.${principalOf(key)}.object_id}`,
      });
    }
  });

  it.each(Object.keys(consumers))("%s finds each of the 8 principals by the recorded object ID, read from the shared stack's state", (name) => {
    const stack = consumers[name as keyof typeof consumers];
    const found = Object.values(stack.data.azuread_service_principal) as any[];
    expect(found.map((d) => recordedEntry(d.object_id, "object_id")).sort()).toEqual(
      Object.keys(CONTROL_PLANE)
        .map((key) => `myprefix-hc/${key}`)
        .sort(),
    );
    expect(found.every((d) => Object.keys(d).sort().join() === "lifecycle,object_id")).toBe(true);
    expect(stack.data.terraform_remote_state["shared-state"]).toEqual({
      backend: "local",
      config: { path: "../../../examples/terraform-state/00000000-0000-0000-0000-000000000000/myprefix/shared.tfstate" },
    });
  });

  it.each(Object.keys(consumers))("%s asserts at plan that each principal found has the recorded client ID, in our tenant", (name) => {
    const stack = consumers[name as keyof typeof consumers];
    for (const data of Object.values(stack.data.azuread_service_principal) as any[]) {
      const entry = recordedEntry(data.object_id, "object_id")!;
      const [clusterName, key] = entry.split("/");
      const [postcondition] = data.lifecycle.postcondition;
      expect(data.lifecycle.postcondition).toHaveLength(1);
      expect(postcondition.condition).toBe(
        `\${((self.client_id == data.terraform_remote_state.shared-state.outputs.control_plane_principals["${clusterName}"].${key}.client_id) && (self.application_tenant_id == "${TENANT}"))}`,
      );
      expect(postcondition.error_message).toContain(`The ${key} control-plane service principal`);
    }
  });
});

(HAVE_TERRAFORM ? describe : describe.skip)(
  "aroHcp control-plane principals with Terraform itself (built-in terraform_remote_state; runs where terraform is on PATH)",
  () => {
    it("every reference infra and cluster read resolves, in the shape shared outputs, to that component's recorded IDs", () => {
      const dir = tempDir();
      const env = { ...process.env, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
      // Each configuration's outputs, read from the state its apply writes (no `terraform output` run).
      const apply = (folder: string, json: unknown) => {
        fs.mkdirSync(folder, { recursive: true });
        fs.writeFileSync(path.join(folder, "main.tf.json"), JSON.stringify(json));
        terraformApply(folder, env); // built-in only: no init needed (helpers.ts)
        return JSON.parse(fs.readFileSync(path.join(folder, "terraform.tfstate"), "utf8")).outputs;
      };
      try {
        // shared: its output as synthesized, each reference to Entra replaced by a distinct literal ID.
        const ids = new Map<string, string>();
        const literal = (reference: string) => {
          if (!ids.has(reference)) ids.set(reference, `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, "0")}`);
          return ids.get(reference) as string;
        };
        const recorded = JSON.parse(JSON.stringify(shared.output.control_plane_principals.value).replace(/\$\{azuread_[^}]+\}/g, literal));
        apply(path.join(dir, "shared"), { output: { control_plane_principals: { value: recorded } } });

        // Both consumers in one run: the remote-state block each declares (the same), pointed at
        // that state; outputs, named <stack>__<data source>, stand for the data sources.
        const consumers = Object.entries({ "infra-myprefix-hc": infra, "cluster-myprefix-hc": cluster });
        const outputs: Record<string, { value: string }> = {};
        for (const [name, stack] of consumers) {
          for (const [id, data] of Object.entries(stack.data.azuread_service_principal) as [string, any][]) {
            const clientId = /self\.client_id == (data\.terraform_remote_state\.[^)]+)\)/.exec(data.lifecycle.postcondition[0].condition)![1];
            outputs[`${name}__${id}_object`] = { value: data.object_id };
            outputs[`${name}__${id}_client`] = { value: `\${${clientId}}` };
          }
        }
        const remote = { "shared-state": { backend: "local", config: { path: path.join(dir, "shared", "terraform.tfstate") } } };
        const values = apply(path.join(dir, "consumers"), { data: { terraform_remote_state: remote }, output: outputs });
        for (const [name, stack] of consumers) {
          for (const [key, component] of Object.entries(recorded["myprefix-hc"]) as [string, any][]) {
            const id = Object.keys(stack.data.azuread_service_principal).find((i) => i.startsWith(`ControlPlanePrincipals_${key}_`))!;
            expect({ name, key, object: values[`${name}__${id}_object`].value, client: values[`${name}__${id}_client`].value }).toEqual({
              name,
              key,
              object: component.object_id,
              client: component.client_id,
            });
          }
        }
        expect(ids.size).toBe(16);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);

describe("aroHcp retired cluster", () => {
  const input = parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));
  input.clusters[0].retired = true;
  const retired = synthStacks(loadInline(input));

  it("keeps its control-plane principals, certificates, secrets and recorded IDs in shared until the cluster leaves the config", () => {
    expect(retired.shared.resource.azuread_application).toEqual(shared.resource.azuread_application);
    expect(retired.shared.resource.azuread_service_principal).toEqual(shared.resource.azuread_service_principal);
    expect(retired.shared.resource.azurerm_key_vault_secret).toEqual(shared.resource.azurerm_key_vault_secret);
    expect(retired.shared.output.control_plane_principals).toEqual(shared.output.control_plane_principals);
    expect(retired.shared.resource.terraform_data).toBeUndefined();
  });

  it("guards its three stacks (destroy only), which still find the principals by recorded object ID", () => {
    for (const name of ["identities-myprefix-hc", "infra-myprefix-hc", "cluster-myprefix-hc"]) {
      const guards = Object.keys(retired[name].resource.terraform_data ?? {}).filter((id) => id.startsWith("RetiredClusterGuard"));
      expect({ name, guards: guards.length }).toEqual({ name, guards: 1 });
    }
    expect(retired["infra-myprefix-hc"].data.azuread_service_principal).toEqual(infra.data.azuread_service_principal);
    expect(retired.aks.resource.terraform_data).toBeUndefined();
    expect(retired.management.resource.terraform_data).toEqual(stacks.management.resource.terraform_data);
  });
});

describe("aroHcp snapshots", () => {
  it.each(["aks", "shared", "identities-myprefix-hc", "infra-myprefix-hc", "cluster-myprefix-hc"])("stack %s", (name) => {
    expect(stacks[name]).toMatchSnapshot();
  });
});

describe("self-managed path unchanged (examples/external-dns.yaml)", () => {
  const selfManaged = synthStacks(loadExample("external-dns.yaml"));

  it("has no aks stack, no Key Vault and no certificate principals", () => {
    expect(Object.keys(selfManaged)).not.toContain("aks");
    for (const stack of Object.values(selfManaged)) {
      expect(resources(stack, "azurerm_key_vault")).toEqual([]);
      expect(resources(stack, "tls_self_signed_cert")).toEqual([]);
      expect(resources(stack, "azuread_application_certificate")).toEqual([]);
    }
    expect(selfManaged.shared.output.control_plane_identities).toBeUndefined();
  });

  it("renders WorkloadIdentities with topology Public and no ARO annotation", () => {
    const hostedClusters = Object.entries(selfManaged)
      .filter(([name]) => name.startsWith("cluster-"))
      .map(([, stack]) => hostedClusterOf(stack));
    expect(hostedClusters).toHaveLength(2);
    for (const hc of hostedClusters) {
      const azure = hc.spec.platform.azure;
      expect(azure.topology).toBe("Public");
      expect(azure.azureAuthenticationConfig.azureAuthenticationConfigType).toBe("WorkloadIdentities");
      // The seven required ones and the control-plane operator's (on by default, issue 13 item 3).
      expect(Object.keys(azure.azureAuthenticationConfig.workloadIdentities)).toHaveLength(8);
      expect(azure.azureAuthenticationConfig.managedIdentities).toBeUndefined();
      expect(hc.metadata.annotations).toBeUndefined();
    }
  });

  it("identities stacks output workload-identities.json, not the data-plane file; the operator gets no Key Vault client ID", () => {
    for (const [name, stack] of Object.entries(selfManaged).filter(([n]) => n.startsWith("identities-"))) {
      expect([name, Object.keys(stack.output).sort()]).toEqual([name, ["oidc_issuer_url", "workload_identities_json"]]);
    }
    const env: Array<{ name: string }> = operatorOf(selfManaged.management).spec.template.spec.containers[0].env ?? [];
    expect(env.map((e) => e.name)).not.toContain("ARO_HCP_KEY_VAULT_USER_CLIENT_ID");
    expect(selfManaged.management.data?.azurerm_kubernetes_cluster).toBeUndefined();
  });
});

/** As hypershift-crds.test.ts does: the real CRDs, through the shared check-manifests tool. */
(HAVE_CRDS ? describe : describe.skip)("aroHcp HostedCluster and NodePool: the real CRDs (../shared/tools/check-manifests.mjs)", () => {
  const out = tempDir("hcp-azure-aro-crds-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it("pass, with only the 8 control-plane and 3 data-plane client IDs left unchecked", async () => {
    const file = path.join(out, "cluster", "cdk.tf.json");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify(cluster));
    const result = await checkManifests(file);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^checked 2 manifests \(HostedCluster: 1, NodePool: 1\), 0 errors, 11 unchecked tokens, /m);
    expect(result.status).toBe(0);
  });

  it("the check catches a broken ManagedIdentities block (so the test above can fail)", async () => {
    const broken = structuredClone(hostedClusterOf(cluster));
    const controlPlane = broken.spec.platform.azure.azureAuthenticationConfig.managedIdentities.controlPlane;
    controlPlane.cloudProvider.objectEncoding = "utf8";
    delete controlPlane.disk.credentialsSecretName;
    const file = path.join(out, "broken", "cdk.tf.json");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify({ resource: { kubernetes_manifest: { broken: { manifest: broken } } } }));
    const result = await checkManifests(file);
    expect(result.stdout).toMatch(/controlPlane\.cloudProvider\.objectEncoding/);
    expect(result.stdout).toMatch(/controlPlane\.disk\.credentialsSecretName/);
    expect(result.stdout).toMatch(/ 2 errors, /);
    expect(result.status).toBe(1);
  });
});
