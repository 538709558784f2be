import { Testing } from "cdktf";
import * as fs from "node:fs";
import * as path from "node:path";
import { configWarnings } from "../../config/rules";
import { uuidv5 } from "../../config/uuid";
import { InfraStack } from "../../stacks/infra-stack";
import { checkManifests, HAVE_CRDS, loadExample, loadInline, minimalConfig, REPO, resources, synthStacks, tempDir } from "../helpers";

/**
 * examples/nodepool-options.yaml end to end: the infra stack grants Reader on the NodePools' disk
 * encryption set to the identities that write VMs and attach disks (both topologies), synth warns
 * about settings that will not do what they seem, and the rendered NodePools pass the real CRDs
 * (../shared/tools/check-manifests.mjs, schema and every CEL rule).
 */
const SUB = "00000000-0000-0000-0000-000000000000";
const DES = `/subscriptions/${SUB}/resourceGroups/myprefix-keys-rg/providers/Microsoft.Compute/diskEncryptionSets/myprefix-des`;
const READER = "acdd72a7-3385-48ef-bd42-f606fba81ae7";

const example = loadExample("nodepool-options.yaml");
const stacks = synthStacks(example);
const desAssignments = (stack: any) => resources(stack, "azurerm_role_assignment").filter((r) => r.scope === DES);

describe("disk encryption set roles", () => {
  it("selfManaged: Reader on the set (only the set) for nodePoolManagement and disk, named from the infra ID", () => {
    const assignments = desAssignments(stacks["infra-myprefix-np"]);
    const infraId = example.names.clusters[0].hosted!.infraId;
    expect(assignments.map((a) => [a.role_definition_id, a.principal_id, a.name]).sort()).toEqual(
      [
        [
          `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${READER}`,
          expect.stringContaining("WorkloadIdentityRoles_disk_Identity"),
          uuidv5(`${infraId}-azure-disk-${DES.toLowerCase()}`),
        ],
        [
          `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${READER}`,
          expect.stringContaining("WorkloadIdentityRoles_nodePoolManagement_Identity"),
          uuidv5(`${infraId}-capz-${DES.toLowerCase()}`),
        ],
      ].sort(),
    );
  });

  it("no set, no extra assignment", () => {
    const basic = synthStacks(loadExample("basic.yaml"));
    expect(resources(basic["infra-myprefix-hc"], "azurerm_role_assignment").filter((r) => /diskEncryptionSets/.test(r.scope))).toEqual([]);
  });

  it("aroHcp: the grants go to the control-plane principals of CAPZ and the disk CSI driver (object IDs, no lookup)", () => {
    const loaded = loadInline(
      minimalConfig({
        prefix: "myprefix",
        topology: "aroHcp",
        aroHcp: { keyVault: { name: "myprefix-hcp-kv", network: { allowedIpRanges: ["203.0.113.7"] } } },
        dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } },
        externalDns: {},
        clusters: [
          {
            name: "hc1",
            hostedCluster: {
              releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64",
              baseDomain: "example.com",
              pullSecretFile: "pull-secret.json",
              nodePools: [
                { name: "a", osDisk: { diskEncryptionSetId: DES } },
                { name: "b", osDisk: { diskEncryptionSetId: DES } },
              ],
            },
          },
        ],
        managementCluster: { aks: {}, operator: { bundleFile: "operator/hypershift-operator-aro-hcp.yaml" } },
      }),
    );
    const { config, names } = loaded;
    const stack = JSON.parse(Testing.synth(new InfraStack(Testing.app(), { config, names, outdir: path.join(REPO, "cdktf.out"), cluster: names.clusters[0] })));
    const assignments = desAssignments(stack);
    // One per identity although two pools name the set.
    expect(assignments).toHaveLength(2);
    expect(assignments.map((a) => a.principal_id).join(" ")).toMatch(/ControlPlanePrincipals.*ControlPlanePrincipals/);
    expect(
      Object.keys(stack.resource.azurerm_role_assignment)
        .filter((id) => id.includes("diskEncryptionSet"))
        .sort(),
    ).toEqual([
      expect.stringMatching(/^ControlPlaneIdentityRoles_disk_diskEncryptionSet_myprefix-keys-rg_myprefix-des_/),
      expect.stringMatching(/^ControlPlaneIdentityRoles_nodePoolManagement_diskEncryptionSet_myprefix-keys-rg_myprefix-des_/),
    ]);
  });
});

describe("NodePool warnings", () => {
  it.each([
    [{ autoscaling: { min: 0, max: 3 } }, /autoscaling.min 0; HyperShift scales an Azure pool from zero only when/],
    [{ vmSize: "Standard_D8s_v5", osDisk: { persistence: "Ephemeral" } }, /ephemeral OS disk on Standard_D8s_v5, which may have no local temp or cache disk/],
  ])("%j", (pool, warning) => {
    const loaded = loadInline(
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
              nodePools: [{ name: "p", encryptionAtHost: "Enabled", ...pool }],
            },
          },
        ],
      }),
    );
    expect(configWarnings(loaded.config, loaded.names).filter((w) => warning.test(w))).toHaveLength(1);
  });

  it("the example's ephemeral pool (a size with a temp disk) gets no warning", () => {
    expect(configWarnings(example.config, example.names).filter((w) => /NodePool/.test(w))).toEqual([]);
  });
});

(HAVE_CRDS ? describe : describe.skip)("examples/nodepool-options.yaml against the real CRDs", () => {
  it("every NodePool passes the schema and every CEL rule", async () => {
    const dir = tempDir("hcp-azure-np-");
    const file = path.join(dir, "cdk.tf.json");
    fs.writeFileSync(file, JSON.stringify(stacks["cluster-myprefix-np"]));
    const result = await checkManifests(file);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(result.stdout).toMatch(/checked 4 manifests \(HostedCluster: 1, NodePool: 3\), 0 errors, .*evaluated \(0 failed\), \d+ unknown .*, 0 not evaluated/);
    expect(result.status).toBe(0);
  });
});
