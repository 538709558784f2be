import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { formatIssues, validateConfig } from "../../config/load";
import { configSchema } from "../../config/schema";
import { armId } from "../../config/schema/primitives";
import { EXAMPLES } from "../helpers";

/**
 * ARM ID fields follow Azure's naming rules part by part (config/schema/primitives.ts): no name
 * holds what Terraform or ARM would read as syntax. (__tests__/stacks/config-string-sweep.test.ts
 * sweeps every field; this file pins the rule and its message.)
 */

const RG = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups";
const SUBNET = armId("Microsoft.Network/virtualNetworks/subnets", "/subscriptions/<sub>/.../subnets/<subnet>");
const subnet = (group: string, vnet: string, name = "s1") => `${RG}/${group}/providers/Microsoft.Network/virtualNetworks/${vnet}/subnets/${name}`;

/** The ARM ID patterns of the published JSON Schema (`npm run schema`). */
function publishedArmIdPatterns(): string[] {
  const patterns: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const pattern = (node as { pattern?: unknown }).pattern;
      if (typeof pattern === "string" && pattern.includes("subscriptions")) patterns.push(pattern);
      Object.values(node).forEach(walk);
    }
  };
  walk(z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any" }));
  return patterns;
}

describe("armId", () => {
  it.each([
    ["letters, digits, '_', '-', '.', parentheses", subnet("my_rg-(1).x", "v.net_1-a", "sub.net_2")],
    ["a resource group of Unicode letters (Azure: Char.IsLetterOrDigit)", subnet("Grüße-日本", "vnet")],
    ["a 90-character resource group", subnet("r".repeat(90), "vnet")],
  ])("accepts %s", (_what, id) => {
    expect(SUBNET.safeParse(id).success).toBe(true);
  });

  it.each([
    ["a template in the VNet name", subnet("rg", "vnet${x}"), /"\$" "\{" "\}" in "vnet\$\{x\}"/],
    ["a directive in the subnet name", subnet("rg", "vnet", "s%{if 1}"), /"%" "\{" " " "\}" in "s%\{if 1\}"/],
    ["a quote and a backslash", subnet("rg", 'v"\\n'), /"\\"" "\\\\" in/],
    ["whitespace", subnet("rg", "my vnet"), /" " in "my vnet"/],
    ["a control character", subnet("rg", "vnet\u0000"), /"\\u0000" in/],
    ["'#' (ARM's URL parsing)", subnet("rg", "vnet#1"), /"#" in "vnet#1"/],
    ["a resource group ending in '.'", subnet("rg.", "vnet"), /resource group "rg\.", but a resource group name is 1-90 letters/],
    ["a 91-character resource group", subnet("r".repeat(91), "vnet"), /resource group "r{91}"/],
    ["another type", `${RG}/rg/providers/Microsoft.Network/networkSecurityGroups/nsg`, /must be a full ARM ID like/],
    ["a subscription that is no GUID", subnet("rg", "vnet").replace("00000000-0000-0000-0000-000000000000", "0".repeat(36)), /must be a full ARM ID like/],
  ])("refuses %s, naming the part and the fix", (_what, id, message) => {
    const result = SUBNET.safeParse(id);
    expect(result.success).toBe(false);
    const text = result.error?.issues.map((i) => i.message).join("\n") ?? "";
    expect(text).toMatch(message);
    expect(text).toMatch(/az resource show .* --query id/);
  });

  it("the reviewer's payload in examples/private.yaml: one config error naming the field, the value (shortened), the rule and the fix", () => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, "private.yaml"), "utf8"));
    const link = config.clusters[0].hostedCluster.privateLink.natSubnet;
    link.vnetId += '${sha256(file("..\\u002f..\\u002f..\\u002fpull-secret.json"))}';
    const result = validateConfig(config, EXAMPLES);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = formatIssues(result);
    expect(text.split("\n")).toEqual([
      "config error(s) in (inline):",
      expect.stringMatching(
        /^ {2}clusters\[0\]\.hostedCluster\.privateLink\.natSubnet\.vnetId: "\/subscriptions\/.{60,}\.\.\. has "\$" "\{" "\\"" "\\\\" "\}" in "mymgmt-vnet\$\{sha256\(file\(.*\.\.\.": Azure resource and resource group names never hold .*; copy the ID Azure reports/,
      ),
    ]);
  });

  it("accepts `/resourcegroups/` as `az identity show` prints it (Azure/azure-cli#27099), and writes it as `/resourceGroups/`", () => {
    const lower = subnet("rg", "vnet").replace("/resourceGroups/", "/resourcegroups/");
    expect(SUBNET.parse(lower)).toBe(subnet("rg", "vnet"));
    expect(SUBNET.parse(subnet("rg", "vnet"))).toBe(subnet("rg", "vnet"));
  });

  it("one message per bad ID (the pattern stops before the resource group rule)", () => {
    expect(SUBNET.safeParse(subnet("rg.", "vnet")).error?.issues).toHaveLength(1);
  });

  it("every ARM ID pattern of the published schema names each part (no `[^/]+` name) and compiles as JSON Schema validators read it (u flag)", () => {
    const patterns = publishedArmIdPatterns();
    expect(patterns.length).toBeGreaterThanOrEqual(8);
    for (const pattern of patterns) {
      expect({ pattern, gap: pattern.includes("[^/]+") }).toEqual({ pattern, gap: false });
      expect(() => new RegExp(pattern, "u")).not.toThrow();
    }
  });

  it("the published ARM ID patterns are portable: no \\p{...} (Python's re refuses it; without the u flag it means 'p'), the same verdict with and without the u flag", () => {
    const patterns = publishedArmIdPatterns();
    const samples = [
      subnet("rg", "vnet"),
      subnet("my_rg-(1).x", "v.net_1-a", "sub.net_2"),
      subnet("Grüße-日本", "vnet"),
      subnet("rg", "vnet").replace("/resourceGroups/", "/resourcegroups/"),
      subnet("rg", "vnet${x}"),
      subnet("rg", "p"),
      subnet("pCcL", "Nd"),
      `${RG}/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${"id".repeat(60)}`,
      `${RG}/rg/providers/Microsoft.Network/privateDnsZones/privatelink.vaultcore.azure.net`,
      `${RG}/rg/providers/Microsoft.Compute/galleries/g/images/i/versions/1.0.0`,
    ];
    expect(patterns.length).toBeGreaterThanOrEqual(8);
    for (const pattern of patterns) {
      expect({ pattern, unicodeProperty: /\\p\{/.test(pattern) }).toEqual({ pattern, unicodeProperty: false });
      const [plain, unicode] = [new RegExp(pattern), new RegExp(pattern, "u")];
      for (const sample of samples) expect({ pattern, sample, plain: plain.test(sample) }).toEqual({ pattern, sample, plain: unicode.test(sample) });
    }
    // Each field's pattern accepts its own kind of ID (a valid subnet ID passes at least one pattern, the example resource groups too).
    expect(patterns.some((pattern) => new RegExp(pattern).test(subnet("Grüße-日本", "vnet")))).toBe(true);
  });
});
