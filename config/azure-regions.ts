/**
 * Azure public-cloud region names, as the Name column of `az account list-locations -o table`
 * prints them (the `name` of ARM's Subscriptions - List Locations), physical regions only: the
 * logical ones (`europe`, `global`, `unitedstates`, ...) hold no resources.
 *
 * Source and date: written on 2026-11-23 without network access, from the list-locations names
 * as known up to 2025 (cross-checked against the ARM REST reference's example and a public copy
 * of the list); regions announced later are missing. A real region missing here is accepted with
 * `allowUnlistedLocation: true` (help/configuration.md); please also add it to this table.
 */
export const AZURE_REGIONS: readonly string[] = [
  // Americas
  "eastus",
  "eastus2",
  "centralus",
  "northcentralus",
  "southcentralus",
  "westcentralus",
  "westus",
  "westus2",
  "westus3",
  "canadacentral",
  "canadaeast",
  "brazilsouth",
  "brazilsoutheast",
  "mexicocentral",
  "chilecentral",
  // Europe
  "northeurope",
  "westeurope",
  "uksouth",
  "ukwest",
  "francecentral",
  "francesouth",
  "germanywestcentral",
  "germanynorth",
  "norwayeast",
  "norwaywest",
  "swedencentral",
  "switzerlandnorth",
  "switzerlandwest",
  "polandcentral",
  "italynorth",
  "spaincentral",
  "austriaeast",
  "belgiumcentral",
  // Asia Pacific
  "eastasia",
  "southeastasia",
  "japaneast",
  "japanwest",
  "koreacentral",
  "koreasouth",
  "centralindia",
  "southindia",
  "westindia",
  "jioindiacentral",
  "jioindiawest",
  "australiaeast",
  "australiasoutheast",
  "australiacentral",
  "australiacentral2",
  "newzealandnorth",
  "malaysiasouth",
  "malaysiawest",
  "indonesiacentral",
  // Middle East and Africa
  "uaenorth",
  "uaecentral",
  "qatarcentral",
  "israelcentral",
  "southafricanorth",
  "southafricawest",
  // Restricted (access on request) and early-access regions list-locations also shows
  "brazilus",
  "swedensouth",
  "eastus2euap",
  "centraluseuap",
];

/**
 * Listed regions known to have no availability zones (Microsoft's "Azure regions list" marks them
 * without zone support; the same date and source as the table above). A zone there fails at apply
 * (`Zones are not supported in this region`). A region missing from both lists is not checked.
 */
export const REGIONS_WITHOUT_ZONES: ReadonlySet<string> = new Set([
  "northcentralus",
  "westcentralus",
  "canadaeast",
  "brazilsoutheast",
  "francesouth",
  "germanynorth",
  "norwaywest",
  "switzerlandwest",
  "ukwest",
  "australiacentral",
  "australiacentral2",
  "australiasoutheast",
  "southindia",
  "westindia",
  "jioindiacentral",
  "jioindiawest",
  "koreasouth",
  "malaysiasouth",
  "uaecentral",
  "southafricawest",
  "swedensouth",
  "brazilus",
]);

/** The message for a zone in a region without zones; undefined where zones exist (or are not known not to). */
export function zonelessRegionMessage(location: string): string | undefined {
  return REGIONS_WITHOUT_ZONES.has(location)
    ? `asks for availability zones, but ${location} has none (Azure's region list; apply would fail with "Zones are not supported in this region"). Remove the zones, or deploy to a region with zones`
    : undefined;
}

/** Levenshtein distance (insertions, deletions and substitutions of one character). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The listed regions nearest to `location` (all at the smallest distance, at most three, in table order). */
export function nearestRegions(location: string): string[] {
  const scored = AZURE_REGIONS.map((region) => ({ region, distance: editDistance(location, region) }));
  const best = Math.min(...scored.map((s) => s.distance));
  return scored
    .filter((s) => s.distance === best)
    .slice(0, 3)
    .map((s) => s.region);
}

/** `undefined` for a listed region; else the error message naming the nearest regions and the override. */
export function unlistedLocationMessage(location: string): string | undefined {
  if (AZURE_REGIONS.includes(location)) return undefined;
  const nearest = nearestRegions(location).join(" or ");
  return (
    `is not an Azure region (the Name column of \`az account list-locations -o table\`); did you mean ${nearest}? ` +
    "For a region newer than this release's table (config/azure-regions.ts), set allowUnlistedLocation: true"
  );
}
