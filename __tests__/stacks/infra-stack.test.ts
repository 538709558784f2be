import { Testing } from "cdktf";
import * as path from "node:path";
import { LoadedConfig } from "../../config/load";
import { managedIdentitiesOf, managedIdentityRoleAssignmentsOf } from "../../config/names";
import { uuidv5 } from "../../config/uuid";
import { InfraStack } from "../../stacks/infra-stack";
import { loadInline, minimalConfig, only, REPO, resources } from "../helpers";

const SUB = "00000000-0000-0000-0000-000000000000";
const DNS_SUB = "33333333-3333-3333-3333-333333333333";
const rg = (name: string, sub = SUB) => `/subscriptions/${sub}/resourceGroups/${name}`;

/** A config with one hosted cluster `hc1`; `hosted` and `cluster` override its fields. */
function hostedConfig(hosted: Record<string, unknown> = {}, cluster: Record<string, unknown> = {}): LoadedConfig {
  return loadInline(
    minimalConfig({
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
      clusters: [
        {
          name: "hc1",
          hostedCluster: {
            releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64",
            baseDomain: "example.com",
            publicZone: { resourceGroupName: "dns-rg" },
            pullSecretFile: "pull-secret.json",
            ...hosted,
          },
          ...cluster,
        },
      ],
    }),
  );
}

function synthInfra(loaded: LoadedConfig): any {
  const { config, names } = loaded;
  const stack = new InfraStack(Testing.app(), { config, names, outdir: path.join(REPO, "cdktf.out"), cluster: names.clusters[0] });
  return JSON.parse(Testing.synth(stack));
}

/** Terraform address of the only resource of `type` whose `name` is `name`. */
function address(json: any, type: string, name: string): string {
  const [key] = Object.entries(json.resource[type]).find(([, r]: [string, any]) => r.name === name)!;
  return `${type}.${key}`;
}

const assignments = (json: any) => resources(json, "azurerm_role_assignment");

const HYPERSHIFT = { roles: "hypershiftDefaults" };

describe("infra stack", () => {
  const loaded = hostedConfig(HYPERSHIFT);
  const hosted = loaded.names.clusters[0].hosted!;
  const json = synthInfra(loaded);

  it("is named infra-<cluster> and keeps its state beside the other stacks", () => {
    const stack = new InfraStack(Testing.app(), { ...loaded, outdir: path.join(REPO, "cdktf.out"), cluster: loaded.names.clusters[0] });
    expect(stack.node.id).toBe("infra-hc1");
    expect(json.terraform.backend.local.path).toBe(path.relative(path.join(REPO, "cdktf.out", "stacks", "infra-hc1"), loaded.names.stateLocation("infra-hc1")));
    // By default Azure refuses to delete a group that still holds what HyperShift's operators left.
    expect(json.provider.azurerm).toEqual([{ features: [{}], storage_use_azuread: true, subscription_id: SUB, tenant_id: loaded.config.tenantId }]);
  });

  it("deletes groups that still hold leftovers only with deleteResourceGroupsWithContents: true", () => {
    const optIn = synthInfra(hostedConfig({ deleteResourceGroupsWithContents: true }));
    expect(optIn.provider.azurerm[0].features).toEqual([{ resource_group: [{ prevent_deletion_if_contains_resources: false }] }]);
    expect(synthInfra(hostedConfig({ deleteResourceGroupsWithContents: false })).provider.azurerm[0].features).toEqual([{}]);
  });

  it("creates the three cluster groups, the network, the private zone and the egress load balancer", () => {
    expect(
      resources(json, "azurerm_resource_group")
        .map((g) => g.name)
        .sort(),
    ).toEqual(["hc1-customer-nsg-rg", "hc1-customer-vnet-rg", "hc1-managed-rg"]);
    expect(only(json.resource.azurerm_virtual_network)).toMatchObject({ name: "hc1-customer-vnet", address_space: ["10.0.0.0/16"], location: "eastus" });
    expect(only(json.resource.azurerm_subnet)).toMatchObject({ name: "hc1-customer-subnet-1", address_prefixes: ["10.0.0.0/24"] });
    expect(only(json.resource.azurerm_network_security_group).name).toBe("hc1-customer-nsg");
    expect(json.resource.azurerm_subnet_network_security_group_association).toBeDefined();
    expect(only(json.resource.azurerm_private_dns_zone).name).toBe("hc1.example.com");
    for (const type of ["azurerm_public_ip", "azurerm_lb", "azurerm_lb_backend_address_pool", "azurerm_lb_probe", "azurerm_lb_outbound_rule"]) {
      expect(only(json.resource[type]).name).toBe(hosted.infraId);
    }
  });

  it("puts each resource in its group by reference, so it waits for the group", () => {
    const group = (name: string) => `\${${address(json, "azurerm_resource_group", name)}.name}`;
    expect(only(json.resource.azurerm_virtual_network).resource_group_name).toBe(group("hc1-customer-vnet-rg"));
    expect(only(json.resource.azurerm_network_security_group).resource_group_name).toBe(group("hc1-customer-nsg-rg"));
    for (const type of ["azurerm_private_dns_zone", "azurerm_public_ip", "azurerm_lb"]) {
      expect(only(json.resource[type]).resource_group_name).toBe(group("hc1-managed-rg"));
    }
  });

  it("links the private zone to the created VNet", () => {
    const link = only(json.resource.azurerm_private_dns_zone_virtual_network_link);
    expect(link).toMatchObject({ name: hosted.privateZone.linkName, registration_enabled: false });
    expect(link.virtual_network_id).toBe(`\${${address(json, "azurerm_virtual_network", "hc1-customer-vnet")}.id}`);
  });

  it("grants HyperShift's 15 role assignments of the 7 base identities and the control-plane operator's 3 (on by default), with the names names.ts derives", () => {
    expect(assignments(json)).toHaveLength(18);
    expect(
      assignments(json)
        .map((a) => a.name)
        .sort(),
    ).toEqual(
      managedIdentityRoleAssignmentsOf(hosted.roleAssignments)
        .map((a) => a.name)
        .sort(),
    );
    for (const a of assignments(json)) expect(a.principal_type).toBe("ServicePrincipal");
  });

  it("looks up the principal of each of the 8 identities once, by name in the persistent group", () => {
    const lookups = Object.values(json.data.azurerm_user_assigned_identity) as any[];
    expect(lookups.map((d) => d.name).sort()).toEqual(
      managedIdentitiesOf(loaded.names.clusters[0].identities)
        .map((i) => i.name)
        .sort(),
    );
    for (const d of lookups) expect(d.resource_group_name).toBe(loaded.names.resourceGroup.name);
  });

  it("makes each assignment on a created group depend on that group, and the DNS zone group's on nothing", () => {
    const groups = new Map(resources(json, "azurerm_resource_group").map((g) => [rg(g.name), address(json, "azurerm_resource_group", g.name)]));
    for (const a of assignments(json)) {
      expect(a.depends_on).toEqual(a.scope === rg("dns-rg") ? undefined : [groups.get(a.scope)]);
    }
  });

  it("outputs the infrastructure IDs as plain strings known at synth", () => {
    expect(Object.fromEntries(Object.entries(json.output).map(([k, v]: [string, any]) => [k, v.value]))).toEqual({
      infra_id: hosted.infraId,
      managed_resource_group: "hc1-managed-rg",
      vnet_id: `${rg("hc1-customer-vnet-rg")}/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet`,
      subnet_id: `${rg("hc1-customer-vnet-rg")}/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet/subnets/hc1-customer-subnet-1`,
      network_security_group_id: `${rg("hc1-customer-nsg-rg")}/providers/Microsoft.Network/networkSecurityGroups/hc1-customer-nsg`,
      private_dns_zone_id: `${rg("hc1-managed-rg")}/providers/Microsoft.Network/privateDnsZones/hc1.example.com`,
      public_dns_zone_id: `${rg("dns-rg")}/providers/Microsoft.Network/dnszones/example.com`,
    });
  });
});

describe("infra stack role assignments", () => {
  it("names an assignment as HyperShift does: UUIDv5(DNS, <infraID>-<component>-<scope>)", () => {
    const json = synthInfra(hostedConfig({ ...HYPERSHIFT, infraId: "abc" }));
    const capzManaged = assignments(json).find(
      (a) =>
        a.scope === rg("hc1-managed-rg") &&
        a.role_definition_id.endsWith("b24988ac-6180-42a0-ab88-20f7382dd24c") &&
        a.principal_id.includes("nodePoolManagement"),
    );
    expect(capzManaged.name).toBe(uuidv5(`abc-capz-${rg("hc1-managed-rg")}`));
  });

  it("has the control-plane-operator's three (18) by default, and 15 of 7 identities when the cluster opts out", () => {
    const json = synthInfra(hostedConfig(HYPERSHIFT, { identities: { controlPlaneOperator: true } }));
    expect(assignments(json)).toHaveLength(18);
    expect(Object.keys(json.data.azurerm_user_assigned_identity)).toHaveLength(8);
    const optOut = synthInfra(hostedConfig(HYPERSHIFT, { identities: { controlPlaneOperator: false } }));
    expect(assignments(optOut)).toHaveLength(15);
    expect(Object.keys(optOut.data.azurerm_user_assigned_identity)).toHaveLength(7);
  });

  it("leaves out only the Image Registry role when ImageRegistry is disabled (create infra azure --disable-cluster-capabilities)", () => {
    const json = synthInfra(hostedConfig({ ...HYPERSHIFT, capabilities: { disabled: ["ImageRegistry"] } }));
    expect(assignments(json)).toHaveLength(17);
    expect(assignments(json).filter((a) => a.role_definition_id.endsWith("8b32b316-c2f5-4ddf-b05b-83dacd2d08b5"))).toEqual([]);
  });

  it("with a single resource group creates one group and collapses the network scopes onto it (9 assignments)", () => {
    const loaded = hostedConfig({ ...HYPERSHIFT, network: { singleResourceGroup: true } });
    const json = synthInfra(loaded);
    expect(only(json.resource.azurerm_resource_group).name).toBe("hc1-managed-rg");
    const managed = address(json, "azurerm_resource_group", "hc1-managed-rg");
    // One per role on the managed group (8, the control-plane operator's included) plus ingress on the DNS zone group.
    expect(assignments(json)).toHaveLength(9);
    expect(new Set(assignments(json).map((a) => a.name)).size).toBe(9);
    expect(
      assignments(json)
        .map((a) => a.name)
        .sort(),
    ).toEqual(
      managedIdentityRoleAssignmentsOf(loaded.names.clusters[0].hosted!.roleAssignments)
        .map((a) => a.name)
        .sort(),
    );
    for (const a of assignments(json)) expect(a.depends_on).toEqual(a.scope === rg("hc1-managed-rg") ? [managed] : undefined);
    expect(only(json.resource.azurerm_virtual_network).resource_group_name).toBe(`\${${managed}.name}`);
  });

  it("takes the role definition of the DNS zone group's subscription when the zone is in another one", () => {
    const json = synthInfra(hostedConfig({ ...HYPERSHIFT, publicZone: { resourceGroupName: "dns-rg", subscriptionId: DNS_SUB } }));
    const dns = assignments(json).filter((a) => a.scope === rg("dns-rg", DNS_SUB));
    expect(dns).toHaveLength(1);
    expect(dns[0].role_definition_id).toBe(`/subscriptions/${DNS_SUB}/providers/Microsoft.Authorization/roleDefinitions/0336e1d3-7a87-462b-b6db-342b63f7802c`);
    for (const a of assignments(json).filter((x) => x !== dns[0])) expect(a.role_definition_id).toMatch(new RegExp(`^/subscriptions/${SUB}/`));
  });
});

describe("infra stack with existing network resources", () => {
  const vnetId = `${rg("net-rg")}/providers/Microsoft.Network/virtualNetworks/shared-vnet`;
  const subnetId = `${vnetId}/subnets/workers`;
  const nsgId = `${rg("sec-rg")}/providers/Microsoft.Network/networkSecurityGroups/shared-nsg`;
  const json = synthInfra(hostedConfig({ ...HYPERSHIFT, network: { existing: { vnetId, subnetId, nsgId } } }));
  const least = synthInfra(hostedConfig({ network: { existing: { vnetId, subnetId, nsgId } } }));

  it("creates only the managed group and no VNet, subnet, NSG or association", () => {
    expect(only(json.resource.azurerm_resource_group).name).toBe("hc1-managed-rg");
    for (const type of ["azurerm_virtual_network", "azurerm_subnet", "azurerm_network_security_group", "azurerm_subnet_network_security_group_association"]) {
      expect(json.resource[type]).toBeUndefined();
    }
  });

  it("links the private zone to the existing VNet and outputs the existing IDs", () => {
    expect(only(json.resource.azurerm_private_dns_zone_virtual_network_link).virtual_network_id).toBe(vnetId);
    expect(json.output.vnet_id.value).toBe(vnetId);
    expect(json.output.subnet_id.value).toBe(subnetId);
    expect(json.output.network_security_group_id.value).toBe(nsgId);
  });

  it("grants the roles on the existing groups, without depending on anything", () => {
    const scopes = new Set(assignments(json).map((a) => a.scope));
    expect(scopes).toEqual(new Set([rg("hc1-managed-rg"), rg("net-rg"), rg("sec-rg"), rg("dns-rg")]));
    for (const a of assignments(json).filter((x) => x.scope !== rg("hc1-managed-rg"))) expect(a.depends_on).toBeUndefined();
  });

  it("least privilege (the default) grants on the existing VNet, subnet and NSG, never their groups, without depending on them", () => {
    const scopes = new Set(assignments(least).map((a) => a.scope));
    expect(scopes).toEqual(
      new Set([
        rg("hc1-managed-rg"),
        `${rg("hc1-managed-rg")}/providers/Microsoft.Network/privateDnsZones/hc1.example.com`,
        vnetId,
        subnetId,
        nsgId,
        `${rg("dns-rg")}/providers/Microsoft.Network/dnszones/example.com`,
      ]),
    );
    for (const a of assignments(least).filter((x) => [vnetId, subnetId, nsgId].includes(x.scope))) expect(a.depends_on).toBeUndefined();
  });
});

describe("infra stack least-privilege role assignments", () => {
  const json = synthInfra(hostedConfig());
  const created: Record<string, string> = {
    [rg("hc1-managed-rg")]: "azurerm_resource_group.ResourceGroups_managed",
    [`${rg("hc1-managed-rg")}/providers/Microsoft.Network/privateDnsZones/hc1.example.com`]: "azurerm_private_dns_zone.PrivateDnsZone",
    [`${rg("hc1-customer-vnet-rg")}/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet`]: "azurerm_virtual_network.Network_VirtualNetwork",
    [`${rg("hc1-customer-vnet-rg")}/providers/Microsoft.Network/virtualNetworks/hc1-customer-vnet/subnets/hc1-customer-subnet-1`]:
      "azurerm_subnet.Network_Subnet",
    [`${rg("hc1-customer-nsg-rg")}/providers/Microsoft.Network/networkSecurityGroups/hc1-customer-nsg`]: "azurerm_network_security_group.Network_SecurityGroup",
  };

  it("grants nothing on the VNet's, NSG's or DNS zone's group, and no Contributor", () => {
    for (const a of assignments(json)) {
      expect([rg("hc1-customer-vnet-rg"), rg("hc1-customer-nsg-rg"), rg("dns-rg")]).not.toContain(a.scope);
      expect(a.role_definition_id).not.toMatch(/b24988ac-6180-42a0-ab88-20f7382dd24c$/);
    }
  });

  it("makes each assignment on a created group or resource depend on it, and the public zone's on nothing", () => {
    for (const a of assignments(json)) {
      const dependency = created[a.scope];
      if (dependency) expect(a.depends_on).toEqual([expect.stringMatching(new RegExp(`^${dependency.replace(".", "\\.")}_[0-9A-F]{8}$`))]);
      else
        expect({ scope: a.scope, depends_on: a.depends_on }).toEqual({
          scope: `${rg("dns-rg")}/providers/Microsoft.Network/dnszones/example.com`,
          depends_on: undefined,
        });
    }
  });
});

describe("infra stack preconditions", () => {
  it("refuses a cluster without hostedCluster (an internal error: app.ts adds the stack only with one)", () => {
    const loaded = loadInline(minimalConfig());
    expect(() => new InfraStack(Testing.app(), { ...loaded, outdir: path.join(REPO, "cdktf.out"), cluster: loaded.names.clusters[0] })).toThrow(
      "internal: InfraStack for clusters[0] (hc1) without hostedCluster",
    );
  });
});
