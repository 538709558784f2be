import { TerraformOutput, Testing } from "cdktf";
import { ExternalDnsPrincipal, ExternalDnsPrincipalProps } from "../../constructs/external-dns/external-dns-principal";
import { resources } from "../helpers";

const SUB = "00000000-0000-0000-0000-000000000000";
const RG_ID = `/subscriptions/${SUB}/resourceGroups/persistent-rg`;
const ZONE_ID = `${RG_ID}/providers/Microsoft.Network/dnsZones/myprefix.example.com`;
const ROLE = (guid: string) => `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
// Built-in role GUIDs, written out here (not imported) so a wrong constant fails the test.
const DNS_ZONE_CONTRIBUTOR = "befefa01-2a29-4197-83a8-272ff33ce314";
const READER = "acdd72a7-3385-48ef-bd42-f606fba81ae7";
const CONTRIBUTOR = "b24988ac-6180-42a0-ab88-20f7382dd24c";

function synthPrincipal(props: Partial<ExternalDnsPrincipalProps> = {}) {
  let principal!: ExternalDnsPrincipal;
  const json = Testing.synthScope((scope) => {
    principal = new ExternalDnsPrincipal(scope, "ExternalDns", {
      displayName: "myprefix-external-dns",
      tenantId: "11111111-1111-1111-1111-111111111111",
      subscriptionId: SUB,
      zoneId: ZONE_ID,
      zoneResourceGroupName: "persistent-rg",
      zoneResourceGroupId: RG_ID,
      ...props,
    });
  });
  return { principal, json, parsed: JSON.parse(json) };
}

const grants = (parsed: any) =>
  resources(parsed, "azurerm_role_assignment")
    .map((r) => ({ role: r.role_definition_id, scope: r.scope }))
    .sort((a, b) => (a.role + a.scope).localeCompare(b.role + b.scope));

describe("ExternalDnsPrincipal", () => {
  it("least privilege by default: DNS Zone Contributor on the zone, Reader on its resource group (zone listing)", () => {
    expect(grants(synthPrincipal().parsed)).toEqual(
      [
        { role: ROLE(DNS_ZONE_CONTRIBUTOR), scope: ZONE_ID },
        { role: ROLE(READER), scope: RG_ID },
      ].sort((a, b) => (a.role + a.scope).localeCompare(b.role + b.scope)),
    );
  });

  it("roles: seed reproduces seed 004: Reader and Contributor, both on the zone only", () => {
    expect(grants(synthPrincipal({ roles: "seed" }).parsed)).toEqual(
      [
        { role: ROLE(CONTRIBUTOR), scope: ZONE_ID },
        { role: ROLE(READER), scope: ZONE_ID },
      ].sort((a, b) => (a.role + a.scope).localeCompare(b.role + b.scope)),
    );
  });

  it("assignments target the service principal's object ID, survive Entra replication delay and have deterministic names", () => {
    const { parsed } = synthPrincipal();
    const spKey = Object.keys(parsed.resource.azuread_service_principal)[0];
    for (const assignment of resources(parsed, "azurerm_role_assignment")) {
      expect(assignment).toMatchObject({
        principal_id: `\${azuread_service_principal.${spKey}.object_id}`,
        principal_type: "ServicePrincipal",
        skip_service_principal_aad_check: true,
      });
      expect(assignment.name).toMatch(/^\$\{uuidv5\("url", ".*\/[0-9a-f-]{36}\/\$\{azuread_service_principal\..*\.object_id\}"\)\}$/);
    }
    const names = resources(parsed, "azurerm_role_assignment").map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("owns the application and service principal by the deployer and refuses duplicate display names", () => {
    const { parsed } = synthPrincipal();
    const deployer = `\${data.azuread_client_config.${Object.keys(parsed.data.azuread_client_config)[0]}.object_id}`;
    expect(resources(parsed, "azuread_application")).toEqual([
      expect.objectContaining({ display_name: "myprefix-external-dns", owners: [deployer], prevent_duplicate_names: true, sign_in_audience: "AzureADMyOrg" }),
    ]);
    expect(resources(parsed, "azuread_service_principal")).toEqual([expect.objectContaining({ owners: [deployer] })]);
  });

  it("password: one year relative by default, or an absolute end date, and a rotation key", () => {
    expect(resources(synthPrincipal().parsed, "azuread_application_password")[0]).toMatchObject({ end_date_relative: "8760h" });
    const absolute = resources(
      synthPrincipal({ passwordEndDate: "2030-01-01T00:00:00Z", passwordRotation: "2026-q4" }).parsed,
      "azuread_application_password",
    )[0];
    expect(absolute).toMatchObject({
      end_date: "2030-01-01T00:00:00Z",
      rotate_when_changed: { rotation: "2026-q4" },
      lifecycle: { create_before_destroy: true },
    });
    expect(absolute.end_date_relative).toBeUndefined();
  });

  it("credentialsJson is azure_mgmt.json in the seed's key order, valid JSON once Terraform fills the references", () => {
    const out = JSON.parse(
      Testing.synthScope((scope) => {
        const principal = new ExternalDnsPrincipal(scope, "E", {
          displayName: "x-external-dns",
          tenantId: "11111111-1111-1111-1111-111111111111",
          subscriptionId: SUB,
          zoneId: ZONE_ID,
          zoneResourceGroupName: "persistent-rg",
          zoneResourceGroupId: RG_ID,
        });
        new TerraformOutput(scope, "creds", { value: principal.credentialsJson, sensitive: true });
      }),
    );
    // Resolve the template as Terraform would, with sample values (a secret with a quote and a backslash).
    const secret = 'a"b\\c~d';
    const resolved = (out.output.creds.value as string)
      .replace(/\$\{azuread_application\.[^.]+\.client_id\}/, "22222222-3333-4444-5555-666666666666")
      .replace(/\$\{jsonencode\(azuread_application_password\.[^.]+\.value\)\}/, JSON.stringify(secret));
    expect(resolved).not.toContain("${");
    const json = JSON.parse(resolved);
    expect(Object.keys(json)).toEqual(["tenantId", "subscriptionId", "resourceGroup", "aadClientId", "aadClientSecret"]);
    expect(json).toEqual({
      tenantId: "11111111-1111-1111-1111-111111111111",
      subscriptionId: SUB,
      resourceGroup: "persistent-rg",
      aadClientId: "22222222-3333-4444-5555-666666666666",
      aadClientSecret: secret,
    });
  });

  it.each([
    [{ passwordEndDate: "2030-01-01T00:00:00Z", passwordValidFor: "24h" }, /passwordEndDate and passwordValidFor are exclusive/],
    [{ displayName: "" }, /displayName "" must be 1-120 characters/],
  ])("fails for %j", (props, message) => {
    expect(() => synthPrincipal(props)).toThrow(message);
  });
});

describe("ExternalDnsPrincipal: protection (prevent_destroy)", () => {
  it("protects the application and service principal by default; the password stays replaceable for rotation", () => {
    const { parsed } = synthPrincipal();
    expect(resources(parsed, "azuread_application")[0].lifecycle).toEqual({ prevent_destroy: true });
    expect(resources(parsed, "azuread_service_principal")[0].lifecycle).toEqual({ prevent_destroy: true });
    expect(resources(parsed, "azuread_application_password")[0].lifecycle).toEqual({ create_before_destroy: true });
  });

  it("preventDestroy: false leaves the application and service principal without lifecycle", () => {
    const { parsed } = synthPrincipal({ preventDestroy: false });
    expect(resources(parsed, "azuread_application")[0].lifecycle).toBeUndefined();
    expect(resources(parsed, "azuread_service_principal")[0].lifecycle).toBeUndefined();
  });
});
