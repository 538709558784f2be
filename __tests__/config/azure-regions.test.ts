import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { REGIONS_WITHOUT_FEDERATED_CREDENTIALS } from "../../config/azure-rules";
import { AZURE_REGIONS, editDistance, nearestRegions } from "../../config/azure-regions";
import { formatIssues, validateConfig } from "../../config/load";
import { EXAMPLES, minimalConfig } from "../helpers";

/** Issues of an inline config whose relative paths resolve against examples/. */
function issues(overrides: Record<string, unknown>) {
  const result = validateConfig(minimalConfig(overrides), EXAMPLES);
  return result.ok ? [] : result.issues;
}

describe("the Azure region table", () => {
  it("holds distinct names in the schema's location shape", () => {
    expect(new Set(AZURE_REGIONS).size).toBe(AZURE_REGIONS.length);
    for (const region of AZURE_REGIONS) expect(region).toMatch(/^[a-z][a-z0-9]{1,39}$/);
  });

  it("knows the regions other rules name and every example's location", () => {
    for (const region of REGIONS_WITHOUT_FEDERATED_CREDENTIALS) expect(AZURE_REGIONS).toContain(region);
    for (const file of fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(".yaml"))) {
      expect(AZURE_REGIONS).toContain(parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8")).location);
    }
  });

  it("editDistance counts insertions, deletions and substitutions", () => {
    expect(editDistance("eastus", "eastus")).toBe(0);
    expect(editDistance("eastus9", "eastus")).toBe(1);
    expect(editDistance("eastus9", "eastus2")).toBe(1);
    expect(editDistance("westeurop", "westeurope")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("suggests the nearest regions, all of those at the smallest distance", () => {
    expect(nearestRegions("eastus9")).toEqual(["eastus", "eastus2"]);
    expect(nearestRegions("westeurpoe")).toEqual(["westeurope"]);
    expect(nearestRegions("uksouht")).toEqual(["uksouth"]);
    expect(nearestRegions("germanywestcentrl")).toEqual(["germanywestcentral"]);
  });
});

describe("location rule", () => {
  it("refuses eastus9, naming the field, the value, the rule, the nearest regions and the override", () => {
    const found = issues({ location: "eastus9" });
    expect(found).toEqual([
      {
        path: "location",
        value: "eastus9",
        message: expect.stringMatching(/is not an Azure region .*list-locations.*did you mean eastus or eastus2\?.*allowUnlistedLocation: true/),
      },
    ]);
    expect(formatIssues({ ok: false, file: "c.yaml", issues: found })).toContain('location: "eastus9" is not an Azure region');
  });

  it("accepts every listed region but the ones other rules refuse", () => {
    for (const location of AZURE_REGIONS.filter((r) => !REGIONS_WITHOUT_FEDERATED_CREDENTIALS.includes(r))) {
      expect(issues({ location })).toEqual([]);
    }
  });

  it("allowUnlistedLocation: true accepts a region missing from the table, and defaults to false", () => {
    expect(issues({ location: "atlantiscentral", allowUnlistedLocation: true })).toEqual([]);
    expect(issues({ location: "atlantiscentral" }).map((i) => i.path)).toEqual(["location"]);
    const loaded = validateConfig(minimalConfig(), EXAMPLES);
    expect(loaded.ok && loaded.config.allowUnlistedLocation).toBe(false);
  });

  it("allowUnlistedLocation must be a boolean", () => {
    expect(issues({ allowUnlistedLocation: "yes" })).toEqual([{ path: "allowUnlistedLocation", value: "yes", message: "must be a boolean, got string" }]);
  });

  it("the region rule does not replace the shape rule (display names and uppercase)", () => {
    expect(issues({ location: "East US" })).toEqual([expect.objectContaining({ path: "location", message: expect.stringMatching(/without spaces/) })]);
  });
});
