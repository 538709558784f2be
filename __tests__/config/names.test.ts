import {
  clusterOfStack,
  clusterStackNames,
  controlPlanePrincipalsOf,
  defaultPrivateKeyFile,
  defaultStorageAccountName,
  DeploymentNames,
  deriveNames,
  managedIdentitiesOf,
  stableSuffix,
} from "../../config/names";
import { configSchema } from "../../config/schema";
import { minimalConfig } from "../helpers";

const base = minimalConfig({ prefix: "myprefix", serviceAccountSigningKey: { publicKeyFile: "keys/sa.public" }, clusters: [{ name: "myprefix-hc" }] });
const names = (input: object) => deriveNames(configSchema.parse({ ...base, ...input }), "/cfg");

describe("names", () => {
  it("storage account: prefix without '-' + 'oidc' + 6 hex of a stable hash, at most 24 characters", () => {
    const account = defaultStorageAccountName("my-very-long-prefix-x", "00000000-0000-0000-0000-000000000000", "os4-common");
    expect(account).toMatch(/^myverylongprefoidc[0-9a-f]{6}$/);
    expect(account.length).toBeLessThanOrEqual(24);
    expect(defaultStorageAccountName("a", "s", "rg")).toBe(defaultStorageAccountName("a", "s", "rg"));
  });

  it("storage account suffix differs per subscription, resource group and prefix, and ignores case", () => {
    const suffixes = new Set([stableSuffix("s1", "rg", "p"), stableSuffix("s2", "rg", "p"), stableSuffix("s1", "rg2", "p"), stableSuffix("s1", "rg", "q")]);
    expect(suffixes.size).toBe(4);
    expect(stableSuffix("S1", "RG", "p")).toBe(stableSuffix("s1", "rg", "p"));
  });

  it("shared issuer: container defaults to the account name, as ccoctl; the URL has no trailing slash", () => {
    const n = names({});
    expect(n.sharedIssuer?.containerName).toBe(n.storageAccount.name);
    expect(n.sharedIssuer?.url).toBe(`https://${n.storageAccount.name}.blob.core.windows.net/${n.storageAccount.name}`);
    expect(n.clusters[0].issuer).toBe(n.sharedIssuer);
    expect(names({ oidc: { containerName: "issuer", storageAccountName: "acct1" } }).sharedIssuer?.url).toBe("https://acct1.blob.core.windows.net/issuer");
  });

  it("per-cluster issuer: container named after the cluster, own key files", () => {
    const n = names({
      oidc: { issuer: "perCluster" },
      serviceAccountSigningKey: undefined,
      clusters: [{ name: "a1", serviceAccountSigningKey: { publicKeyFile: "/keys/a.public", privateKeyFile: "/keys/a.key" } }],
    });
    expect(n.sharedIssuer).toBeUndefined();
    expect(n.clusters[0].issuer).toMatchObject({ containerName: "a1", publicKeyFile: "/keys/a.public", privateKeyFile: "/keys/a.key" });
  });

  it("key files resolve against the config folder; the private key defaults to ccoctl's pair name", () => {
    expect(names({}).sharedIssuer).toMatchObject({ publicKeyFile: "/cfg/keys/sa.public", privateKeyFile: "/cfg/keys/sa.private" });
    expect(defaultPrivateKeyFile("signer.pem")).toBe("signer.pem.private");
  });

  it("resource group defaults to <prefix>-hcp-persistent; identity IDs are ARM IDs in it", () => {
    const n = names({});
    expect(n.resourceGroup).toEqual({
      name: "myprefix-hcp-persistent",
      id: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/myprefix-hcp-persistent",
    });
    expect(managedIdentitiesOf(n.clusters[0].identities)[0].id).toBe(
      "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/myprefix-hcp-persistent/providers/Microsoft.ManagedIdentity/userAssignedIdentities/myprefix-hc-image-registry",
    );
  });

  it("optional identities: the control-plane operator by default (as create iam azure), KMS when enabled, after the seven base ones", () => {
    const base = ["imageRegistry", "ingress", "file", "disk", "nodePoolManagement", "cloudProvider", "network"];
    expect(managedIdentitiesOf(names({}).clusters[0].identities).map((i) => i.key)).toEqual([...base, "controlPlaneOperator"]);
    const optOut = names({ clusters: [{ name: "hc", identities: { controlPlaneOperator: false } }] }).clusters[0];
    expect(managedIdentitiesOf(optOut.identities).map((i) => i.key)).toEqual(base);
    const both = names({ clusters: [{ name: "hc", identities: { controlPlaneOperator: true, kms: true } }] }).clusters[0];
    expect(
      managedIdentitiesOf(both.identities)
        .slice(7)
        .map((i) => i.name),
    ).toEqual(["hc-control-plane-operator", "hc-kms"]);
  });

  it("state: one location per stack for every backend", () => {
    expect(names({}).stateLocation("shared")).toBe("/cfg/terraform-state/00000000-0000-0000-0000-000000000000/myprefix/shared.tfstate");
    expect(names({ backend: { type: "azurerm", resourceGroupName: "r", storageAccountName: "s12", containerName: "c12" } }).stateLocation("x")).toBe(
      "hcp-azure/myprefix/x.tfstate",
    );
    expect(names({ backend: { type: "cloud", organization: "o" } }).stateLocation("shared")).toBe("myprefix-shared");
  });
});

describe("names (topology: aroHcp)", () => {
  const aro = (clusters: object[]) => names({ topology: "aroHcp", clusters });

  it("control-plane display names carry the deployment prefix once (Entra names are tenant-wide); secret names are seed 003's <name>-<suffix>", () => {
    const [own, other] = aro([{ name: "myprefix-hc" }, { name: "prod" }]).clusters;
    expect(controlPlanePrincipalsOf(own.identities).find((i) => i.key === "controlPlaneOperator")).toEqual({
      key: "controlPlaneOperator",
      applicationName: "myprefix-hc-cpo",
      secretName: "myprefix-hc-cpo",
    });
    expect(controlPlanePrincipalsOf(other.identities).find((i) => i.key === "nodePoolManagement")).toEqual({
      key: "nodePoolManagement",
      applicationName: "myprefix-prod-nodepool-mgmt",
      secretName: "prod-nodepool-mgmt",
    });
    expect(controlPlanePrincipalsOf(other.identities).map((i) => i.secretName)).toEqual([
      "prod-cloud-provider",
      "prod-nodepool-mgmt",
      "prod-cpo",
      "prod-image-registry",
      "prod-ingress",
      "prod-network",
      "prod-disk",
      "prod-file",
    ]);
  });

  it("the identities are the 3 data-plane ones (dp- names); self-managed clusters have no control-plane identities", () => {
    expect(managedIdentitiesOf(aro([{ name: "prod" }]).clusters[0].identities).map((i) => i.name)).toEqual([
      "prod-dp-image-registry",
      "prod-dp-disk",
      "prod-dp-file",
    ]);
    const selfManaged = names({}).clusters[0];
    expect(selfManaged.identities.kind).toBe("selfManaged");
    expect(controlPlanePrincipalsOf(selfManaged.identities)).toEqual([]);
    expect(managedIdentitiesOf(selfManaged.identities).map((i) => i.key)).toContain("nodePoolManagement");
  });

  it("Key Vault default name: prefix (13 chars, no '--', no trailing '-') + -kv- + 6 hex; only with aroHcp", () => {
    const keyVaultOf = (n: DeploymentNames) => (n.topology.kind === "aroHcp" ? n.topology.keyVault : undefined);
    const vault = keyVaultOf(names({ topology: "aroHcp", prefix: "abcdefghijklm-nop" }));
    expect(vault?.name).toMatch(/^abcdefghijklm-kv-[0-9a-f]{6}$/);
    expect(vault?.id).toBe(
      `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/abcdefghijklm-nop-hcp-persistent/providers/Microsoft.KeyVault/vaults/${vault?.name}`,
    );
    expect(keyVaultOf(names({ topology: "aroHcp", prefix: "abcdefghijkl-x" }))?.name).toMatch(/^abcdefghijkl-kv-/);
    expect(names({}).topology).toEqual({ kind: "selfManaged" });
  });
});

describe("per-cluster stack names", () => {
  it("clusterOfStack inverts identities-, infra- and cluster-<name>, and knows no shared stack", () => {
    expect(["identities-hc1", "infra-hc1", "cluster-hc1", "cluster-infra-x", "infra-cluster-y"].map(clusterOfStack)).toEqual([
      "hc1",
      "hc1",
      "hc1",
      "infra-x",
      "cluster-y",
    ]);
    expect(["shared", "management", "aks", "infra-", "clusters-hc1"].map(clusterOfStack)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it("clusterStackNames lists a cluster's stacks in destroy order, each mapping back to the cluster", () => {
    expect(clusterStackNames("hc1")).toEqual(["cluster-hc1", "infra-hc1", "identities-hc1"]);
    expect(clusterStackNames("infra-x").map(clusterOfStack)).toEqual(["infra-x", "infra-x", "infra-x"]);
  });
});
