import { nodePoolManifest } from "../../constructs/hosted-cluster/node-pool-manifest";
import { formatGoDuration, goDuration, parseGoDuration } from "../../constructs/hosted-cluster/go-duration";
import { hostedClusterSpec, loadInline, minimalConfig } from "../helpers";

/**
 * NodePool options rendered as HyperShift's CLI renders the same flags (openshift/hypershift@3ee9615):
 * the Azure platform as `create nodepool azure` builds it (cmd/nodepool/azure/create.go
 * `NodePoolPlatform`, fixtures cmd/nodepool/azure/testdata/zz_fixture_TestCreateNodePool_*), the
 * spec as `create nodepool` / `create cluster` (cmd/nodepool/core/create.go, cmd/cluster/core/create.go
 * `defaultNodePool`), and the fields without a flag as the API documents them. One config, one
 * pool per row.
 */

const SUB = "00000000-0000-0000-0000-000000000000";
const SUBNET = `/subscriptions/${SUB}/resourceGroups/hc1-customer-vnet-rg/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet/subnets/workers-2`;
const DES = `/subscriptions/${SUB}/resourceGroups/keys-rg/providers/Microsoft.Compute/diskEncryptionSets/workers-des`;
const IMAGE = `/subscriptions/${SUB}/resourceGroups/img-rg/providers/Microsoft.Compute/images/rhcos-421`;
const MULTI = "quay.io/openshift-release-dev/ocp-release:4.21.0-multi";
const OLDER = "quay.io/openshift-release-dev/ocp-release:4.19.7-multi";
const MARKETPLACE = { publisher: "redhat", offer: "aro4", sku: "aro_414", version: "414.1.20240101" };

/** Each row: a NodePool's config and what the CLI renders for the same flags. */
const ROWS: Array<[string, Record<string, unknown>, (np: { spec: any }) => unknown, unknown]> = [
  ["--replicas 3 → spec.replicas (cmd/nodepool/core/create.go)", { replicas: 3 }, (np) => [np.spec.replicas, "autoScaling" in np.spec], [3, false]],
  [
    "autoscaling → spec.autoScaling and no replicas (CRD: not both; no CLI flag)",
    { autoscaling: { min: 1, max: 6 } },
    (np) => [np.spec.autoScaling, "replicas" in np.spec],
    [{ min: 1, max: 6 }, false],
  ],
  [
    "--arch arm64 → spec.arch, default size Standard_D4ps_v5 (NodePoolPlatform)",
    { arch: "arm64" },
    (np) => [np.spec.arch, np.spec.platform.azure.vmSize],
    ["arm64", "Standard_D4ps_v5"],
  ],
  ["no --arch → amd64 and Standard_D4s_v5 (NodePoolPlatform)", {}, (np) => [np.spec.arch, np.spec.platform.azure.vmSize], ["amd64", "Standard_D4s_v5"]],
  [
    "--auto-repair --node-upgrade-type InPlace → spec.management",
    { autoRepair: true, upgradeType: "InPlace" },
    (np) => np.spec.management,
    { autoRepair: true, upgradeType: "InPlace" },
  ],
  [
    "--node-drain-timeout 30m --node-volume-detach-timeout 90s → metav1.Duration text (defaultNodePool)",
    { nodeDrainTimeout: "30m", nodeVolumeDetachTimeout: "90s" },
    (np) => [np.spec.nodeDrainTimeout, np.spec.nodeVolumeDetachTimeout],
    ["30m0s", "1m30s"],
  ],
  ["no timeouts → 0s (defaultNodePool)", {}, (np) => [np.spec.nodeDrainTimeout, np.spec.nodeVolumeDetachTimeout], ["0s", "0s"]],
  ["--nodepool-subnet-id → platform.azure.subnetID", { subnetId: SUBNET }, (np) => np.spec.platform.azure.subnetID, SUBNET],
  [
    "imageId → image type ImageID (api/hypershift/v1beta1 AzureVMImage)",
    { imageId: IMAGE },
    (np) => np.spec.platform.azure.image,
    { type: "ImageID", imageID: IMAGE },
  ],
  [
    "--diagnostics-storage-account-type UserManaged --diagnostics-storage-account-uri → diagnostics.userManaged",
    { diagnostics: "UserManaged", diagnosticsStorageAccountUri: "https://diag.blob.core.windows.net/" },
    (np) => np.spec.platform.azure.diagnostics,
    { storageAccountType: "UserManaged", userManaged: { storageAccountURI: "https://diag.blob.core.windows.net/" } },
  ],
  [
    "--diagnostics-storage-account-type Disabled → diagnostics without userManaged",
    { diagnostics: "Disabled" },
    (np) => np.spec.platform.azure.diagnostics,
    { storageAccountType: "Disabled" },
  ],
  [
    "--disk-encryption-set-id → osDisk.encryptionSetID",
    { osDisk: { diskEncryptionSetId: DES } },
    (np) => np.spec.platform.azure.osDisk,
    { sizeGiB: 120, diskStorageAccountType: "Premium_LRS", encryptionSetID: DES },
  ],
  ["--pausedUntil true → spec.pausedUntil (cmd/cluster/core/create.go)", { pausedUntil: true }, (np) => np.spec.pausedUntil, "true"],
  ["no --pausedUntil → no field", {}, (np) => "pausedUntil" in np.spec, false],
  ["--release-image → spec.release.image (cmd/nodepool/core/create.go)", { releaseImage: OLDER, imageId: IMAGE }, (np) => np.spec.release.image, OLDER],
  ["no --release-image → the HostedCluster's", {}, (np) => np.spec.release.image, MULTI],
];

/** The upstream fixture `..._full_configuration_with_Gen2_is_provided...yaml`, with a subnet of our VNet. */
const FULL_FLAGS = {
  vmSize: "Standard_D8s_v5",
  subnetId: SUBNET,
  marketplace: MARKETPLACE,
  imageGeneration: "Gen2",
  osDisk: { sizeGiB: 256, storageAccountType: "StandardSSD_LRS", persistence: "Ephemeral" },
  availabilityZone: "1",
  encryptionAtHost: "Enabled",
};
const FULL_FIXTURE = {
  availabilityZone: "1",
  encryptionAtHost: "Enabled",
  image: { azureMarketplace: { imageGeneration: "Gen2", ...MARKETPLACE }, type: "AzureMarketplace" },
  osDisk: { diskStorageAccountType: "StandardSSD_LRS", persistence: "Ephemeral", sizeGiB: 256 },
  subnetID: SUBNET,
  vmSize: "Standard_D8s_v5",
};

describe("NodePool options render as the CLI renders them", () => {
  const pools = [...ROWS.map(([, pool], i) => ({ name: `p${i}`, ...pool })), { name: "full", ...FULL_FLAGS }];
  const loaded = loadInline(
    minimalConfig({
      clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), releaseImage: MULTI, nodePools: pools } }],
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
    }),
  );
  const hosted = loaded.names.clusters[0].hosted!;
  const manifest = (i: number) =>
    nodePoolManifest({
      ...hosted.config.nodePools[i],
      clusterName: "hc1",
      namespace: hosted.namespace,
      releaseImage: hosted.config.nodePools[i].releaseImage ?? hosted.config.releaseImage,
      subnetId: hosted.config.nodePools[i].subnetId ?? hosted.subnet.id,
    }) as { spec: any };

  it.each(ROWS.map((row, i) => [row[0], i] as const))("%s", (_name, i) => {
    const [, , read, expected] = ROWS[i];
    expect(read(manifest(i))).toEqual(expected);
  });

  it("the full-configuration fixture of create nodepool azure (cmd/nodepool/azure/testdata), plus our diagnostics default", () => {
    const { diagnostics, ...azure } = manifest(ROWS.length).spec.platform.azure;
    expect(azure).toEqual(FULL_FIXTURE);
    expect(diagnostics).toEqual({ storageAccountType: "Managed" });
  });
});

describe("Go durations as metav1.Duration writes them (time.Duration.String)", () => {
  it.each([
    ["0", "0s"],
    ["0s", "0s"],
    ["45s", "45s"],
    ["90s", "1m30s"],
    ["30m", "30m0s"],
    ["1h", "1h0m0s"],
    ["1.5h", "1h30m0s"],
    ["2h45m30.5s", "2h45m30.5s"],
    ["1500ms", "1.5s"],
    ["250ms", "250ms"],
    ["1.5us", "1.5\u00b5s"],
    ["7ns", "7ns"],
  ])("%s → %s", (text, rendered) => {
    expect(goDuration(text)).toBe(rendered);
  });

  it("sums the parts and truncates fractions as time.ParseDuration does", () => {
    expect(parseGoDuration("1m30s")).toBe(90_000_000_000n);
    expect(parseGoDuration("0.3333333333s")).toBe(333_333_333n);
    expect(formatGoDuration(3_723_000_000_000n)).toBe("1h2m3s");
    expect(() => parseGoDuration("30")).toThrow(/not a Go duration/);
  });
});
