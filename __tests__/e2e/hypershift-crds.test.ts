import * as fs from "node:fs";
import * as path from "node:path";
import { checkManifests, HAVE_CRDS, hostedClusterSpec, loadInline, minimalConfig, RELEASE_IMAGE, tempDir, synthClusterStackInto } from "../helpers";

/**
 * The synthesized HostedClusters and NodePools against HyperShift's real CRDs, with the shared
 * check-manifests tool (structural schema, enums, patterns, simple CEL). Where the shared folder
 * is absent, the schema-independent shape checks below still run and the CRD suite shows as skipped.
 */

/** The brief's cluster: no ExternalDNS, one NodePool with the release's image. */
const basic = () =>
  loadInline(
    minimalConfig({
      clusters: [
        {
          name: "hc1",
          hostedCluster: {
            ...hostedClusterSpec(),
            nodePools: [{ name: "hc1" }],
          },
        },
      ],
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
    }),
  );

/** Every option that changes the manifests: ExternalDNS, CPO and KMS identities, HA, etcd class, machine network, image options, zone. */
const full = () =>
  loadInline(
    minimalConfig({
      prefix: "myprefix",
      dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } },
      externalDns: {},
      clusters: [
        {
          name: "hc2",
          identities: { controlPlaneOperator: true, kms: true },
          hostedCluster: {
            releaseImage: RELEASE_IMAGE,
            baseDomain: "example.com",
            pullSecretFile: "pull-secret.json",
            sshPublicKeyFile: "keys/id_rsa.pub",
            controllerAvailabilityPolicy: "HighlyAvailable",
            etcd: { storageSize: "16Gi", storageClassName: "managed-csi" },
            network: { machineNetwork: "10.0.0.0/16" },
            nodePools: [
              { name: "hc2-gen1", imageGeneration: "Gen1", availabilityZone: "2", diagnostics: "Disabled", replicas: 0 },
              {
                name: "hc2-mp",
                marketplace: { publisher: "azureopenshift", offer: "aro4", sku: "aro_419", version: "419.6.20250523" },
                vmSize: "Standard_D8s_v5",
              },
              { name: "hc2-az3", availabilityZone: "3", osDisk: { sizeGiB: 64, storageAccountType: "StandardSSD_LRS" } },
            ],
          },
        },
      ],
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" } },
    }),
  );

const out = tempDir("hcp-azure-crds-");
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
const synthesized = [synthClusterStackInto(basic(), path.join(out, "basic")), synthClusterStackInto(full(), path.join(out, "full"))];
const manifests = synthesized.flatMap((stack) => Object.values(stack.resource.kubernetes_manifest as Record<string, any>).map((r) => r.manifest));
const hostedClusters = manifests.filter((m) => m.kind === "HostedCluster");
const nodePools = manifests.filter((m) => m.kind === "NodePool");

/** A Terraform template (`${...}`, not the escaped `$${`): unknown until apply, as the tool treats it. */
const isReference = (value: unknown) => typeof value === "string" && /(^|[^$])\$\{/.test(value);

/** Paths of every value in `value`, with references listed separately. */
function leaves(value: unknown, at = ""): { path: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((child, i) => leaves(child, `${at}[${i}]`));
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([key, child]) => leaves(child, at ? `${at}.${key}` : key));
  return [{ path: at, value }];
}

const missing = (object: any, fields: readonly string[]) => fields.filter((field) => object?.[field] === undefined || object[field] === "");

describe("HyperShift manifests: shape (schema-independent)", () => {
  it("synthesizes two HostedClusters and four NodePools, none with status (kubernetes_manifest rejects it)", () => {
    expect(hostedClusters).toHaveLength(2);
    expect(nodePools).toHaveLength(4);
    for (const m of manifests) {
      expect(m.apiVersion).toBe("hypershift.openshift.io/v1beta1");
      expect(m.status).toBeUndefined();
      expect(m.metadata.namespace).toBe("clusters");
    }
  });

  it("HostedClusters have the fields the CRD and its Azure rules require", () => {
    for (const hc of hostedClusters) {
      expect(missing(hc.spec, ["etcd", "networking", "platform", "pullSecret", "release", "services", "issuerURL", "infraID"])).toEqual([]);
      const azure = hc.spec.platform.azure;
      expect(
        missing(azure, ["azureAuthenticationConfig", "location", "resourceGroup", "securityGroupID", "subnetID", "subscriptionID", "tenantID", "vnetID"]),
      ).toEqual([]);
      expect(
        missing(azure.azureAuthenticationConfig.workloadIdentities, [
          "imageRegistry",
          "ingress",
          "file",
          "disk",
          "nodePoolManagement",
          "cloudProvider",
          "network",
        ]),
      ).toEqual([]);
      expect(azure.subnetID.split("/")).toHaveLength(11);
      const strategy = (service: string) => hc.spec.services.find((s: any) => s.service === service)?.servicePublishingStrategy.type;
      // CEL on Azure: at least 4 services; Konnectivity and Ignition as Routes; OAuth Route or LoadBalancer.
      expect(hc.spec.services.length).toBeGreaterThanOrEqual(4);
      expect([strategy("Konnectivity"), strategy("Ignition")]).toEqual(["Route", "Route"]);
      expect(["Route", "LoadBalancer"]).toContain(strategy("OAuthServer"));
    }
  });

  it("NodePools have the required fields and an image the CEL accepts (a generation, or all four marketplace fields)", () => {
    for (const pool of nodePools) {
      expect(missing(pool.spec, ["clusterName", "management", "platform", "release"])).toEqual([]);
      const azure = pool.spec.platform.azure;
      expect(missing(azure, ["vmSize", "image", "osDisk", "subnetID"])).toEqual([]);
      const marketplace = azure.image.azureMarketplace;
      const given = ["publisher", "offer", "sku", "version"].filter((field) => marketplace[field] !== undefined);
      expect([0, 4]).toContain(given.length);
      expect(marketplace.imageGeneration !== undefined || given.length === 4).toBe(true);
      if (azure.availabilityZone !== undefined) expect(["1", "2", "3"]).toContain(azure.availabilityZone);
    }
  });

  it("only the client IDs are Terraform references", () => {
    const references = manifests.flatMap((m) =>
      leaves(m)
        .filter((leaf) => isReference(leaf.value))
        .map((leaf) => leaf.path),
    );
    // Eight in each: the seven required identities and the control-plane operator (on by default).
    expect(references).toHaveLength(8 + 8);
    for (const reference of references) expect(reference).toMatch(/^spec\.platform\.azure\.azureAuthenticationConfig\.workloadIdentities\.\w+\.clientID$/);
  });
});

(HAVE_CRDS ? describe : describe.skip)("HyperShift manifests: the real CRDs (../shared/tools/check-manifests.mjs)", () => {
  it("every HostedCluster and NodePool passes, with only the client IDs left unchecked", async () => {
    const result = await checkManifests(out);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^checked 6 manifests \(HostedCluster: 2, NodePool: 4\), 0 errors, 16 unchecked tokens, /m);
    expect(result.status).toBe(0);
  });

  it("the check catches a manifest that breaks the schema (so the test above can fail)", async () => {
    const broken = structuredClone(hostedClusters[0]);
    delete broken.spec.platform.azure.vnetID;
    broken.spec.platform.azure.topology = "Internal";
    // As Terraform JSON, so the client-ID references are read as the tool reads synthesized stacks.
    const file = path.join(tempDir("hcp-azure-crds-broken-"), "cdk.tf.json");
    fs.writeFileSync(file, JSON.stringify({ resource: { kubernetes_manifest: { broken: { manifest: broken } } } }));
    const result = await checkManifests(file);
    expect(result.stdout).toMatch(/vnetID/);
    expect(result.stdout).toMatch(/topology/);
    expect(result.stdout).toMatch(/ 2 errors, /);
    expect(result.status).toBe(1);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
