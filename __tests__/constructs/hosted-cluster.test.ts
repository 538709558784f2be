import { TerraformStack, TerraformVariable, Testing } from "cdktf";
import { HostedCluster, HostedClusterNodePool, HostedClusterProps } from "../../constructs/hosted-cluster/hosted-cluster";
import { HostedClusterSecrets } from "../../constructs/hosted-cluster/hosted-cluster-secrets";
import { CLIENT_IDS, RELEASE_IMAGE } from "../helpers";
import { input, secretsProps } from "./hosted-cluster-fixtures";

/** A HostedCluster construct (with two NodePools) in its own stack, synthesized. */
function synthHostedCluster(overrides: Partial<HostedClusterProps> = {}, hosted: Record<string, unknown> = {}) {
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
      releaseImage: "quay.io/x:${not-a-template}",
      nodePools: [],
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
    const [pool] = input({ nodePools: [{ name: "a" }] }).nodePools!;
    expect(() => synthHostedCluster({ nodePools: [pool, pool] })).toThrow(/NodePool_a/);
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

describe("HostedCluster construct from plain props, without a config", () => {
  const SUBNET = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/workers";
  const pool = (name: string, own: { releaseImage?: string; subnetId?: string } = {}): HostedClusterNodePool => ({
    name,
    replicas: 1,
    arch: "amd64",
    autoRepair: false,
    upgradeType: "Replace",
    nodeDrainTimeout: "0s",
    nodeVolumeDetachTimeout: "0s",
    vmSize: "Standard_D4s_v5",
    imageGeneration: "Gen2",
    osDisk: { sizeGiB: 120, storageAccountType: "Premium_LRS" },
    diagnostics: "Managed",
    ...own,
  });
  const props: HostedClusterProps = {
    name: "plain",
    namespace: "ns",
    releaseImage: RELEASE_IMAGE,
    infraId: "plain-abcde",
    issuerUrl: "https://issuer.example.com/plain",
    secrets: { pullSecret: "p", sshKey: "s", signingKey: "k", etcdEncryptionKey: "e" },
    networking: { networkType: "OVNKubernetes", clusterNetwork: "10.132.0.0/14", serviceNetwork: "172.31.0.0/16" },
    etcd: { storageSize: "8Gi" },
    controllerAvailabilityPolicy: "SingleReplica",
    olmCatalogPlacement: "management",
    fips: false,
    dns: { baseDomain: "example.com", publicZoneId: "public-zone", privateZoneId: "private-zone" },
    azure: {
      location: "eastus",
      subscriptionId: "s",
      tenantId: "t",
      resourceGroup: "managed",
      vnetId: "vnet",
      subnetId: SUBNET,
      securityGroupId: "nsg",
    },
    identities: { kind: "workloadIdentities", clientIds: CLIENT_IDS },
    nodePools: [pool("defaults"), pool("own", { releaseImage: "quay.io/x/older:4.19", subnetId: `${SUBNET}-2` })],
    availableTimeout: "45m",
    kubeconfigSecretName: "plain-admin-kubeconfig",
  };
  const stack = new TerraformStack(Testing.app(), "s");
  new HostedCluster(stack, "HostedCluster", props);
  const manifests = Object.values(JSON.parse(Testing.synth(stack)).resource.kubernetes_manifest as Record<string, any>).map((m) => m.manifest);
  const byName = (name: string) => manifests.find((m) => m.metadata.name === name);

  it("renders the HostedCluster with the defaults of its optional props: Public, no options, AES-CBC", () => {
    const hc = byName("plain");
    expect(hc.metadata).toEqual({ name: "plain", namespace: "ns" });
    expect(hc.spec.platform.azure.topology).toBe("Public");
    expect(hc.spec.secretEncryption).toEqual({ type: "aescbc", aescbc: { activeKey: { name: "e" } } });
    expect(hc.spec.services[0]).toEqual({ service: "APIServer", servicePublishingStrategy: { type: "LoadBalancer" } });
  });

  it("gives a NodePool the HostedCluster's release image and subnet unless it has its own", () => {
    expect([byName("defaults").spec.release.image, byName("defaults").spec.platform.azure.subnetID]).toEqual([RELEASE_IMAGE, SUBNET]);
    expect([byName("own").spec.release.image, byName("own").spec.platform.azure.subnetID]).toEqual(["quay.io/x/older:4.19", `${SUBNET}-2`]);
    expect(byName("own").spec.clusterName).toBe("plain");
  });
});
