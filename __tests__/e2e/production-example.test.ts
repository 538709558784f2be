import * as fs from "node:fs";
import { parse } from "yaml";
import { synthesize } from "../../stacks/app";
import { checkManifests, HAVE_CRDS, loadExample, resources, synthStacks, tempDir } from "../helpers";

/**
 * examples/production.yaml is issue 25's "done" example: a HostedCluster with Entra sign-in, a
 * proxy, an API server allow-list, an image policy and ACR pulls, and NodePools with labels,
 * taints, kubelet config and surge settings; every manifest passes the real CRDs.
 */
const loaded = loadExample("production.yaml");
const cluster = loaded.names.clusters[0];
const stack = synthStacks(loaded)[cluster.hosted?.clusterStack as string];
const manifests = resources(stack, "kubernetes_manifest").map((r) => r.manifest);
const hostedCluster = manifests.find((m) => m.kind === "HostedCluster");
const nodePools = manifests.filter((m) => m.kind === "NodePool");
const pool = (name: string) => nodePools.find((p) => p.metadata.name === name);

describe("examples/production.yaml: the HostedCluster", () => {
  it("signs users in with Entra ID (an OpenID provider whose client secret is a Secret)", () => {
    const [entra, breakGlass] = hostedCluster.spec.configuration.oauth.identityProviders;
    expect(entra).toMatchObject({
      name: "entra",
      type: "OpenID",
      openID: { issuer: `https://login.microsoftonline.com/${loaded.config.tenantId}/v2.0`, clientSecret: { name: "prod-hc1-entra-client-secret" } },
    });
    expect(breakGlass).toMatchObject({ type: "HTPasswd" });
    expect(resources(stack, "azuread_application")).toHaveLength(1);
  });

  it("egresses through the proxy, trusting the additional trust bundle", () => {
    expect(hostedCluster.spec.configuration.proxy).toMatchObject({
      httpProxy: "http://proxy.corp.example.com:3128",
      httpsProxy: "http://proxy.corp.example.com:3128",
      trustedCA: { name: "prod-hc1-user-ca-bundle" },
    });
    expect(hostedCluster.spec.configuration.proxy.noProxy).toContain(".corp.example.com");
  });

  it("limits the API server to the allow-list, images to the trusted registries, and pulls from ACR by identity", () => {
    expect(hostedCluster.spec.networking.apiServer.allowedCIDRBlocks).toEqual(["203.0.113.0/24", "198.51.100.10/32"]);
    expect(hostedCluster.spec.configuration.image.registrySources.allowedRegistries).toContain("registry.redhat.io");
    expect(hostedCluster.spec.configuration.image.allowedRegistriesForImport).toContainEqual({ domainName: "quay.io" });
    expect(hostedCluster.spec.platform.azure.containerRegistry).toEqual({
      credentials: { type: "ManagedIdentity", managedIdentity: { resourceID: loaded.config.clusters[0].hostedCluster?.containerRegistry?.managedIdentityId } },
    });
    expect(hostedCluster.spec.platform.azure.containerRegistry.credentials.managedIdentity.resourceID).toMatch(/\/userAssignedIdentities\/prod-acr-pull$/);
  });
});

describe("examples/production.yaml: the NodePools", () => {
  it("labels both pools and taints the batch pool", () => {
    expect(pool("prod-hc1-workers").spec.nodeLabels).toEqual({ "example.com/pool": "general" });
    expect(pool("prod-hc1-workers").spec.taints).toBeUndefined();
    expect(pool("prod-hc1-batch").spec.nodeLabels).toEqual({ "example.com/pool": "batch" });
    expect(pool("prod-hc1-batch").spec.taints).toEqual([{ key: "example.com/workload", value: "batch", effect: "NoSchedule" }]);
  });

  it("rolls out by surge only", () => {
    expect(pool("prod-hc1-workers").spec.management.replace).toEqual({ strategy: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    expect(pool("prod-hc1-batch").spec.management.replace.rollingUpdate).toEqual({ maxSurge: "25%", maxUnavailable: 0 });
  });

  it("gives each pool a config ConfigMap with its KubeletConfig (and CRI-O config for batch)", () => {
    const configMaps = resources(stack, "kubernetes_config_map_v1");
    for (const [name, kinds] of [
      ["prod-hc1-workers", ["KubeletConfig"]],
      ["prod-hc1-batch", ["KubeletConfig", "ContainerRuntimeConfig"]],
    ] as const) {
      expect(pool(name).spec.config).toEqual([{ name: `${name}-config` }]);
      const configMap = configMaps.find((c) => c.metadata.name === `${name}-config`);
      expect(configMap.metadata.namespace).toBe(pool(name).metadata.namespace);
      const documents = String(configMap.data.config)
        .split(/^---$/m)
        .map((text) => parse(text))
        .filter(Boolean);
      expect(documents.map((d) => d.kind)).toEqual(kinds);
    }
    const workersKubelet = parse(
      resources(stack, "kubernetes_config_map_v1")
        .find((c) => c.metadata.name === "prod-hc1-workers-config")
        .data.config.split(/^---$/m)[0],
    );
    expect(workersKubelet.spec.kubeletConfig).toMatchObject({ maxPods: 250, systemReserved: { cpu: "500m", memory: "2Gi" } });
  });
});

(HAVE_CRDS ? describe : describe.skip)("examples/production.yaml against the HyperShift CRDs", () => {
  const out = tempDir("hcp-azure-production-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it("passes every HostedCluster and NodePool (schema and CEL)", async () => {
    synthesize(loaded, out);
    const run = await checkManifests(out);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^checked \d+ manifests \(HostedCluster: 1, NodePool: 2\), 0 errors, /m);
    expect(run.stdout).not.toMatch(/\(\d*[1-9]\d* failed\)/);
    expect(run.status).toBe(0);
  });
});
