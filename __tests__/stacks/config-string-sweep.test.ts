import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { formatPath } from "../../config/boundary";
import { LoadedConfig, validateConfig } from "../../config/load";
import { configSchema } from "../../config/schema";
import { EXAMPLES, synthStacks } from "../helpers";

/**
 * The sweep that keeps config text out of Terraform's template language, field by field, for
 * every string of two maximal configs (every ARM ID field of the schema included):
 *
 * 1. Config: each string leaf gets a marker (`${hcpmN}`, `%{hcpmN}`) at its end, then at the end
 *    of each of its `/` segments, until the config accepts it. Validation runs in-process on all
 *    candidates at once; the fields an issue names drop out, and a combination refused without
 *    naming one is bisected. Whatever is accepted is synthesized together.
 * 2. Constructs (defense in depth): every name in an ARM ID of the config also gets a marker
 *    (`hcpdN`) after validation, in the loaded config and its derived names alike, as if a rule
 *    had let it through.
 *
 * No stack may then hold `${` or `%{` followed by a marker: only `$${` / `%%{`, the escaped
 * forms (constructs/terraform-literal.ts). Cost: ~50 validations and one synth per config.
 */

const SUB = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups";
const read = (file: string) => parse(fs.readFileSync(path.join(EXAMPLES, file), "utf8"));

/** examples/private.yaml with every ARM ID option of a self-managed cluster set. */
function selfManaged(): any {
  const config = read("private.yaml");
  config.tags = { environment: "dev" };
  const [first, second] = config.clusters.map((c: any) => c.hostedCluster);
  const vnet = `${SUB}/byo-net-rg/providers/Microsoft.Network/virtualNetworks/byo-vnet`;
  first.network = {
    existing: { vnetId: vnet, subnetId: `${vnet}/subnets/byo-subnet`, nsgId: `${SUB}/byo-nsg-rg/providers/Microsoft.Network/networkSecurityGroups/byo-nsg` },
  };
  first.kms = { keyVault: { network: keyVaultNetwork() } };
  second.kms = {
    keyId: "https://mykeys.vault.azure.net/keys/etcd/0123456789abcdef0123456789abcdef",
    keyVaultId: `${SUB}/security-rg/providers/Microsoft.KeyVault/vaults/mykeys`,
  };
  second.containerRegistry = { managedIdentityId: `${SUB}/acr-pull-rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/acr-pull-identity` };
  second.nodePools.push({
    name: "myprefix-opts",
    replicas: 1,
    vmSize: "Standard_D8ds_v5",
    subnetId: `${SUB}/myprefix-dual-customer-vnet-rg/providers/Microsoft.Network/virtualNetworks/myprefix-dual-customer-vnet/subnets/opts-subnet`,
    imageId: `${SUB}/images-rg/providers/Microsoft.Compute/images/rhcos-421`,
    osDisk: { sizeGiB: 128, diskEncryptionSetId: `${SUB}/keys-rg/providers/Microsoft.Compute/diskEncryptionSets/my-des` },
  });
  return config;
}

/** examples/aro-hcp.yaml with the control-plane vault's subnets and private endpoint. */
function aroHcp(): any {
  const config = read("aro-hcp.yaml");
  config.aroHcp.keyVault.network = { ...config.aroHcp.keyVault.network, ...keyVaultNetwork() };
  return config;
}

function keyVaultNetwork() {
  const vnet = `${SUB}/kv-net-rg/providers/Microsoft.Network/virtualNetworks/kv-vnet`;
  return {
    allowedSubnetIds: [`${vnet}/subnets/kv-allowed`],
    privateEndpoint: {
      subnetId: `${vnet}/subnets/kv-endpoint`,
      privateDnsZoneId: `${SUB}/kv-dns-rg/providers/Microsoft.Network/privateDnsZones/privatelink.vaultcore.azure.net`,
    },
  };
}

type Segment = string | number;
interface Mutation {
  readonly path: readonly Segment[];
  readonly value: string;
}

/** Every string value of `config`, with its path. */
function leaves(config: unknown, at: Segment[] = []): Array<{ path: Segment[]; value: string }> {
  if (typeof config === "string") return [{ path: at, value: config }];
  if (Array.isArray(config)) return config.flatMap((item, i) => leaves(item, [...at, i]));
  if (typeof config === "object" && config !== null) return Object.entries(config).flatMap(([key, child]) => leaves(child, [...at, key]));
  return [];
}

/** `text` with `mark` inserted at each place tried in turn: its end, then the end of each `/` segment from the last. */
function placements(text: string, mark: string): string[] {
  const slashes = [...text.matchAll(/\//g)].map((m) => m.index).filter((i) => i > 0);
  return [text + mark, ...slashes.reverse().map((i) => text.slice(0, i) + mark + text.slice(i))];
}

function applied(base: unknown, mutations: readonly Mutation[]): any {
  const config = structuredClone(base) as any;
  for (const { path: at, value } of mutations) {
    let parent = config;
    for (const segment of at.slice(0, -1)) parent = parent[segment];
    parent[at.at(-1)!] = value;
  }
  return config;
}

/**
 * The candidates the config accepts together with `fixed` (accepted already). The schema checks
 * each field alone: those its issues name are dropped at once. What is left is validated whole
 * (rules span fields) and bisected until each part is accepted or a single candidate is refused.
 */
function acceptable(base: unknown, fixed: readonly Mutation[], candidates: readonly Mutation[]): Mutation[] {
  if (candidates.length === 0) return [];
  const parsed = configSchema.safeParse(applied(base, [...fixed, ...candidates]));
  if (!parsed.success) {
    const named = new Set(parsed.error.issues.map((issue) => formatPath(issue.path)));
    const rest = candidates.filter((c) => !named.has(formatPath(c.path)));
    if (rest.length < candidates.length) return acceptable(base, fixed, rest);
  }
  if (validateConfig(applied(base, [...fixed, ...candidates]), EXAMPLES).ok) return [...candidates];
  if (candidates.length === 1) return [];
  const half = candidates.length >> 1;
  const first = acceptable(base, fixed, candidates.slice(0, half));
  return [...first, ...acceptable(base, [...fixed, ...first], candidates.slice(half))];
}

/** Per string leaf, the first marked value the config accepts along with the others'. */
function acceptedMutations(base: unknown): Mutation[] {
  const marks = (n: number) => [`\${hcpm${n}}%{hcpm${n}}`, `\${hcpm${n}}`, `%{hcpm${n}}`];
  // Each leaf's tries in order: the three markers at its end, then the first at each segment's end.
  const tries = leaves(base).map(({ path: at, value }, n) => {
    const [both, ...alone] = marks(n);
    const [end, ...segments] = placements(value, both);
    return [end, ...alone.map((m) => value + m), ...segments].map((v) => ({ path: at, value: v }));
  });
  let accepted: Mutation[] = [];
  for (let round = 0; tries.some((t) => t.length > round); round += 1) {
    const done = new Set(accepted.map((m) => formatPath(m.path)));
    const candidates = tries.filter((t) => t.length > round && !done.has(formatPath(t[0].path))).map((t) => t[round]);
    accepted = [...accepted, ...acceptable(base, accepted, candidates)];
  }
  return accepted;
}

/** Every name (resource group, resource) in an ARM ID of `config`, each once. */
function armIdNames(config: unknown): string[] {
  const ids = leaves(config).filter((l) => l.value.startsWith("/subscriptions/"));
  const names = ids.flatMap(({ value }) => value.split("/").filter((_, i) => i === 4 || (i >= 8 && i % 2 === 0)));
  return [...new Set(names)];
}

/** `loaded` with `replace` applied to every string in it (config, derived names, maps), as a loaded config past validation. */
function rewritten(value: unknown, replace: (text: string) => string): any {
  if (typeof value === "string") return replace(value);
  if (Array.isArray(value)) return value.map((v) => rewritten(v, replace));
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [rewritten(k, replace), rewritten(v, replace)]));
  if (value instanceof Set) return new Set([...value].map((v) => rewritten(v, replace)));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewritten(v, replace)]));
  return value;
}

/**
 * Template sequences Terraform would evaluate in `text` that start with a marker: `${` / `%{`
 * not escaped as `$${` / `%%{` (the same reading Terraform gives, left to right).
 */
function liveMarkers(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const sigil = text[i];
    if (sigil !== "$" && sigil !== "%") continue;
    if (text[i + 1] === sigil && text[i + 2] === "{") i += 2;
    else if (text[i + 1] === "{" && /^hcp[md]\d+/.test(text.slice(i + 2))) found.push(text.slice(Math.max(0, i - 60), i + 12));
  }
  return found;
}

/** Every string of a stack Terraform reads as a template (keys too): all but the backend/cloud block and variable descriptions. */
function templateStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(templateStrings);
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([key, child]) => [key, ...templateStrings(child)]);
  return [];
}

function stackTemplates(stack: any): string[] {
  const { terraform, variable, ...rest } = stack;
  const variables = Object.values(variable ?? {}).map(({ description: _plainText, ...block }: any) => block);
  return templateStrings([rest, variables, { ...terraform, backend: undefined, cloud: undefined }]);
}

describe.each([
  ["selfManaged", selfManaged],
  ["aroHcp", aroHcp],
])("%s: no config string reaches Terraform as a template", (_name, base) => {
  let accepted: Mutation[] = [];
  let stacks: Record<string, any> = {};
  let idNames: string[] = [];
  beforeAll(() => {
    const config = base();
    accepted = acceptedMutations(config);
    const loaded = validateConfig(applied(config, accepted), EXAMPLES);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
    // Defense in depth: every ARM ID name marked past validation.
    idNames = armIdNames(config);
    const pattern = new RegExp(idNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
    const marked = rewritten(loaded, (text) => text.replace(pattern, (name) => `${name}\${hcpd${idNames.indexOf(name)}}%{hcpd${idNames.indexOf(name)}}`));
    // cdktf warns about `${` in a function's argument (a role assignment's uuidv5 name), which it escapes.
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      stacks = synthStacks(marked as LoadedConfig);
    } finally {
      warn.mockRestore();
    }
  });

  it("sweeps every ARM ID field and many free-text ones", () => {
    // Not vacuous: the free-text fields (tags, paths) take a marker and reach the stacks escaped.
    expect(accepted.map((m) => formatPath(m.path))).toEqual(expect.arrayContaining(["tags.environment", "managementCluster.pullSecretFile"]));
    expect(idNames.length).toBeGreaterThanOrEqual(6);
    const all = Object.values(stacks).flatMap(stackTemplates).join("\n");
    expect(all).toMatch(/\$\$\{hcpm\d+\}/);
    expect(all).toMatch(/\$\$\{hcpd\d+\}/);
  });

  it("no ARM ID field accepts template text", () => {
    const ids = accepted.filter((m) => /^\/subscriptions\//.test(m.value) || /Id$|Ids$/.test(String(m.path.filter((s) => typeof s === "string").at(-1))));
    expect(ids.map((m) => `${formatPath(m.path)}: ${m.value}`)).toEqual([]);
  });

  it("no stack holds a live template with a marker (config accepted: hcpm; past validation: hcpd)", () => {
    const live = Object.entries(stacks).flatMap(([stack, json]) => stackTemplates(json).flatMap((text) => liveMarkers(text).map((at) => `${stack}: ${at}`)));
    const fields = (marker: string) => formatPath(leaves(base())[Number(marker)]?.path ?? []);
    expect(live.map((l) => l.replace(/hcpm(\d+)/, (m, n) => `${m} (${fields(n)})`))).toEqual([]);
  });
});
