import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { Testing, TerraformStack } from "cdktf";
import { ClusterResourceGroups } from "../../constructs/cluster-infra/resource-groups";
import { PrivateDnsZone } from "../../constructs/cluster-infra/private-dns-zone";

/** Adoptable constructs list their own import targets: paths from their construct tree, never written by the caller. */

const rg = (name: string) => ({ name, id: `/subscriptions/s/resourceGroups/${name}` });
const stack = () => {
  const s = new TerraformStack(Testing.app(), "infra-x");
  new AzurermProvider(s, "azurerm", { features: [{}] });
  return s;
};

describe("importTargets", () => {
  it("places each existing object at the resource the construct holds for it, by its path inside the stack", () => {
    const s = stack();
    const groups = new ClusterResourceGroups(s, "Groups", {
      groups: { managed: rg("m"), vnet: rg("v"), nsg: ClusterResourceGroups.fromExisting(rg("n")) },
      location: "eastus",
    });
    const zone = new PrivateDnsZone(s, "Zone", { zoneName: "a.example.com", resourceGroupName: "m", linkName: "a-x", virtualNetworkId: "/vnet" });
    const existing = (id: string) => ({ type: "azurerm_resource_group", id });
    expect(groups.importTargets({ vnet: existing("v-id"), managed: existing("m-id") })).toEqual([
      { path: "Groups/managed", type: "azurerm_resource_group", id: "m-id" },
      { path: "Groups/vnet", type: "azurerm_resource_group", id: "v-id" },
    ]);
    expect(zone.importTargets({ vnetLink: { type: "azurerm_private_dns_zone_virtual_network_link", id: "l" } })).toEqual([
      { path: "Zone/VnetLink", type: "azurerm_private_dns_zone_virtual_network_link", id: "l" },
    ]);
  });

  it("fails for an existing object whose resource the construct does not create", () => {
    const groups = new ClusterResourceGroups(stack(), "Groups", {
      groups: { managed: rg("m"), vnet: rg("v"), nsg: ClusterResourceGroups.fromExisting(rg("n")) },
      location: "eastus",
    });
    expect(() => groups.importTargets({ nsg: { type: "azurerm_resource_group", id: "n-id" } })).toThrow(
      "infra-x/Groups: no nsg resource here to import azurerm_resource_group n-id into",
    );
  });
});
