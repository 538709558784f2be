import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { describeWorkspaces } from "../../stacks/workspaces";
import { addStacks } from "../../stacks/app";
import { App } from "cdktf";
import { hostedClusterManifest } from "../../constructs/hosted-cluster/hosted-cluster-manifest";
import { hostedClusterProps } from "../../stacks/hosted-cluster-props";
import { insideAddressSpaceCondition } from "../../constructs/private-link/nat-subnet";
import { HOSTED_CLUSTER_IMMUTABLE_FIELDS } from "../../constructs/hosted-cluster/immutable-fields";
import { privateLinkCredentialsInput } from "../../config/plan-time-inputs";
import {
  checkManifestsEach,
  HAVE_CRDS,
  CLIENT_IDS,
  EXAMPLES,
  HAVE_TERRAFORM,
  loadExample,
  loadInline,
  minimalConfig,
  only,
  RELEASE_IMAGE,
  REPO,
  resources,
  synthStacks,
  tempDir,
  terraformApply,
} from "../helpers";

/**
 * Private endpoint access (issue 12 item 1) on examples/private.yaml: what each stack holds, the
 * HostedCluster fields per mode against what `hypershift create cluster azure --endpoint-access`
 * writes, the order stacks are applied and destroyed in, and the CRD checks. Expected values are
 * written out here (read from openshift/hypershift@3ee9615 cmd/cluster/azure/create.go and its
 * fixture zz_fixture_TestCreateCluster_When_endpoint_access_is_Private_with_private_flags...).
 */

const SUB = "00000000-0000-0000-0000-000000000000";
const MGMT_RG = `/subscriptions/${SUB}/resourceGroups/mymgmt-infra-rg`;
const MGMT_VNET = `${MGMT_RG}/providers/Microsoft.Network/virtualNetworks/mymgmt-vnet`;
const NETWORK_CONTRIBUTOR = "4d97b98b-1d4f-4787-a291-c67834d212e7";
const EXAMPLE = "private.yaml";

const stacks = () => synthStacks(loadExample(EXAMPLE));

describe("private endpoint access: rendered as the CLI renders it", () => {
  const route = (hostname?: string) => ({ type: "Route", ...(hostname ? { route: { hostname } } : {}) });
  const services = (api: object, ignition: object, konnectivity: object, oauth: object) => [
    { service: "APIServer", servicePublishingStrategy: api },
    { service: "Ignition", servicePublishingStrategy: ignition },
    { service: "Konnectivity", servicePublishingStrategy: konnectivity },
    { service: "OAuthServer", servicePublishingStrategy: oauth },
  ];
  const D = "myprefix.example.com";
  const NAT = `${MGMT_VNET}/subnets/nat`;
  const privateLink = { type: "PrivateLink", privateLink: { natSubnetID: NAT } };
  // endpointAccess, ExternalDNS, topology, private, services: the CLI's table (notes §1.3).
  const table = [
    ["Public", false, "Public", undefined, services({ type: "LoadBalancer" }, route(), route(), route())],
    ["Public", true, "Public", undefined, services(route(`api-hc1.${D}`), route(`ignition-hc1.${D}`), route(`konnectivity-hc1.${D}`), route(`oauth-hc1.${D}`))],
    ["PublicAndPrivate", false, "PublicAndPrivate", privateLink, services({ type: "LoadBalancer" }, route(), route(), route())],
    ["PublicAndPrivate", true, "PublicAndPrivate", privateLink, services(route(`api-hc1.${D}`), route(), route(), route(`oauth-hc1.${D}`))],
    ["Private", false, "Private", privateLink, services(route(), route(), route(), route())],
    ["Private", true, "Private", privateLink, services(route(`api-hc1.${D}`), route(), route(), route(`oauth-hc1.${D}`))],
  ] as const;

  it.each(table)("%s, ExternalDNS %s: topology, private and services", (access, externalDns, topology, privateSpec, expectedServices) => {
    const loaded = loadInline(
      minimalConfig({
        prefix: "myprefix",
        dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } },
        externalDns: {},
        clusters: [
          {
            name: "hc1",
            identities: { controlPlaneOperator: true },
            hostedCluster: {
              releaseImage: RELEASE_IMAGE,
              baseDomain: "example.com",
              pullSecretFile: "pull-secret.json",
              externalDns,
              endpointAccess: access,
              ...(access === "Public" ? {} : { privateLink: { natSubnetId: NAT } }),
            },
          },
        ],
        managementCluster: {
          operator: { bundleFile: "operator/hypershift-operator-private.yaml" },
          privateLink: { resourceGroupName: "mymgmt-infra-rg" },
        },
      }),
    );
    const spec = hostedClusterManifest({
      ...hostedClusterProps(
        { ...loaded.config, location: "eastus", subscriptionId: SUB, tenantId: "11111111-1111-1111-1111-111111111111" },
        loaded.names.clusters[0],
        {
          identities: { kind: "workloadIdentities", clientIds: { ...CLIENT_IDS, controlPlaneOperator: "00000000-0000-0000-0000-0000000000cc" } },
        },
      ),
      issuerUrl: "https://issuer.example.com/x",
    }).spec as any;
    expect(spec.platform.azure.topology).toBe(topology);
    expect(spec.platform.azure.private).toEqual(privateSpec);
    expect(spec.services).toEqual(expectedServices);
    expect(spec.platform.azure.azureAuthenticationConfig.workloadIdentities.controlPlaneOperator).toEqual({ clientID: "00000000-0000-0000-0000-0000000000cc" });
  });

  it("lists additionalAllowedSubscriptions only when given, as the CLI (cluster myprefix-dual)", () => {
    const manifests = (stack: any) => resources(stack, "kubernetes_manifest").map((r) => r.manifest);
    const hc = (name: string) => manifests(stacks()[`cluster-${name}`]).find((m) => m.kind === "HostedCluster").spec.platform.azure;
    expect(hc("myprefix-dual").private).toEqual({
      type: "PrivateLink",
      privateLink: { natSubnetID: `${MGMT_VNET}/subnets/pls-nat-subnet`, additionalAllowedSubscriptions: ["22222222-2222-2222-2222-222222222222"] },
    });
    // The created subnet's ID, derived: <infraID>-pls-nat, HyperShift's own auto-create name.
    expect(hc("myprefix-private").private).toEqual({
      type: "PrivateLink",
      privateLink: { natSubnetID: `${MGMT_VNET}/subnets/myprefix-private-8b05d-pls-nat` },
    });
  });
});

describe("private endpoint access: the stacks of examples/private.yaml", () => {
  it.each(Object.keys(synthStacks(loadExample(EXAMPLE))).sort())("snapshot of stack %s", (name) => {
    expect(stacks()[name]).toMatchSnapshot();
  });

  it("the infra stack creates the NAT subnet in the management VNet with Private Link Service network policies disabled, checked against its address space", () => {
    const [subnet] = resources(stacks()["infra-myprefix-private"], "azurerm_subnet").filter((s) => s.name.endsWith("-pls-nat"));
    expect(subnet).toMatchObject({
      name: "myprefix-private-8b05d-pls-nat",
      virtual_network_name: "mymgmt-vnet",
      resource_group_name: "mymgmt-infra-rg",
      address_prefixes: ["10.0.64.0/24"],
      private_link_service_network_policies_enabled: false,
    });
    expect(subnet.lifecycle.precondition[0].condition).toContain("data.azurerm_virtual_network.");
    expect(stacks()["infra-myprefix-private"].output.private_link_nat_subnet_id.value).toBe(`${MGMT_VNET}/subnets/myprefix-private-8b05d-pls-nat`);
    expect(only(stacks()["infra-myprefix-private"].data.azurerm_virtual_network).lifecycle.postcondition).toEqual([
      expect.objectContaining({ condition: '${lower(replace(self.location, " ", "")) == "eastus"}' }),
    ]);
    // An existing subnet is only read, and checked at plan: policies disabled, VNet in the cluster's region.
    const dual = stacks()["infra-myprefix-dual"];
    expect(resources(dual, "azurerm_subnet").map((s) => s.name)).toEqual(["myprefix-dual-customer-subnet-1"]);
    expect(only(dual.data.azurerm_subnet)).toMatchObject({
      name: "pls-nat-subnet",
      virtual_network_name: "mymgmt-vnet",
      resource_group_name: "mymgmt-infra-rg",
      lifecycle: { postcondition: [expect.objectContaining({ condition: "${!self.private_link_service_network_policies_enabled}" })] },
    });
    expect(only(dual.data.azurerm_virtual_network).lifecycle.postcondition[0].condition).toContain('== "eastus"');
  });

  it("switching a created NAT subnet to natSubnetId forgets it (a removed block at the created subnet's address), never destroys it under the running cluster", () => {
    const created = stacks()["infra-myprefix-private"];
    const createdAddress = Object.entries<any>(created.resource.azurerm_subnet).find(([, s]) => s.name.endsWith("-pls-nat"))![0];
    expect(created.removed).toBeUndefined();
    const config = parse(fs.readFileSync(path.join(EXAMPLES, EXAMPLE), "utf8"));
    const hosted = config.clusters[0].hostedCluster;
    hosted.privateLink = { natSubnetId: `${MGMT_VNET}/subnets/myprefix-private-8b05d-pls-nat` };
    const existing = synthStacks(loadInline(config), ["infra-myprefix-private"])["infra-myprefix-private"];
    expect(existing.resource.azurerm_subnet?.[createdAddress]).toBeUndefined();
    expect(existing.removed).toEqual([{ from: `azurerm_subnet.${createdAddress}`, lifecycle: { destroy: false } }]);
    expect(Object.keys(existing.data.azurerm_subnet)).toEqual([createdAddress]);
  });

  it("the shared stack gives the operator's principal Network Contributor on the management resource group only, and its credentials as a sensitive output", () => {
    const shared = stacks().shared;
    const grants = resources(shared, "azurerm_role_assignment").filter((r) => r.role_definition_id.endsWith(NETWORK_CONTRIBUTOR));
    expect(grants.map((g) => g.scope)).toEqual([MGMT_RG]);
    expect(grants[0].principal_id).toMatch(/^\$\{azuread_service_principal\.PrivateLink_ServicePrincipal_\w+\.object_id\}$/);
    const output = shared.output.private_link_credentials;
    expect(output.sensitive).toBe(true);
    expect(JSON.parse(output.value.replace(/"\$\{[^}]+\}"/g, '"ref"').replace(/\$\{jsonencode\([^)]+\)\}/, '"ref"'))).toEqual({
      subscriptionId: SUB,
      tenantId: "11111111-1111-1111-1111-111111111111",
      clientId: "ref",
      clientSecret: "ref",
    });
    expect(output.value).toMatch(/"clientSecret": \$\{jsonencode\(azuread_application_password\.PrivateLink_Password_\w+\.value\)\}/);
  });

  it("a NAT subnet outside the management resource group adds Network Contributor on that VNet (created) or subnet (existing)", () => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, EXAMPLE), "utf8"));
    const other = `/subscriptions/${SUB}/resourceGroups/mgmt-network-rg/providers/Microsoft.Network/virtualNetworks/vnet2`;
    config.clusters[0].hostedCluster.privateLink.natSubnet.vnetId = other;
    config.clusters[1].hostedCluster.privateLink.natSubnetId = `${other}/subnets/nat2`;
    const grants = resources(synthStacks(loadInline(config), ["shared"]).shared, "azurerm_role_assignment").filter((r) =>
      r.role_definition_id.endsWith(NETWORK_CONTRIBUTOR),
    );
    expect(grants.map((g) => g.scope).sort()).toEqual([MGMT_RG, other, `${other}/subnets/nat2`].sort());
  });

  it("a management cluster in another subscription: the infra stack creates the NAT subnet through an aliased provider, the principal's role is that subscription's", () => {
    const other = "33333333-3333-3333-3333-333333333333";
    const config = parse(fs.readFileSync(path.join(EXAMPLES, EXAMPLE), "utf8"));
    config.managementCluster.privateLink.subscriptionId = other;
    config.clusters[0].hostedCluster.privateLink.natSubnet.vnetId = MGMT_VNET.replace(SUB, other);
    config.clusters[1].hostedCluster.privateLink.natSubnetId = `${MGMT_VNET.replace(SUB, other)}/subnets/nat`;
    const synthesized = synthStacks(loadInline(config), ["infra-myprefix-private", "shared"]);
    const infra = synthesized["infra-myprefix-private"];
    expect(infra.provider.azurerm).toEqual(
      expect.arrayContaining([expect.objectContaining({ alias: "management", subscription_id: other, resource_provider_registrations: "none" })]),
    );
    const [subnet] = resources(infra, "azurerm_subnet").filter((s) => s.name.endsWith("-pls-nat"));
    expect(subnet.provider).toBe("azurerm.management");
    expect(only(infra.data.azurerm_virtual_network).provider).toBe("azurerm.management");
    const grants = resources(synthesized.shared, "azurerm_role_assignment").filter((r) => r.role_definition_id.endsWith(NETWORK_CONTRIBUTOR));
    expect(grants.map((g) => [g.scope, g.role_definition_id])).toEqual([
      [MGMT_RG.replace(SUB, other), `/subscriptions/${other}/providers/Microsoft.Authorization/roleDefinitions/${NETWORK_CONTRIBUTOR}`],
    ]);
  });

  it("the management stack creates the Secret the bundle mounts, from the shared stack's state (a reference, never a literal)", () => {
    const secrets = resources(stacks().management, "kubernetes_secret_v1");
    const secret = secrets.find((s) => s.metadata.name === "hypershift-operator-azure-credentials");
    expect(secret.metadata.namespace).toBe("hypershift");
    expect(secret.data_wo).toEqual({ credentials: "${data.terraform_remote_state.shared-state.outputs.private_link_credentials}" });
    // One remote-state data source serves both ExternalDNS's and the operator's credentials.
    expect(Object.keys(stacks().management.data.terraform_remote_state)).toEqual(["shared-state"]);
    // The operator Deployment waits for it (it mounts it).
    const operator = Object.entries(stacks().management.resource.kubernetes_manifest as Record<string, any>).find(
      ([, r]) => r.manifest.kind === "Deployment" && r.manifest.metadata.name === "operator",
    )!;
    expect(operator[1].depends_on.join(" ")).toMatch(/kubernetes_secret_v1\.PrivateLinkCredentials_/);
  });

  it("a handed-over credentials file enters as the sensitive variable private_link_credentials; no principal is created", () => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, EXAMPLE), "utf8"));
    config.managementCluster.privateLink.credentialsFile = "pls-credentials.json";
    const synthesized = synthStacks(loadInline(config), ["management", "shared"]);
    const secret = resources(synthesized.management, "kubernetes_secret_v1").find((s) => s.metadata.name === "hypershift-operator-azure-credentials");
    // The variable, once its check holds (constructs/plan-time-input).
    const rule = privateLinkCredentialsInput("pls-credentials.json").validations[0].condition;
    expect(secret.data_wo).toEqual({ credentials: `\${(${rule}) ? var.private_link_credentials : ""}` });
    expect(synthesized.management.variable.private_link_credentials.sensitive).toBe(true);
    expect(resources(synthesized.shared, "azuread_application").map((a) => a.display_name)).toEqual(["myprefix-external-dns"]);
  });

  it("no secret is synthesized: credentials appear only as references", () => {
    const text = JSON.stringify(stacks());
    expect(text).not.toMatch(/"clientSecret\\?":\s*\\?"(?!\$\{)/);
    expect(text).not.toMatch(/BEGIN[ A-Z]*PRIVATE KEY/);
    // The operator's Secrets (the HostedCluster's own also carry non-secret IDs as literals).
    for (const secret of resources(stacks().management, "kubernetes_secret_v1")) {
      for (const value of Object.values(secret.data_wo as Record<string, string>)) expect(value).toMatch(/^\$\{[^}]+\}$/);
    }
  });

  it("destroy order: each cluster stack runs after (and is destroyed before) its infra stack, the management stack and the shared stack", () => {
    const loaded = loadExample(EXAMPLE);
    const app = new App({ outdir: tempDir("hcp-azure-private-"), skipValidation: true });
    const all = addStacks(app, loaded, path.join(REPO, "cdktf.out"));
    const document = describeWorkspaces(loaded, all, path.join(REPO, "cdktf.out"));
    const wave = new Map(document.runOrder.flatMap((names, i) => names.map((n) => [n, i] as const)));
    for (const cluster of ["myprefix-private", "myprefix-dual"]) {
      const own = wave.get(`cluster-${cluster}`)!;
      // infra: the NAT subnet and the control-plane operator's role assignments; identities: the
      // CPO identity and its federated credential; management: the operator's credentials Secret;
      // shared: its service principal and role assignment. Destroy runs the waves in reverse.
      for (const earlier of [`infra-${cluster}`, `identities-${cluster}`, "management", "shared"]) {
        expect([cluster, earlier, wave.get(earlier)! < own]).toEqual([cluster, earlier, true]);
      }
      const direct = document.workspaces.find((w) => w.stack === `cluster-${cluster}`)!.dependsOn;
      expect([...direct].sort()).toEqual([`infra-${cluster}`, "management"]);
    }
    // The CPO's role assignments are in the infra stack the cluster stack depends on.
    const cpo = resources(stacks()["infra-myprefix-private"], "azurerm_role_assignment").filter((r) => /_controlPlaneOperator_/.test(r.principal_id));
    expect(cpo.length).toBeGreaterThan(0);
  });
});

describe("private endpoint access: creation guard", () => {
  const topology = HOSTED_CLUSTER_IMMUTABLE_FIELDS.find((f) => f.path === "spec.platform.azure.topology")!;
  const object = (value: string) => ({
    apiVersion: "v1",
    kind: "HostedCluster" as const,
    metadata: { name: "a", namespace: "b" },
    spec: { platform: { azure: { topology: value } } },
  });
  it("treats PublicAndPrivate and Private alike (the CRD lets them swap) and Public apart", () => {
    expect(topology.read(object("PublicAndPrivate"))).toBe(topology.read(object("Private")));
    expect(topology.read(object("Public"))).not.toBe(topology.read(object("Private")));
    expect(topology.read(object("Public"))).toBe("Public"); // what guards created before this feature hold
  });
});

(HAVE_CRDS ? describe : describe.skip)("private endpoint access: against the real CRDs (check-manifests)", () => {
  const out = tempDir("hcp-azure-private-crd-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  /**
   * The cluster stacks of private.yaml after `edit`, written as `cdktf synth` lays them out (the
   * HostedClusters and NodePools check-manifests reads; the other stacks hold none).
   */
  const synthOf = (name: string, edit: (c: any) => void) => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, EXAMPLE), "utf8"));
    edit(config);
    const dir = path.join(out, name);
    for (const [stack, json] of Object.entries(synthStacks(loadInline(config), "cluster"))) {
      fs.mkdirSync(path.join(dir, "stacks", stack), { recursive: true });
      fs.writeFileSync(path.join(dir, "stacks", stack, "cdk.tf.json"), JSON.stringify(json));
    }
    return dir;
  };

  it("every manifest passes the schema and CEL rules; day-2 edits are accepted or refused as the guards say", async () => {
    const created = synthOf("created", () => undefined);
    // With ExternalDNS both private modes publish the same services: the swap is accepted (and so
    // is a change of the allowed subscriptions).
    const swapped = synthOf("swapped", (c) => {
      c.clusters[0].hostedCluster.endpointAccess = "PublicAndPrivate";
      c.clusters[1].hostedCluster.privateLink.additionalAllowedSubscriptions = ["33333333-3333-3333-3333-333333333333"];
    });
    // Without it the API server's publishing changes (LoadBalancer -> Route): spec.services is immutable.
    const swappedWithoutDns = synthOf("swapped-no-dns", (c) => (c.clusters[1].hostedCluster.endpointAccess = "Private"));
    const toPublic = synthOf("public", (c) => {
      c.clusters[1].hostedCluster.endpointAccess = "Public";
      delete c.clusters[1].hostedCluster.privateLink;
    });
    const [check, swap, swapNoDns, publicEdit] = await checkManifestsEach([
      [created],
      ["--old", created, swapped],
      ["--old", created, swappedWithoutDns],
      ["--old", created, toPublic],
    ]);
    expect(check.stdout).toMatch(/checked 4 manifests \(HostedCluster: 2, NodePool: 2\), 0 errors/);
    expect(check.status).toBe(0);
    expect(swap.stdout).toMatch(/ 0 errors, /);
    expect(swap.status).toBe(0);
    expect(swapNoDns.status).toBe(1);
    expect(swapNoDns.stdout).toContain("HostedCluster/myprefix-dual spec: Services is immutable");
    expect(publicEdit.status).toBe(1);
    expect(publicEdit.stdout).toContain("private cannot be added or removed after cluster creation");
    expect(publicEdit.stdout).toContain("transitions between Public and non-Public topology are not supported");
  }, 120_000);
});

/**
 * The NAT subnet's conditions below, evaluated by one Terraform run for both describes (a run and a
 * `terraform output` each cost four processes): each case a local and an output, the outputs read
 * from the state the apply writes. Run on first use, once per test file.
 */
let natOutputs: Record<string, { value: boolean }> | undefined;
function natConditionOutputs(): Record<string, { value: boolean }> {
  if (!natOutputs) {
    const dir = tempDir("hcp-azure-nat-");
    try {
      const locals = {
        ...Object.fromEntries(Object.entries(postconditionCases()).map(([name, [, self]]) => [name, self])),
        ...Object.fromEntries(addressSpaceRows.map(([, space], i) => [`space_${i}`, space])),
      };
      const output = {
        ...Object.fromEntries(
          Object.entries(postconditionCases()).map(([name, [condition]]) => [name, { value: condition.replace(/\bself\./g, `local.${name}.`) }]),
        ),
        ...Object.fromEntries(addressSpaceRows.map(([cidr], i) => [`inside_${i}`, { value: insideAddressSpaceCondition(cidr, `local.space_${i}`) }])),
      };
      fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ locals, output }));
      terraformApply(dir);
      natOutputs = JSON.parse(fs.readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).outputs as Record<string, { value: boolean }>;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return natOutputs;
}

/** The existing NAT subnet's two postconditions (read from infra-myprefix-dual), with `self` and the verdict expected of each case. */
function postconditionCases() {
  const dual = stacks()["infra-myprefix-dual"];
  const region = only(dual.data.azurerm_virtual_network).lifecycle.postcondition[0].condition as string;
  const policies = only(dual.data.azurerm_subnet).lifecycle.postcondition[0].condition as string;
  return {
    eastus: [region, { location: "eastus" }, true],
    spaced: [region, { location: "East US" }, true],
    other: [region, { location: "westus" }, false],
    disabled: [policies, { private_link_service_network_policies_enabled: false }, true],
    enabled: [policies, { private_link_service_network_policies_enabled: true }, false],
  } as const;
}

const addressSpaceRows = [
  ["10.0.64.0/24", ["10.0.0.0/16"], true],
  ["10.0.64.0/24", ["10.0.64.0/24"], true],
  ["10.1.64.0/24", ["10.0.0.0/16"], false],
  ["10.0.0.0/15", ["10.0.0.0/16"], false],
  ["10.1.64.0/24", ["10.0.0.0/16", "10.1.0.0/16"], true],
  ["10.0.64.0/24", ["fd00::/48"], false],
  ["10.0.64.0/24", ["fd00::/48", "10.0.0.0/8"], true],
] as const;

(HAVE_TERRAFORM ? describe : describe.skip)("the existing NAT subnet's postconditions, run by Terraform (self read from a local)", () => {
  it("holds for the cluster's region however Azure spells it, and for disabled policies only", () => {
    const values = natConditionOutputs();
    const cases = postconditionCases();
    expect(Object.fromEntries(Object.keys(cases).map((name) => [name, values[name]?.value]))).toEqual(
      Object.fromEntries(Object.entries(cases).map(([name, [, , expected]]) => [name, expected])),
    );
  });
});

(HAVE_TERRAFORM ? describe : describe.skip)("the NAT subnet's address-space precondition, run by Terraform", () => {
  // One configuration and one Terraform run for every row (a run per row cost ~0.25 s each).
  let values: Record<string, { value: boolean }> = {};
  beforeAll(() => {
    values = natConditionOutputs();
  });
  it.each(addressSpaceRows.map((row, i) => [...row, i] as const))("%s in %j: %s", (_cidr, _space, inside, i) => {
    expect(values[`inside_${i}`]?.value).toBe(inside);
  });
});

describe("private endpoint access in a sovereign cloud", () => {
  const operatorEnv = (stack: any): { name: string; value?: string }[] => {
    const deployment = Object.values<any>(stack.resource.kubernetes_manifest).find(
      (r) => r.manifest.kind === "Deployment" && r.manifest.metadata.name === "operator",
    );
    return deployment.manifest.spec.template.spec.containers[0].env ?? [];
  };

  it("sets the operator's AZURE_CLOUD_NAME (no install flag does; notes §1.4), and leaves the public cloud's bundle as rendered", () => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, EXAMPLE), "utf8"));
    config.cloud = "AzureUSGovernmentCloud";
    const sovereign = synthStacks(loadInline(config), ["management"]);
    expect(operatorEnv(sovereign.management)).toContainEqual({ name: "AZURE_CLOUD_NAME", value: "AzureUSGovernmentCloud" });
    expect(operatorEnv(stacks().management).map((e) => e.name)).not.toContain("AZURE_CLOUD_NAME");
  });
});
