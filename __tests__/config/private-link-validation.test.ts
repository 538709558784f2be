import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { ConfigErrors, formatIssues, validateConfig } from "../../config/load";
import { missingSecretFiles } from "../../config/rules";
import { EXAMPLES, tempDir } from "../helpers";

/**
 * Private endpoint access (config/rules/private-link.ts, the schema and the bundle check in
 * config/rules/bundle.ts): good configs validate, each mistake fails with an issue naming the field.
 * Configs start from examples/private.yaml (clusters[0] Private with a created NAT subnet,
 * clusters[1] PublicAndPrivate with an existing one).
 */

type RawConfig = Record<string, any>;

const EXAMPLE_TEXT = fs.readFileSync(path.join(EXAMPLES, "private.yaml"), "utf8");
const PRIVATE_BUNDLE = fs.readFileSync(path.join(EXAMPLES, "operator", "hypershift-operator-private.yaml"), "utf8");
const base = (): RawConfig => parse(EXAMPLE_TEXT);
const hc = (c: RawConfig, i = 0) => c.clusters[i].hostedCluster;
const SUB = "00000000-0000-0000-0000-000000000000";
const MGMT_VNET = `/subscriptions/${SUB}/resourceGroups/mymgmt-infra-rg/providers/Microsoft.Network/virtualNetworks/mymgmt-vnet`;

function validate(input: unknown) {
  return validateConfig(input, EXAMPLES);
}

function expectInvalid(input: unknown): ConfigErrors {
  const result = validate(input);
  if (result.ok) throw new Error("expected the config to be invalid, but it validated");
  return result;
}

/** A variant of the private example bundle, in a temporary folder (an absolute bundleFile). */
const variants = tempDir("hcp-azure-bundle-");
function bundleVariant(name: string, edit: (text: string) => string): string {
  const file = path.join(variants, `${name}.yaml`);
  fs.writeFileSync(file, edit(PRIVATE_BUNDLE));
  return file;
}
afterAll(() => fs.rmSync(variants, { recursive: true, force: true }));

interface BadCase {
  name: string;
  mutate: (c: RawConfig) => void;
  path: string;
  value?: unknown;
  message: RegExp;
}

const cases: BadCase[] = [
  {
    name: "an unknown endpointAccess",
    mutate: (c) => (hc(c).endpointAccess = "Internal"),
    path: "clusters[0].hostedCluster.endpointAccess",
    value: "Internal",
    message: /must be one of Public, PublicAndPrivate, Private/,
  },
  {
    name: "Private without a NAT subnet",
    mutate: (c) => delete hc(c).privateLink,
    path: "clusters[0].hostedCluster.privateLink",
    message: /needs natSubnetId .* or natSubnet: \{vnetId, cidr\} .* with endpointAccess Private/,
  },
  {
    name: "only allowed subscriptions (the CLI's output the HO would fill from the 10.0.0.0/16 guess)",
    mutate: (c) => (hc(c).privateLink = { additionalAllowedSubscriptions: ["22222222-2222-2222-2222-222222222222"] }),
    path: "clusters[0].hostedCluster.privateLink",
    message: /needs natSubnetId/,
  },
  {
    name: "both natSubnetId and natSubnet",
    mutate: (c) => (hc(c).privateLink.natSubnetId = `${MGMT_VNET}/subnets/other`),
    path: "clusters[0].hostedCluster.privateLink.natSubnet",
    message: /exclusive with privateLink.natSubnetId/,
  },
  {
    name: "privateLink on a Public cluster",
    mutate: (c) => (hc(c).endpointAccess = "Public"),
    path: "clusters[0].hostedCluster.privateLink",
    message: /only used with endpointAccess PublicAndPrivate or Private/,
  },
  {
    name: "no control-plane-operator identity",
    mutate: (c) => (c.clusters[1].identities = { controlPlaneOperator: false }),
    path: "clusters[1].identities.controlPlaneOperator",
    value: false,
    message: /must be true with hostedCluster.endpointAccess PublicAndPrivate.*remove identities.controlPlaneOperator: false/,
  },
  {
    name: "no managementCluster.privateLink",
    mutate: (c) => delete c.managementCluster.privateLink,
    path: "managementCluster.privateLink",
    message: /is required because clusters\[0\].hostedCluster.endpointAccess is Private.*resourceGroupName/,
  },
  {
    name: "a NAT subnet ID that is not a subnet",
    mutate: (c) => (hc(c, 1).privateLink.natSubnetId = MGMT_VNET),
    path: "clusters[1].hostedCluster.privateLink.natSubnetId",
    value: MGMT_VNET,
    message: /must be a full ARM ID like .*\/subnets\/<subnet>/,
  },
  {
    name: "a NAT subnet in another subscription than the management cluster's",
    mutate: (c) => (hc(c, 1).privateLink.natSubnetId = `${MGMT_VNET.replace(SUB, "33333333-3333-3333-3333-333333333333")}/subnets/nat`),
    path: "clusters[1].hostedCluster.privateLink.natSubnetId",
    message: /must be in the management cluster's subscription 00000000-0000-0000-0000-000000000000/,
  },
  {
    name: "a NAT subnet in a hosted cluster's VNet",
    mutate: (c) =>
      (hc(c).privateLink.natSubnet.vnetId =
        `/subscriptions/${SUB}/resourceGroups/myprefix-dual-customer-vnet-rg/providers/Microsoft.Network/virtualNetworks/myprefix-dual-customer-vnet`),
    path: "clusters[0].hostedCluster.privateLink.natSubnet",
    message: /is in the VNet of hosted cluster clusters\[1\]; the NAT subnet belongs in the management cluster's VNet/,
  },
  {
    name: "a NAT CIDR with host bits",
    mutate: (c) => (hc(c).privateLink.natSubnet.cidr = "10.0.64.1/24"),
    path: "clusters[0].hostedCluster.privateLink.natSubnet.cidr",
    value: "10.0.64.1/24",
    message: /has host bits set; the network is 10.0.64.0\/24/,
  },
  {
    name: "a NAT CIDR smaller than Azure's smallest subnet",
    mutate: (c) => (hc(c).privateLink.natSubnet.cidr = "10.0.64.0/30"),
    path: "clusters[0].hostedCluster.privateLink.natSubnet.cidr",
    value: "10.0.64.0/30",
    message: /must be \/29 or larger/,
  },
  {
    name: "a malformed NAT CIDR",
    mutate: (c) => (hc(c).privateLink.natSubnet.cidr = "10.0.64/24"),
    path: "clusters[0].hostedCluster.privateLink.natSubnet.cidr",
    value: "10.0.64/24",
    message: /must be an IPv4 CIDR/,
  },
  {
    name: "an allowed subscription that is no UUID",
    mutate: (c) => (hc(c, 1).privateLink.additionalAllowedSubscriptions = ["sub-1"]),
    path: "clusters[1].hostedCluster.privateLink.additionalAllowedSubscriptions[0]",
    value: "sub-1",
    message: /must be a UUID/,
  },
  {
    name: "an allowed subscription listed twice",
    mutate: (c) => hc(c, 1).privateLink.additionalAllowedSubscriptions.push("22222222-2222-2222-2222-222222222222"),
    path: "clusters[1].hostedCluster.privateLink.additionalAllowedSubscriptions[1]",
    message: /is listed twice/,
  },
  {
    name: "two clusters creating overlapping NAT subnets in one VNet",
    mutate: (c) => (hc(c, 1).privateLink = { natSubnet: { vnetId: MGMT_VNET, cidr: "10.0.64.0/25" } }),
    path: "clusters[1].hostedCluster.privateLink.natSubnet.cidr",
    value: "10.0.64.0/25",
    message: /overlaps clusters\[0\]'s NAT subnet 10.0.64.0\/24 in the same VNet/,
  },
  {
    name: "two clusters creating a NAT subnet of the same name",
    mutate: (c) => {
      hc(c).privateLink.natSubnet.name = "pls-nat";
      hc(c, 1).privateLink = { natSubnet: { vnetId: MGMT_VNET, cidr: "10.0.65.0/24", name: "pls-nat" } };
    },
    path: "clusters[1].hostedCluster.privateLink.natSubnet",
    value: "pls-nat",
    message: /names the same subnet as clusters\[0\]'s natSubnet/,
  },
  {
    name: "a cluster bringing the NAT subnet another cluster's infra stack creates",
    mutate: (c) => {
      hc(c).privateLink.natSubnet.name = "pls-nat";
      hc(c, 1).privateLink = { natSubnetId: `${MGMT_VNET}/subnets/pls-nat` };
    },
    path: "clusters[1].hostedCluster.privateLink.natSubnetId",
    message: /is the subnet clusters\[0\]'s infra stack creates and deletes with that cluster/,
  },
  {
    name: "private endpoint access in ARO HCP topology",
    mutate: (c) => {
      const aro = parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));
      Object.assign(c, { topology: "aroHcp", aroHcp: aro.aroHcp, managementCluster: aro.managementCluster });
      c.clusters.forEach((cluster: RawConfig) => {
        delete cluster.identities;
        delete cluster.hostedCluster.externalDns;
      });
    },
    path: "clusters[0].hostedCluster.endpointAccess",
    value: "Private",
    message: /is not supported with topology: aroHcp: ARO HCP makes private clusters with Swift networking/,
  },
  {
    name: "managementCluster.privateLink in ARO HCP topology",
    mutate: (c) => {
      const aro = parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));
      Object.assign(c, { topology: "aroHcp", aroHcp: aro.aroHcp, managementCluster: { ...aro.managementCluster, privateLink: { resourceGroupName: "rg" } } });
      c.clusters.forEach((cluster: RawConfig) => (cluster.hostedCluster.endpointAccess = "Public"));
    },
    path: "managementCluster.privateLink",
    message: /is not supported with topology: aroHcp/,
  },
  {
    name: "applicationName with a handed-over credentials file",
    mutate: (c) => Object.assign(c.managementCluster.privateLink, { credentialsFile: "pls.json", applicationName: "x" }),
    path: "managementCluster.privateLink.applicationName",
    value: "x",
    message: /is not used with credentialsFile/,
  },
  // The operator bundle (fixtures: the private example bundle and variants of it).
  {
    name: "a bundle rendered without --private-platform Azure",
    mutate: (c) => (c.managementCluster.operator.bundleFile = "operator/hypershift-operator-external-dns.yaml"),
    path: "managementCluster.operator.bundleFile",
    value: "--private-platform=None",
    message:
      /has no Private Link Service management on the operator, but clusters\[0\].hostedCluster.endpointAccess is Private: render it again adding --private-platform Azure --azure-private-secret hypershift-operator-azure-credentials --azure-pls-resource-group mymgmt-infra-rg/,
  },
  {
    name: "a bundle with another --azure-pls-resource-group",
    mutate: (c) => (c.managementCluster.privateLink.resourceGroupName = "other-rg"),
    path: "managementCluster.operator.bundleFile",
    value: "mymgmt-infra-rg",
    message:
      /^is the operator's AZURE_RESOURCE_GROUP \(--azure-pls-resource-group\) in the bundle; it must be managementCluster.privateLink.resourceGroupName other-rg; render with .*--azure-pls-resource-group other-rg/,
  },
  {
    name: "a bundle using a managed identity for Private Link",
    mutate: (c) =>
      (c.managementCluster.operator.bundleFile = bundleVariant("mi", (text) =>
        text
          .replace(
            /\n {8}- name: AZURE_CREDENTIALS_FILE\n {10}value: \/etc\/azure-provider\/credentials/,
            "\n        - name: AZURE_PLS_CLIENT_ID\n          value: 44444444-4444-4444-4444-444444444444",
          )
          .replace(/\n {8}- mountPath: \/etc\/azure-provider\n {10}name: azure-credentials\n {10}readOnly: true/, ""),
      )),
    path: "managementCluster.operator.bundleFile",
    value: "44444444-4444-4444-4444-444444444444",
    message: /renders the operator with --azure-pls-managed-identity-client-id/,
  },
  {
    name: "a bundle mounting no Private Link credentials",
    mutate: (c) =>
      (c.managementCluster.operator.bundleFile = bundleVariant("nomount", (text) =>
        text.replace(/\n {8}- mountPath: \/etc\/azure-provider\n {10}name: azure-credentials\n {10}readOnly: true/, ""),
      )),
    path: "managementCluster.operator.bundleFile",
    message: /mounts no Private Link credentials Secret at \/etc\/azure-provider/,
  },
  {
    name: "a private bundle without managementCluster.privateLink (nothing creates its Secret)",
    mutate: (c) => {
      c.clusters.forEach((cluster: RawConfig) => {
        cluster.hostedCluster.endpointAccess = "Public";
        delete cluster.hostedCluster.privateLink;
      });
      delete c.managementCluster.privateLink;
    },
    path: "managementCluster.operator.bundleFile",
    value: "--private-platform=Azure",
    message: /nothing provides its Azure credentials: configure managementCluster.privateLink, or render with --private-platform None/,
  },
];

describe("private endpoint access: config validation", () => {
  it("the example validates (the baseline every case changes), with no warning about the credentials Secret", () => {
    const result = validate(base());
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.warnings.join("\n")).not.toMatch(/hypershift-operator-azure-credentials/);
  });

  it.each([
    ["PublicAndPrivate with a created subnet", (c: RawConfig) => (hc(c).endpointAccess = "PublicAndPrivate")],
    ["Private with an existing subnet", (c: RawConfig) => (hc(c, 1).endpointAccess = "Private")],
    ["two clusters sharing one existing NAT subnet", (c: RawConfig) => (hc(c).privateLink = { natSubnetId: hc(c, 1).privateLink.natSubnetId })],
    ["disjoint created subnets in one VNet", (c: RawConfig) => (hc(c, 1).privateLink = { natSubnet: { vnetId: MGMT_VNET, cidr: "10.0.65.0/28" } })],
    [
      "a management cluster in another subscription",
      (c: RawConfig) => {
        const other = "33333333-3333-3333-3333-333333333333";
        c.managementCluster.privateLink.subscriptionId = other;
        hc(c).privateLink.natSubnet.vnetId = MGMT_VNET.replace(SUB, other);
        hc(c, 1).privateLink.natSubnetId = `${MGMT_VNET.replace(SUB, other)}/subnets/nat`;
      },
    ],
    ["a handed-over credentials file", (c: RawConfig) => (c.managementCluster.privateLink.credentialsFile = "pls-credentials.json")],
    // identities.controlPlaneOperator defaults to true (as `create iam azure`): leaving it out is fine.
    ["the control-plane-operator identity left at its default", (c: RawConfig) => c.clusters.forEach((cluster: RawConfig) => delete cluster.identities)],
    [
      "only Public clusters, the operator prepared for private ones",
      (c: RawConfig) => {
        c.clusters.forEach((cluster: RawConfig) => {
          cluster.hostedCluster.endpointAccess = "Public";
          delete cluster.hostedCluster.privateLink;
        });
      },
    ],
  ])("accepts %s", (_name, mutate) => {
    const config = base();
    mutate(config);
    const result = validate(config);
    if (!result.ok) throw new Error(formatIssues(result));
  });

  it.each(cases)("rejects $name at $path", ({ mutate, path: issuePath, value, message }) => {
    const config = base();
    mutate(config);
    const result = expectInvalid(config);
    const wanted: Record<string, unknown> = { path: issuePath, message: expect.stringMatching(message) };
    if (value !== undefined) wanted.value = value;
    expect(result.issues).toEqual(expect.arrayContaining([expect.objectContaining(wanted)]));
    const line = formatIssues(result)
      .split("\n")
      .find((l) => l.startsWith(`  ${issuePath}: `));
    expect(line).toBeDefined();
  });

  it("defaults: Public, no privateLink; the rendered bundles of the other examples parse as --private-platform=None", () => {
    const config = base();
    for (const cluster of config.clusters) {
      delete cluster.hostedCluster.endpointAccess;
      delete cluster.hostedCluster.privateLink;
    }
    delete config.managementCluster.privateLink;
    config.managementCluster.operator.bundleFile = "operator/hypershift-operator-external-dns.yaml";
    const result = validate(config);
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.names.clusters.map((c) => c.hosted?.endpointAccess)).toEqual([{ kind: "Public" }, { kind: "Public" }]);
    expect(result.operatorBundle?.privateLink).toEqual({ platform: "None" });
  });

  it("files mode: a missing handed-over credentials file is reported at synth, with the stack that reads it", () => {
    const config = base();
    config.secrets = { source: "files" };
    config.managementCluster.privateLink.credentialsFile = "pls-credentials.json";
    const result = validate(config);
    if (!result.ok) throw new Error(formatIssues(result));
    const missing = missingSecretFiles(result.config, result.names, (file) => !file.endsWith("pls-credentials.json"));
    expect(missing).toEqual([
      expect.objectContaining({
        path: "managementCluster.privateLink.credentialsFile",
        value: path.join(EXAMPLES, "pls-credentials.json"),
        message: expect.stringMatching(/when it plans management/),
      }),
    ]);
  });

  it("reads the private bundle's settings as install render writes them", () => {
    const result = validate(base());
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.operatorBundle?.privateLink).toEqual({
      platform: "Azure",
      resourceGroup: "mymgmt-infra-rg",
      credentialsSecret: "hypershift-operator-azure-credentials",
      credentialsKey: "credentials",
    });
  });
});
