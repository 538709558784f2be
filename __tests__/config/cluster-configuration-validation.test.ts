import { ConfigErrors, LoadedConfig, validateConfig } from "../../config/load";
import { imageRepository, registryCovers } from "../../config/rules/cluster-configuration";
import { EXAMPLES, hostedClusterSpec, minimalConfig } from "../helpers";

/**
 * Config validation of the day-1 configuration (issue 25 items 2 and 4): each bad value is refused
 * with an issue naming its field (the CRD's rules and OpenShift's), each good one accepted.
 */

type RawConfig = Record<string, any>;
const HC = "clusters[0].hostedCluster";
const IDENTITY =
  "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/prod-shared-rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/prod-acr-pull";

function validate(hosted: Record<string, unknown>): LoadedConfig | ConfigErrors {
  const config: RawConfig = minimalConfig({
    clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), nodePools: [{ name: "hc1" }], ...hosted } }],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
  });
  return validateConfig(config, EXAMPLES);
}

const bad: [string, Record<string, unknown>, string, RegExp][] = [
  ["proxy without a URL", { proxy: { noProxy: [".corp"] } }, `${HC}.proxy`, /needs httpProxy or httpsProxy/],
  ["proxy URL with credentials", { proxy: { httpProxy: "http://user:pw@proxy:3128" } }, `${HC}.proxy.httpProxy`, /must not hold credentials/],
  ["https scheme for httpProxy", { proxy: { httpProxy: "https://proxy:3128" } }, `${HC}.proxy.httpProxy`, /scheme http\)/],
  ["noProxy with a comma", { proxy: { httpProxy: "http://p:1", noProxy: ["a,b"] } }, `${HC}.proxy.noProxy[0]`, /no commas/],
  [
    "trusted CA without the bundle",
    { proxy: { httpProxy: "http://p:1", trustAdditionalTrustBundle: true } },
    `${HC}.proxy.trustAdditionalTrustBundle`,
    /needs additionalTrustBundleFile/,
  ],
  ["allow-list with a host", { apiServer: { allowedCIDRBlocks: ["203.0.113.1"] } }, `${HC}.apiServer.allowedCIDRBlocks[0]`, /CIDR/],
  ["allow-list repeated", { apiServer: { allowedCIDRBlocks: ["10.0.0.0/8", "10.0.0.0/8"] } }, `${HC}.apiServer.allowedCIDRBlocks`, /must not repeat/],
  ["unknown audit profile", { apiServer: { auditProfile: "Verbose" } }, `${HC}.apiServer.auditProfile`, /must be one of/],
  [
    "Custom TLS without ciphers",
    { apiServer: { tlsSecurityProfile: { type: "Custom", minTLSVersion: "VersionTLS12" } } },
    `${HC}.apiServer.tlsSecurityProfile`,
    /needs ciphers and minTLSVersion/,
  ],
  [
    "Modern TLS with ciphers",
    { apiServer: { tlsSecurityProfile: { type: "Modern", ciphers: ["X"] } } },
    `${HC}.apiServer.tlsSecurityProfile`,
    /only with type Custom/,
  ],
  [
    "allowed and blocked registries",
    { imagePolicy: { allowedRegistries: ["quay.io"], blockedRegistries: ["docker.io"] } },
    `${HC}.imagePolicy.blockedRegistries`,
    /only one of/,
  ],
  [
    "allowed registries without the release's",
    { imagePolicy: { allowedRegistries: ["registry.redhat.io"] } },
    `${HC}.imagePolicy.allowedRegistries`,
    /could not pull the release/,
  ],
  [
    "blocked release registry",
    { imagePolicy: { blockedRegistries: ["quay.io/openshift-release-dev"] } },
    `${HC}.imagePolicy.blockedRegistries`,
    /could not pull the release/,
  ],
  ["registry with a tag", { imagePolicy: { insecureRegistries: ["quay.io/a:latest"] } }, `${HC}.imagePolicy.insecureRegistries[0]`, /registry scope/],
  ["four expanders", { autoscaling: { expanders: ["Priority", "LeastWaste", "Random", "Priority"] } }, `${HC}.autoscaling.expanders`, /repeat|at most 3/],
  [
    "scaleDown with ScaleUpOnly",
    { autoscaling: { scaling: "ScaleUpOnly", scaleDown: { delayAfterAddSeconds: 60 } } },
    `${HC}.autoscaling.scaleDown`,
    /ScaleUpAndScaleDown/,
  ],
  ["delay over a day", { autoscaling: { scaleDown: { unneededDurationSeconds: 86401 } } }, `${HC}.autoscaling.scaleDown.unneededDurationSeconds`, /86400/],
  ["bad provision time", { autoscaling: { maxNodeProvisionTime: "15 minutes" } }, `${HC}.autoscaling.maxNodeProvisionTime`, /Go duration/],
  [
    "disabled source with all off",
    { olmDisableDefaultSources: true, operatorHub: { disabledSources: ["community-operators"] } },
    `${HC}.operatorHub.disabledSources`,
    /already switches off/,
  ],
  ["unknown catalog source", { operatorHub: { disabledSources: ["my-catalog"] } }, `${HC}.operatorHub.disabledSources[0]`, /must be one of/],
  ["ingress domain with upper case", { ingress: { domain: "Apps.example.com" } }, `${HC}.ingress.domain`, /lowercase DNS name/],
  [
    "ACR identity of another type",
    { containerRegistry: { managedIdentityId: IDENTITY.replace("userAssignedIdentities", "identities") } },
    `${HC}.containerRegistry.managedIdentityId`,
    /full ARM ID/,
  ],
];

describe("day-1 cluster configuration validation", () => {
  it.each(bad)("refuses %s", (_name, hosted, path, message) => {
    const result = validate(hosted);
    if (result.ok) throw new Error("accepted");
    const issues = result.issues.filter((i) => i.path === path);
    expect(issues.map((i) => i.message)).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
  });

  it("never echoes a proxy password", () => {
    const result = validate({ proxy: { httpProxy: "http://user:s3cret@proxy:3128" } }) as ConfigErrors;
    expect(JSON.stringify(result.issues)).not.toContain("s3cret");
  });

  it("accepts the production example's sections", () => {
    const result = validate({
      additionalTrustBundleFile: "ca/example-ca-bundle.pem",
      proxy: {
        httpProxy: "http://proxy:3128",
        httpsProxy: "https://proxy:3129",
        noProxy: [".corp.example.com", "192.168.0.0/16", "fd00::/8"],
        trustAdditionalTrustBundle: true,
      },
      apiServer: {
        allowedCIDRBlocks: ["203.0.113.0/24", "2001:db8::/64"],
        auditProfile: "None",
        tlsSecurityProfile: { type: "Custom", minTLSVersion: "VersionTLS12", ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"] },
      },
      imagePolicy: { allowedRegistries: ["quay.io", "*.corp.example.com"], allowedRegistriesForImport: [{ domainName: "quay.io", insecure: false }] },
      scheduler: { profile: "NoScoring" },
      operatorHub: { disabledSources: ["community-operators", "redhat-marketplace"] },
      ingress: { domain: "apps.corp.example.com", appsDomain: "apps2.corp.example.com" },
      autoscaling: { scaling: "ScaleUpAndScaleDown", maxNodesTotal: 0, expanders: ["LeastWaste"], balancingIgnoredLabels: ["topology.kubernetes.io/zone"] },
      containerRegistry: { managedIdentityId: IDENTITY },
    });
    expect(result.ok ? [] : result.issues).toEqual([]);
  });

  it.each([
    ["quay.io", "quay.io/openshift-release-dev/ocp-release", true],
    ["quay.io/openshift-release-dev", "quay.io/openshift-release-dev/ocp-release", true],
    ["quay.io/openshift", "quay.io/openshift-release-dev/ocp-release", false],
    ["*.example.com", "mirror.example.com:5000/ocp/release", true],
    ["*.example.com", "example.com/ocp/release", false],
  ])("registry scope %s covers %s: %s", (scope, repository, covers) => {
    expect(registryCovers(scope, repository)).toBe(covers);
  });

  it("reads an image's repository without tag or digest, keeping the registry port", () => {
    expect(imageRepository("mirror.example.com:5000/ocp/release:4.21.0-x86_64")).toBe("mirror.example.com:5000/ocp/release");
    expect(imageRepository(`quay.io/ocp/release@sha256:${"a".repeat(64)}`)).toBe("quay.io/ocp/release");
  });
});
