import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { ConfigErrors, formatIssues, LoadedConfig, validateConfig } from "../../config/load";
import { releaseVersion } from "../../config/release-version";
import { EXAMPLES, hostedClusterSpec, minimalConfig } from "../helpers";

/**
 * Config validation of the `create cluster azure` options (issue 13 items 1 and 3): each bad value
 * is refused with an issue naming its field, each good one accepted. The rules mirror the CLI's
 * checks and the CRD's (openshift/hypershift@3ee9615 cmd/cluster/core/create.go,
 * cmd/cluster/azure/create.go, api/hypershift/v1beta1/hostedcluster_types.go).
 */

type RawConfig = Record<string, any>;
const HC = "clusters[0].hostedCluster";
const RELEASE_419 = "quay.io/openshift-release-dev/ocp-release:4.19.3-x86_64";
const MARKETPLACE = { publisher: "azureopenshift", offer: "aro4", sku: "aro_419", version: "419.6.20250523" };

function base(): RawConfig {
  return minimalConfig({
    clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), nodePools: [{ name: "hc1" }] } }],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
  });
}
const hc = (c: RawConfig) => c.clusters[0].hostedCluster;

function validate(mutate: (c: RawConfig) => void): LoadedConfig | ConfigErrors {
  const config = base();
  mutate(config);
  return validateConfig(config, EXAMPLES);
}

interface BadCase {
  readonly name: string;
  readonly mutate: (c: RawConfig) => void;
  readonly path: string;
  readonly message: RegExp;
}

const bad: BadCase[] = [
  {
    name: "apiServerDnsName with upper case",
    mutate: (c) => (hc(c).apiServerDnsName = "API.example.com"),
    path: `${HC}.apiServerDnsName`,
    message: /lowercase DNS name/,
  },
  {
    name: "apiServerDnsName longer than 253",
    mutate: (c) => (hc(c).apiServerDnsName = `${"a".repeat(60)}.`.repeat(5) + "com"),
    path: `${HC}.apiServerDnsName`,
    message: /253/,
  },
  {
    name: "apiServerDnsName before 4.19",
    mutate: (c) =>
      Object.assign(hc(c), { apiServerDnsName: "api.example.com", releaseImage: "quay.io/openshift-release-dev/ocp-release:4.18.9-x86_64", nodePools: [] }),
    path: `${HC}.apiServerDnsName`,
    message: /no effect before OpenShift 4\.19/,
  },
  {
    name: "oauthPublishing NodePort",
    mutate: (c) => (hc(c).oauthPublishing = "NodePort"),
    path: `${HC}.oauthPublishing`,
    message: /must be one of Route, LoadBalancer/,
  },
  {
    name: "additionalTrustBundleFile missing",
    mutate: (c) => (hc(c).additionalTrustBundleFile = "ca/missing.pem"),
    path: `${HC}.additionalTrustBundleFile`,
    message: /file not found/,
  },
  {
    name: "additionalTrustBundleFile without a certificate",
    mutate: (c) => (hc(c).additionalTrustBundleFile = "keys/example-signer.public"),
    path: `${HC}.additionalTrustBundleFile`,
    message: /holds no PEM certificate/,
  },
  {
    name: "apiServerDnsName ending in digits (the CRD's pattern wants a letter TLD)",
    mutate: (c) => (hc(c).apiServerDnsName = "api.example.123"),
    path: `${HC}.apiServerDnsName`,
    message: /top-level domain/,
  },
  {
    name: "imageContentSources with a repeated mirror",
    mutate: (c) => (hc(c).imageContentSources = [{ source: "quay.io/a", mirrors: ["m.example.com/a", "m.example.com/a"] }]),
    path: `${HC}.imageContentSources[0].mirrors`,
    message: /must not repeat a mirror/,
  },
  {
    name: "imageContentSources entry without source",
    mutate: (c) => (hc(c).imageContentSources = [{ mirrors: ["m.example.com/r"] }]),
    path: `${HC}.imageContentSources[0].source`,
    message: /required/,
  },
  {
    name: "imageContentSources source over 255",
    mutate: (c) => (hc(c).imageContentSources = [{ source: "q".repeat(256) }]),
    path: `${HC}.imageContentSources[0].source`,
    message: /255/,
  },
  { name: "fips as a string", mutate: (c) => (hc(c).fips = "yes"), path: `${HC}.fips`, message: /boolean/ },
  {
    name: "infrastructureAvailabilityPolicy lower case",
    mutate: (c) => (hc(c).infrastructureAvailabilityPolicy = "highlyAvailable"),
    path: `${HC}.infrastructureAvailabilityPolicy`,
    message: /must be one of/,
  },
  {
    name: "an unknown capability",
    mutate: (c) => (hc(c).capabilities = { disabled: ["Monitoring"] }),
    path: `${HC}.capabilities.disabled[0]`,
    message: /must be one of ImageRegistry/,
  },
  {
    name: "a capability both enabled and disabled",
    mutate: (c) => (hc(c).capabilities = { enabled: ["Insights"], disabled: ["Insights"] }),
    path: `${HC}.capabilities.disabled`,
    message: /also in capabilities.enabled/,
  },
  {
    name: "Ingress disabled without Console",
    mutate: (c) => (hc(c).capabilities = { disabled: ["Ingress"] }),
    path: `${HC}.capabilities.disabled`,
    message: /only together with Console/,
  },
  {
    name: "Insights disabled before 4.20",
    mutate: (c) => Object.assign(hc(c), { capabilities: { disabled: ["ImageRegistry", "Insights"] }, releaseImage: RELEASE_419, nodePools: [] }),
    path: `${HC}.capabilities.disabled`,
    message: /needs OpenShift 4\.20/,
  },
  {
    name: "featureSet CustomNoUpgrade (the CLI refuses it)",
    mutate: (c) => (hc(c).featureSet = "CustomNoUpgrade"),
    path: `${HC}.featureSet`,
    message: /must be one of TechPreviewNoUpgrade, DevPreviewNoUpgrade/,
  },
  {
    name: "networkType OpenShiftSDN",
    mutate: (c) => (hc(c).networkType = "OpenShiftSDN"),
    path: `${HC}.networkType`,
    message: /must be one of OVNKubernetes, Other/,
  },
  {
    name: "annotation key with a space",
    mutate: (c) => (hc(c).annotations = { "bad key": "x" }),
    path: `${HC}.annotations["bad key"]`,
    message: /annotation key/,
  },
  { name: "label value over 63", mutate: (c) => (hc(c).labels = { team: "x".repeat(64) }), path: `${HC}.labels.team`, message: /label value/ },
  {
    name: "node selector with 21 entries",
    mutate: (c) => (hc(c).controlPlaneNodeSelector = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"]))),
    path: `${HC}.controlPlaneNodeSelector`,
    message: /at most 20/,
  },
  {
    name: "toleration with effect noschedule",
    mutate: (c) => (hc(c).controlPlaneTolerations = [{ key: "k", effect: "noschedule" }]),
    path: `${HC}.controlPlaneTolerations[0].effect`,
    message: /must be one of/,
  },
  {
    name: "toleration with an unknown field",
    mutate: (c) => (hc(c).controlPlaneTolerations = [{ key: "k", seconds: 5 }]),
    path: `${HC}.controlPlaneTolerations[0].seconds`,
    message: /unknown key/,
  },
  {
    name: "olmCatalogPlacement Management (the API is lower case)",
    mutate: (c) => (hc(c).olmCatalogPlacement = "Management"),
    path: `${HC}.olmCatalogPlacement`,
    message: /must be one of management, guest/,
  },
  {
    name: "controlPlaneOperatorImage without tag",
    mutate: (c) => (hc(c).controlPlaneOperatorImage = "quay.io/me/cpo"),
    path: `${HC}.controlPlaneOperatorImage`,
    message: /tag or an @sha256 digest/,
  },
  {
    name: "cloud AzureGermanCloud",
    mutate: (c) => (c.cloud = "AzureGermanCloud"),
    path: "cloud",
    message: /must be one of AzurePublicCloud, AzureUSGovernmentCloud, AzureChinaCloud/,
  },
  {
    name: "a 4.19 release with a NodePool without marketplace image",
    mutate: (c) => (hc(c).releaseImage = RELEASE_419),
    path: `${HC}.nodePools[0].marketplace`,
    message: /is required: releaseImage is OpenShift 4\.19\.3, and HyperShift defaults the marketplace image from the release only from 4\.20/,
  },
];

describe("create cluster azure options: bad values", () => {
  it.each(bad)("refuses $name at $path", ({ mutate, path: issuePath, message }) => {
    const result = validate(mutate);
    if (result.ok) throw new Error("expected config errors");
    expect(result.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: issuePath, message: expect.stringMatching(message) })]));
    expect(
      formatIssues(result)
        .split("\n")
        .some((line) => line.startsWith(`  ${issuePath}: `)),
    ).toBe(true);
  });

  /** examples/aro-hcp.yaml (valid), mutated. */
  const aroHcp = (mutate: (c: RawConfig) => void) => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));
    mutate(config);
    return validateConfig(config, EXAMPLES);
  };
  const paths = (result: LoadedConfig | ConfigErrors) => (result.ok ? [] : result.issues.map((i) => i.path));

  it("refuses OAuth as a LoadBalancer with topology aroHcp (CRD CEL; the CLI refuses it with --managed-identities-file)", () => {
    expect(aroHcp(() => undefined).ok).toBe(true);
    const result = aroHcp((c) => (c.clusters[0].hostedCluster.oauthPublishing = "LoadBalancer"));
    if (result.ok) throw new Error("expected config errors");
    expect(result.issues).toEqual([
      expect.objectContaining({ path: `${HC}.oauthPublishing`, value: "LoadBalancer", message: expect.stringMatching(/not supported with topology: aroHcp/) }),
    ]);
  });

  it("refuses identities.controlPlaneOperator: true with topology aroHcp; its default (true for selfManaged) is not applied there", () => {
    expect(paths(aroHcp((c) => (c.clusters[0].identities = { controlPlaneOperator: true })))).toEqual(["clusters[0].identities.controlPlaneOperator"]);
    const loaded = aroHcp(() => undefined);
    if (!loaded.ok) throw new Error(formatIssues(loaded));
    expect(loaded.config.clusters[0].identities.controlPlaneOperator).toBeUndefined();
  });
});

interface GoodCase {
  readonly name: string;
  readonly mutate: (c: RawConfig) => void;
}

const good: GoodCase[] = [
  { name: "every option at once (examples/all-options.yaml's values)", mutate: (c) => Object.assign(hc(c), allOptions()) },
  {
    name: "a 4.19 release whose NodePools name their marketplace image",
    mutate: (c) => Object.assign(hc(c), { releaseImage: RELEASE_419, nodePools: [{ name: "hc1", marketplace: MARKETPLACE }] }),
  },
  {
    name: "ImageRegistry disabled on 4.19 (allowed before 4.20)",
    mutate: (c) => Object.assign(hc(c), { releaseImage: RELEASE_419, capabilities: { disabled: ["ImageRegistry"] }, nodePools: [] }),
  },
  { name: "Ingress disabled with Console", mutate: (c) => (hc(c).capabilities = { disabled: ["Console", "Ingress"] }) },
  { name: "a toleration of every taint", mutate: (c) => (hc(c).controlPlaneTolerations = [{ operator: "Exists" }]) },
  { name: "an empty label value", mutate: (c) => (hc(c).controlPlaneNodeSelector = { "node-role.kubernetes.io/infra": "" }) },
  { name: "a sovereign cloud", mutate: (c) => Object.assign(c, { cloud: "AzureUSGovernmentCloud", location: "usgovvirginia", allowUnlistedLocation: true }) },
];

describe("create cluster azure options: good values", () => {
  it.each(good)("accepts $name", ({ mutate }) => {
    const result = validate(mutate);
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.config.clusters[0].hostedCluster).toBeDefined();
  });

  it("reads the trust bundle at synth, relative to the config file", () => {
    const result = validate((c) => (hc(c).additionalTrustBundleFile = "ca/example-ca-bundle.pem"));
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.trustBundles.get(path.join(EXAMPLES, "ca", "example-ca-bundle.pem"))).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });
});

/** The HostedCluster options of examples/all-options.yaml, inline. */
function allOptions(): RawConfig {
  return {
    apiServerDnsName: "api.hc1.example.com",
    oauthPublishing: "LoadBalancer",
    additionalTrustBundleFile: "ca/example-ca-bundle.pem",
    imageContentSources: [{ source: "quay.io/openshift-release-dev/ocp-release", mirrors: ["mirror.example.com/ocp/release"] }],
    fips: true,
    infrastructureAvailabilityPolicy: "HighlyAvailable",
    capabilities: { enabled: ["baremetal"], disabled: ["ImageRegistry", "openshift-samples"] },
    featureSet: "TechPreviewNoUpgrade",
    networkType: "Other",
    annotations: { "hypershift.openshift.io/pod-security-admission-label-override": "baseline" },
    labels: { team: "platform" },
    controlPlaneNodeSelector: { "node-role.kubernetes.io/infra": "" },
    controlPlaneTolerations: [{ key: "node-role.kubernetes.io/infra", operator: "Exists", effect: "NoSchedule" }],
    olmCatalogPlacement: "guest",
    olmDisableDefaultSources: true,
    controlPlaneOperatorImage: "quay.io/me/cpo:dev",
  };
}

describe("release versions and the digest-only warning", () => {
  it.each([
    ["quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64", { major: 4, minor: 21, patch: 0 }],
    ["quay.io/openshift-release-dev/ocp-release:4.19.10-multi", { major: 4, minor: 19, patch: 10 }],
    ["registry.example.com:5000/ocp/release:4.20.0-ec.3-x86_64", { major: 4, minor: 20, patch: 0 }],
    ["quay.io/openshift-release-dev/ocp-release:4.22.1@sha256:" + "a".repeat(64), { major: 4, minor: 22, patch: 1 }],
    ["quay.io/openshift-release-dev/ocp-release@sha256:" + "a".repeat(64), undefined],
    ["quay.io/openshift-release-dev/ocp-release:latest", undefined],
  ])("reads %s as %j", (image, version) => {
    const read = releaseVersion(image);
    expect(read && { major: read.major, minor: read.minor, patch: read.patch }).toEqual(version);
  });

  it("warns, not fails, when a digest-only release leaves the NodePool image unchecked", () => {
    const result = validate((c) => (hc(c).releaseImage = `quay.io/openshift-release-dev/ocp-release@sha256:${"b".repeat(64)}`));
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/^cluster-hc1: NodePool hc1's release .*@sha256:b+ has no version tag, so it cannot be checked/)]),
    );
    // A pool's own digest-only release, under a tagged cluster release, is said too.
    const ownRelease = validate((c) => (hc(c).nodePools[0].releaseImage = `quay.io/openshift-release-dev/ocp-release@sha256:${"c".repeat(64)}`));
    expect(ownRelease.ok && ownRelease.warnings.filter((w) => w.includes("no version tag"))).toEqual([
      expect.stringMatching(/NodePool hc1's release .*@sha256:c+ /),
    ]);
    const tagged = validate(() => undefined);
    expect(tagged.ok && tagged.warnings.filter((w) => w.includes("no version tag"))).toEqual([]);
  });
});
