import * as fs from "node:fs";
import * as path from "node:path";
import { HOSTED_CLUSTER_IMMUTABLE_FIELDS, NODE_POOL_IMMUTABLE_FIELDS } from "../../constructs/hosted-cluster/immutable-fields";
import { loadInline, minimalConfig, RELEASE_IMAGE, REPO, synthStacks } from "../helpers";

/**
 * The guarded list is complete: every field a CRD transition rule protects that our manifests
 * contain is either guarded (`immutable-fields.ts`) or one we always write with the same value,
 * whatever the config. Read from the real CRD schemas; skipped without ../shared.
 */
const SCHEMAS = path.resolve(REPO, "..", "shared", "reference", "hypershift-crds");
const HAVE_SCHEMAS = fs.existsSync(path.join(SCHEMAS, "hostedcluster.v1beta1.schema.json"));
if (!HAVE_SCHEMAS) console.warn("immutable-fields-crd: ../shared is absent; the completeness check against the CRDs is skipped");

/** Fields under a transition rule that no config key changes for a given cluster (name hc1, pool p). */
const CONSTANT: Record<"HostedCluster" | "NodePool", readonly string[]> = {
  HostedCluster: ["spec.platform.type", "spec.etcd.managementType"],
  NodePool: ["spec.clusterName", "spec.platform.type"],
};
/** Fields whose rule is only about presence ("cannot be removed once configured"), written in every config. */
const ALWAYS_PRESENT: Record<"HostedCluster" | "NodePool", readonly string[]> = { HostedCluster: ["spec.secretEncryption"], NodePool: [] };
/** Guarded for a CRD rule (not for another consequence, such as metadata.namespace's replacement). */
const crdGuarded = (fields: typeof HOSTED_CLUSTER_IMMUTABLE_FIELDS) => fields.filter((f) => f.consequence === undefined).map((f) => f.path);
const GUARDED = { HostedCluster: crdGuarded(HOSTED_CLUSTER_IMMUTABLE_FIELDS), NodePool: crdGuarded(NODE_POOL_IMMUTABLE_FIELDS) };

/** The fields each transition rule protects: the ones it reads from oldSelf, or the field it sits on. */
function protectedFields(schema: any): Set<string> {
  const fields = new Set<string>();
  const walk = (node: any, at: string) => {
    if (!node || typeof node !== "object") return;
    for (const { rule } of node["x-kubernetes-validations"] ?? []) {
      if (!/\boldSelf\b/.test(rule)) continue;
      const chains = [...rule.matchAll(/\boldSelf\.([\w.]+)/g)].map((m) => m[1]);
      // `!has(oldSelf.spec) || ... oldSelf.spec.infraID`: the field is the longest chain.
      const read = chains.filter((chain) => !chains.some((other) => other.startsWith(`${chain}.`))).map((chain) => [at, chain].filter(Boolean).join("."));
      for (const field of read.length > 0 ? read : [at]) fields.add(field);
    }
    for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, at ? `${at}.${key}` : key);
    if (node.items) walk(node.items, at);
  };
  walk(schema, "");
  return fields;
}

/** Every path in an object (list items share their list's path) and its value. */
function paths(value: unknown, at = "", into = new Map<string, unknown>()): Map<string, unknown> {
  if (at) into.set(at, value);
  if (Array.isArray(value)) value.forEach((item) => paths(item, at, into));
  else if (value && typeof value === "object") for (const [key, child] of Object.entries(value)) paths(child, at ? `${at}.${key}` : key, into);
  return into;
}

const cluster = (hostedCluster: Record<string, unknown>) => ({
  name: "hc1",
  hostedCluster: { releaseImage: RELEASE_IMAGE, baseDomain: "example.com", pullSecretFile: "pull-secret.json", nodePools: [{ name: "p" }], ...hostedCluster },
});
const MGMT_VNET = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mymgmt-infra-rg/providers/Microsoft.Network/virtualNetworks/mgmt";
const withExternalDns = { prefix: "myprefix", dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } }, externalDns: {} };

/** Cluster hc1 in configs that differ in every option that reaches the manifests. */
const VARIANTS = {
  minimal: minimalConfig({
    clusters: [cluster({ publicZone: { resourceGroupName: "dns-rg" } })],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
  }),
  everyOption: minimalConfig({
    ...withExternalDns,
    location: "westeurope",
    clusters: [
      {
        ...cluster({
          infraId: "hc1-own",
          publicZone: { resourceGroupName: "zones-rg" },
          controllerAvailabilityPolicy: "HighlyAvailable",
          etcd: { storageSize: "16Gi", storageClassName: "managed-csi" },
          network: {
            singleResourceGroup: true,
            resourceGroups: { managed: "hc1-rg" },
            machineNetwork: "10.0.0.0/16",
            clusterNetwork: "10.128.0.0/14",
            serviceNetwork: "172.30.0.0/16",
          },
          releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-multi",
          nodePools: [
            {
              name: "p",
              replicas: 0,
              arch: "arm64",
              upgradeType: "InPlace",
              subnetId:
                "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/hc1-rg/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet/subnets/workers-2",
              vmSize: "Standard_D8ps_v5",
              availabilityZone: "2",
              encryptionAtHost: "Disabled",
              imageGeneration: "Gen1",
            },
          ],
          kms: { keyVault: { network: { allowedIpRanges: ["203.0.113.7"] } } },
          fips: true,
          olmCatalogPlacement: "guest",
          capabilities: { enabled: ["baremetal"], disabled: ["ImageRegistry"] },
          featureSet: "TechPreviewNoUpgrade",
          ingress: { domain: "apps.variant.example.com" },
          oauthPublishing: "LoadBalancer",
        }),
        identities: { controlPlaneOperator: true, kms: true },
      },
    ],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" } },
  }),
  private: minimalConfig({
    ...withExternalDns,
    clusters: [
      {
        ...cluster({
          endpointAccess: "Private",
          privateLink: { natSubnetId: `${MGMT_VNET}/subnets/nat`, additionalAllowedSubscriptions: ["22222222-2222-2222-2222-222222222222"] },
        }),
        identities: { controlPlaneOperator: true },
      },
    ],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator-private.yaml" }, privateLink: { resourceGroupName: "mymgmt-infra-rg" } },
  }),
  aroHcp: minimalConfig({
    ...withExternalDns,
    topology: "aroHcp",
    aroHcp: { keyVault: { name: "myprefix-hcp-kv", network: { allowedIpRanges: ["203.0.113.7"] } } },
    clusters: [cluster({})],
    managementCluster: { aks: {}, operator: { bundleFile: "operator/hypershift-operator-aro-hcp.yaml" } },
  }),
};

(HAVE_SCHEMAS ? describe : describe.skip)("immutable fields: the guarded list against the CRDs' transition rules", () => {
  // In beforeAll, not in the describe body: jest runs a skipped describe's body too.
  let rendered: { HostedCluster: Map<string, unknown>; NodePool: Map<string, unknown> }[];
  beforeAll(() => {
    rendered = Object.values(VARIANTS).map((config) => {
      const manifests = Object.values(synthStacks(loadInline(config))["cluster-hc1"].resource.kubernetes_manifest as Record<string, any>).map(
        (r) => r.manifest,
      );
      return { HostedCluster: paths(manifests.find((m) => m.kind === "HostedCluster")), NodePool: paths(manifests.find((m) => m.kind === "NodePool")) };
    });
  });

  it.each([
    ["HostedCluster", "hostedcluster.v1beta1.schema.json"],
    ["NodePool", "nodepool.v1beta1.schema.json"],
  ] as const)("every protected %s field we write is guarded, or the same in every config", (kind, file) => {
    const fields = protectedFields(JSON.parse(fs.readFileSync(path.join(SCHEMAS, file), "utf8")));
    const written = [...fields].filter((field) => rendered.some((variant) => variant[kind].has(field))).sort();
    expect(written).toEqual([...GUARDED[kind], ...CONSTANT[kind], ...ALWAYS_PRESENT[kind]].sort());
    for (const field of ALWAYS_PRESENT[kind]) expect([field, rendered.every((variant) => variant[kind].has(field))]).toEqual([field, true]);
    for (const field of CONSTANT[kind]) {
      const values = rendered.map((variant) => JSON.stringify(variant[kind].get(field)));
      expect([field, new Set(values).size]).toEqual([field, 1]);
    }
  });

  it("the variants differ in every guarded field that has a config key (so the check above can fail)", () => {
    for (const field of GUARDED.HostedCluster) {
      const values = new Set(rendered.map((variant) => JSON.stringify(variant.HostedCluster.get(field))));
      // Only the subscription and the base domain are the same in the three configs.
      if (["spec.platform.azure.subscriptionID", "spec.dns.baseDomain"].includes(field)) continue;
      expect([field, values.size > 1]).toEqual([field, true]);
    }
    for (const field of GUARDED.NodePool) {
      const values = new Set(rendered.map((variant) => JSON.stringify(variant.NodePool.get(field))));
      expect([field, values.size > 1]).toEqual([field, true]);
    }
  });
});
