import * as fs from "node:fs";
import * as path from "node:path";
import { BUILT_IN_ROLES, RoleDefinition, roleByGuid } from "../../config/azure-roles";
import { parseConfigYaml } from "../../config/boundary";
import { WorkloadIdentityKey } from "../../config/components";
import { LoadedConfig, validateConfig } from "../../config/load";
import { configWarnings } from "../../config/rules";
import { EXAMPLES, loadInline, REPO, synthStacks } from "../helpers";

/*
 * Least privilege, measured on every example: each config synthesized as written (default
 * `hostedCluster.roles: leastPrivilege`, or what the example sets) and with every hosted cluster set
 * to `roles: hypershiftDefaults`.
 *
 * "Broader than needed", precisely: an assignment of a component's role (the infra stacks'
 * WorkloadIdentityRoles / ControlPlaneIdentityRoles) is broader when
 *  - by role: the role allows a write action (any action not ending in /read) that the component
 *    does not need at that kind of scope (NEEDS below, per component and target); or
 *  - by scope: it is granted on a resource group while the component acts only on one resource in
 *    it (the NSG's or VNet's group for the NSG, VNet or subnet; the base domain's group for the zone;
 *    the managed group for ingress, which only writes records into the private zone).
 * NEEDS states what each component does, independently of the grants: the actions of the Azure Red
 * Hat OpenShift role Microsoft defined for the component (ARO-HCP dev-operator-roles.tmpl.bicepparam),
 * and for the self-managed control-plane operator of a Private Link cluster the actions its Private
 * Link controller lists (hypershift control-plane-operator/controllers/azureprivatelinkservice/controller.go).
 */
type Target = "managedGroup" | "privateZone" | "virtualNetwork" | "subnet" | "securityGroup" | "publicZone";
const aro = (role: RoleDefinition) => role.actions ?? [];
const CPO_PRIVATE_LINK = [
  "Microsoft.Network/privateEndpoints/read",
  "Microsoft.Network/privateEndpoints/write",
  "Microsoft.Network/privateEndpoints/delete",
  "Microsoft.Network/privateDnsZones/read",
  "Microsoft.Network/privateDnsZones/write",
  "Microsoft.Network/privateDnsZones/delete",
  "Microsoft.Network/privateDnsZones/virtualNetworkLinks/read",
  "Microsoft.Network/privateDnsZones/virtualNetworkLinks/write",
  "Microsoft.Network/privateDnsZones/virtualNetworkLinks/delete",
  "Microsoft.Network/privateDnsZones/A/read",
  "Microsoft.Network/privateDnsZones/A/write",
  "Microsoft.Network/privateDnsZones/A/delete",
  "Microsoft.Network/virtualNetworks/subnets/join/action",
  "Microsoft.Network/virtualNetworks/join/action",
];
const R = BUILT_IN_ROLES;
function needs(identity: WorkloadIdentityKey, privateLink: boolean): Partial<Record<Target, readonly string[]>> {
  switch (identity) {
    case "nodePoolManagement":
      return { managedGroup: aro(R.aroHcpClusterApiProvider), subnet: ["Microsoft.Network/virtualNetworks/subnets/join/action"] };
    case "cloudProvider":
      return { managedGroup: aro(R.aroCloudControllerManager), securityGroup: aro(R.aroCloudControllerManager), subnet: aro(R.aroCloudControllerManager) };
    case "ingress":
      return { privateZone: aro(R.aroIngressOperator), subnet: aro(R.aroIngressOperator), publicZone: aro(R.aroIngressOperator) };
    case "controlPlaneOperator":
      return privateLink
        ? {
            managedGroup: [...aro(R.aroHcpControlPlaneOperator), ...CPO_PRIVATE_LINK],
            virtualNetwork: [...aro(R.aroHcpControlPlaneOperator), ...CPO_PRIVATE_LINK],
            securityGroup: aro(R.aroHcpControlPlaneOperator),
          }
        : {
            managedGroup: aro(R.aroHcpControlPlaneOperator),
            virtualNetwork: aro(R.aroHcpControlPlaneOperator),
            securityGroup: aro(R.aroHcpControlPlaneOperator),
          };
    case "file":
      return { managedGroup: aro(R.aroFileStorageOperator), securityGroup: aro(R.aroFileStorageOperator), subnet: aro(R.aroFileStorageOperator) };
    case "disk":
      return { managedGroup: aro(R.aroDiskStorageOperator) };
    case "network":
      return { managedGroup: aro(R.aroNetworkOperator), virtualNetwork: aro(R.aroNetworkOperator), subnet: aro(R.aroNetworkOperator) };
    case "imageRegistry":
      return { managedGroup: aro(R.aroImageRegistryOperator) };
    default:
      return {};
  }
}

const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"))
      .join(".*")}$`,
    "i",
  );
const isWrite = (action: string) => !/\/read$/i.test(action);
/** Actions that can act on a resource of the target or under it (at a group, any). */
const PREFIX: Record<Target, string> = {
  managedGroup: "",
  subnet: "Microsoft.Network/virtualNetworks/subnets/",
  virtualNetwork: "Microsoft.Network/virtualNetworks/",
  securityGroup: "Microsoft.Network/networkSecurityGroups/",
  privateZone: "Microsoft.Network/privateDnsZones/",
  publicZone: "Microsoft.Network/dnsZones/",
};
const applies = (action: string, target: Target) =>
  action.toLowerCase().startsWith(PREFIX[target].toLowerCase()) || glob(action).test(`${PREFIX[target]}x/write`);
/** Write actions of `role` at `target` that no needed action pattern covers (a role's `*` is itself an action). */
const extraWrites = (role: RoleDefinition, needed: readonly string[], target: Target = "managedGroup") =>
  (role.actions ?? ["*"])
    .filter(isWrite)
    .filter((action) => applies(action, target))
    .filter((action) => !needed.some((n) => glob(n).test(action)));
/** Whether `role` allows every needed action. */
const covers = (role: RoleDefinition, needed: readonly string[]) => needed.every((n) => (role.actions ?? []).some((a) => glob(a).test(n)));

interface Assignment {
  readonly file: string;
  readonly stack: string;
  readonly id: string;
  readonly identity?: WorkloadIdentityKey;
  readonly scopeKind?: string;
  readonly scope: string;
  readonly role: RoleDefinition | undefined;
  readonly roleGuid: string;
  readonly resource: any;
}

/** What a scope ARM ID names, for the needs table. */
function targetOf(scope: string, groupKinds: { managed: string; others: string[] }): Target | "group" | "other" {
  const s = scope.toLowerCase();
  if (/\/subnets\/[^/]+$/.test(s)) return "subnet";
  if (/\/virtualnetworks\/[^/]+$/.test(s)) return "virtualNetwork";
  if (/\/networksecuritygroups\/[^/]+$/.test(s)) return "securityGroup";
  if (/\/privatednszones\/[^/]+$/.test(s)) return "privateZone";
  if (/\/dnszones\/[^/]+$/.test(s)) return "publicZone";
  if (s === groupKinds.managed.toLowerCase()) return "managedGroup";
  if (/^\/subscriptions\/[^/]+\/resourcegroups\/[^/]+$/.test(s)) return "group";
  return "other";
}

const FILES = fs
  .readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

const parsedExamples = new Map<string, unknown>();

/** A fresh copy of an example's parsed YAML (each file read and parsed once per test file). */
function rawExample(file: string): any {
  if (!parsedExamples.has(file)) {
    const parsed = parseConfigYaml(fs.readFileSync(path.join(EXAMPLES, file), "utf8"));
    if (!parsed.ok) throw new Error(`${file}: ${JSON.stringify(parsed.issues)}`);
    parsedExamples.set(file, parsed.value);
  }
  return structuredClone(parsedExamples.get(file));
}

function withRoles(file: string, roles: "hypershiftDefaults" | "leastPrivilege"): LoadedConfig {
  const raw = rawExample(file);
  // Adopted infrastructure keeps HyperShift's roles (a rule): least privilege comes after adoption.
  for (const cluster of raw.clusters ?? [])
    if (cluster.hostedCluster && !(roles === "leastPrivilege" && cluster.adopt && cluster.adopt.infrastructure !== false)) cluster.hostedCluster.roles = roles;
  return loadInline(raw);
}

function asWritten(file: string): LoadedConfig {
  const loaded = validateConfig(rawExample(file), EXAMPLES);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded;
}

/** Every azurerm_role_assignment of a synthesized app, with what it is for when it is a component's. */
function assignmentsOf(file: string, loaded: LoadedConfig): Assignment[] {
  const stacks = synthStacks(loaded);
  const result: Assignment[] = [];
  for (const [stack, json] of Object.entries(stacks) as Array<[string, any]>) {
    for (const [id, resource] of Object.entries(json.resource?.azurerm_role_assignment ?? {}) as Array<[string, any]>) {
      const roleGuid = String(resource.role_definition_id).split("/").pop() as string;
      const component = /^(?:WorkloadIdentityRoles|ControlPlaneIdentityRoles)_([^_]+)_(.+)_[0-9A-F]{8}$/.exec(id);
      result.push({
        file,
        stack,
        id,
        identity: component?.[1] as WorkloadIdentityKey | undefined,
        scopeKind: component?.[2],
        scope: resource.scope,
        role: roleByGuid(roleGuid),
        roleGuid,
        resource,
      });
    }
  }
  return result;
}

/** Whether a component's assignment is broader than the component needs (definition above), and why. */
function broader(a: Assignment, loaded: LoadedConfig): string | undefined {
  if (!a.identity || a.scopeKind?.startsWith("diskEncryptionSet")) return undefined;
  const cluster = loaded.names.clusters.find((c) => c.hosted?.infraStack === a.stack);
  const hosted = cluster?.hosted;
  if (!hosted) throw new Error(`${a.file}: no hosted cluster for ${a.stack}`);
  const privateLink = hosted.config.endpointAccess !== "Public" && loaded.config.topology !== "aroHcp";
  const need = needs(a.identity, privateLink);
  const target = targetOf(a.scope, { managed: hosted.resourceGroups.managed.id, others: [] });
  if (target === "group" || (target === "managedGroup" && !need.managedGroup)) {
    // A group: the resources the component acts on in it.
    const inGroup = (id: string) => id.toLowerCase().startsWith(`${a.scope.toLowerCase()}/`);
    const acted = (Object.keys(need) as Target[]).filter((t) =>
      inGroup(
        {
          managedGroup: "",
          privateZone: hosted.privateZone.id,
          virtualNetwork: hosted.vnet.id,
          subnet: hosted.subnet.id,
          securityGroup: hosted.nsg.id,
          publicZone: hosted.publicZone.id,
        }[t],
      ),
    );
    return `scope: the whole group ${a.scope.split("/").pop()} for ${acted.join(", ") || "nothing in it"}`;
  }
  if (target === "other") return `scope: unexpected ${a.scope}`;
  const needed = need[target] ?? [];
  if (!a.role) return `role: ${a.roleGuid} unknown to config/azure-roles.ts`;
  const extra = extraWrites(a.role, needed, target);
  return extra.length > 0 ? `role: ${a.role.name} allows ${extra.join(", ")}` : undefined;
}

const measured = FILES.map((file) => {
  const written = asWritten(file);
  const defaults = withRoles(file, "hypershiftDefaults");
  const least = withRoles(file, "leastPrivilege");
  return {
    file,
    written,
    defaults,
    least,
    defaultAssignments: assignmentsOf(file, defaults),
    leastAssignments: assignmentsOf(file, least),
  };
});

describe("least-privilege roles", () => {
  it("hypershiftDefaults grants exactly what main granted (fixture recorded before the switch existed)", () => {
    const before = JSON.parse(fs.readFileSync(path.join(REPO, "__tests__/fixtures/role-assignments-hypershift-defaults.json"), "utf8"));
    // The examples main had; a later example (production.yaml) has no "before".
    expect(Object.keys(before).sort()).toEqual([
      "adopt.yaml",
      "all-options.yaml",
      "aro-hcp.yaml",
      "basic.yaml",
      "external-dns.yaml",
      "isolated-clusters.yaml",
      "kms.yaml",
      "nodepool-options.yaml",
      "private.yaml",
    ]);
    for (const m of measured.filter((example) => example.file in before)) {
      const now = Object.fromEntries(
        m.defaultAssignments
          .filter((a) => a.identity)
          .map((a) => [
            `${a.stack}/${a.id}`,
            { name: a.resource.name, scope: a.scope, role: a.resource.role_definition_id, principal: a.resource.principal_id },
          ]),
      );
      expect({ file: m.file, assignments: now }).toEqual({ file: m.file, assignments: before[m.file] });
    }
  });

  it("the two role sets differ only in azurerm_role_assignment resources (the move is adds and removes of role assignments)", () => {
    for (const m of measured) {
      const [a, b] = [synthStacks(m.defaults), synthStacks(m.least)];
      expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
      for (const stack of Object.keys(a)) {
        for (const json of [a[stack], b[stack]]) delete json.resource?.azurerm_role_assignment;
        expect({ file: m.file, stack, json: b[stack] }).toEqual({ file: m.file, stack, json: a[stack] });
      }
    }
  });

  it("the examples as written use least privilege (the default), except adopted infrastructure", () => {
    for (const m of measured) {
      for (const cluster of m.written.names.clusters) {
        if (!cluster.hosted) continue;
        const adopted = Boolean(m.written.config.clusters[cluster.index].adopt?.infrastructure);
        expect({ file: m.file, cluster: cluster.name, set: cluster.hosted.roleSet }).toEqual({
          file: m.file,
          cluster: cluster.name,
          set: adopted ? "hypershiftDefaults" : "leastPrivilege",
        });
      }
    }
  });

  it("leastPrivilege: no assignment on a wider scope than the resource acted on; a role broader than needed only where no role of the table covers the need", () => {
    for (const m of measured) {
      for (const a of m.leastAssignments) {
        if (m.least.names.clusters.find((c) => c.hosted?.infraStack === a.stack)?.hosted?.roleSet === "hypershiftDefaults") continue;
        const why = broader(a, m.least);
        if (!why) continue;
        expect({ file: m.file, id: a.id, why: why.startsWith("scope") ? why : "role" }).toEqual({ file: m.file, id: a.id, why: "role" });
        // The only such grant: Network Contributor for the control-plane operator's Private Link.
        const hosted = m.least.names.clusters.find((c) => c.hosted?.infraStack === a.stack)?.hosted;
        const target = targetOf(a.scope, { managed: hosted?.resourceGroups.managed.id ?? "", others: [] }) as Target;
        const needed = needs(a.identity as WorkloadIdentityKey, true)[target] ?? [];
        const narrower = Object.values(BUILT_IN_ROLES).filter((role) => covers(role, needed) && extraWrites(role, needed, target).length === 0);
        expect({ id: a.id, narrower: narrower.map((r) => r.name) }).toEqual({ id: a.id, narrower: [] });
      }
    }
  });

  it("hypershiftDefaults: Contributor and whole groups are broader than needed (counted in help/roles.md)", () => {
    const count = (assignments: Assignment[], loaded: LoadedConfig) => assignments.filter((a) => broader(a, loaded)).length;
    const rows = measured.map((m) => ({
      file: m.file,
      defaults: m.defaultAssignments.length,
      defaultsBroader: count(m.defaultAssignments, m.defaults),
      least: m.leastAssignments.length,
      leastBroader: count(m.leastAssignments, m.least),
    }));
    const total = rows.reduce(
      (t, r) => ({
        defaults: t.defaults + r.defaults,
        defaultsBroader: t.defaultsBroader + r.defaultsBroader,
        least: t.least + r.least,
        leastBroader: t.leastBroader + r.leastBroader,
      }),
      {
        defaults: 0,
        defaultsBroader: 0,
        least: 0,
        leastBroader: 0,
      },
    );
    expect(total.defaultsBroader).toBeGreaterThan(total.leastBroader);
    const table = [
      "| example | assignments, hypershiftDefaults | broader than needed | assignments, leastPrivilege | broader than needed |",
      "|---|---|---|---|---|",
      ...rows.map((r) => `| ${r.file} | ${r.defaults} | ${r.defaultsBroader} | ${r.least} | ${r.leastBroader} |`),
      `| **all** | ${total.defaults} | ${total.defaultsBroader} | ${total.least} | ${total.leastBroader} |`,
    ].join("\n");
    const help = fs.readFileSync(path.join(REPO, "help/roles.md"), "utf8");
    expect(section(help, "counts")).toBe(table);
  });

  it("help/roles.md's role table is the one config/components.ts states", () => {
    const { componentRoles, DATA_PLANE_ROLES, ROLE_SETS } = require("../../config/components") as typeof import("../../config/components");
    const rows = ["| role set | identity | role | scope | why |", "|---|---|---|---|---|"];
    for (const set of ROLE_SETS) {
      for (const privateLink of set === "leastPrivilege" ? [false, true] : [false]) {
        const roles = componentRoles(set, { privateLink });
        for (const [identity, role] of Object.entries(roles)) {
          if (privateLink && identity !== "controlPlaneOperator") continue;
          for (const grant of role?.grants ?? []) {
            rows.push(`| ${set} | ${identity}${privateLink ? " (Private Link)" : ""} | ${grant.role.name} | ${grant.scope} | ${grant.why} |`);
          }
        }
      }
    }
    for (const [identity, role] of Object.entries(DATA_PLANE_ROLES)) {
      for (const grant of role.grants) rows.push(`| both (aroHcp data plane) | ${identity} | ${grant.role.name} | ${grant.scope} | ${grant.why} |`);
    }
    expect(section(fs.readFileSync(path.join(REPO, "help/roles.md"), "utf8"), "table")).toBe(rows.join("\n"));
  });

  it("role GUIDs are stated once: no GUID of config/azure-roles.ts in another source file", () => {
    const guids = Object.values(BUILT_IN_ROLES).map((r) => r.guid);
    const sources = ["config", "constructs", "stacks", "scripts"].flatMap((dir) =>
      (fs.readdirSync(path.join(REPO, dir), { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => path.join(dir, f)),
    );
    const offenders = sources.filter(
      (f) => f !== path.join("config", "azure-roles.ts") && guids.some((g) => fs.readFileSync(path.join(REPO, f), "utf8").includes(g)),
    );
    expect(offenders).toEqual([]);
  });

  it("warns when a role lands on the whole group of an existing VNet or NSG, naming the key and the fix", () => {
    const hub = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/hub-rg/providers/Microsoft.Network";
    const config = (roles?: string) => {
      const input = rawExample("basic.yaml");
      const hosted = input.clusters.find((c: any) => c.hostedCluster).hostedCluster;
      hosted.network = {
        ...hosted.network,
        existing: {
          vnetId: `${hub}/virtualNetworks/hub`,
          subnetId: `${hub}/virtualNetworks/hub/subnets/workers`,
          nsgId: `${hub}/networkSecurityGroups/hub-nsg`,
        },
      };
      if (roles) hosted.roles = roles;
      return loadInline(input);
    };
    const warned = (loaded: LoadedConfig) => configWarnings(loaded.config, loaded.names).filter((w) => /roles/.test(w));
    const defaults = warned(config("hypershiftDefaults"));
    expect(defaults).toHaveLength(2);
    expect(defaults[0]).toMatch(
      /hostedCluster\.roles hypershiftDefaults grants .*Contributor \(nodePoolManagement\).* on the whole resource group hub-rg of clusters\[\d+\]\.hostedCluster\.network\.existing\.vnetId .*set clusters\[\d+\]\.hostedCluster\.roles: leastPrivilege/,
    );
    expect(warned(config())).toEqual([]);
    // leastPrivilege grants on the hub's VNet, subnet and NSG, never the group.
    const scopes = config()
      .names.clusters.flatMap((c) => (c.hosted?.roleAssignments.kind === "selfManaged" ? c.hosted.roleAssignments.workloadIdentities : []))
      .map((a) => a.scope);
    expect(scopes.filter((s) => s.toLowerCase().endsWith("/resourcegroups/hub-rg"))).toEqual([]);
  });

  it("adopted infrastructure must keep hypershiftDefaults", () => {
    const input = rawExample("adopt.yaml");
    const hosted = input.clusters.find((c: any) => c.adopt && c.adopt.infrastructure !== false && c.hostedCluster)?.hostedCluster;
    expect(hosted).toBeDefined();
    hosted.roles = "leastPrivilege";
    const loaded = validateConfig(input, EXAMPLES);
    expect(loaded.ok).toBe(false);
    expect(JSON.stringify(!loaded.ok && loaded.issues)).toMatch(/roles.*must be hypershiftDefaults with adopt\.infrastructure/);
  });
});

/** The text between `<!-- roles:<name> -->` and `<!-- /roles:<name> -->`, trimmed. */
function section(text: string, name: string): string {
  const match = new RegExp(`<!-- roles:${name} -->\\n([\\s\\S]*?)\\n<!-- /roles:${name} -->`).exec(text);
  return match ? match[1].trim() : `(no roles:${name} section in help/roles.md)`;
}
