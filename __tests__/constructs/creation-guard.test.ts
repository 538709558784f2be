import { TerraformStack, TerraformVariable, Testing } from "cdktf";
import { CreationGuard } from "../../constructs/hosted-cluster/creation-guard";
import { HostedCluster } from "../../constructs/hosted-cluster/hosted-cluster";
import { HOSTED_CLUSTER_IMMUTABLE_FIELDS } from "../../constructs/hosted-cluster/immutable-fields";
import { hostedClusterProps } from "../../stacks/hosted-cluster-props";
import { CLIENT_IDS, hostedClusterSpec, loadInline, minimalConfig } from "../helpers";

/**
 * The guard of cluster `clusters[index]` (hc1 with NodePools a and b, then hc2), next to its
 * HostedCluster construct in a stack of their own, synthesized.
 */
function synthGuard(options: { hosted?: Record<string, unknown>; top?: Record<string, unknown>; index?: number; overrides?: { location?: string } } = {}) {
  const { hosted = {}, top = {}, index = 0 } = options;
  const loaded = loadInline(
    minimalConfig({
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
      ...top,
      clusters: [
        { name: "hc1", hostedCluster: { ...hostedClusterSpec(), nodePools: [{ name: "a" }, { name: "b" }], ...hosted } },
        { name: "hc2", hostedCluster: { ...hostedClusterSpec(), network: { vnetCidr: "10.1.0.0/16", subnetCidr: "10.1.0.0/24" } } },
      ],
    }),
  );
  const cluster = loaded.names.clusters[index];
  const stack = new TerraformStack(Testing.app(), "s");
  const hostedCluster = new HostedCluster(
    stack,
    "HostedCluster",
    hostedClusterProps({ ...loaded.config, ...options.overrides }, cluster, { identities: { kind: "workloadIdentities", clientIds: CLIENT_IDS } }),
  );
  new CreationGuard(stack, "CreationGuard", { hostedCluster, cluster, storageAccountOrigin: loaded.names.storageAccount.origin });
  const json = JSON.parse(Testing.synth(stack));
  const guards: Record<string, any> = json.resource.terraform_data;
  const guardOf = (prefix: string) => {
    const found = Object.entries(guards).filter(([name]) => name.startsWith(`CreationGuard_${prefix}_`));
    expect(found).toHaveLength(1);
    const [name, guard] = found[0];
    const local = /^\$\{local\.(\w+)\}$/.exec(guard.input)![1];
    return { address: `terraform_data.${name}`, guard, values: json.locals[local] as Record<string, string>, local };
  };
  const manifests = Object.values(json.resource.kubernetes_manifest as Record<string, any>);
  const manifestOf = (kind: string, name: string) => manifests.find((m) => m.manifest.kind === kind && m.manifest.metadata.name === name);
  return { json, guards, guardOf, manifestOf };
}

/** The error message of the postcondition of `field`, with its Terraform expressions replaced by `<...>`. */
const messageOf = (guard: any, field: string) =>
  (guard.lifecycle.postcondition as { condition: string; error_message: string }[])
    .find((p) => p.condition.includes(`["${field}"]`))!
    .error_message.replace(/\$\{[^}]*\}/g, "<...>");

describe("CreationGuard", () => {
  const synthesized = synthGuard();
  const hc = synthesized.guardOf("HostedCluster");

  it("makes one guard for the HostedCluster and one per NodePool, named by construct ID", () => {
    expect(
      Object.keys(synthesized.guards)
        .map((name) => name.replace(/_[0-9A-F]{8}$/, ""))
        .sort(),
    ).toEqual(["CreationGuard_HostedCluster", "CreationGuard_NodePool_a", "CreationGuard_NodePool_b"]);
  });

  it("keeps the creation values in state: input is the config's values, ignored once created", () => {
    for (const prefix of ["HostedCluster", "NodePool_a"]) {
      const { guard, local } = synthesized.guardOf(prefix);
      expect(guard.input).toBe(`\${local.${local}}`);
      expect(guard.lifecycle.ignore_changes).toEqual(["input"]);
    }
  });

  it("guards exactly the immutable HostedCluster fields the config decides, with the rendered values", () => {
    const spec = synthesized.manifestOf("HostedCluster", "hc1").manifest.spec;
    expect(hc.values).toEqual({
      "spec.infraID": spec.infraID,
      "spec.issuerURL": spec.issuerURL,
      "spec.networking.clusterNetwork": "10.132.0.0/14",
      "spec.networking.serviceNetwork": "172.31.0.0/16",
      "spec.networking.machineNetwork": "",
      "spec.etcd.managed.storage.persistentVolume.size": "8Gi",
      "spec.etcd.managed.storage.persistentVolume.storageClassName": "",
      "spec.controllerAvailabilityPolicy": "SingleReplica",
      "spec.dns.baseDomain": "example.com",
      "spec.dns.publicZoneID": spec.dns.publicZoneID,
      "spec.dns.privateZoneID": spec.dns.privateZoneID,
      "spec.platform.azure.location": "eastus",
      "spec.platform.azure.subscriptionID": "00000000-0000-0000-0000-000000000000",
      "spec.platform.azure.resourceGroup": "hc1-managed-rg",
      "spec.platform.azure.vnetID": spec.platform.azure.vnetID,
      "spec.platform.azure.subnetID": spec.platform.azure.subnetID,
      "spec.platform.azure.securityGroupID": spec.platform.azure.securityGroupID,
      "spec.platform.azure.topology": "Public",
      "spec.platform.azure.private": "none",
      "spec.platform.azure.private.type": "",
      "spec.platform.azure.private.privateLink.natSubnetID": "",
      "spec.services": "APIServer=LoadBalancer, Ignition=Route, Konnectivity=Route, OAuthServer=Route",
      "spec.secretEncryption.type": "aescbc",
      "spec.secretEncryption.kms.azure.keyVaultType": "",
      "spec.fips": "false",
      "spec.olmCatalogPlacement": "management",
      "spec.capabilities": "",
      "spec.capabilities.enabled": "",
      "spec.capabilities.disabled": "",
      "spec.configuration.featureGate.featureSet": "",
      "spec.configuration.ingress.domain": "",
      "metadata.namespace": "clusters",
    });
  });

  it("guards a NodePool's subnetID, arch and upgradeType, and nothing a NodePool may change (size, image, replicas)", () => {
    const spec = synthesized.manifestOf("NodePool", "a").manifest.spec;
    expect(synthesized.guardOf("NodePool_a").values).toEqual({
      "spec.platform.azure.subnetID": spec.platform.azure.subnetID,
      "spec.arch": "amd64",
      "spec.management.upgradeType": "Replace",
      "metadata.namespace": "clusters",
    });
  });

  it("makes the HostedCluster and each NodePool depend on their own guard, so a failed guard stops them", () => {
    expect(synthesized.manifestOf("HostedCluster", "hc1").depends_on).toEqual([hc.address]);
    for (const pool of ["a", "b"]) expect(synthesized.manifestOf("NodePool", pool).depends_on).toContain(synthesized.guardOf(`NodePool_${pool}`).address);
  });

  it("compares each field as its CRD rule does: always, only while set on both sides, or once set", () => {
    const conditions = Object.fromEntries(
      (hc.guard.lifecycle.postcondition as { condition: string }[]).map((p) => [
        /\["([^"]+)"\]/.exec(p.condition)![1],
        p.condition.replaceAll(`local.${hc.local}`, "now"),
      ]),
    );
    expect(Object.keys(conditions)).toEqual(HOSTED_CLUSTER_IMMUTABLE_FIELDS.map((f) => f.path));
    const created = (path: string) => `try(self.input["${path}"], now["${path}"])`;
    expect(conditions["spec.networking.serviceNetwork"]).toBe(`\${${created("spec.networking.serviceNetwork")} == now["spec.networking.serviceNetwork"]}`);
    const machine = "spec.networking.machineNetwork";
    expect(conditions[machine]).toBe(`\${${created(machine)} == "" || now["${machine}"] == "" || ${created(machine)} == now["${machine}"]}`);
    const topology = "spec.platform.azure.topology";
    expect(conditions[topology]).toBe(`\${${created(topology)} == "" || ${created(topology)} == now["${topology}"]}`);
  });

  it("names the config key, the field, the CRD's reason and the way forward", () => {
    expect(messageOf(hc.guard, "spec.networking.serviceNetwork")).toBe(
      "clusters[0].hostedCluster.network.serviceNetwork: HostedCluster clusters/hc1 was created with spec.networking.serviceNetwork <...>, and the config now gives <...>. " +
        "The API server refuses this change (serviceNetwork is immutable and cannot be modified once set.), so the apply would fail halfway. " +
        "Put the created value back, or create a new cluster with the new value (a new clusters[] entry).",
    );
    expect(messageOf(synthesized.guardOf("NodePool_b").guard, "spec.platform.azure.subnetID")).toMatch(
      /^clusters\[0\]\.hostedCluster\.nodePools\[name: b\]\.subnetId \(default: the cluster's subnet, clusters\[0\]\.hostedCluster\.network\.subnetName, .*\): NodePool clusters\/b was created with .* add a NodePool under a new name with the new value and remove this one/,
    );
  });

  it("names the keys that derive a value: defaults, existing network IDs, the issuer", () => {
    // No CRD rule, but a replacement: the message says what Terraform would do.
    expect(messageOf(hc.guard, "metadata.namespace")).toMatch(
      /^clusters\[0\]\.hostedCluster\.namespace: HostedCluster clusters\/hc1 was created with metadata\.namespace <\.\.\.>, and the config now gives <\.\.\.>\. Terraform would delete the running object and create a new one/,
    );
    expect(messageOf(synthesized.guardOf("NodePool_a").guard, "metadata.namespace")).toMatch(
      /^clusters\[0\]\.hostedCluster\.namespace: NodePool clusters\/a .* Terraform would delete the running object/,
    );
    expect(messageOf(hc.guard, "spec.infraID")).toMatch(
      /^clusters\[0\]\.hostedCluster\.infraId \(default derived from prefix, subscriptionId and the cluster name\): /,
    );
    expect(messageOf(hc.guard, "spec.issuerURL")).toMatch(
      /^oidc\.storageAccountName, oidc\.containerName, oidc\.issuer \(the account name defaults from prefix, /,
    );
    expect(messageOf(hc.guard, "spec.platform.azure.location")).toMatch(/^location: /);

    const sub = "00000000-0000-0000-0000-000000000000";
    const vnetId = `/subscriptions/${sub}/resourceGroups/net-rg/providers/Microsoft.Network/virtualNetworks/vnet`;
    const custom = synthGuard({
      hosted: { infraId: "hc1-own", network: { existing: { vnetId, subnetId: `${vnetId}/subnets/workers` } } },
      top: { oidc: { storageAccountName: "myissuer" } },
    }).guardOf("HostedCluster").guard;
    expect(messageOf(custom, "spec.infraID")).toMatch(/^clusters\[0\]\.hostedCluster\.infraId: /);
    expect(messageOf(custom, "spec.issuerURL")).toMatch(/^oidc\.storageAccountName, oidc\.containerName, oidc\.issuer: /);
    expect(messageOf(custom, "spec.platform.azure.vnetID")).toMatch(/^clusters\[0\]\.hostedCluster\.network\.existing\.vnetId: /);
    expect(messageOf(custom, "spec.platform.azure.subnetID")).toMatch(/^clusters\[0\]\.hostedCluster\.network\.existing\.subnetId: /);
  });

  it("names the cluster's own index", () => {
    const second = synthGuard({ index: 1 }).guardOf("HostedCluster").guard;
    expect(messageOf(second, "spec.etcd.managed.storage.persistentVolume.size")).toMatch(
      /^clusters\[1\]\.hostedCluster\.etcd\.storageSize: HostedCluster clusters\/hc2 /,
    );
  });

  it("keeps a value that looks like a template literal (escaped as in the manifest)", () => {
    const { guardOf, manifestOf } = synthGuard({ overrides: { location: "east${us}%{x}" } });
    expect(manifestOf("HostedCluster", "hc1").manifest.spec.platform.azure.location).toBe("east$${us}%%{x}");
    expect(guardOf("HostedCluster").values["spec.platform.azure.location"]).toBe("east$${us}%%{x}");
  });

  it("refuses to guard a value Terraform only knows at apply (the check would not run at plan)", () => {
    const stack = new TerraformStack(Testing.app(), "s");
    const location = new TerraformVariable(stack, "location", { type: "string" }).stringValue;
    expect(() => synthGuard({ overrides: { location } })).toThrow(
      /internal: HostedCluster clusters\/hc1 spec\.platform\.azure\.location must be a literal to be guarded/,
    );
  });
});
