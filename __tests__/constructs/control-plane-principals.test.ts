import { TerraformOutput, Testing } from "cdktf";
import { ControlPlanePrincipals, ControlPlanePrincipalsProps, RecordedPrincipal } from "../../constructs/control-plane-identities/control-plane-principals";

const TENANT = "11111111-1111-1111-1111-111111111111";
const principals: RecordedPrincipal[] = [
  { key: "cloudProvider", objectId: "aaaaaaaa-0000-0000-0000-000000000001", clientId: "bbbbbbbb-0000-0000-0000-000000000001" },
  { key: "disk", objectId: "aaaaaaaa-0000-0000-0000-000000000002", clientId: "bbbbbbbb-0000-0000-0000-000000000002" },
];

function synth(props: Partial<ControlPlanePrincipalsProps> = {}): { json: any; construct: ControlPlanePrincipals } {
  let construct!: ControlPlanePrincipals;
  const json = JSON.parse(
    Testing.synthScope((scope) => (construct = new ControlPlanePrincipals(scope, "Principals", { principals, tenantId: TENANT, ...props }))),
  );
  return { json, construct };
}

describe("ControlPlanePrincipals", () => {
  it("looks each principal up by its recorded object ID only (never by display name)", () => {
    const lookups = Object.values(synth().json.data.azuread_service_principal) as any[];
    expect(lookups.map((d) => d.object_id).sort()).toEqual(principals.map((p) => p.objectId));
    for (const d of lookups) {
      expect(d.display_name).toBeUndefined();
      expect(d.client_id).toBeUndefined();
    }
  });

  it("asserts at plan that what was found is the recorded application, in the tenant", () => {
    const lookups = synth().json.data.azuread_service_principal;
    const disk = Object.entries(lookups).find(([id]) => id.includes("_disk_"))![1] as any;
    expect(disk.lifecycle.postcondition).toEqual([
      {
        condition: `\${((self.client_id == "bbbbbbbb-0000-0000-0000-000000000002") && (self.application_tenant_id == "${TENANT}"))}`,
        error_message: expect.stringContaining(
          "The disk control-plane service principal found by its recorded object ID is not the one the shared stack created",
        ),
      },
    ]);
  });

  it("hands out the checked attributes of the lookups, not the recorded values", () => {
    const { json, construct } = synth();
    const diskId = Object.keys(json.data.azuread_service_principal).find((id) => id.includes("_disk_"));
    const resolved = JSON.parse(
      Testing.synthScope((scope) => {
        const p = new ControlPlanePrincipals(scope, "Principals", { principals, tenantId: TENANT });
        new TerraformOutput(scope, "ids", { value: { object: p.objectIds.get("disk"), client: p.clientIds.get("disk") } });
      }),
    ).output.ids.value;
    expect(resolved).toEqual({
      object: `\${data.azuread_service_principal.${diskId}.object_id}`,
      client: `\${data.azuread_service_principal.${diskId}.client_id}`,
    });
    expect([...construct.objectIds.keys()]).toEqual(["cloudProvider", "disk"]);
  });

  it("rejects a repeated key, a literal that is not a GUID and a bad tenant, all at once", () => {
    expect(() => synth({ principals: [...principals, { key: "disk", objectId: "myprefix-hc-disk", clientId: "x" }], tenantId: "contoso" })).toThrow(
      /tenantId "contoso" must be a GUID; principal disk appears twice; disk.objectId "myprefix-hc-disk" must be a GUID or a reference; disk.clientId "x" must be a GUID/,
    );
  });
});
