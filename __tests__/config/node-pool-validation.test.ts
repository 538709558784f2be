import { validateConfig } from "../../config/load";
import { compareVersions, releaseOf, versionSkewProblem } from "../../config/release-version";
import { EXAMPLES, hostedClusterSpec, minimalConfig, RELEASE_IMAGE } from "../helpers";

/**
 * NodePool options (issue 13 item 2): good values load, bad ones fail with the field path, the
 * value and the rule. Rules from the NodePool CRD (CEL), `create nodepool azure`, HyperShift's
 * version skew and payload-architecture checks, CAPZ and Azure.
 */

const SUB = "00000000-0000-0000-0000-000000000000";
const VNET = `/subscriptions/${SUB}/resourceGroups/hc1-customer-vnet-rg/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet`;
const DES = `/subscriptions/${SUB}/resourceGroups/keys-rg/providers/Microsoft.Compute/diskEncryptionSets/workers-des`;
const MULTI = "quay.io/openshift-release-dev/ocp-release:4.21.0-multi";
const release = (tag: string) => `quay.io/openshift-release-dev/ocp-release:${tag}`;

function validate(pool: Record<string, unknown>, hosted: Record<string, unknown> = {}) {
  return validateConfig(
    minimalConfig({
      clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), ...hosted, nodePools: [{ name: "p", ...pool }] } }],
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
    }),
    EXAMPLES,
  );
}

const AT = "clusters[0].hostedCluster.nodePools[0]";

describe("NodePool options: valid values load", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>?]>([
    ["autoscaling instead of replicas", { autoscaling: { min: 1, max: 6 } }],
    ["autoscaling from zero (min 0, allowed on Azure)", { autoscaling: { min: 0, max: 3 } }],
    ["arm64 with the CLI's arm64 default size, on a multi-arch release", { arch: "arm64" }, { releaseImage: MULTI }],
    ["arm64 with another Arm size", { arch: "arm64", vmSize: "Standard_E8pds_v5" }, { releaseImage: MULTI }],
    ["auto-repair and in-place upgrades", { autoRepair: true, upgradeType: "InPlace" }],
    ["Go durations", { nodeDrainTimeout: "1h30m", nodeVolumeDetachTimeout: "1.5m" }],
    ["a subnet in the cluster's created VNet", { subnetId: `${VNET}/subnets/workers-2` }],
    ["a boot image by ID", { imageId: `/subscriptions/${SUB}/resourceGroups/img-rg/providers/Microsoft.Compute/images/rhcos-419` }],
    ["a gallery image version", { imageId: `/subscriptions/${SUB}/resourceGroups/img-rg/providers/Microsoft.Compute/galleries/g/images/rhcos/versions/1.0.0` }],
    ["user-managed diagnostics with the URI", { diagnostics: "UserManaged", diagnosticsStorageAccountUri: "https://diag.blob.core.windows.net/" }],
    ["an ephemeral OS disk on a size with a local disk", { vmSize: "Standard_D8ds_v5", osDisk: { sizeGiB: 100, persistence: "Ephemeral" } }],
    ["a disk encryption set", { osDisk: { diskEncryptionSetId: DES } }],
    ["paused until a time", { pausedUntil: "2027-01-31T00:00:00Z" }],
    ["paused (YAML boolean true)", { pausedUntil: true }],
    ["not paused (YAML boolean false, which the CRD's pattern accepts)", { pausedUntil: false }],
    [
      "its own release, 3 minors older, with its boot image",
      { releaseImage: release("4.18.5-x86_64"), imageId: `/subscriptions/${SUB}/resourceGroups/img-rg/providers/Microsoft.Compute/images/rhcos-418` },
      { releaseImage: release("4.21.0-x86_64") },
    ],
    ["its own release by digest (not checkable, accepted)", { releaseImage: `quay.io/openshift-release-dev/ocp-release@sha256:${"a".repeat(64)}` }],
    ["5.0 control plane with 4.20 workers (5.0 is 4.23)", { releaseImage: release("4.20.3-x86_64") }, { releaseImage: release("5.0.1-x86_64") }],
  ])("%s", (...row) => {
    // One parameter: jest takes a test function with more parameters than the row has for one awaiting done().
    const [, pool, hosted] = row;
    const loaded = validate(pool, hosted);
    expect(loaded.ok ? [] : loaded.issues).toEqual([]);
  });
});

describe("NodePool options: invalid values fail naming the field", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, string, RegExp]>([
    ["replicas with autoscaling (CRD)", { replicas: 2, autoscaling: { min: 1, max: 3 } }, {}, `${AT}.replicas`, /not allowed with autoscaling/],
    ["autoscaling max below min (CRD)", { autoscaling: { min: 4, max: 2 } }, {}, `${AT}.autoscaling.max`, /equal or greater than min/],
    ["autoscaling max 0 (CRD minimum 1)", { autoscaling: { min: 0, max: 0 } }, {}, `${AT}.autoscaling.max`, /1 or more/],
    ["an unsupported arch on Azure", { arch: "ppc64le" }, {}, `${AT}.arch`, /amd64|arm64/],
    ["arm64 with an x86 size", { arch: "arm64", vmSize: "Standard_D4s_v5" }, { releaseImage: MULTI }, `${AT}.vmSize`, /not an Arm64 size/],
    ["amd64 with an Arm size", { vmSize: "Standard_D4ps_v5" }, {}, `${AT}.vmSize`, /is an Arm64 size/],
    ["arm64 on an x86_64-only release (HyperShift's payload check)", { arch: "arm64" }, {}, `${AT}.arch`, /AMD64 payload/],
    [
      "arm64 with its own x86_64 release",
      { arch: "arm64", releaseImage: release("4.21.0-x86_64") },
      { releaseImage: MULTI },
      `${AT}.releaseImage`,
      /AMD64 payload/,
    ],
    ["an unknown upgrade type", { upgradeType: "Rolling" }, {}, `${AT}.upgradeType`, /Replace|InPlace/],
    ["a duration without unit", { nodeDrainTimeout: "30" }, {}, `${AT}.nodeDrainTimeout`, /Go duration/],
    ["a negative duration", { nodeVolumeDetachTimeout: "-5m" }, {}, `${AT}.nodeVolumeDetachTimeout`, /Go duration/],
    [
      "a subnet in another VNet (CAPZ looks the name up in the cluster's VNet)",
      { subnetId: `/subscriptions/${SUB}/resourceGroups/other-rg/providers/Microsoft.Network/virtualNetworks/other/subnets/s` },
      {},
      `${AT}.subnetId`,
      /subnet of the cluster's VNet/,
    ],
    ["a subnet ID that is not one", { subnetId: VNET }, {}, `${AT}.subnetId`, /full ARM ID/],
    [
      "imageId with marketplace",
      {
        imageId: `/subscriptions/${SUB}/resourceGroups/r/providers/Microsoft.Compute/images/i`,
        marketplace: { publisher: "azureopenshift", offer: "aro4", sku: "aro_419", version: "419.6.20250523" },
      },
      {},
      `${AT}.imageId`,
      /not allowed with marketplace/,
    ],
    [
      "imageId that is not an image",
      { imageId: `/subscriptions/${SUB}/resourceGroups/r/providers/Microsoft.Storage/storageAccounts/x` },
      {},
      `${AT}.imageId`,
      /managed image/,
    ],
    ["UserManaged without URI (CRD)", { diagnostics: "UserManaged" }, {}, `${AT}.diagnosticsStorageAccountUri`, /required with diagnostics: UserManaged/],
    [
      "a URI without UserManaged (CLI)",
      { diagnostics: "Managed", diagnosticsStorageAccountUri: "https://diag.blob.core.windows.net/" },
      {},
      `${AT}.diagnosticsStorageAccountUri`,
      /only with diagnostics: UserManaged/,
    ],
    [
      "an http URI (CRD: https)",
      { diagnostics: "UserManaged", diagnosticsStorageAccountUri: "http://diag.blob.core.windows.net/" },
      {},
      `${AT}.diagnosticsStorageAccountUri`,
      /https URL/,
    ],
    [
      "ephemeral with a disk encryption set (CAPZ)",
      { vmSize: "Standard_D8ds_v5", osDisk: { persistence: "Ephemeral", diskEncryptionSetId: DES } },
      {},
      `${AT}.osDisk.diskEncryptionSetId`,
      /not allowed with persistence: Ephemeral/,
    ],
    [
      "ephemeral above Azure's 2040 GiB",
      { vmSize: "Standard_D8ds_v5", osDisk: { persistence: "Ephemeral", sizeGiB: 4096 } },
      {},
      `${AT}.osDisk.sizeGiB`,
      /at most 2040/,
    ],
    [
      "a disk encryption set ID of another type (CRD)",
      { osDisk: { diskEncryptionSetId: `/subscriptions/${SUB}/resourceGroups/r/providers/Microsoft.KeyVault/vaults/v` } },
      {},
      `${AT}.osDisk.diskEncryptionSetId`,
      /disk encryption set ARM ID/,
    ],
    [
      "a disk encryption set in another subscription",
      { osDisk: { diskEncryptionSetId: DES.replace(SUB, "22222222-2222-2222-2222-222222222222") } },
      {},
      `${AT}.osDisk.diskEncryptionSetId`,
      /must be in subscriptionId/,
    ],
    ["pausedUntil that is neither true nor a time", { pausedUntil: "tomorrow" }, {}, `${AT}.pausedUntil`, /RFC 3339/],
    [
      "a Premium SSD v2 OS disk (Azure: data disks only)",
      { osDisk: { storageAccountType: "PremiumV2_LRS" } },
      {},
      `${AT}.osDisk.storageAccountType`,
      /only for data disks/,
    ],
    ["pausedUntil longer than the CRD's 35 characters", { pausedUntil: "2027-01-31T00:00:00.1234567890123456789Z" }, {}, `${AT}.pausedUntil`, /at most 35/],
    [
      "its own release newer than the control plane (skew)",
      { releaseImage: release("4.21.1-x86_64") },
      { releaseImage: release("4.21.0-x86_64") },
      `${AT}.releaseImage`,
      /cannot be higher than the HostedCluster version 4.21.0/,
    ],
    [
      "its own release 4 minors older (skew n-3)",
      { releaseImage: release("4.17.9-x86_64"), marketplace: { publisher: "azureopenshift", offer: "aro4", sku: "aro_417", version: "417.94.20240701" } },
      { releaseImage: release("4.21.0-x86_64") },
      `${AT}.releaseImage`,
      /less than 4.18, the minimum NodePool version/,
    ],
    ["its own release below 4.20 without a boot image", { releaseImage: release("4.19.3-x86_64") }, {}, `${AT}.releaseImage`, /only from 4.20/],
    ["its own release that is not an image reference", { releaseImage: "4.21.0" }, {}, `${AT}.releaseImage`, /image reference/],
  ])("%s", (_name, pool, hosted, path, message) => {
    const loaded = validate(pool, hosted);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.issues.filter((issue) => issue.path === path && message.test(issue.message))).toHaveLength(1);
  });
});

describe("release versions from image tags", () => {
  it.each([
    [release("4.21.0-x86_64"), "4.21.0", "AMD64"],
    [release("4.21.0-rc.1-multi"), "4.21.0-rc.1", "Multi"],
    [release("4.22.0-aarch64"), "4.22.0", "ARM64"],
    ["registry.ci.openshift.org/ocp/release:4.21.0-0.nightly-2025-10-01-000000", "4.21.0-0.nightly-2025-10-01-000000", undefined],
    [`quay.io/openshift-release-dev/ocp-release@sha256:${"b".repeat(64)}`, undefined, undefined],
    ["localhost:5000/ocp/release:latest", undefined, undefined],
  ])("%s", (image, version, arch) => {
    const parsed = releaseOf(image);
    expect([parsed.version?.text, parsed.arch]).toEqual([version, arch]);
  });

  it("orders pre-releases before their release (semver), as HyperShift's GT does", () => {
    const v = (tag: string) => releaseOf(release(tag)).version!;
    expect(compareVersions(v("4.21.0-rc.1-x86_64"), v("4.21.0-x86_64"))).toBeLessThan(0);
    expect(compareVersions(v("4.21.0-rc.2-x86_64"), v("4.21.0-rc.10-x86_64"))).toBeLessThan(0);
    expect(versionSkewProblem(v("4.21.0-x86_64"), v("4.21.0-rc.1-x86_64"))).toBeUndefined();
  });

  it("applies n-3 across the 4.23 = 5.0 bridge (normalizeToV4)", () => {
    const v = (tag: string) => releaseOf(release(tag)).version!;
    expect(versionSkewProblem(v("5.1.0-x86_64"), v("4.21.0-x86_64"))).toBeUndefined();
    expect(versionSkewProblem(v("5.1.0-x86_64"), v("4.20.0-x86_64"))).toMatch(/less than 4.21/);
    expect(versionSkewProblem(v("5.3.0-x86_64"), v("4.22.0-x86_64"))).toMatch(/less than 5.0,/);
    expect(versionSkewProblem(v("4.23.0-x86_64"), v("5.0.0-x86_64"))).toBeUndefined();
  });

  it("the default release the tests use is x86_64 4.21 (the payload rule above relies on it)", () => {
    expect(releaseOf(RELEASE_IMAGE)).toMatchObject({ arch: "AMD64", version: { minor: 21 } });
  });
});
