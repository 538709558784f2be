import { Lb } from "@cdktf/provider-azurerm/lib/lb";
import { LbOutboundRule } from "@cdktf/provider-azurerm/lib/lb-outbound-rule";
import { LbProbe } from "@cdktf/provider-azurerm/lib/lb-probe";
import { PublicIp } from "@cdktf/provider-azurerm/lib/public-ip";
import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import { TerraformOutput, Testing } from "cdktf";
import { Construct } from "constructs";
import { uuidv5 } from "../../config/uuid";
import { EgressLoadBalancer, EgressLoadBalancerProps } from "../../constructs/cluster-infra/egress-load-balancer";
import { ClusterNetwork, ClusterNetworkProps } from "../../constructs/cluster-infra/network";
import { PrivateDnsZone, PrivateDnsZoneProps } from "../../constructs/cluster-infra/private-dns-zone";
import { ClusterResourceGroups, ClusterResourceGroupsProps } from "../../constructs/cluster-infra/resource-groups";
import { WorkloadIdentityRoles, WorkloadIdentityRolesProps } from "../../constructs/cluster-infra/workload-identity-roles";
import { only, resources } from "../helpers";

const SUB = "00000000-0000-0000-0000-000000000000";
const rg = (name: string, sub = SUB) => `/subscriptions/${sub}/resourceGroups/${name}`;

/** Synthesizes what `build` adds to a fresh stack, as parsed Terraform JSON. */
function synth(build: (scope: Construct) => void): any {
  return JSON.parse(Testing.synthScope(build));
}

/** The Terraform key (`<type>.<name>`) of the only resource of `type`. */
function keyOf(json: any, type: string): string {
  return `${type}.${Object.keys(json.resource[type])[0]}`;
}

describe("uuidv5 (role assignment names)", () => {
  it("equals Go's uuid.NewSHA1(uuid.NameSpaceDNS, ...) as HyperShift computes it", () => {
    // Python: uuid.uuid5(uuid.NAMESPACE_DNS, "abc-capz-/subscriptions/x/resourceGroups/y")
    expect(uuidv5("abc-capz-/subscriptions/x/resourceGroups/y")).toBe("ed4c89f0-d3b2-5cf1-8b10-daa49f80ce87");
  });
});

describe("ClusterResourceGroups", () => {
  const threeGroups: ClusterResourceGroupsProps["groups"] = {
    managed: { name: "hc1-managed-rg", id: rg("hc1-managed-rg") },
    vnet: { name: "hc1-vnet-rg", id: rg("hc1-vnet-rg") },
    nsg: { name: "hc1-nsg-rg", id: rg("hc1-nsg-rg") },
  };
  let exposed: ClusterResourceGroups;
  const build = (groups: ClusterResourceGroupsProps["groups"]) =>
    synth((scope) => {
      exposed = new ClusterResourceGroups(scope, "ResourceGroups", { groups, location: "eastus", tags: { env: "dev" } });
      // What a dependent resource would receive for the VNet's group.
      new TerraformOutput(scope, "vnet_group", { value: exposed.name("vnet") });
    });

  it("creates each group with location and tags, and without prevent_destroy (deleted with the cluster)", () => {
    const json = build(threeGroups);
    const groups = resources(json, "azurerm_resource_group");
    expect(groups.map((g) => g.name).sort()).toEqual(["hc1-managed-rg", "hc1-nsg-rg", "hc1-vnet-rg"]);
    for (const g of groups) {
      expect(g).toMatchObject({ location: "eastus", tags: { env: "dev" } });
      expect(g.lifecycle).toBeUndefined();
    }
  });

  it("with one shared group creates it once, and every key refers to that resource", () => {
    const managed = { name: "hc1-managed-rg", id: rg("hc1-managed-rg") };
    const single = { managed, vnet: ClusterResourceGroups.fromExisting(managed), nsg: ClusterResourceGroups.fromExisting(managed) };
    const json = build(single);
    expect(only(json.resource.azurerm_resource_group).name).toBe("hc1-managed-rg");
    expect(json.output.vnet_group.value).toBe(`\${${keyOf(json, "azurerm_resource_group")}.name}`);
    expect(exposed.resource("nsg")).toBe(exposed.resource("managed"));
    expect([...exposed.createdByArmId.keys()]).toEqual([rg("hc1-managed-rg").toLowerCase()]);
  });

  it("creates no group of an existing resource and returns its plain name and ID", () => {
    const byo = { ...threeGroups, vnet: ClusterResourceGroups.fromExisting({ name: "network-rg", id: rg("network-rg") }) };
    const json = build(byo);
    expect(resources(json, "azurerm_resource_group").map((g) => g.name)).not.toContain("network-rg");
    expect(json.output.vnet_group.value).toBe("network-rg");
    expect(exposed.id("vnet")).toBe(rg("network-rg"));
    expect(exposed.resource("vnet")).toBeUndefined();
    expect(exposed.createdByArmId.has(rg("network-rg").toLowerCase())).toBe(false);
  });

  it("rejects two created groups with one name (case-insensitive), naming both keys", () => {
    const clash = { ...threeGroups, nsg: { name: "HC1-Managed-RG", id: rg("HC1-Managed-RG") } };
    expect(() => build(clash)).toThrow('groups.nsg.name "HC1-Managed-RG" is also groups.managed.name');
  });

  it("rejects an ID that is not the group's (the created groups are found by it)", () => {
    const bad = { ...threeGroups, managed: { name: "hc1-managed-rg", id: rg("other") } };
    expect(() => build(bad)).toThrow(
      /groups\.managed\.id "\/subscriptions\/.*\/other" must be \/subscriptions\/<subscription>\/resourceGroups\/hc1-managed-rg/,
    );
  });
});

describe("ClusterNetwork", () => {
  const created: ClusterNetworkProps = {
    location: "eastus",
    vnet: { name: "hc1-vnet", subnetName: "hc1-subnet-1", resourceGroupName: "vnet-rg" },
    nsg: { name: "hc1-nsg", resourceGroupName: "nsg-rg" },
    vnetCidr: "10.1.0.0/16",
    subnetCidr: "10.1.2.0/24",
    tags: { env: "dev" },
  };
  const byoVnetId = `${rg("byo-rg")}/providers/Microsoft.Network/virtualNetworks/byo-vnet`;
  const byoNsgId = `${rg("byo-rg")}/providers/Microsoft.Network/networkSecurityGroups/byo-nsg`;
  const existingVnet = { vnet: ClusterNetwork.fromExistingVnet(byoVnetId, `${byoVnetId}/subnets/byo-subnet`) };
  const existingNsg = { nsg: ClusterNetwork.fromExistingNsg(byoNsgId) };
  let exposed: ClusterNetwork;
  const build = (overrides: Partial<ClusterNetworkProps> = {}) =>
    synth((scope) => (exposed = new ClusterNetwork(scope, "Network", { ...created, ...overrides })));

  it("creates the NSG without any rule, with location and tags", () => {
    const nsg = only(build().resource.azurerm_network_security_group);
    expect(nsg).toMatchObject({ name: "hc1-nsg", resource_group_name: "nsg-rg", location: "eastus", tags: { env: "dev" } });
    expect(nsg.security_rule).toBeUndefined();
  });

  it("creates the VNet with vnetCidr and its subnet with subnetCidr", () => {
    const json = build();
    expect(only(json.resource.azurerm_virtual_network)).toMatchObject({
      name: "hc1-vnet",
      resource_group_name: "vnet-rg",
      location: "eastus",
      address_space: ["10.1.0.0/16"],
      tags: { env: "dev" },
    });
    const vnet = keyOf(json, "azurerm_virtual_network");
    expect(only(json.resource.azurerm_subnet)).toMatchObject({
      name: "hc1-subnet-1",
      address_prefixes: ["10.1.2.0/24"],
      virtual_network_name: `\${${vnet}.name}`,
      resource_group_name: `\${${vnet}.resource_group_name}`,
    });
  });

  it("defaults to HyperShift's address ranges", () => {
    const json = build({ vnetCidr: undefined, subnetCidr: undefined });
    expect(only(json.resource.azurerm_virtual_network).address_space).toEqual(["10.0.0.0/16"]);
    expect(only(json.resource.azurerm_subnet).address_prefixes).toEqual(["10.0.0.0/24"]);
  });

  it("associates the created subnet with the created NSG", () => {
    const json = build();
    expect(only(json.resource.azurerm_subnet_network_security_group_association)).toEqual({
      subnet_id: `\${${keyOf(json, "azurerm_subnet")}.id}`,
      network_security_group_id: `\${${keyOf(json, "azurerm_network_security_group")}.id}`,
    });
  });

  it("with an existing NSG creates none and associates the created subnet with the existing one", () => {
    const json = build(existingNsg);
    expect(json.resource.azurerm_network_security_group).toBeUndefined();
    expect(only(json.resource.azurerm_subnet_network_security_group_association).network_security_group_id).toBe(byoNsgId);
    expect(exposed.nsgId).toBe(byoNsgId);
  });

  it("with an existing VNet creates no VNet, subnet or association, and exposes the existing IDs", () => {
    const json = build(existingVnet);
    for (const type of ["azurerm_virtual_network", "azurerm_subnet", "azurerm_subnet_network_security_group_association"]) {
      expect(json.resource[type]).toBeUndefined();
    }
    expect(only(json.resource.azurerm_network_security_group).name).toBe("hc1-nsg");
    expect(exposed.vnetId).toBe(byoVnetId);
    expect(exposed.subnetId).toBe(`${byoVnetId}/subnets/byo-subnet`);
  });

  it("with everything existing creates nothing", () => {
    expect(build({ ...existingVnet, ...existingNsg }).resource).toBeUndefined();
  });
});

describe("PrivateDnsZone", () => {
  const props: PrivateDnsZoneProps = {
    zoneName: "hc1.example.com",
    resourceGroupName: "hc1-managed-rg",
    linkName: "hc1-hc1-abcde",
    virtualNetworkId: `${rg("vnet-rg")}/providers/Microsoft.Network/virtualNetworks/hc1-vnet`,
    tags: { env: "dev" },
  };
  const build = (overrides: Partial<PrivateDnsZoneProps> = {}) => synth((scope) => new PrivateDnsZone(scope, "PrivateDnsZone", { ...props, ...overrides }));

  it("creates the zone <name>.<baseDomain> in the managed group", () => {
    expect(only(build().resource.azurerm_private_dns_zone)).toMatchObject({
      name: "hc1.example.com",
      resource_group_name: "hc1-managed-rg",
      tags: { env: "dev" },
    });
  });

  it("links the zone to the VNet for resolution only (registration_enabled false)", () => {
    const json = build();
    const zone = keyOf(json, "azurerm_private_dns_zone");
    expect(only(json.resource.azurerm_private_dns_zone_virtual_network_link)).toEqual({
      name: "hc1-hc1-abcde",
      private_dns_zone_name: `\${${zone}.name}`,
      resource_group_name: `\${${zone}.resource_group_name}`,
      virtual_network_id: props.virtualNetworkId,
      registration_enabled: false,
      tags: { env: "dev" },
    });
  });

  it("rejects an invalid zone or link name", () => {
    expect(() => build({ zoneName: "Hc1.Example.com" })).toThrow('zoneName "Hc1.Example.com" must be 2-34');
    expect(() => build({ linkName: "-link" })).toThrow('linkName "-link" must be 1-80');
  });
});

describe("EgressLoadBalancer", () => {
  const props: EgressLoadBalancerProps = { name: "hc1-abcde", resourceGroupName: "hc1-managed-rg", location: "eastus", tags: { env: "dev" } };
  const build = (overrides: Partial<EgressLoadBalancerProps> = {}) =>
    Testing.synthScope((scope) => new EgressLoadBalancer(scope, "EgressLoadBalancer", { ...props, ...overrides }));

  it("creates a Standard static IPv4 public IP named infraID, idle 4 minutes, without zones", () => {
    const json = build();
    expect(json).toHaveResourceWithProperties(PublicIp, {
      name: "hc1-abcde",
      resource_group_name: "hc1-managed-rg",
      location: "eastus",
      sku: "Standard",
      allocation_method: "Static",
      ip_version: "IPv4",
      idle_timeout_in_minutes: 4,
    });
    expect(only(JSON.parse(json).resource.azurerm_public_ip).zones).toBeUndefined();
  });

  it("creates a Standard load balancer named infraID with one frontend infraID on the public IP", () => {
    const json = build();
    const ip = keyOf(JSON.parse(json), "azurerm_public_ip");
    expect(json).toHaveResourceWithProperties(Lb, {
      name: "hc1-abcde",
      sku: "Standard",
      frontend_ip_configuration: [{ name: "hc1-abcde", public_ip_address_id: `\${${ip}.id}` }],
    });
  });

  it("leaves the frontends the cloud provider adds for Services alone", () => {
    expect(build()).toHaveResourceWithProperties(Lb, { lifecycle: { ignore_changes: ["frontend_ip_configuration"] } });
  });

  it("names the backend pool infraID (CAPZ and the cloud provider look it up by that name)", () => {
    const parsed = JSON.parse(build());
    expect(only(parsed.resource.azurerm_lb_backend_address_pool)).toEqual({ name: "hc1-abcde", loadbalancer_id: `\${${keyOf(parsed, "azurerm_lb")}.id}` });
  });

  it("probes HTTP 30595 /healthz every 5 seconds with threshold 2", () => {
    expect(build()).toHaveResourceWithProperties(LbProbe, {
      name: "hc1-abcde",
      protocol: "Http",
      port: 30595,
      request_path: "/healthz",
      interval_in_seconds: 5,
      probe_threshold: 2,
    });
  });

  it("has one outbound rule: All, 1024 ports, TCP reset, idle 4, frontend infraID, the pool; and no load-balancing rule", () => {
    const json = build();
    const parsed = JSON.parse(json);
    expect(json).toHaveResourceWithProperties(LbOutboundRule, {
      name: "hc1-abcde",
      protocol: "All",
      allocated_outbound_ports: 1024,
      tcp_reset_enabled: true,
      idle_timeout_in_minutes: 4,
      frontend_ip_configuration: [{ name: "hc1-abcde" }],
      backend_address_pool_id: `\${${keyOf(parsed, "azurerm_lb_backend_address_pool")}.id}`,
      loadbalancer_id: `\${${keyOf(parsed, "azurerm_lb")}.id}`,
    });
    expect(only(parsed.resource.azurerm_lb_outbound_rule).enable_tcp_reset).toBeUndefined();
    expect(parsed.resource.azurerm_lb_rule).toBeUndefined();
    expect(Object.keys(parsed.resource).sort()).toEqual([
      "azurerm_lb",
      "azurerm_lb_backend_address_pool",
      "azurerm_lb_outbound_rule",
      "azurerm_lb_probe",
      "azurerm_public_ip",
    ]);
  });

  it("takes other SNAT ports and idle timeout", () => {
    expect(build({ allocatedOutboundPorts: 2048, outboundIdleTimeoutInMinutes: 30 })).toHaveResourceWithProperties(LbOutboundRule, {
      allocated_outbound_ports: 2048,
      idle_timeout_in_minutes: 30,
    });
  });

  it.each([
    [{ allocatedOutboundPorts: 1020 }, "allocatedOutboundPorts 1020 must be a multiple of 8"],
    [{ allocatedOutboundPorts: 64008 }, "allocatedOutboundPorts 64008 must be a multiple of 8 from 0 to 64000"],
    [{ outboundIdleTimeoutInMinutes: 3 }, "outboundIdleTimeoutInMinutes 3 must be a whole number of minutes from 4 to 120"],
    [{ outboundIdleTimeoutInMinutes: 121 }, "outboundIdleTimeoutInMinutes 121 must be"],
    [{ name: "bad/name" }, 'name "bad/name" must be 1-80'],
  ])("rejects %j", (overrides, message) => {
    expect(() => build(overrides)).toThrow(message);
  });
});

describe("WorkloadIdentityRoles", () => {
  const OTHER_SUB = "22222222-2222-2222-2222-222222222222";
  const CONTRIBUTOR = "b24988ac-6180-42a0-ab88-20f7382dd24c";
  const INGRESS = "0336e1d3-7a87-462b-b6db-342b63f7802c";
  const assignments: WorkloadIdentityRolesProps["assignments"] = [
    { identity: "nodePoolManagement", scopeKind: "managed", scope: rg("managed-rg"), roleGuid: CONTRIBUTOR, name: uuidv5("a") },
    { identity: "nodePoolManagement", scopeKind: "vnet", scope: rg("vnet-rg"), roleGuid: CONTRIBUTOR, name: uuidv5("b") },
    { identity: "ingress", scopeKind: "managed", scope: rg("managed-rg"), roleGuid: INGRESS, name: uuidv5("c") },
    { identity: "ingress", scopeKind: "dnsZone", scope: rg("dns-rg", OTHER_SUB), roleGuid: INGRESS, name: uuidv5("d") },
  ];
  const identities = [
    { key: "nodePoolManagement", name: "hc1-nodepool-mgmt" },
    { key: "ingress", name: "hc1-ingress" },
    { key: "kms", name: "hc1-kms" },
  ];
  const build = (overrides: Partial<WorkloadIdentityRolesProps> = {}) =>
    synth((scope) => {
      const managed = new ResourceGroup(scope, "Managed", { name: "managed-rg", location: "eastus" });
      new WorkloadIdentityRoles(scope, "WorkloadIdentityRoles", {
        assignments,
        identities,
        identityResourceGroupName: "persistent-rg",
        // Upper case: ARM IDs compare case-insensitively.
        scopeDependencies: new Map([[rg("MANAGED-RG"), managed]]),
        ...overrides,
      });
    });
  const byScope = (json: any) => Object.fromEntries(resources(json, "azurerm_role_assignment").map((r) => [r.scope, r]));

  it("looks up each identity with assignments once, by name in the persistent group", () => {
    const lookups = Object.values(build().data.azurerm_user_assigned_identity) as any[];
    expect(lookups.map((d) => d.name).sort()).toEqual(["hc1-ingress", "hc1-nodepool-mgmt"]);
    for (const d of lookups) expect(d.resource_group_name).toBe("persistent-rg");
  });

  it("creates one assignment per entry with the given name, the scope and the identity's principal as a ServicePrincipal", () => {
    const json = build();
    const created = json.resource.azurerm_role_assignment;
    expect(Object.keys(created)).toHaveLength(4);
    const lookupKey = Object.entries(json.data.azurerm_user_assigned_identity).find(([, d]: [string, any]) => d.name === "hc1-ingress")![0];
    const dns = byScope(json)[rg("dns-rg", OTHER_SUB)];
    expect(dns).toMatchObject({
      name: uuidv5("d"),
      principal_id: `\${data.azurerm_user_assigned_identity.${lookupKey}.principal_id}`,
      principal_type: "ServicePrincipal",
    });
    expect(
      resources(json, "azurerm_role_assignment")
        .map((r) => r.name)
        .sort(),
    ).toEqual(assignments.map((a) => a.name).sort());
  });

  it("takes the role definition from the scope's subscription", () => {
    const scopes = byScope(build());
    expect(scopes[rg("dns-rg", OTHER_SUB)].role_definition_id).toBe(`/subscriptions/${OTHER_SUB}/providers/Microsoft.Authorization/roleDefinitions/${INGRESS}`);
    expect(scopes[rg("vnet-rg")].role_definition_id).toBe(`/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${CONTRIBUTOR}`);
  });

  it("makes assignments on a group created in the stack depend on it, and no other", () => {
    const json = build();
    const managed = keyOf(json, "azurerm_resource_group");
    for (const r of resources(json, "azurerm_role_assignment")) {
      expect(r.depends_on).toEqual(r.scope === rg("managed-rg") ? [managed] : undefined);
    }
  });

  it("names its constructs <identity>/<scopeKind> (Terraform addresses stay stable and readable)", () => {
    let roles!: WorkloadIdentityRoles;
    Testing.synthScope((scope) => (roles = new WorkloadIdentityRoles(scope, "Roles", { assignments, identities, identityResourceGroupName: "persistent-rg" })));
    expect([...roles.assignments.keys()]).toEqual(["nodePoolManagement/managed", "nodePoolManagement/vnet", "ingress/managed", "ingress/dnsZone"]);
    expect(roles.assignments.get("ingress/dnsZone")!.node.path).toMatch(/\/Roles\/ingress\/dnsZone$/);
    expect(roles.node.findChild("ingress").node.tryFindChild("Identity")).toBeDefined();
  });

  it("gives a principal with a known object ID its roles without any lookup", () => {
    const objectId = "22222222-2222-2222-2222-222222222222";
    const json = build({
      identities: [
        { key: "nodePoolManagement", name: "hc1-nodepool-mgmt" },
        { key: "ingress", principalId: objectId },
      ],
    });
    expect(Object.values(json.data.azurerm_user_assigned_identity).map((d: any) => d.name)).toEqual(["hc1-nodepool-mgmt"]);
    expect(json.data.azuread_service_principal).toBeUndefined();
    const ingress = resources(json, "azurerm_role_assignment").filter((r) => r.name === uuidv5("c") || r.name === uuidv5("d"));
    expect(ingress.map((r) => r.principal_id)).toEqual([objectId, objectId]);
  });

  it("rejects a known principal ID that is not a GUID", () => {
    expect(() =>
      build({
        identities: [
          { key: "nodePoolManagement", name: "hc1-nodepool-mgmt" },
          { key: "ingress", principalId: "hc1-ingress" },
        ],
      }),
    ).toThrow('identities.ingress.principalId "hc1-ingress" must be an object ID (GUID) or a reference');
  });

  it("rejects a repeated name, an unknown identity and a scope that is not a resource group", () => {
    const bad = [
      ...assignments,
      { identity: "disk", scopeKind: "managed", scope: rg("managed-rg"), roleGuid: CONTRIBUTOR, name: uuidv5("e") },
      { identity: "ingress", scopeKind: "vnet", scope: `${rg("vnet-rg")}/providers/x`, roleGuid: INGRESS, name: uuidv5("a") },
    ];
    const message = (() => {
      try {
        build({ assignments: bad });
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    })();
    expect(message).toContain('assignment disk/managed: identity "disk" is not among identities');
    expect(message).toContain(`assignment ingress/vnet: scope "${rg("vnet-rg")}/providers/x" must be /subscriptions/<subscription>/resourceGroups/<group>`);
    expect(message).toContain(`assignment ingress/vnet: name "${uuidv5("a")}" appears twice`);
  });
});
