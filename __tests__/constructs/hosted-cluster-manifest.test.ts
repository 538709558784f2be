import { hostedClusterManifest } from "../../constructs/hosted-cluster/hosted-cluster-manifest";
import { nodePoolManifest } from "../../constructs/hosted-cluster/node-pool-manifest";
import { CLIENT_IDS, RELEASE_IMAGE } from "../helpers";
import { input, nodePoolInput, spec } from "./hosted-cluster-fixtures";

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
