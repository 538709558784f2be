import { Fn, TerraformStack, TerraformVariable, Testing } from "cdktf";
import { HostedCluster } from "../../constructs/hosted-cluster/hosted-cluster";
import { HostedClusterSecrets, HostedClusterSecretsProps } from "../../constructs/hosted-cluster/hosted-cluster-secrets";
import { HostedClusterManifestInput, hostedClusterManifest, nodePoolManifest, NodePoolManifestInput } from "../../constructs/hosted-cluster/manifests";
import { CLIENT_IDS, hostedClusterSpec, loadInline, minimalConfig, RELEASE_IMAGE } from "../helpers";

/**
 * Manifest input from a validated config: cluster hc1 with `hostedCluster` overrides, and with
 * `externalDns` the public zone myprefix.example.com plus ExternalDNS.
 */
function input(hosted: Record<string, unknown> = {}, options: { externalDns?: boolean } = {}): HostedClusterManifestInput {
  const dnsConfig = options.externalDns
    ? {
        prefix: "myprefix",
        dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } },
        externalDns: {},
        managementCluster: { operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" } },
      }
    : { managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } } };
  const loaded = loadInline(
    minimalConfig({
      ...dnsConfig,
      clusters: [
        {
          name: "hc1",
          hostedCluster: {
            ...hostedClusterSpec(),
            ...hosted,
          },
        },
      ],
    }),
  );
  const cluster = loaded.names.clusters[0];
  return {
    name: cluster.name,
    names: cluster.hosted!,
    hostedCluster: loaded.config.clusters[0].hostedCluster!,
    issuerUrl: cluster.issuer.url,
    location: loaded.config.location,
    subscriptionId: loaded.config.subscriptionId,
    tenantId: loaded.config.tenantId,
    identities: { kind: "workloadIdentities", clientIds: CLIENT_IDS },
  };
}

function nodePoolInput(pool: Record<string, unknown>): NodePoolManifestInput {
  const hc = input({ nodePools: [{ name: "pool", ...pool }] });
  return {
    clusterName: hc.name,
    namespace: hc.names.namespace,
    releaseImage: hc.hostedCluster.releaseImage,
    subnetId: hc.names.subnet.id,
    nodePool: hc.hostedCluster.nodePools[0],
  };
}

const spec = (manifest: { spec: Record<string, unknown> }) => manifest.spec as any;

describe("hostedClusterManifest", () => {
  it("is a v1beta1 HostedCluster named after the cluster in its namespace, without status", () => {
    const manifest = hostedClusterManifest(input());
    expect(manifest.apiVersion).toBe("hypershift.openshift.io/v1beta1");
    expect(manifest.kind).toBe("HostedCluster");
    expect(manifest.metadata).toEqual({ name: "hc1", namespace: "clusters" });
    expect(Object.keys(manifest).sort()).toEqual(["apiVersion", "kind", "metadata", "spec"]);
  });

  it("refers to the secrets by the CLI's names and to the cluster's issuer and infra ID", () => {
    const s = spec(hostedClusterManifest(input()));
    expect(s.release).toEqual({ image: RELEASE_IMAGE });
    expect(s.pullSecret).toEqual({ name: "hc1-pull-secret" });
    expect(s.sshKey).toEqual({ name: "hc1-ssh-key" });
    expect(s.serviceAccountSigningKey).toEqual({ name: "hc1sa-token-issuer-key" });
    expect(s.secretEncryption).toEqual({ type: "aescbc", aescbc: { activeKey: { name: "hc1-etcd-encryption-key" } } });
    expect(s.infraID).toMatch(/^hc1-[0-9a-f]{5}$/);
    expect(s.issuerURL).toMatch(/^https:\/\/demooidc[0-9a-f]{6}\.blob\.core\.windows\.net\/demooidc[0-9a-f]{6}$/);
  });

  it("sets the CLI's cluster-wide defaults", () => {
    const s = spec(hostedClusterManifest(input()));
    expect(s.controllerAvailabilityPolicy).toBe("SingleReplica");
    expect(s.olmCatalogPlacement).toBe("management");
    expect(s.fips).toBe(false);
    expect(s.etcd).toEqual({ managementType: "Managed", managed: { storage: { type: "PersistentVolume", persistentVolume: { size: "8Gi" } } } });
    expect(s.networking).toEqual({
      networkType: "OVNKubernetes",
      clusterNetwork: [{ cidr: "10.132.0.0/14" }],
      serviceNetwork: [{ cidr: "172.31.0.0/16" }],
    });
  });

  it("adds machineNetwork, the etcd storage class and HA only when configured", () => {
    const s = spec(
      hostedClusterManifest(
        input({
          network: { machineNetwork: "10.0.0.0/16" },
          etcd: { storageSize: "16Gi", storageClassName: "managed-csi" },
          controllerAvailabilityPolicy: "HighlyAvailable",
        }),
      ),
    );
    expect(s.networking.machineNetwork).toEqual([{ cidr: "10.0.0.0/16" }]);
    expect(s.etcd.managed.storage.persistentVolume).toEqual({ size: "16Gi", storageClassName: "managed-csi" });
    expect(s.controllerAvailabilityPolicy).toBe("HighlyAvailable");
  });

  it("points dns at the public baseDomain zone and the cluster's private zone", () => {
    expect(spec(hostedClusterManifest(input())).dns).toEqual({
      baseDomain: "example.com",
      publicZoneID: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/dns-rg/providers/Microsoft.Network/dnszones/example.com",
      privateZoneID:
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/hc1-managed-rg/providers/Microsoft.Network/privateDnsZones/hc1.example.com",
    });
  });

  it("describes the Azure platform: managed group, network IDs, public topology, workload identities", () => {
    const azure = spec(hostedClusterManifest(input())).platform.azure;
    const rg = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups";
    expect(spec(hostedClusterManifest(input())).platform.type).toBe("Azure");
    expect(azure).toEqual({
      location: "eastus",
      resourceGroup: "hc1-managed-rg",
      vnetID: `${rg}/hc1-customer-vnet-rg/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet`,
      subnetID: `${rg}/hc1-customer-vnet-rg/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet/subnets/hc1-customer-subnet-1`,
      securityGroupID: `${rg}/hc1-customer-nsg-rg/providers/Microsoft.Network/networkSecurityGroups/hc1-customer-nsg`,
      subscriptionID: "00000000-0000-0000-0000-000000000000",
      tenantID: "11111111-1111-1111-1111-111111111111",
      topology: "Public",
      azureAuthenticationConfig: {
        azureAuthenticationConfigType: "WorkloadIdentities",
        workloadIdentities: Object.fromEntries(Object.entries(CLIENT_IDS).map(([key, clientID]) => [key, { clientID }])),
      },
    });
  });

  it("lists controlPlaneOperator only when its client ID is given", () => {
    const without = spec(hostedClusterManifest(input())).platform.azure.azureAuthenticationConfig.workloadIdentities;
    expect(without.controlPlaneOperator).toBeUndefined();
    const cpo = "00000000-0000-0000-0000-000000000011";
    const withCpo = spec(
      hostedClusterManifest({ ...input(), identities: { kind: "workloadIdentities", clientIds: { ...CLIENT_IDS, controlPlaneOperator: cpo } } }),
    ).platform.azure.azureAuthenticationConfig.workloadIdentities;
    expect(withCpo.controlPlaneOperator).toEqual({ clientID: cpo });
    expect(Object.keys(withCpo)).toHaveLength(8);
  });

  it("without ExternalDNS publishes the API server with a LoadBalancer and the rest as Routes without hostname", () => {
    expect(spec(hostedClusterManifest(input())).services).toEqual([
      { service: "APIServer", servicePublishingStrategy: { type: "LoadBalancer" } },
      { service: "Ignition", servicePublishingStrategy: { type: "Route" } },
      { service: "Konnectivity", servicePublishingStrategy: { type: "Route" } },
      { service: "OAuthServer", servicePublishingStrategy: { type: "Route" } },
    ]);
  });

  it("with ExternalDNS publishes all four as Routes named <service>-<cluster>.<zone>", () => {
    const route = (hostname: string) => ({ type: "Route", route: { hostname } });
    expect(spec(hostedClusterManifest(input({}, { externalDns: true }))).services).toEqual([
      { service: "APIServer", servicePublishingStrategy: route("api-hc1.myprefix.example.com") },
      { service: "Ignition", servicePublishingStrategy: route("ignition-hc1.myprefix.example.com") },
      { service: "Konnectivity", servicePublishingStrategy: route("konnectivity-hc1.myprefix.example.com") },
      { service: "OAuthServer", servicePublishingStrategy: route("oauth-hc1.myprefix.example.com") },
    ]);
  });

  it("a cluster that opts out of ExternalDNS gets the LoadBalancer strategy even when ExternalDNS is configured", () => {
    const services = spec(hostedClusterManifest(input({ externalDns: false }, { externalDns: true }))).services;
    expect(services[0]).toEqual({ service: "APIServer", servicePublishingStrategy: { type: "LoadBalancer" } });
    expect(JSON.stringify(services)).not.toContain("hostname");
  });
});

describe("nodePoolManifest", () => {
  it("is a NodePool of the cluster with the CLI's management, timeouts and architecture", () => {
    const manifest = nodePoolManifest(nodePoolInput({}));
    expect(manifest).toMatchObject({ apiVersion: "hypershift.openshift.io/v1beta1", kind: "NodePool", metadata: { name: "pool", namespace: "clusters" } });
    expect(Object.keys(manifest).sort()).toEqual(["apiVersion", "kind", "metadata", "spec"]);
    const s = spec(manifest);
    expect(s).toMatchObject({
      clusterName: "hc1",
      replicas: 2,
      management: { autoRepair: false, upgradeType: "Replace" },
      release: { image: RELEASE_IMAGE },
      arch: "amd64",
      nodeDrainTimeout: "0s",
      nodeVolumeDetachTimeout: "0s",
    });
    expect(s.platform.type).toBe("Azure");
    expect(s.platform.azure).toEqual({
      vmSize: "Standard_D4s_v5",
      image: { type: "AzureMarketplace", azureMarketplace: { imageGeneration: "Gen2" } },
      osDisk: { sizeGiB: 120, diskStorageAccountType: "Premium_LRS" },
      subnetID:
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/hc1-customer-vnet-rg/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet/subnets/hc1-customer-subnet-1",
      diagnostics: { storageAccountType: "Managed" },
    });
  });

  it("without a marketplace image gives only the generation, so the controller takes the release's image (Gen1 too)", () => {
    expect(spec(nodePoolManifest(nodePoolInput({ imageGeneration: "Gen1" }))).platform.azure.image).toEqual({
      type: "AzureMarketplace",
      azureMarketplace: { imageGeneration: "Gen1" },
    });
  });

  it("passes a configured marketplace image with all four fields", () => {
    const marketplace = { publisher: "azureopenshift", offer: "aro4", sku: "aro_419", version: "419.6.20250523" };
    expect(spec(nodePoolManifest(nodePoolInput({ marketplace }))).platform.azure.image).toEqual({
      type: "AzureMarketplace",
      azureMarketplace: { ...marketplace, imageGeneration: "Gen2" },
    });
  });

  it("sets availabilityZone only when configured", () => {
    expect(spec(nodePoolManifest(nodePoolInput({}))).platform.azure).not.toHaveProperty("availabilityZone");
    expect(spec(nodePoolManifest(nodePoolInput({ availabilityZone: "2" }))).platform.azure.availabilityZone).toBe("2");
  });

  it("takes replicas, VM size, OS disk and diagnostics from the config", () => {
    const azure = spec(
      nodePoolManifest(
        nodePoolInput({ replicas: 0, vmSize: "Standard_D8s_v5", osDisk: { sizeGiB: 64, storageAccountType: "StandardSSD_LRS" }, diagnostics: "Disabled" }),
      ),
    );
    expect(azure.replicas).toBe(0);
    expect(azure.platform.azure).toMatchObject({
      vmSize: "Standard_D8s_v5",
      osDisk: { sizeGiB: 64, diskStorageAccountType: "StandardSSD_LRS" },
      diagnostics: { storageAccountType: "Disabled" },
    });
  });
});

/** A HostedCluster construct (with two NodePools) in its own stack, synthesized. */
function synthHostedCluster(overrides: Partial<HostedClusterManifestInput> = {}, hosted: Record<string, unknown> = {}) {
  const stack = new TerraformStack(Testing.app(), "s");
  const secrets = new HostedClusterSecrets(stack, "Secrets", secretsProps());
  const props = { ...input({ nodePools: [{ name: "hc1" }, { name: "hc1-b" }], availableTimeout: "30m", ...hosted }), ...overrides };
  const construct = new HostedCluster(stack, "HostedCluster", { ...props, dependsOn: secrets.all });
  const json = JSON.parse(Testing.synth(stack));
  const manifests: Record<string, any> = json.resource.kubernetes_manifest;
  const byKind = (kind: string) => Object.entries(manifests).filter(([, m]) => m.manifest.kind === kind);
  return { json, manifests, byKind, construct, stack };
}

describe("HostedCluster construct", () => {
  const { byKind, json, construct } = synthHostedCluster();
  const [[hcAddress, hc]] = byKind("HostedCluster");

  it("waits until the HostedCluster is Available, within availableTimeout for create, update and delete", () => {
    expect(hc.wait).toEqual({ condition: [{ type: "Available", status: "True" }] });
    expect(hc.timeouts).toEqual({ create: "30m", update: "30m", delete: "30m" });
    expect(hc.field_manager).toEqual({ name: "hcp-azure" });
  });

  it("depends on every secret it names", () => {
    expect([...hc.depends_on].sort()).toEqual(
      Object.keys(json.resource.kubernetes_secret_v1)
        .map((name) => `kubernetes_secret_v1.${name}`)
        .sort(),
    );
    expect(hc.depends_on).toHaveLength(5);
  });

  it("makes one NodePool manifest per config entry, after the HostedCluster and without waiting", () => {
    const pools = byKind("NodePool");
    expect(pools.map(([, p]) => p.manifest.metadata.name).sort()).toEqual(["hc1", "hc1-b"]);
    for (const [, pool] of pools) {
      expect(pool.depends_on).toEqual([`kubernetes_manifest.${hcAddress}`]);
      expect(pool.wait).toBeUndefined();
      expect(pool.computed_fields).toBeUndefined();
      expect(pool.field_manager).toEqual({ name: "hcp-azure" });
    }
  });

  it("keeps its construct IDs: HostedCluster, Resource and NodePool_<name>", () => {
    expect(construct.node.children.map((c) => c.node.id)).toEqual(["Resource", "NodePool_hc1", "NodePool_hc1-b"]);
    expect(hcAddress).toMatch(/^HostedCluster_[0-9A-F]{8}$/);
  });

  it("names the admin kubeconfig secret HyperShift writes", () => {
    expect(construct.kubeconfigSecretName).toBe("hc1-admin-kubeconfig");
  });

  it("escapes literal template syntax, even a reference-looking string that is not a token", () => {
    const { byKind: kinds } = synthHostedCluster({
      identities: { kind: "workloadIdentities", clientIds: { ...CLIENT_IDS, ingress: "${data.azurerm_user_assigned_identity.x.client_id}" } },
      hostedCluster: { ...input().hostedCluster, releaseImage: "quay.io/x:${not-a-template}", nodePools: [] },
    });
    const manifest = kinds("HostedCluster")[0][1].manifest;
    // A literal `${...}` handed to cdktf is not a token: it must reach Terraform escaped.
    expect(manifest.spec.release.image).toBe("quay.io/x:$${not-a-template}");
    expect(manifest.spec.platform.azure.azureAuthenticationConfig.workloadIdentities.ingress.clientID).toBe(
      "$${data.azurerm_user_assigned_identity.x.client_id}",
    );
  });

  it("rejects duplicate NodePool names (as construct IDs) and an issuer URL with a trailing slash, naming them", () => {
    // The config rules report duplicates first (rules/hosted-cluster.ts); the construct IDs guard them regardless.
    const base = input({ nodePools: [{ name: "a" }] }).names;
    expect(() => synthHostedCluster({ names: { ...base, nodePools: [base.nodePools[0], base.nodePools[0]] } })).toThrow(/NodePool_a/);
    expect(() => synthHostedCluster({ issuerUrl: "https://x.blob.core.windows.net/c/" })).toThrow(/issuerUrl .* must not end with '\/'/);
  });
});

describe("HostedCluster construct with Terraform references", () => {
  it("does not escape client IDs that are tokens", () => {
    const stack = new TerraformStack(Testing.app(), "s");
    const variable = new TerraformVariable(stack, "cpo", { type: "string" });
    new HostedCluster(stack, "HostedCluster", {
      ...input(),
      identities: { kind: "workloadIdentities", clientIds: { ...CLIENT_IDS, controlPlaneOperator: variable.stringValue } },
    });
    const manifest: any = Object.values(JSON.parse(Testing.synth(stack)).resource.kubernetes_manifest)[0];
    expect(manifest.manifest.spec.platform.azure.azureAuthenticationConfig.workloadIdentities.controlPlaneOperator).toEqual({ clientID: "${var.cpo}" });
  });
});

function secretsProps(overrides: Partial<HostedClusterSecretsProps> = {}): HostedClusterSecretsProps {
  return {
    namespace: "clusters",
    names: input().names.secrets,
    pullSecret: Fn.sensitive(Fn.file("../../files/pull-secret.json")),
    signingKey: Fn.sensitive(Fn.file("../../keys/signer.private")),
    subscriptionId: "00000000-0000-0000-0000-000000000000",
    tenantId: "11111111-1111-1111-1111-111111111111",
    ...overrides,
  };
}

function synthSecrets(overrides: Partial<HostedClusterSecretsProps> = {}) {
  const stack = new TerraformStack(Testing.app(), "s");
  const secrets = new HostedClusterSecrets(stack, "Secrets", secretsProps(overrides));
  const json = JSON.parse(Testing.synth(stack));
  const byName: Record<string, any> = Object.fromEntries(
    Object.values(json.resource.kubernetes_secret_v1 as Record<string, any>).map((s) => [s.metadata.name, s]),
  );
  return { json, byName, secrets };
}

describe("HostedClusterSecrets", () => {
  const { json, byName, secrets } = synthSecrets();

  it("makes the five secrets of the CLI in the cluster's namespace, all Opaque", () => {
    expect(Object.keys(byName).sort()).toEqual([
      "hc1-cloud-credentials",
      "hc1-etcd-encryption-key",
      "hc1-pull-secret",
      "hc1-ssh-key",
      "hc1sa-token-issuer-key",
    ]);
    for (const secret of Object.values(byName)) {
      expect(secret.metadata.namespace).toBe("clusters");
      expect(secret.type).toBe("Opaque");
    }
  });

  it("reads the pull secret at plan time into .dockerconfigjson, labelled safe to delete with the cluster", () => {
    const pull = byName["hc1-pull-secret"];
    expect(pull.data_wo).toEqual({ ".dockerconfigjson": '${sensitive(file("../../files/pull-secret.json"))}' });
    expect(pull.metadata.labels["hypershift.openshift.io/safe-to-delete-with-cluster"]).toBe("true");
  });

  it("reads the signing private key at plan time into key", () => {
    expect(byName["hc1sa-token-issuer-key"].data_wo).toEqual({ key: '${sensitive(file("../../keys/signer.private"))}' });
  });

  it("writes the pull secret and the signing key write-only, with a revision of the value, and the stack requires Terraform 1.11", () => {
    for (const [name, expression] of [
      ["hc1-pull-secret", 'sensitive(file("../../files/pull-secret.json"))'],
      ["hc1sa-token-issuer-key", 'sensitive(file("../../keys/signer.private"))'],
    ]) {
      const secret = byName[name];
      expect(secret.data).toBeUndefined();
      // The revision hashes the Secret's name and the value (writeOnlyRevision; evaluated in write-only.test.ts).
      expect(secret.data_wo_revision).toMatch(/^\$\{\(parseint\(substr\(sha256\(join\("\\n", \[/);
      expect(secret.data_wo_revision).toContain(`"${name}"`);
      expect(secret.data_wo_revision).toContain(expression);
    }
    expect(json.terraform.required_version).toBe(">= 1.11");
    // A warning while a Secret switched in place still holds its old data in state.
    const address = (name: string) =>
      `kubernetes_secret_v1.${Object.entries(json.resource.kubernetes_secret_v1).find(([, s]: [string, any]) => s.metadata.name === name)![0]}`;
    const conditions = Object.values(json.check as Record<string, any>).map((c) => c.assert[0].condition);
    expect(conditions).toEqual([address("hc1-pull-secret"), address("hc1sa-token-issuer-key")].map((a) => `\${try(length(${a}.data), 0) == 0}`));
  });

  it("fills the etcd key with 32 random bytes as binary data", () => {
    const bytes = Object.entries(json.resource.random_bytes as Record<string, any>);
    expect(bytes).toHaveLength(1);
    expect(bytes[0][1]).toEqual({ length: 32 });
    expect(byName["hc1-etcd-encryption-key"].binary_data).toEqual({ key: `\${random_bytes.${bytes[0][0]}.base64}` });
    expect(byName["hc1-etcd-encryption-key"].data).toBeUndefined();
  });

  it("gives the cloud credentials the subscription and tenant", () => {
    expect(byName["hc1-cloud-credentials"].data).toEqual({
      AZURE_SUBSCRIPTION_ID: "00000000-0000-0000-0000-000000000000",
      AZURE_TENANT_ID: "11111111-1111-1111-1111-111111111111",
    });
  });

  it("without a public key file generates an RSA 4096 key: only the public half in the secret", () => {
    const keys = Object.entries(json.resource.tls_private_key as Record<string, any>);
    expect(keys).toHaveLength(1);
    expect(keys[0][1]).toEqual({ algorithm: "RSA", rsa_bits: 4096 });
    expect(byName["hc1-ssh-key"].data).toEqual({ "id_rsa.pub": `\${tls_private_key.${keys[0][0]}.public_key_openssh}` });
    expect(secrets.generatedSshPrivateKey).toBeDefined();
  });

  it("with a public key file reads it at plan time and generates nothing", () => {
    const { json: withFile, byName: named, secrets: s } = synthSecrets({ sshPublicKey: Fn.file("../../keys/id_rsa.pub") });
    expect(named["hc1-ssh-key"].data).toEqual({ "id_rsa.pub": '${file("../../keys/id_rsa.pub")}' });
    expect(withFile.resource.tls_private_key).toBeUndefined();
    expect(s.generatedSshPrivateKey).toBeUndefined();
  });

  it("holds no literal value except the subscription and tenant IDs", () => {
    for (const secret of Object.values(byName)) {
      if (secret.metadata.name === "hc1-cloud-credentials") continue;
      for (const value of Object.values({ ...secret.data, ...secret.data_wo, ...secret.binary_data }) as string[]) expect(value).toMatch(/^\$\{.*\}$/);
    }
  });

  it("refuses a literal secret value (it would land in the synthesized JSON), naming the prop", () => {
    expect(() => synthSecrets({ pullSecret: '{"auths":{}}' })).toThrow(/pullSecret must be a Terraform expression/);
    expect(() => synthSecrets({ signingKey: "-----BEGIN RSA PRIVATE KEY-----" })).toThrow(/signingKey must be a Terraform expression/);
  });
});
