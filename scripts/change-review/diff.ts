import { forcesReplacement } from "./force-new";

/** One stack's cdk.tf.json, parsed. */
export type StackJson = Record<string, any>;

/** A synthesized app: stack name → its cdk.tf.json. */
export type Synth = ReadonlyMap<string, StackJson>;

/** One changed leaf of a block: `undefined` before means added, after means removed. */
export interface AttributeChange {
  /** `a.b[0].c`; keys that are not identifiers are quoted (`labels["app.kubernetes.io/name"]`). */
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
  /** The provider replaces the resource for this change (force-new.ts). */
  readonly forcesReplacement: boolean;
  /** Under `lifecycle.ignore_changes`: Terraform does not apply it. */
  readonly ignored: boolean;
}

/**
 * What Terraform would do with one resource, as far as the configuration tells: `import` is a
 * create with an `import` block (adoption), `move` a `moved` block's new address, `replace` an
 * update of a ForceNew argument.
 */
export type ResourceAction = "create" | "import" | "delete" | "update" | "replace";

export interface ResourceChange {
  /** `type.name`, as Terraform prints it. */
  readonly address: string;
  readonly type: string;
  /** The construct path (cdktf's `//` metadata), e.g. `cluster-x/HostedCluster/NodePool_a`. */
  readonly constructPath?: string;
  readonly action: ResourceAction;
  /** The resource as synthesized before and after (absent on the side it is missing from). */
  readonly before?: any;
  readonly after?: any;
  /** Leaf changes (update and replace; empty for create and delete). */
  readonly attributes: readonly AttributeChange[];
  /** The old address, when a `moved` block carries the resource over. */
  readonly movedFrom?: string;
  /**
   * Replaced resources a ForceNew argument of this one refers to: their new ID is unknown at plan,
   * so Terraform replaces this resource too (with its `path → address`).
   */
  readonly replacedWith?: readonly string[];
  /**
   * The ID of an `import` block new for a resource both sides have (adoption of what exists): unless
   * the state already holds the resource, the deploy takes the object over.
   */
  readonly importAdded?: string;
}

/** A non-resource block that changed: a data source, output, variable, local, provider or the backend. */
export interface BlockChange {
  readonly kind: "data" | "output" | "variable" | "locals" | "provider" | "terraform";
  readonly address: string;
  readonly action: "add" | "remove" | "change";
  readonly attributes: readonly AttributeChange[];
  readonly before?: any;
  readonly after?: any;
}

export interface StackDiff {
  readonly stack: string;
  readonly status: "added" | "removed" | "changed" | "unchanged";
  readonly resources: readonly ResourceChange[];
  readonly blocks: readonly BlockChange[];
  readonly before?: StackJson;
  readonly after?: StackJson;
}

/** Keys that are bookkeeping, not configuration Terraform acts on. */
const IGNORED_KEYS = new Set(["//", "depends_on"]);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function pathKey(prefix: string, key: string): string {
  const step = /^[A-Za-z_][\w-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (!prefix) return step;
  return step.startsWith("[") ? `${prefix}${step}` : `${prefix}.${step}`;
}

/** Leaves of a JSON value by path; lists of scalars and empty containers are leaves. */
export function flatten(value: unknown, prefix = "", out = new Map<string, unknown>()): Map<string, unknown> {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value)) if (!(prefix === "" && IGNORED_KEYS.has(key))) flatten(item, pathKey(prefix, key), out);
  } else if (Array.isArray(value) && value.some((item) => isObject(item) || Array.isArray(item))) {
    value.forEach((item, index) => flatten(item, `${prefix}[${index}]`, out));
  } else {
    out.set(prefix, value);
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Leaf changes between two blocks of one resource type (`type` undefined for non-resources). */
export function attributeChanges(before: unknown, after: unknown, type?: string): AttributeChange[] {
  const old = flatten(before);
  const next = flatten(after);
  const ignore: unknown = isObject(after) && isObject(after.lifecycle) ? after.lifecycle.ignore_changes : undefined;
  const ignoredAll = ignore === "all";
  const ignoredKeys = Array.isArray(ignore) ? ignore.map(String) : [];
  const changes: AttributeChange[] = [];
  for (const path of [...new Set([...old.keys(), ...next.keys()])].sort()) {
    const a = old.get(path);
    const b = next.get(path);
    if (same(a, b)) continue;
    const top = path.split(/[.[]/)[0];
    const ignored = top !== "lifecycle" && (ignoredAll || ignoredKeys.includes(top));
    changes.push({ path, before: a, after: b, forcesReplacement: !ignored && type !== undefined && forcesReplacement(type, path, a, b) === true, ignored });
  }
  return changes;
}

/** Resources of a stack by address. */
function resourcesOf(stack: StackJson | undefined): Map<string, { type: string; body: any }> {
  const out = new Map<string, { type: string; body: any }>();
  for (const [type, byName] of Object.entries<any>(stack?.resource ?? {})) {
    for (const [name, body] of Object.entries<any>(byName ?? {})) out.set(`${type}.${name}`, { type, body });
  }
  return out;
}

/** `moved` blocks of a stack: new address → old address. */
function movedTo(stack: StackJson | undefined): Map<string, string> {
  const blocks: any[] = Array.isArray(stack?.moved) ? stack.moved : [];
  return new Map(blocks.filter((m) => typeof m?.from === "string" && typeof m?.to === "string").map((m) => [m.to, m.from]));
}

/** The `import` blocks of a stack: address → import ID. */
function imported(stack: StackJson | undefined): Map<string, string> {
  const blocks: any[] = Array.isArray(stack?.import) ? stack.import : [];
  return new Map(
    blocks.filter((i) => typeof i?.to === "string").map((i): [string, string] => [i.to.replace(/^\$\{(.*)\}$/, "$1"), typeof i.id === "string" ? i.id : "?"]),
  );
}

const constructPath = (body: any): string | undefined => body?.["//"]?.metadata?.path;

function diffResources(before: StackJson | undefined, after: StackJson | undefined): ResourceChange[] {
  const old = resourcesOf(before);
  const next = resourcesOf(after);
  const moves = movedTo(after);
  const imports = imported(after);
  const importedBefore = imported(before);
  const movedAway = new Set(moves.values());
  const changes: ResourceChange[] = [];
  for (const [address, { type, body }] of next) {
    const from = old.has(address) ? address : moves.get(address);
    const previous = from ? old.get(from) : undefined;
    if (!previous) {
      changes.push({ address, type, constructPath: constructPath(body), action: imports.has(address) ? "import" : "create", after: body, attributes: [] });
      continue;
    }
    const attributes = attributeChanges(previous.body, body, type);
    const movedFrom = from !== address ? from : undefined;
    const importAdded = importedBefore.has(address) ? undefined : imports.get(address);
    if (attributes.length === 0 && !movedFrom && !importAdded) continue;
    const action = attributes.some((a) => a.forcesReplacement) ? "replace" : "update";
    changes.push({ address, type, constructPath: constructPath(body), action, before: previous.body, after: body, attributes, movedFrom, importAdded });
  }
  for (const [address, { type, body }] of old) {
    if (next.has(address) || movedAway.has(address)) continue;
    changes.push({ address, type, constructPath: constructPath(body), action: "delete", before: body, attributes: [] });
  }
  return cascadeReplacements(changes, next).sort((a, b) => a.address.localeCompare(b.address));
}

/**
 * Adds the replacements that follow from others: a resource whose ForceNew argument refers to a
 * replaced resource (`${azurerm_storage_account.X.id}`) gets an unknown value at plan and is
 * replaced as well, transitively.
 */
function cascadeReplacements(changes: ResourceChange[], next: Map<string, { type: string; body: any }>): ResourceChange[] {
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  const replaced = new Set(changes.filter((c) => c.action === "replace").map((c) => c.address));
  for (let grew = true; grew;) {
    grew = false;
    for (const [address, { type, body }] of next) {
      const current = byAddress.get(address);
      if (replaced.has(address) || current?.action === "create" || current?.action === "import") continue;
      const causes: string[] = [];
      for (const [path, value] of flatten(body)) {
        if (typeof value !== "string" || !value.includes("${") || forcesReplacement(type, path) !== true) continue;
        for (const target of replaced) if (value.includes(`${target}.`)) causes.push(`${path} → ${target}`);
      }
      if (causes.length === 0) continue;
      const base: ResourceChange = current ?? {
        address,
        type,
        constructPath: constructPath(body),
        action: "update",
        before: body,
        after: body,
        attributes: [],
      };
      byAddress.set(address, { ...base, action: "replace", replacedWith: causes });
      replaced.add(address);
      grew = true;
    }
  }
  return [...byAddress.values()];
}

/** Named blocks of one kind (`data` and `provider` are two-level: type → name). */
function blocksOf(stack: StackJson | undefined, kind: BlockChange["kind"]): Map<string, any> {
  const out = new Map<string, any>();
  const section = stack?.[kind];
  if (!isObject(section)) return out;
  if (kind === "locals" || kind === "terraform") {
    if (Object.keys(section).length > 0) out.set(kind, section);
  } else if (kind === "data" || kind === "provider") {
    for (const [type, byName] of Object.entries<any>(section)) {
      if (Array.isArray(byName)) byName.forEach((body, index) => out.set(`${type}[${index}]`, body));
      else for (const [name, body] of Object.entries<any>(byName ?? {})) out.set(`${kind === "data" ? "data." : ""}${type}.${name}`, body);
    }
  } else {
    for (const [name, body] of Object.entries<any>(section)) out.set(`${kind === "output" ? "output" : "var"}.${name}`, body);
  }
  return out;
}

function diffBlocks(before: StackJson | undefined, after: StackJson | undefined): BlockChange[] {
  const changes: BlockChange[] = [];
  for (const kind of ["terraform", "provider", "variable", "locals", "data", "output"] as const) {
    const old = blocksOf(before, kind);
    const next = blocksOf(after, kind);
    for (const address of [...new Set([...old.keys(), ...next.keys()])].sort()) {
      const a = old.get(address);
      const b = next.get(address);
      if (a !== undefined && b !== undefined) {
        const attributes = attributeChanges(a, b);
        if (attributes.length > 0) changes.push({ kind, address, action: "change", attributes, before: a, after: b });
      } else {
        changes.push({ kind, address, action: a === undefined ? "add" : "remove", attributes: [], before: a, after: b });
      }
    }
  }
  return changes;
}

/** Every stack of either side, compared. Stacks are sorted by name. */
export function diffSynths(before: Synth, after: Synth): StackDiff[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.map((stack) => {
    const a = before.get(stack);
    const b = after.get(stack);
    const resources = diffResources(a, b);
    const blocks = a && b ? diffBlocks(a, b) : [];
    const status = !a ? "added" : !b ? "removed" : resources.length + blocks.length > 0 ? "changed" : "unchanged";
    return { stack, status, resources, blocks, before: a, after: b };
  });
}
