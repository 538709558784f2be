import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { LoadedConfig } from "../../config/load";
import { EXAMPLES, loadExample, loadInline, stackDependencies, synthStacks } from "../helpers";

/**
 * What `cdktf destroy '*'` does, computed from the synthesized JSON of every example. A stack with a
 * `prevent_destroy` resource fails at plan and destroys nothing (the Terraform test in e2e/ proves
 * it). cdktf (cli-core cdktf-project.ts `execute` and `getStackWithNoUnmetDependants`) destroys a
 * stack once every stack depending on it is done, all such stacks at once, and starts no other
 * stack after the first failure; the ones already running finish.
 */

const EXAMPLE_FILES = fs
  .readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

/** An example (the file itself), or with top-level overrides, validated like a file beside it. */
function example(file: string, overrides?: Record<string, unknown>): LoadedConfig {
  return overrides ? loadInline({ ...parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8")), ...overrides }) : loadExample(file);
}

interface SynthesizedStack {
  readonly name: string;
  readonly json: any;
  readonly dependencies: readonly string[];
}

/**
 * Every stack of the app, in the app's order, with its Terraform JSON and the stacks it depends on.
 * synthStacks synthesizes a config once per worker (this file's examples, the same as the other
 * tests' loadExample, and the overrides it repeats).
 */
function synth(loaded: LoadedConfig): SynthesizedStack[] {
  const dependencies = stackDependencies(loaded);
  return Object.entries(synthStacks(loaded)).map(([name, json]) => ({ name, json, dependencies: dependencies[name] }));
}

/** `<type>.<name>` of every resource whose lifecycle says prevent_destroy = true. */
function protectedAddresses(json: any): string[] {
  return Object.entries(json.resource ?? {}).flatMap(([type, byName]) =>
    Object.entries(byName as Record<string, any>)
      .filter(([, r]) => r.lifecycle?.prevent_destroy === true)
      .map(([name]) => `${type}.${name}`),
  );
}

const typesOf = (addresses: string[]) => [...new Set(addresses.map((a) => a.split(".")[0]))].sort();

/**
 * The stacks `destroy '*'` empties. Waves: every stack whose dependants are all done starts; a
 * refusal at plan comes before any running destroy (minutes of Azure calls) ends, so a wave with
 * a refused stack is the last one, and only its other stacks finish.
 */
function emptiedByDestroyAll(stacks: SynthesizedStack[]): string[] {
  const refused = new Set(stacks.filter((s) => protectedAddresses(s.json).length > 0).map((s) => s.name));
  const dependants = (name: string) => stacks.filter((s) => s.dependencies.includes(name)).map((s) => s.name);
  const done = new Set<string>();
  for (;;) {
    const wave = stacks.map((s) => s.name).filter((name) => !done.has(name) && dependants(name).every((d) => done.has(d)));
    if (wave.length === 0) break;
    wave.filter((name) => !refused.has(name)).forEach((name) => done.add(name));
    if (wave.some((name) => refused.has(name))) break;
  }
  return [...done].sort();
}

/** Resource types rotation replaces: protecting them would make every renewal plan fail. */
const ROTATED_TYPES = ["tls_private_key", "tls_self_signed_cert", "azuread_application_certificate", "azuread_application_password", "azurerm_storage_blob"];

describe.each(EXAMPLE_FILES)("destroy '*' with examples/%s", (file) => {
  const loaded = example(file);
  const stacks = synth(loaded);
  const byName = Object.fromEntries(stacks.map((s) => [s.name, s]));

  it("empties only the cluster-* and infra-* stacks; every persistent stack refuses at plan", () => {
    const perCluster = stacks.map((s) => s.name).filter((name) => /^(cluster|infra)-/.test(name));
    expect(emptiedByDestroyAll(stacks)).toEqual(perCluster.sort());
    for (const name of stacks.map((s) => s.name).filter((n) => !perCluster.includes(n))) {
      expect({ name, protected: protectedAddresses(byName[name].json).length > 0 }).toEqual({ name, protected: true });
    }
  });

  it("protects the persistent resources of the shared stack", () => {
    const types = typesOf(protectedAddresses(byName.shared.json));
    const expected = ["azurerm_storage_account"];
    if (loaded.config.resourceGroup.create) expected.push("azurerm_resource_group");
    if (loaded.names.sharedIssuer) expected.push("azurerm_storage_container");
    if (loaded.config.dns) expected.push("azurerm_dns_zone");
    if (loaded.config.externalDns || loaded.config.topology === "aroHcp") expected.push("azuread_application", "azuread_service_principal");
    if (loaded.config.topology === "aroHcp") expected.push("azurerm_key_vault", "azurerm_key_vault_secret");
    expect(types).toEqual(expected.sort());
    // Every application and principal there is protected, whichever construct made it.
    for (const type of ["azuread_application", "azuread_service_principal", "azurerm_key_vault_secret"]) {
      const all = Object.keys(byName.shared.json.resource[type] ?? {}).length;
      expect(protectedAddresses(byName.shared.json).filter((a) => a.startsWith(`${type}.`))).toHaveLength(all);
    }
  });

  it("protects every identity and federated credential of each identities-* stack", () => {
    for (const stack of stacks.filter((s) => s.name.startsWith("identities-"))) {
      const resources = stack.json.resource;
      const protectedOnes = protectedAddresses(stack.json);
      for (const type of ["azurerm_user_assigned_identity", "azurerm_federated_identity_credential", "azurerm_storage_container"]) {
        const all = Object.keys(resources[type] ?? {}).map((name) => `${type}.${name}`);
        expect(protectedOnes.filter((a) => a.startsWith(`${type}.`)).sort()).toEqual(all.sort());
      }
      expect(Object.keys(resources.azurerm_federated_identity_credential ?? {}).length).toBeGreaterThan(0);
    }
  });

  it("never protects what rotation replaces", () => {
    for (const stack of stacks) {
      expect(typesOf(protectedAddresses(stack.json)).filter((t) => ROTATED_TYPES.includes(t))).toEqual([]);
    }
  });

  it("with protection.preventDestroy: false, nothing carries prevent_destroy and destroy '*' empties every stack", () => {
    const open = synth(example(file, { protection: { preventDestroy: false } }));
    expect(open.flatMap((s) => protectedAddresses(s.json))).toEqual([]);
    expect(emptiedByDestroyAll(open)).toEqual(open.map((s) => s.name).sort());
  });
});

describe("destroy '*' per topology", () => {
  it("aroHcp: the AKS cluster and its group are protected, the node pool and identities are not", () => {
    const stacks = synth(example("aro-hcp.yaml"));
    const aks = stacks.find((s) => s.name === "aks")!;
    expect(typesOf(protectedAddresses(aks.json))).toEqual(["azurerm_kubernetes_cluster", "azurerm_resource_group"]);
    expect(emptiedByDestroyAll(stacks)).not.toContain("aks");
  });

  it("a cluster without hostedCluster: its identities stack is refused in the first wave, so no infra-* starts", () => {
    const base = parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8"));
    const stacks = synth(example("basic.yaml", { clusters: [...base.clusters, { name: "spare" }] }));
    expect(stacks.map((s) => s.name)).toEqual(expect.arrayContaining(["identities-spare", "infra-myprefix-hc"]));
    expect(emptiedByDestroyAll(stacks)).toEqual(["cluster-myprefix-hc"]);
  });

  it("a per-resource key overrides the switch for its resource only", () => {
    const stacks = synth(example("external-dns.yaml", { protection: { preventDestroy: false } }));
    expect(stacks.flatMap((s) => protectedAddresses(s.json))).toEqual([]);
    const loaded = parse(fs.readFileSync(path.join(EXAMPLES, "external-dns.yaml"), "utf8"));
    const dnsOnly = synth(example("external-dns.yaml", { protection: { preventDestroy: false }, dns: { ...loaded.dns, preventDestroy: true } }));
    expect(dnsOnly.flatMap((s) => protectedAddresses(s.json)).map((a) => a.split(".")[0])).toEqual(["azurerm_dns_zone"]);
    // Only the shared stack is then refused; it depends on no stack, so it stops none.
    expect(emptiedByDestroyAll(dnsOnly)).toEqual(
      dnsOnly
        .map((s) => s.name)
        .filter((n) => n !== "shared")
        .sort(),
    );
  });
});

describe("retired clusters", () => {
  it("lift prevent_destroy from that cluster's identities only, so its stacks can be destroyed", () => {
    const raw = parse(fs.readFileSync(path.join(EXAMPLES, "isolated-clusters.yaml"), "utf8"));
    const retiredName = raw.clusters[1].name;
    raw.clusters[1].retired = true;
    const stacks = synth(loadInline(raw));
    const identities = (name: string) => stacks.find((s) => s.name === `identities-${name}`)!.json;
    expect(protectedAddresses(identities(raw.clusters[0].name)).length).toBeGreaterThan(5);
    expect(protectedAddresses(identities(retiredName))).toEqual([]);
    // Everything else keeps its protection.
    expect(protectedAddresses(stacks.find((s) => s.name === "shared")!.json).length).toBeGreaterThan(0);
  });
});

describe("a released resource's provider stays configured until its deploy destroys it (protection.release)", () => {
  const withRelease = (release: string[], preventDestroy = true) => {
    const config = parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8"));
    return loadInline({ ...config, protection: { preventDestroy, release } });
  };

  it("management: azurerm (its features block) for released etcd backup storage, though etcdBackup is gone", () => {
    expect(synthStacks(withRelease([]), ["management"]).management.provider?.azurerm).toBeUndefined();
    const stacks = synthStacks(
      withRelease(["management/azurerm_storage_account.EtcdBackup_Account_31908C82", "management/azurerm_storage_container.EtcdBackup_Container_53C597FD"]),
      ["management"],
    );
    expect(stacks.management.provider.azurerm).toEqual([expect.objectContaining({ features: [{}], subscription_id: expect.any(String) })]);
    // With protection off nothing refuses the removal; listing the releases keeps the provider all the same (help/backup.md).
    const off = synthStacks(withRelease(["management/azurerm_storage_account.EtcdBackup_Account_31908C82"], false), ["management"]);
    expect(off.management.provider.azurerm).toHaveLength(1);
  });

  it("shared: azuread for released ExternalDNS applications, though externalDns is gone; another stack's release changes nothing here", () => {
    expect(synthStacks(withRelease([]), ["shared"]).shared.provider?.azuread).toBeUndefined();
    expect(synthStacks(withRelease(["management/azuread_application.X_1"]), ["shared"]).shared.provider?.azuread).toBeUndefined();
    const stacks = synthStacks(withRelease(["shared/azuread_application.ExternalDns_Application_E5E1316B"]), ["shared"]);
    expect(stacks.shared.provider.azuread).toEqual([expect.objectContaining({ tenant_id: expect.any(String) })]);
  });
});
