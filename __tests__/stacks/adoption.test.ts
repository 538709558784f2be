import { Fn, Testing, TerraformStack } from "cdktf";
import { ResourceGroup } from "@cdktf/provider-azurerm/lib/resource-group";
import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { importExisting } from "../../constructs/adoption/import-existing";
import { HostedClusterSecrets } from "../../constructs/hosted-cluster/hosted-cluster-secrets";
import { checkManifestsEach, EXAMPLES, HAVE_CRDS, resources, synthStacks, tempDir, ToolRun } from "../helpers";
import { loadExample, loadInline } from "./adoption-targets";

/**
 * Adoption in the synthesized stacks: every import block targets a resource of its own stack, the
 * attributes that would force a replacement match what the guide created, and nothing changes
 * without `adopt`.
 */

const loaded = loadExample("adopt.yaml");
const stacks = synthStacks(loaded);
const adoptYaml = parse(fs.readFileSync(path.join(EXAMPLES, "adopt.yaml"), "utf8"));

const importsOf = (stack: any): Array<{ to: string; id: string; provider?: string }> => stack.import ?? [];
/** The synthesized resource an import block's `to` names, or undefined. */
const target = (stack: any, to: string) => {
  const [type, name] = to.split(".");
  return stack.resource?.[type]?.[name];
};
const imported = (stack: any, type: string): any[] =>
  importsOf(stack)
    .filter((i) => i.to.startsWith(`${type}.`))
    .map((i) => target(stack, i.to));

describe("import blocks of examples/adopt.yaml", () => {
  it("are in the shared, identities and infra stacks only, as many as names.adoption lists", () => {
    const counts = Object.fromEntries(Object.entries(stacks).map(([name, stack]) => [name, importsOf(stack).length]));
    expect(counts).toEqual({ shared: 11, "identities-myprefix-hc": 19, "infra-myprefix-hc": 28, management: 0, "cluster-myprefix-hc": 7 });
    expect(Object.fromEntries([...loaded.names.adoption.imports].map(([name, list]) => [name, list.length]))).toEqual({
      shared: 11,
      "identities-myprefix-hc": 19,
      "infra-myprefix-hc": 28,
      "cluster-myprefix-hc": 7,
    });
  });

  it.each(Object.keys(stacks))("%s: every `to` address is a resource of the same stack, each at most once, and no import ID repeats", (name) => {
    const blocks = importsOf(stacks[name]);
    expect(blocks.filter((b) => target(stacks[name], b.to) === undefined)).toEqual([]);
    expect(new Set(blocks.map((b) => b.to)).size).toBe(blocks.length);
    // The association and its subnet share an ID (azurerm's documented import ID): the one repeat.
    const ids = blocks.filter((b) => !b.to.startsWith("azurerm_subnet_network_security_group_association.")).map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("every `to` address names a resource of the import ID's type (the cluster stack's Kubernetes objects too)", () => {
    for (const [name, list] of loaded.names.adoption.imports) {
      const blocks = importsOf(stacks[name]).map((b) => `${b.to.split(".")[0]} ${b.id}`);
      expect(blocks.sort()).toEqual(list.map((i) => `${i.type} ${i.id}`).sort());
    }
  });

  it("imports with the resource's own provider: none is aliased here, so no block names one", () => {
    expect(Object.values(stacks).flatMap((s) => importsOf(s).filter((b) => b.provider !== undefined))).toEqual([]);
  });
});

describe("a parent zone in another subscription", () => {
  const other = "99999999-9999-9999-9999-999999999999";
  const crossSubscription = synthStacks(loadInline({ ...adoptYaml, dns: { parent: { ...adoptYaml.dns.parent, subscriptionId: other } } })).shared;

  it("imports the delegation through the parent's aliased provider, with the parent's subscription in its ID", () => {
    const [block] = importsOf(crossSubscription).filter((b) => b.to.startsWith("azurerm_dns_ns_record."));
    expect(block).toEqual({
      to: expect.stringMatching(/^azurerm_dns_ns_record\./),
      id: `/subscriptions/${other}/resourceGroups/myparent-dns-rg/providers/Microsoft.Network/dnsZones/example.com/NS/myprefix`,
      provider: "azurerm.parent_dns",
    });
    expect(target(crossSubscription, block.to).provider).toBe("azurerm.parent_dns");
  });
});

describe("attributes that force a replacement match what the guide created", () => {
  const shared = stacks.shared;
  const infra = stacks["infra-myprefix-hc"];
  const identities = stacks["identities-myprefix-hc"];

  it("every imported Azure resource with a location is in the guide's LOCATION (eastus)", () => {
    const located = Object.values(stacks).flatMap((stack) =>
      importsOf(stack)
        .map((b) => target(stack, b.to))
        .filter((r) => r.location !== undefined)
        .map((r) => r.location),
    );
    expect(located.length).toBeGreaterThan(10);
    expect(new Set(located)).toEqual(new Set(["eastus"]));
  });

  it("ccoctl's storage account: StorageV2, Standard LRS, no infrastructure encryption (its fixed settings)", () => {
    expect(imported(shared, "azurerm_storage_account")).toEqual([
      expect.objectContaining({
        name: "myprefixoidc1705432123",
        account_kind: "StorageV2",
        account_tier: "Standard",
        account_replication_type: "LRS",
        infrastructure_encryption_enabled: false,
        resource_group_name: expect.stringContaining("PersistentResourceGroup"),
      }),
    ]);
  });

  it("the documents are kept until their content changes: what azurerm cannot read back is ignored, a content hash triggers replacement", () => {
    const blobs = imported(shared, "azurerm_storage_blob");
    expect(blobs).toHaveLength(2);
    for (const blob of blobs) {
      expect(blob.type).toBe("Block");
      // The ForceNew attributes an imported blob's state lacks (azurerm#8392: parallelism and size).
      expect(blob.lifecycle.ignore_changes).toEqual(["source_content", "content_md5", "parallelism", "size"]);
      const [trigger] = blob.lifecycle.replace_triggered_by;
      expect(trigger).toMatch(/^terraform_data\.[A-Za-z0-9_]+$/);
      expect(target(shared, trigger).input.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("the federated credentials trust the guide's issuer URL, subjects and audience", () => {
    const credentials = imported(identities, "azurerm_federated_identity_credential");
    expect(credentials).toHaveLength(12);
    for (const credential of credentials) {
      expect(credential.issuer).toBe("https://myprefixoidc1705432123.blob.core.windows.net/myprefixoidc1705432123");
      expect(credential.audience).toEqual(["openshift"]);
    }
  });

  it("the ExternalDNS role assignments keep az's random names and scope string; the application keeps the guide's display name", () => {
    const blocks = importsOf(shared).filter((b) => b.to.startsWith("azurerm_role_assignment."));
    for (const block of blocks) {
      const resource = target(shared, block.to);
      // az's scope: the zone ID as `az network dns zone show` prints it (lowercase dnszones).
      expect(resource.scope).toBe(
        `/subscriptions/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}/resourceGroups/os4-common/providers/Microsoft.Network/dnszones/myprefix.example.com`,
      );
      expect(block.id).toBe(`${resource.scope}/providers/Microsoft.Authorization/roleAssignments/${resource.name}`);
    }
    const names = imported(shared, "azurerm_role_assignment").map((r) => r.name);
    expect(names.sort()).toEqual([adoptYaml.adopt.externalDns.roleAssignments.reader, adoptYaml.adopt.externalDns.roleAssignments.contributor].sort());
    expect(imported(shared, "azuread_application")[0].display_name).toBe("ExternalDnsServicePrincipal");
  });

  it("HyperShift's egress: Standard static IPv4 public IP without zones, Standard load balancer", () => {
    const [ip] = imported(infra, "azurerm_public_ip");
    expect(ip).toMatchObject({ name: "myprefix-hc-x7k2p", sku: "Standard", allocation_method: "Static", ip_version: "IPv4" });
    expect(ip.zones).toBeUndefined();
    expect(imported(infra, "azurerm_lb")[0]).toMatchObject({ name: "myprefix-hc-x7k2p", sku: "Standard" });
  });

  it("HyperShift's role assignments: its UUIDv5 names, the scope in their ID, subscription role definitions", () => {
    const blocks = importsOf(infra).filter((b) => b.to.startsWith("azurerm_role_assignment."));
    expect(blocks).toHaveLength(14);
    for (const block of blocks) {
      const resource = target(infra, block.to);
      expect(block.id).toBe(`${resource.scope}/providers/Microsoft.Authorization/roleAssignments/${resource.name}`);
      expect(resource.role_definition_id).toMatch(
        /^\/subscriptions\/0{8}-0{4}-0{4}-0{4}-0{12}\/providers\/Microsoft\.Authorization\/roleDefinitions\/[0-9a-f-]{36}$/,
      );
    }
  });

  it("the network: the guide's names and CIDRs (10.0.0.0/16, 10.0.0.0/24)", () => {
    expect(imported(infra, "azurerm_virtual_network")[0]).toMatchObject({ name: "myprefix-customer-vnet", address_space: ["10.0.0.0/16"] });
    expect(imported(infra, "azurerm_subnet")[0]).toMatchObject({ name: "myprefix-customer-subnet-1", address_prefixes: ["10.0.0.0/24"] });
    expect(imported(infra, "azurerm_network_security_group")[0]).toMatchObject({ name: "myprefix-customer-nsg" });
    expect(imported(infra, "azurerm_resource_group").map((g) => g.name)).toEqual([
      "myprefix-managed-rg",
      "myprefix-customer-vnet-rg",
      "myprefix-customer-nsg-rg",
    ]);
  });
});

describe("without adopt", () => {
  it.each(["basic.yaml", "external-dns.yaml", "isolated-clusters.yaml"])(
    "%s: no import block, infrastructure encryption on, documents replaced on change",
    (example) => {
      const synthesized = synthStacks(loadExample(example));
      expect(Object.values(synthesized).flatMap(importsOf)).toEqual([]);
      expect(resources(synthesized.shared, "azurerm_storage_account")[0].infrastructure_encryption_enabled).toBe(true);
      expect(
        Object.values(synthesized)
          .flatMap((s) => resources(s, "azurerm_storage_blob"))
          .filter((b) => b.lifecycle),
      ).toEqual([]);
    },
  );
});

describe("clusters[].adopt with infrastructure: false", () => {
  const input = { ...adoptYaml, clusters: [{ ...adoptYaml.clusters[0], adopt: { infrastructure: false } }] };
  const partial = loadInline(input);

  it("imports the identities only, and Phase 3 keeps our names (after the cluster)", () => {
    expect([...partial.names.adoption.imports.keys()]).toEqual(["shared", "identities-myprefix-hc"]);
    expect(partial.names.clusters[0].hosted?.resourceGroups.managed.name).toBe("myprefix-hc-managed-rg");
  });

  it("guidePrefix renames Phase 3 when infrastructure is adopted", () => {
    const renamed = loadInline({ ...adoptYaml, clusters: [{ ...adoptYaml.clusters[0], adopt: { guidePrefix: "other" } }] });
    const hosted = renamed.names.clusters[0].hosted!;
    expect([hosted.resourceGroups.managed.name, hosted.vnet.name, hosted.subnet.name, hosted.nsg.name]).toEqual([
      "other-managed-rg",
      "other-customer-vnet",
      "other-customer-subnet-1",
      "other-customer-nsg",
    ]);
  });
});

describe("the HostedCluster, NodePool and Secrets hypershift create cluster azure applied (cluster-myprefix-hc)", () => {
  const cluster = stacks["cluster-myprefix-hc"];
  const secret = (name: string) => resources(cluster, "kubernetes_secret_v1").find((r) => r.metadata.name === name);

  it("imports the five Secrets, the HostedCluster and the NodePool under the CLI's names, with the providers' import IDs", () => {
    expect(importsOf(cluster).map((b) => [b.to.split(".")[0], b.id])).toEqual([
      ["kubernetes_secret_v1", "clusters/myprefix-hc-pull-secret"],
      ["kubernetes_secret_v1", "clusters/myprefix-hc-ssh-key"],
      ["kubernetes_secret_v1", "clusters/myprefix-hcsa-token-issuer-key"],
      ["kubernetes_secret_v1", "clusters/myprefix-hc-etcd-encryption-key"],
      ["kubernetes_secret_v1", "clusters/myprefix-hc-cloud-credentials"],
      ["kubernetes_manifest", "apiVersion=hypershift.openshift.io/v1beta1,kind=HostedCluster,namespace=clusters,name=myprefix-hc"],
      ["kubernetes_manifest", "apiVersion=hypershift.openshift.io/v1beta1,kind=NodePool,namespace=clusters,name=myprefix-hc"],
    ]);
    // Each Secret's import ID is the name and namespace its resource writes.
    for (const block of importsOf(cluster).filter((b) => b.to.startsWith("kubernetes_secret_v1."))) {
      const { metadata } = target(cluster, block.to);
      expect(`${metadata.namespace}/${metadata.name}`).toBe(block.id);
    }
  });

  it("never generates a key: no random_bytes, no tls_private_key, no ssh_private_key output", () => {
    expect(resources(cluster, "random_bytes")).toEqual([]);
    expect(resources(cluster, "tls_private_key")).toEqual([]);
    expect(Object.keys(cluster.output ?? {})).not.toContain("ssh_private_key");
  });

  it("keeps the etcd key and the SSH key as the cluster has them: no data configured, data ignored", () => {
    const etcd = secret("myprefix-hc-etcd-encryption-key");
    expect([etcd.data, etcd.binary_data, etcd.data_wo, etcd.lifecycle.ignore_changes]).toEqual([undefined, undefined, undefined, ["binary_data", "data"]]);
    const ssh = secret("myprefix-hc-ssh-key");
    expect([ssh.data, ssh.lifecycle.ignore_changes]).toEqual([undefined, ["data"]]);
  });

  it("the write-only data check (its -replace advice) is on the pull secret and signing key only, never on the etcd key", () => {
    const checked = Object.values(cluster.check ?? {}).map((c: any) => /-replace=(\S+?) /.exec(c.assert[0].error_message)?.[1]);
    const names = checked.map((address) => target(cluster, address as string).metadata.name);
    expect(names.sort()).toEqual(["myprefix-hc-pull-secret", "myprefix-hcsa-token-issuer-key"]);
  });

  it("applies the imported HostedCluster and NodePool with force_conflicts (the CLI's field managers own their fields)", () => {
    expect(resources(cluster, "kubernetes_manifest").map((m) => m.field_manager)).toEqual([
      { name: "hcp-azure", force_conflicts: true },
      { name: "hcp-azure", force_conflicts: true },
    ]);
  });

  it("another configured pool is created (no import, no force); hostedCluster: false imports nothing and generates the keys", () => {
    const pools = [...adoptYaml.clusters[0].hostedCluster.nodePools, { name: "extra", replicas: 1 }];
    const twoPools = synthStacks(
      loadInline({ ...adoptYaml, clusters: [{ ...adoptYaml.clusters[0], hostedCluster: { ...adoptYaml.clusters[0].hostedCluster, nodePools: pools } }] }),
    );
    const extra = resources(twoPools["cluster-myprefix-hc"], "kubernetes_manifest").find((m) => m.manifest.metadata.name === "extra");
    expect(extra.field_manager).toEqual({ name: "hcp-azure" });
    expect(importsOf(twoPools["cluster-myprefix-hc"]).filter((b) => b.id.endsWith("name=extra"))).toEqual([]);

    const optOut = synthStacks(loadInline({ ...adoptYaml, clusters: [{ ...adoptYaml.clusters[0], adopt: { hostedCluster: false } }] }))["cluster-myprefix-hc"];
    expect(importsOf(optOut)).toEqual([]);
    expect(resources(optOut, "random_bytes")).toHaveLength(1);
    expect(resources(optOut, "kubernetes_manifest").map((m) => m.field_manager)).toEqual([{ name: "hcp-azure" }, { name: "hcp-azure" }]);
  });

  it("with sshPublicKeyFile the SSH key Secret is imported and rewritten with the file's key", () => {
    const hostedCluster = { ...adoptYaml.clusters[0].hostedCluster, sshPublicKeyFile: "keys/example-signer.public" };
    const withKey = synthStacks(loadInline({ ...adoptYaml, clusters: [{ ...adoptYaml.clusters[0], hostedCluster }] }))["cluster-myprefix-hc"];
    const ssh = resources(withKey, "kubernetes_secret_v1").find((r) => r.metadata.name === "myprefix-hc-ssh-key");
    expect(Object.keys(ssh.data)).toEqual(["id_rsa.pub"]);
    expect(ssh.lifecycle).toBeUndefined();
    expect(importsOf(withKey).map((b) => b.id)).toContain("clusters/myprefix-hc-ssh-key");
  });
});

describe("HostedClusterSecrets.importTargets (the construct's own invariant)", () => {
  const secretsIn = (existing: boolean) => {
    const stack = new TerraformStack(Testing.app(), "s");
    const kept = existing ? { etcdEncryptionKey: HostedClusterSecrets.fromExistingData(), sshPublicKey: HostedClusterSecrets.fromExistingData() } : {};
    const names = { pullSecret: "p", sshKey: "k", signingKey: "s", etcdEncryptionKey: "e", cloudCredentials: "c" };
    return new HostedClusterSecrets(stack, "Secrets", {
      namespace: "ns",
      names,
      pullSecret: Fn.file("p"),
      signingKey: Fn.file("s"),
      subscriptionId: "sub",
      tenantId: "t",
      ...kept,
    });
  };
  const object = { type: "kubernetes_secret_v1", id: "ns/e" };

  it("refuses to import an etcd or SSH key Secret over a key it generates", () => {
    expect(() => secretsIn(false).importTargets({ etcdEncryptionKey: object, sshKey: { ...object, id: "ns/k" } })).toThrow(
      "s/Secrets: would import etcdEncryptionKey and sshKey and write a generated key over it; pass HostedClusterSecrets.fromExistingData()",
    );
  });

  it("imports them when their data is kept", () => {
    expect(secretsIn(true).importTargets({ etcdEncryptionKey: object })).toEqual([{ path: "Secrets/EtcdEncryptionKey", ...object }]);
  });
});

(HAVE_CRDS ? describe : describe.skip)("the CLI's HostedCluster and NodePool may become ours (check-manifests --old, the real CRDs)", () => {
  // The objects release-4.21's `hypershift create cluster azure` applied for seed 004 (the fixture's README cites the code).
  const cliObjects = path.join(__dirname, "..", "fixtures", "hypershift-4.21-seed-004");
  const runs: ToolRun[] = [];
  beforeAll(async () => {
    const withCli421 = {
      ...adoptYaml,
      managementCluster: { ...adoptYaml.managementCluster, operator: { ...adoptYaml.managementCluster.operator, hypershiftRelease: "4.21" } },
    };
    const stack = synthStacks(loadInline(withCli421))["cluster-myprefix-hc"];
    // A control: the same stack with another clusterNetwork (immutable), which the check must refuse.
    const changed = structuredClone(stack);
    const hostedCluster: any = Object.values(changed.resource.kubernetes_manifest).find((m: any) => m.manifest.kind === "HostedCluster");
    hostedCluster.manifest.spec.networking.clusterNetwork = [{ cidr: "10.128.0.0/14" }];
    const dirs = [stack, changed].map((synthesized) => {
      const dir = tempDir("hcp-azure-adopt-crd-");
      fs.mkdirSync(path.join(dir, "stacks", "cluster-myprefix-hc"), { recursive: true });
      fs.writeFileSync(path.join(dir, "stacks", "cluster-myprefix-hc", "cdk.tf.json"), JSON.stringify(synthesized));
      return dir;
    });
    runs.push(...(await checkManifestsEach(dirs.map((dir) => ["--old", cliObjects, dir]))));
  });

  it("passes every schema and CEL rule, the transition rules against the CLI's objects included", () => {
    const [run] = runs;
    expect(run.stdout).toContain(
      "update: 2 of 2 manifests paired with --old by kind/namespace/name; new (checked as creates): none; only in --old (deleted): none",
    );
    expect(run.stdout).toMatch(/checked 2 manifests \(HostedCluster: 1, NodePool: 1\), 0 errors,.* \(0 failed, 34 transition rules against --old\)/);
    expect(run.status).toBe(0);
  });

  it("and would refuse an immutable field that differs (the control)", () => {
    expect(runs[1].status).toBe(1);
    expect(runs[1].stdout).toContain("clusterNetwork is immutable");
  });
});

describe("infrastructure made by a standalone `hypershift create infra azure` (HyperShift's own names, given explicitly)", () => {
  const infraId = "myprefix-hc-abcde";
  const name = "myprefix-hc";
  // cmd/infra/azure/create.go, networking.go (reference notes §3.2), written out here.
  const cli = {
    managed: `${name}-${infraId}`,
    vnetGroup: `${name}-vnet-${infraId}`,
    nsgGroup: `${name}-nsg-${infraId}`,
    vnet: `${name}-${infraId}`,
    subnet: "default",
    nsg: `${name}-${infraId}-nsg`,
  };
  const hostedCluster = {
    ...adoptYaml.clusters[0].hostedCluster,
    infraId,
    network: {
      resourceGroups: { managed: cli.managed, vnet: cli.vnetGroup, nsg: cli.nsgGroup },
      vnetName: cli.vnet,
      subnetName: cli.subnet,
      nsgName: cli.nsg,
    },
  };
  const infra = loadInline({ ...adoptYaml, clusters: [{ ...adoptYaml.clusters[0], hostedCluster }] }).names.adoption.imports.get(`infra-${name}`)!;
  const rg = (group: string) => `/subscriptions/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}/resourceGroups/${group}`;

  it("imports the CLI's groups, VNet, subnet default and NSG by the names the config gives", () => {
    const ids = Object.fromEntries(infra.filter((i) => !i.type.includes("role_assignment")).map((i) => [i.path, i.id]));
    expect(ids).toMatchObject({
      "ResourceGroups/managed": rg(cli.managed),
      "ResourceGroups/vnet": rg(cli.vnetGroup),
      "ResourceGroups/nsg": rg(cli.nsgGroup),
      "Network/SecurityGroup": `${rg(cli.nsgGroup)}/providers/Microsoft.Network/networkSecurityGroups/${cli.nsg}`,
      "Network/VirtualNetwork": `${rg(cli.vnetGroup)}/providers/Microsoft.Network/virtualNetworks/${cli.vnet}`,
      "Network/Subnet": `${rg(cli.vnetGroup)}/providers/Microsoft.Network/virtualNetworks/${cli.vnet}/subnets/default`,
      "PrivateDnsZone/Zone": `${rg(cli.managed)}/providers/Microsoft.Network/privateDnsZones/${name}.example.com`,
      "PrivateDnsZone/VnetLink": `${rg(cli.managed)}/providers/Microsoft.Network/privateDnsZones/${name}.example.com/virtualNetworkLinks/${name}-${infraId}`,
      "EgressLoadBalancer/LoadBalancer": `${rg(cli.managed)}/providers/Microsoft.Network/loadBalancers/${infraId}`,
    });
  });

  it("the role assignments' scopes are the CLI's groups", () => {
    const scopes = new Set(infra.filter((i) => i.type === "azurerm_role_assignment").map((i) => i.id.split("/providers/")[0]));
    expect(scopes).toEqual(new Set([rg(cli.managed), rg(cli.vnetGroup), rg(cli.nsgGroup)]));
  });
});

describe("importExisting", () => {
  const stackWithGroup = () => {
    const stack = new TerraformStack(Testing.app(), "test");
    new AzurermProvider(stack, "azurerm", { features: [{}] });
    new ResourceGroup(stack, "Group", { name: "rg", location: "eastus" });
    return stack;
  };

  it("renders a top-level import block for the resource at the path", () => {
    const stack = stackWithGroup();
    importExisting(stack, [{ path: "Group", type: "azurerm_resource_group", id: "/subscriptions/s/resourceGroups/rg" }]);
    const json = JSON.parse(Testing.synth(stack));
    expect(json.import).toEqual([{ to: "azurerm_resource_group.Group", id: "/subscriptions/s/resourceGroups/rg" }]);
  });

  it.each([
    [[{ path: "Missing", type: "azurerm_resource_group", id: "x" }], /Missing \(azurerm_resource_group, import ID x\) is not a resource of this stack/],
    [[{ path: "Group", type: "azurerm_storage_account", id: "x" }], /Group is a azurerm_resource_group, not a azurerm_storage_account/],
    [
      [
        { path: "Group", type: "azurerm_resource_group", id: "x" },
        { path: "Group", type: "azurerm_resource_group", id: "y" },
      ],
      /Group is targeted twice/,
    ],
  ])("fails the synth for a target that is not exactly one resource of the stack (%#)", (targets, message) => {
    expect(() => importExisting(stackWithGroup(), targets)).toThrow(message);
  });
});
