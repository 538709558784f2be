import { deriveNames } from "../../config/names";
import { clusterRecordName, legacyStateDirectory, remoteBackendIdentity } from "../../config/names/state";
import { configSchema } from "../../config/schema";
import { minimalConfig } from "../helpers";

/**
 * config/names/state.ts: state and the record of cluster stacks are keyed by what identifies the
 * environment (prefix and subscription; the remote backend's own identity), never by the config's
 * file name. Before, every config in a folder used `<dir>/terraform-state/<stack>.tfstate`.
 */

const SUB_A = "00000000-0000-0000-0000-000000000000";
const SUB_B = "22222222-2222-2222-2222-222222222222";
const config = (input: Record<string, unknown>) => configSchema.parse(minimalConfig(input));
const stateOf = (input: Record<string, unknown>, stack = "shared") => deriveNames(config(input), "/envs").stateLocation(stack);
const recordOf = (input: Record<string, unknown>) => {
  const identity = remoteBackendIdentity(config(input));
  return identity && clusterRecordName(identity);
};

const AZURERM = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate" };

describe("local state: one folder per environment (prefix and subscription)", () => {
  it("is <backend.directory>/<subscriptionId>/<prefix>/<stack>.tfstate beside the config", () => {
    expect(stateOf({ prefix: "dev", subscriptionId: SUB_A })).toBe(`/envs/terraform-state/${SUB_A}/dev/shared.tfstate`);
    expect(stateOf({ prefix: "dev", subscriptionId: SUB_A, backend: { type: "local", directory: "../state" } }, "infra-hc1")).toBe(
      `/state/${SUB_A}/dev/infra-hc1.tfstate`,
    );
    // The subscription in lower case: one environment, however the GUID is written.
    expect(stateOf({ prefix: "dev", subscriptionId: SUB_B.replace(/2/g, "A") })).toBe(stateOf({ prefix: "dev", subscriptionId: SUB_B.replace(/2/g, "a") }));
  });

  it("two configs of different environments in one folder never share a state file; the same environment does, on purpose", () => {
    const dev = stateOf({ prefix: "dev", subscriptionId: SUB_A });
    expect(new Set([dev, stateOf({ prefix: "prod", subscriptionId: SUB_A }), stateOf({ prefix: "dev", subscriptionId: SUB_B })]).size).toBe(3);
    // Another config file of the same environment (a copy, a rename) finds the same state.
    expect(stateOf({ prefix: "dev", subscriptionId: SUB_A, clusters: [{ name: "other" }] })).toBe(dev);
  });

  it("the folder every config used before is two levels up", () => {
    expect(legacyStateDirectory(`/envs/terraform-state/${SUB_A}/dev`)).toBe("/envs/terraform-state");
  });
});

describe("the record of a remote backend: named after the backend's identity", () => {
  it("azurerm: storage account, container and key prefix (default hcp-azure/<prefix>/); cloud: host, organization and workspace prefix (default <prefix>-)", () => {
    expect(recordOf({ prefix: "acme-hcp", backend: AZURERM })).toBe("azurerm+acmetfstate+tfstate+hcp-azure%2Facme-hcp%2F.clusters.lock");
    expect(recordOf({ backend: { ...AZURERM, keyPrefix: "team/x/" } })).toBe("azurerm+acmetfstate+tfstate+team%2Fx%2F.clusters.lock");
    expect(recordOf({ prefix: "dev", backend: { type: "cloud", organization: "acme" } })).toBe("cloud+app.terraform.io+acme+dev-.clusters.lock");
    expect(recordOf({ backend: { type: "cloud", organization: "acme", hostname: "tfe.example.com", workspacePrefix: "" } })).toBe(
      "cloud+tfe.example.com+acme+.clusters.lock",
    );
    expect(recordOf({})).toBeUndefined();
  });

  it("what does not identify the state (resource group of the account, subscription, project, the clusters) does not change it", () => {
    const base = recordOf({ backend: AZURERM });
    expect(recordOf({ backend: { ...AZURERM, resourceGroupName: "other-rg" }, subscriptionId: SUB_B, clusters: [{ name: "other" }] })).toBe(base);
    expect(recordOf({ backend: { type: "cloud", organization: "acme", project: "proj" } })).toBe(
      recordOf({ backend: { type: "cloud", organization: "acme" } }),
    );
  });

  it("distinct identities get distinct names: every byte outside [A-Za-z0-9._-] is escaped, the separator included; long names end in a hash", () => {
    // The identity itself: the schema refuses such organization names (HCP Terraform's rule), the record's escaping holds for any.
    const cloud = (organization: string, workspacePrefix: string) =>
      clusterRecordName({ type: "cloud", hostname: "app.terraform.io", organization, workspacePrefix });
    const names = [cloud("a+b", "c"), cloud("a", "b"), cloud("a+b+c", ""), cloud("a b", ""), cloud("a/b", ""), cloud("ä", ""), cloud("%C3%A4", "")];
    expect(new Set(names).size).toBe(names.length);
    expect(cloud("a+b", "c")).toBe("cloud+app.terraform.io+a%2Bb+c.clusters.lock");
    expect(cloud("a+b+c", "")).toBe("cloud+app.terraform.io+a%2Bb%2Bc+.clusters.lock");
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9._%+~-]+$/);
    const long = (n: number) => cloud("o".repeat(300), `w${n}`) as string;
    expect(long(1).length).toBeLessThanOrEqual(200);
    expect(long(1)).toMatch(/^cloud\+app\.terraform\.io\+o+~[0-9a-f]{16}\.clusters\.lock$/);
    expect(long(1)).not.toBe(long(2));
  });
});
