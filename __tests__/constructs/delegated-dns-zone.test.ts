import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { DnsNsRecord } from "@cdktf/provider-azurerm/lib/dns-ns-record";
import { DnsZone } from "@cdktf/provider-azurerm/lib/dns-zone";
import { Testing } from "cdktf";
import { DelegatedDnsZone, DelegatedDnsZoneProps } from "../../constructs/dns/delegated-dns-zone";
import { only } from "../helpers";

function synthZone(props: Partial<DelegatedDnsZoneProps> = {}, otherSubscription = false) {
  const json = Testing.synthScope((scope) => {
    const provider = otherSubscription
      ? new AzurermProvider(scope, "parent", { alias: "parent_dns", features: [{}], subscriptionId: "22222222-2222-2222-2222-222222222222" })
      : undefined;
    new DelegatedDnsZone(scope, "Dns", {
      zoneName: "myprefix.example.com",
      resourceGroupName: "persistent-rg",
      parent: { zoneName: "example.com", resourceGroupName: "parent-rg", provider },
      ...props,
    });
  });
  return { json, parsed: JSON.parse(json) };
}

describe("DelegatedDnsZone", () => {
  it("creates the public zone in the persistent group, protected from destroy by default", () => {
    const { json } = synthZone();
    expect(json).toHaveResourceWithProperties(DnsZone, {
      name: "myprefix.example.com",
      resource_group_name: "persistent-rg",
      lifecycle: { prevent_destroy: true },
    });
  });

  it("delegates with an NS record named after the child label, holding the child zone's name servers", () => {
    const { parsed } = synthZone();
    const zoneKey = Object.keys(parsed.resource.azurerm_dns_zone)[0];
    const parentKey = Object.keys(parsed.data.azurerm_dns_zone)[0];
    const record = only(parsed.resource.azurerm_dns_ns_record);
    expect(record).toMatchObject({
      name: "myprefix",
      records: `\${tolist(azurerm_dns_zone.${zoneKey}.name_servers)}`,
      // The parent is looked up (data source), never managed: destroying the stack cannot touch it.
      zone_name: `\${data.azurerm_dns_zone.${parentKey}.name}`,
      resource_group_name: `\${data.azurerm_dns_zone.${parentKey}.resource_group_name}`,
      ttl: 3600,
    });
    expect(parsed.data.azurerm_dns_zone[parentKey]).toMatchObject({ name: "example.com", resource_group_name: "parent-rg" });
    expect(parsed.resource.azurerm_dns_zone[parentKey]).toBeUndefined();
  });

  it("takes the configured TTL and a multi-label record name", () => {
    const { json } = synthZone({ zoneName: "hcp.dev.example.com", parent: { zoneName: "example.com", resourceGroupName: "parent-rg", ttl: 172800 } });
    expect(json).toHaveResourceWithProperties(DnsNsRecord, { name: "hcp.dev", ttl: 172800 });
  });

  it("looks up and writes the parent through the aliased provider of its subscription", () => {
    const { parsed } = synthZone({}, true);
    expect(only(parsed.data.azurerm_dns_zone).provider).toBe("azurerm.parent_dns");
    expect(only(parsed.resource.azurerm_dns_ns_record).provider).toBe("azurerm.parent_dns");
    expect(only(parsed.resource.azurerm_dns_zone).provider).toBeUndefined();
  });

  it("without a parent creates only the zone (the user delegates with its name servers)", () => {
    const { parsed } = synthZone({ parent: undefined, preventDestroy: false });
    expect(parsed.resource.azurerm_dns_ns_record).toBeUndefined();
    expect(parsed.data?.azurerm_dns_zone).toBeUndefined();
    expect(only(parsed.resource.azurerm_dns_zone).lifecycle).toBeUndefined();
  });

  it.each([
    [{ zoneName: "myprefix.example.org" }, /parent.zoneName "example.com" must be a proper suffix of zoneName "myprefix.example.org"/],
    [{ zoneName: "notexample.com" }, /must be a proper suffix/],
    [{ zoneName: "example.com" }, /must be a proper suffix/],
  ])("fails for %j", (props, message) => {
    expect(() => synthZone(props as Partial<DelegatedDnsZoneProps>)).toThrow(message);
  });
});
