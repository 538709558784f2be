import { mergeConfiguration, NO_PROXY_ADDED_BY_HYPERSHIFT } from "../../constructs/hosted-cluster/cluster-configuration";
import { hostedClusterManifest } from "../../constructs/hosted-cluster/hosted-cluster-manifest";
import { input, spec } from "./hosted-cluster-fixtures";

/** The day-1 configuration keys rendered into the HostedCluster (issue 25 items 2 and 4), exactly. */

const IDENTITY =
  "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/prod-shared-rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/prod-acr-pull";

describe("cluster configuration rendering", () => {
  it("writes nothing when no key is set (existing clusters' objects do not change)", () => {
    const s = spec(hostedClusterManifest(input()));
    expect(s.configuration).toBeUndefined();
    expect(s.autoscaling).toBeUndefined();
    expect(s.networking.apiServer).toBeUndefined();
    expect(s.platform.azure.containerRegistry).toBeUndefined();
  });

  it("writes the proxy with the user's noProxy, the created VNet, and the trust bundle as trustedCA", () => {
    const s = spec(
      hostedClusterManifest(
        input({
          additionalTrustBundleFile: "ca/example-ca-bundle.pem",
          network: { vnetCidr: "10.20.0.0/16", subnetCidr: "10.20.0.0/24" },
          proxy: {
            httpProxy: "http://proxy:3128",
            noProxy: [".corp.example.com"],
            readinessEndpoints: ["http://example.com"],
            trustAdditionalTrustBundle: true,
          },
        }),
      ),
    );
    expect(s.configuration).toEqual({
      proxy: {
        httpProxy: "http://proxy:3128",
        noProxy: ".corp.example.com,10.20.0.0/16",
        readinessEndpoints: ["http://example.com"],
        trustedCA: { name: "hc1-user-ca-bundle" },
      },
    });
    expect(s.additionalTrustBundle).toEqual({ name: "hc1-user-ca-bundle" });
  });

  it("does not repeat what HyperShift adds to noProxy (the machine network equal to the VNet)", () => {
    const s = spec(
      hostedClusterManifest(input({ network: { vnetCidr: "10.0.0.0/16", machineNetwork: "10.0.0.0/16" }, proxy: { httpsProxy: "https://proxy:3128" } })),
    );
    expect(s.configuration.proxy).toEqual({ httpsProxy: "https://proxy:3128" });
    expect(NO_PROXY_ADDED_BY_HYPERSHIFT).toContain(".cluster.local");
  });

  it("writes the API server, image, scheduler, OperatorHub and ingress sections, and merges OperatorHub with olmDisableDefaultSources' section", () => {
    const s = spec(
      hostedClusterManifest(
        input({
          featureSet: "TechPreviewNoUpgrade",
          apiServer: {
            allowedCIDRBlocks: ["203.0.113.0/24"],
            auditProfile: "WriteRequestBodies",
            tlsSecurityProfile: { type: "Custom", minTLSVersion: "VersionTLS12", ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"] },
          },
          imagePolicy: { blockedRegistries: ["docker.io"], allowedRegistriesForImport: [{ domainName: "quay.io", insecure: false }] },
          scheduler: { profile: "HighNodeUtilization" },
          operatorHub: { disabledSources: ["community-operators"] },
          ingress: { appsDomain: "apps.corp.example.com" },
        }),
      ),
    );
    expect(s.networking.apiServer).toEqual({ allowedCIDRBlocks: ["203.0.113.0/24"] });
    expect(s.configuration).toEqual({
      featureGate: { featureSet: "TechPreviewNoUpgrade" },
      apiServer: {
        audit: { profile: "WriteRequestBodies" },
        tlsSecurityProfile: { type: "Custom", custom: { ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"], minTLSVersion: "VersionTLS12" } },
      },
      image: { allowedRegistriesForImport: [{ domainName: "quay.io", insecure: false }], registrySources: { blockedRegistries: ["docker.io"] } },
      ingress: { appsDomain: "apps.corp.example.com" },
      operatorhub: { sources: [{ name: "community-operators", disabled: true }] },
      scheduler: { profile: "HighNodeUtilization" },
    });
  });

  it("writes a named TLS profile with its empty profile object, as OpenShift does", () => {
    const s = spec(hostedClusterManifest(input({ apiServer: { tlsSecurityProfile: { type: "Modern" } } })));
    expect(s.configuration.apiServer).toEqual({ tlsSecurityProfile: { type: "Modern", modern: {} } });
  });

  it("writes the autoscaler and ACR pulls by managed identity", () => {
    const s = spec(
      hostedClusterManifest(
        input({
          autoscaling: { maxNodesTotal: 20, scaling: "ScaleUpAndScaleDown", expanders: ["Priority"], scaleDown: { utilizationThresholdPercent: 40 } },
          containerRegistry: { managedIdentityId: IDENTITY },
        }),
      ),
    );
    expect(s.autoscaling).toEqual({
      expanders: ["Priority"],
      maxNodesTotal: 20,
      scaleDown: { utilizationThresholdPercent: 40 },
      scaling: "ScaleUpAndScaleDown",
    });
    expect(s.platform.azure.containerRegistry).toEqual({ credentials: { type: "ManagedIdentity", managedIdentity: { resourceID: IDENTITY } } });
  });

  it("merges configuration pieces and refuses two pieces writing one field", () => {
    expect(mergeConfiguration({ operatorhub: { disableAllDefaultSources: true } }, { operatorhub: { sources: [] } }, {})).toEqual({
      operatorhub: { disableAllDefaultSources: true, sources: [] },
    });
    expect(() => mergeConfiguration({ oauth: { a: 1 } }, { oauth: { a: 2 } })).toThrow(/written by two functions/);
  });
});
