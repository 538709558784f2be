import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { validateConfig } from "../../config/load";
import { EXAMPLES, loadExample, loadInline, tempDir } from "../helpers";

/**
 * Adoption import IDs against what seed 004's commands create: the committed fixture of the
 * seed's commands runs under bash with stub az/ccoctl/hypershift that record every call; each
 * call is turned into the ARM ID of what it created (written out here from the az, ccoctl and
 * HyperShift sources, not from config/names), and the synthesized import blocks of
 * examples/adopt.yaml (the guide's values: PREFIX=myprefix, os4-common, eastus) must name exactly
 * those objects, resource type by resource type.
 */

const FIXTURES = path.join(__dirname, "..", "fixtures");
const SEED = path.join(__dirname, "..", "..", "..", "shared", "seeds", "004_c0684b805cd996e3.txt");
const SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";
const EPOCH = "1705432123";
const HAVE_BASH = spawnSync("bash", ["--version"]).status === 0 && spawnSync("jq", ["--version"]).status === 0;

interface GuideRun {
  /** Every stub call: command then arguments. */
  readonly calls: string[][];
  /** workload-identities.json as the guide wrote it. */
  readonly workloadIdentities: Record<string, unknown>;
}

function runGuide(): GuideRun {
  const dir = tempDir("seed-004-");
  const log = path.join(dir, "calls.log");
  fs.mkdirSync(path.join(dir, "bin"));
  // The guide runs hypershift by path (${HYPERSHIFT_BINARY_PATH}/hypershift).
  fs.writeFileSync(path.join(dir, "bin", "hypershift"), `#!/usr/bin/env bash\n(IFS=$'\\x1f'; printf '%s\\n' "hypershift$IFS$*" >>"$GUIDE_LOG")\n`, {
    mode: 0o755,
  });
  const script = `source ${JSON.stringify(path.join(FIXTURES, "seed-004-stubs.sh"))}\nsource ${JSON.stringify(path.join(FIXTURES, "seed-004-commands.sh"))}\n`;
  const run = spawnSync("bash", ["--norc", "--noprofile", "-c", script], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, GUIDE_LOG: log, STUB_SUBSCRIPTION: SUBSCRIPTION, STUB_TENANT: "11111111-1111-1111-1111-111111111111", STUB_EPOCH: EPOCH },
  });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
  const calls = fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\x1f"));
  return { calls, workloadIdentities: JSON.parse(fs.readFileSync(path.join(dir, "workload-identities.json"), "utf8")) };
}

const flag = (call: string[], name: string): string => {
  const at = call.indexOf(name);
  if (at < 0) throw new Error(`${call.join(" ")}: no ${name}`);
  return call[at + 1];
};
const starts = (call: string[], ...words: string[]) => words.every((word, i) => call[i] === word);
const rg = (group: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/${group}`;
const groupOf = (armId: string) => armId.split("/")[4];

/** Go's uuid.NewSHA1(uuid.NameSpaceDNS, name): HyperShift's GenerateRoleAssignmentName. */
function hypershiftRoleAssignmentName(name: string): string {
  const hash = createHash("sha1").update(Buffer.from("6ba7b8109dad11d180b400c04fd430c8", "hex")).update(name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.toString("hex", 0, 16);
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

/**
 * HyperShift's --assign-service-principal-roles (cmd/infra/azure/rbac.go, GetServicePrincipalScopes;
 * reference notes §4): component name, workload identity key, scopes. The control-plane operator's
 * only when workload-identities.json has it.
 */
const HYPERSHIFT_ROLES: ReadonlyArray<[string, string, ReadonlyArray<"managed" | "vnet" | "nsg" | "dnsZone">]> = [
  ["capz", "nodePoolManagement", ["managed", "vnet"]],
  ["cloud-provider", "cloudProvider", ["managed", "nsg", "vnet"]],
  ["ingress", "ingress", ["managed", "vnet", "dnsZone"]],
  ["cpo", "controlPlaneOperator", ["managed", "nsg", "vnet"]],
  ["azure-file", "file", ["managed", "nsg", "vnet"]],
  ["azure-disk", "disk", ["managed"]],
  ["cncc", "network", ["managed", "vnet"]],
  ["ciro", "imageRegistry", ["managed"]],
];

/**
 * The guide's `hypershift` CLI release (undefined: main). release-4.21 and release-4.22 name the
 * private zone `<name>-azurecluster.<baseDomain>` (cmd/infra/azure/networking.go), and release-4.21's
 * AssignWorkloadIdentities gives the `cpo` component to the image-registry identity (cmd/infra/azure/rbac.go).
 */
type CliRelease = "4.21" | undefined;

/** What each recorded call created, as `<terraform type> <import ID>`; role assignments az named at random as `... <scope>|<role>`. */
function createdByGuide(guide: GuideRun, infraId: string, release: CliRelease = undefined): string[] {
  const created: string[] = [];
  const add = (type: string, id: string) => created.push(`${type} ${id}`);
  for (const call of guide.calls) {
    if (starts(call, "az", "group", "create")) add("azurerm_resource_group", rg(flag(call, "--name")));
    else if (starts(call, "az", "identity", "create")) {
      add(
        "azurerm_user_assigned_identity",
        `${rg(flag(call, "--resource-group"))}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${flag(call, "--name")}`,
      );
    } else if (starts(call, "az", "identity", "federated-credential", "create")) {
      const identity = `${rg(flag(call, "--resource-group"))}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${flag(call, "--identity-name")}`;
      add("azurerm_federated_identity_credential", `${identity}/federatedIdentityCredentials/${flag(call, "--name")}`);
    } else if (starts(call, "ccoctl", "azure", "create-oidc-issuer")) {
      // ccoctl: storage account and container default to --name (cloud-credential-operator create_oidc_issuer.go).
      const name = flag(call, "--name");
      const account = `${rg(flag(call, "--oidc-resource-group-name"))}/providers/Microsoft.Storage/storageAccounts/${name}`;
      add("azurerm_storage_account", account);
      add("azurerm_storage_container", `${account}/blobServices/default/containers/${name}`);
      for (const blob of [".well-known/openid-configuration", "openid/v1/jwks"])
        add("azurerm_storage_blob", `https://${name}.blob.core.windows.net/${name}/${blob}`);
    } else if (starts(call, "az", "network", "dns", "zone", "create")) {
      add("azurerm_dns_zone", `${rg(flag(call, "--resource-group"))}/providers/Microsoft.Network/dnsZones/${flag(call, "--name")}`);
    } else if (starts(call, "az", "network", "dns", "record-set", "ns", "add-record")) {
      const zone = `${rg(flag(call, "--resource-group"))}/providers/Microsoft.Network/dnsZones/${flag(call, "--zone-name")}`;
      add("azurerm_dns_ns_record", `${zone}/NS/${flag(call, "--record-set-name")}`);
    } else if (starts(call, "az", "ad", "sp", "create-for-rbac")) {
      add("azuread_application", `display name ${flag(call, "--name")}`);
      add("azuread_service_principal", `display name ${flag(call, "--name")}`);
    } else if (starts(call, "az", "role", "assignment", "create")) {
      // The scope exactly as az got it (azurerm keeps it as ARM returns it; a different string forces a replacement).
      add("azurerm_role_assignment", `${flag(call, "--scope")}|${flag(call, "--role")}`);
    } else if (starts(call, "az", "network", "nsg", "create")) {
      add("azurerm_network_security_group", `${rg(flag(call, "--resource-group"))}/providers/Microsoft.Network/networkSecurityGroups/${flag(call, "--name")}`);
    } else if (starts(call, "az", "network", "vnet", "create")) {
      const vnet = `${rg(flag(call, "--resource-group"))}/providers/Microsoft.Network/virtualNetworks/${flag(call, "--name")}`;
      const subnet = `${vnet}/subnets/${flag(call, "--subnet-name")}`;
      add("azurerm_virtual_network", vnet);
      add("azurerm_subnet", subnet);
      // --nsg associates the subnet with the NSG; the association's import ID is the subnet's.
      if (call.includes("--nsg")) add("azurerm_subnet_network_security_group_association", subnet);
    } else if (starts(call, "hypershift", "create", "cluster", "azure")) {
      // create infra azure, run inline (cmd/infra/azure/create.go, networking.go; notes §3.2), with the given groups and network.
      const name = flag(call, "--name");
      const managed = rg(flag(call, "--resource-group-name"));
      const zoneName = release === "4.21" ? `${name}-azurecluster.${flag(call, "--base-domain")}` : `${name}.${flag(call, "--base-domain")}`;
      const zone = `${managed}/providers/Microsoft.Network/privateDnsZones/${zoneName}`;
      add("azurerm_private_dns_zone", zone);
      add("azurerm_private_dns_zone_virtual_network_link", `${zone}/virtualNetworkLinks/${name}-${infraId}`);
      add("azurerm_public_ip", `${managed}/providers/Microsoft.Network/publicIPAddresses/${infraId}`);
      const lb = `${managed}/providers/Microsoft.Network/loadBalancers/${infraId}`;
      add("azurerm_lb", lb);
      add("azurerm_lb_backend_address_pool", `${lb}/backendAddressPools/${infraId}`);
      add("azurerm_lb_probe", `${lb}/probes/${infraId}`);
      add("azurerm_lb_outbound_rule", `${lb}/outboundRules/${infraId}`);
      kubernetesObjects(call).forEach((object) => add(object.type, object.id));
      if (call.includes("--assign-service-principal-roles")) {
        const scopes = {
          managed,
          vnet: rg(groupOf(flag(call, "--vnet-id"))),
          nsg: rg(groupOf(flag(call, "--network-security-group-id"))),
          dnsZone: rg(flag(call, "--dns-zone-rg-name")),
        };
        const seen = new Set<string>();
        for (const [component, ownKey, kinds] of HYPERSHIFT_ROLES) {
          const key = release === "4.21" && component === "cpo" ? "imageRegistry" : ownKey;
          if (!(key in guide.workloadIdentities)) continue;
          for (const kind of kinds) {
            const id = `${scopes[kind]}/providers/Microsoft.Authorization/roleAssignments/${hypershiftRoleAssignmentName(`${infraId}-${component}-${scopes[kind]}`)}`;
            if (!seen.has(id)) add("azurerm_role_assignment", id);
            seen.add(id);
          }
        }
      }
    }
  }
  // add-record runs once per name server, into one record set.
  return [...new Set(created)];
}

/**
 * The Kubernetes objects `hypershift create cluster azure` applies, as `<terraform type>` and
 * import ID, from its flags (release-4.21 and main alike): cmd/cluster/core/create.go
 * (`prototypeResources`: the HostedCluster `--name` in `--namespace`, `<name>-pull-secret`,
 * `<name>-ssh-key` with --generate-ssh; `defaultNodePool`: one NodePool `<name>` when
 * --node-pool-replicas >= 0 without --availability-zones; `postProcess`: `<name>-etcd-encryption-key`
 * without a KMS key) and cmd/cluster/azure/create.go (`GenerateResources`:
 * `<name>-cloud-credentials`, `<name>sa-token-issuer-key` with --sa-token-issuer-private-key-path).
 */
function kubernetesObjects(call: string[]): Array<{ type: string; id: string }> {
  const name = flag(call, "--name");
  const namespace = flag(call, "--namespace");
  const manifest = (kind: string, object: string) => ({
    type: "kubernetes_manifest",
    id: `apiVersion=hypershift.openshift.io/v1beta1,kind=${kind},namespace=${namespace},name=${object}`,
  });
  const secret = (object: string) => ({ type: "kubernetes_secret_v1", id: `${namespace}/${object}` });
  return [
    manifest("HostedCluster", name),
    ...(Number(flag(call, "--node-pool-replicas")) >= 0 && !call.includes("--availability-zones") ? [manifest("NodePool", name)] : []),
    secret(`${name}-pull-secret`),
    ...(call.includes("--generate-ssh") ? [secret(`${name}-ssh-key`)] : []),
    ...(call.includes("--encryption-key-id") ? [] : [secret(`${name}-etcd-encryption-key`)]),
    secret(`${name}-cloud-credentials`),
    ...(call.includes("--sa-token-issuer-private-key-path") ? [secret(`${name}sa-token-issuer-key`)] : []),
  ];
}

const describeWithBash = HAVE_BASH ? describe : describe.skip;

describeWithBash.each([
  [undefined, 15],
  ["4.21", 18],
] as Array<[CliRelease, number]>)(
  "adoption import IDs against seed 004's commands (examples/adopt.yaml), the CLI at release %s",
  (release, hypershiftRoles) => {
    const adoptYaml = parse(fs.readFileSync(path.join(EXAMPLES, "adopt.yaml"), "utf8"));
    const loaded = release
      ? loadInline({
          ...adoptYaml,
          managementCluster: { ...adoptYaml.managementCluster, operator: { ...adoptYaml.managementCluster.operator, hypershiftRelease: release } },
        })
      : loadExample("adopt.yaml");
    const infraId = loaded.config.clusters[0].hostedCluster?.infraId as string;
    // Only where it runs: jest runs a skipped describe's body too, and `it.each` needs the list here.
    const guide: GuideRun = HAVE_BASH ? runGuide() : { calls: [], workloadIdentities: {} };
    const created = createdByGuide(guide, infraId, release);
    const imports = [...loaded.names.adoption.imports.values()].flat();
    const adopt = loaded.config.adopt!;
    // Ours, in the same shape: the random-named ones as scope|role, the Entra objects by the guide's display name.
    const roleOf: Record<string, string> = {
      [adopt.externalDns!.roleAssignments.reader]: "Reader",
      [adopt.externalDns!.roleAssignments.contributor]: "Contributor",
    };
    const ours = imports.map((i) => {
      if (i.type === "azuread_application" || i.type === "azuread_service_principal") return `${i.type} display name ${loaded.names.externalDnsApplication}`;
      const random = /^(.*)\/providers\/Microsoft\.Authorization\/roleAssignments\/(.*)$/.exec(i.id);
      if (random && roleOf[random[2]]) return `${i.type} ${random[1]}|${roleOf[random[2]]}`;
      return `${i.type} ${i.id}`;
    });

    it("the guide's variables are the example's: ccoctl's timestamped account, os4-common, myprefix", () => {
      expect(adopt.oidcStorageAccountName).toBe(`myprefixoidc${EPOCH}`);
      expect(loaded.names.resourceGroup.name).toBe("os4-common");
      expect(loaded.names.externalDnsApplication).toBe("ExternalDnsServicePrincipal");
    });

    const types = [...new Set(created.map((c) => c.split(" ")[0]))].sort();
    it("the guide creates 24 resource types here (every command with a resource is recognized, the CLI's Kubernetes objects too)", () => {
      expect(types).toHaveLength(24);
    });

    it("the CLI's Kubernetes objects are the committed fixture's (__tests__/fixtures/hypershift-4.21-seed-004), but the namespace", () => {
      const fixture = JSON.parse(fs.readFileSync(path.join(FIXTURES, "hypershift-4.21-seed-004", "created-objects.json"), "utf8"));
      const objects = fixture.items
        .filter((o: any) => o.kind !== "Namespace")
        .map((o: any) =>
          o.kind === "Secret"
            ? `kubernetes_secret_v1 ${o.metadata.namespace}/${o.metadata.name}`
            : `kubernetes_manifest apiVersion=${o.apiVersion},kind=${o.kind},namespace=${o.metadata.namespace},name=${o.metadata.name}`,
        );
      expect(created.filter((c) => c.startsWith("kubernetes_")).sort()).toEqual(objects.sort());
    });

    it.each(types)("%s: every import ID is an object the guide created, and every object the guide created is imported (except the one below)", (type) => {
      const mine = (list: string[]) => list.filter((entry) => entry.startsWith(`${type} `)).sort();
      const expected = mine(created).filter((entry) => entry !== `${type} ${guideIngressOnPersistentGroup}`);
      expect(mine(ours)).toEqual(expected);
    });

    // --dns-zone-rg-name os4-common: HyperShift gave ingress a role on the persistent group, while the
    // base domain's zone (example.com) is in myparent-dns-rg, where we grant it: help/adopt.md.
    const guideIngressOnPersistentGroup = `${rg("os4-common")}/providers/Microsoft.Authorization/roleAssignments/${hypershiftRoleAssignmentName(`${infraId}-ingress-${rg("os4-common")}`)}`;
    it("leaves exactly one object the guide made unadopted: HyperShift's ingress role on --dns-zone-rg-name", () => {
      expect(created).toContain(`azurerm_role_assignment ${guideIngressOnPersistentGroup}`);
      expect(ours).not.toContain(`azurerm_role_assignment ${guideIngressOnPersistentGroup}`);
      expect(created.length - new Set(ours).size).toBe(1);
    });

    it(`counts: 7 identities, 12 federated credentials, ${hypershiftRoles} HyperShift role assignments in the guide`, () => {
      const count = (type: string) => created.filter((c) => c.startsWith(`${type} `)).length;
      expect(count("azurerm_user_assigned_identity")).toBe(7);
      expect(count("azurerm_federated_identity_credential")).toBe(12);
      expect(count("azurerm_role_assignment")).toBe(2 + hypershiftRoles);
    });
  },
);

const describeWithSeed = fs.existsSync(SEED) ? describe : describe.skip;

describeWithSeed("the committed fixture of seed 004's commands", () => {
  it("is the seed's text, block by block", () => {
    const seed = fs.readFileSync(SEED, "utf8");
    const fixture = fs.readFileSync(path.join(FIXTURES, "seed-004-commands.sh"), "utf8");
    const blocks = fixture.split(/^# ---- .*$/m).slice(1);
    expect(blocks).toHaveLength(8);
    for (const block of blocks) {
      const lines = block.trim().split("\n");
      // The indented "With External DNS" block: compare with its four-space indent.
      const inSeed = seed.includes(lines.join("\n")) || seed.includes(lines.map((l) => (l ? `    ${l}` : l)).join("\n"));
      expect({ first: lines[0], inSeed }).toEqual({ first: lines[0], inSeed: true });
    }
  });
});

describe("clusters[].adopt.hostedCluster (config/rules/adopt.ts)", () => {
  const adoptYaml = parse(fs.readFileSync(path.join(EXAMPLES, "adopt.yaml"), "utf8"));
  const withCluster = (changes: Record<string, unknown>) => validateConfig({ ...adoptYaml, clusters: [{ ...adoptYaml.clusters[0], ...changes }] }, EXAMPLES);

  it("true without infrastructure is refused, naming the field, the value and the fix", () => {
    const result = withCluster({ adopt: { infrastructure: false, hostedCluster: true } });
    expect(result.ok ? [] : result.issues.map((i) => [i.path, i.message])).toEqual([
      [
        "clusters[0].adopt.hostedCluster",
        expect.stringMatching(/needs clusters\[0\]\.adopt\.infrastructure: true: hypershift create cluster azure made the HostedCluster/),
      ],
    ]);
  });

  it("infrastructure: false alone adopts no HostedCluster (the default follows infrastructure)", () => {
    const result = withCluster({ adopt: { infrastructure: false } });
    expect(result.ok && [...result.names.adoption.stacks.keys()]).toEqual(["shared", "identities-myprefix-hc"]);
  });

  it("an adopted cluster's sshPublicKeyFile is valid, with a warning that the first deploy rolls every NodePool", () => {
    const result = withCluster({ hostedCluster: { ...adoptYaml.clusters[0].hostedCluster, sshPublicKeyFile: "keys/example-signer.public" } });
    expect(result.ok && result.warnings.filter((w) => w.includes("sshPublicKeyFile"))).toEqual([
      expect.stringMatching(/^clusters\[0\]\.hostedCluster\.sshPublicKeyFile: the adopted cluster's SSH key Secret .* every NodePool rolls out/),
    ]);
    expect(loadExample("adopt.yaml").warnings.filter((w) => w.includes("sshPublicKeyFile"))).toEqual([]);
  });

  it("without a pool named after the cluster, a warning says the CLI's NodePool stays outside Terraform beside the new pools", () => {
    const hostedCluster = { ...adoptYaml.clusters[0].hostedCluster, nodePools: [{ name: "workers", replicas: 2 }] };
    const result = withCluster({ hostedCluster });
    expect(result.ok && result.warnings.filter((w) => w.includes("nodePools"))).toEqual([
      expect.stringMatching(
        /^clusters\[0\]\.hostedCluster\.nodePools: no pool is named myprefix-hc, the NodePool hypershift create cluster azure made: it stays outside Terraform/,
      ),
    ]);
    expect(result.ok && result.names.adoption.stacks.get("cluster-myprefix-hc")).toMatchObject({ kind: "cluster", nodePools: [] });
    expect(loadExample("adopt.yaml").warnings.filter((w) => w.includes("nodePools"))).toEqual([]);
    // Not adopted: nothing to say.
    const notAdopted = withCluster({ adopt: { hostedCluster: false }, hostedCluster });
    expect(notAdopted.ok && notAdopted.warnings.filter((w) => w.includes("nodePools"))).toEqual([]);
  });
});
