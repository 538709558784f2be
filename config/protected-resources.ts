import * as fs from "node:fs";
import * as path from "node:path";
import { parseProtectedLine, PROTECTED_ID, ProtectedRecord, readClusterRecord, renderProtectedLines } from "./deployed-clusters";
import { LoadedConfig } from "./load";
import { clusterOfStack, SHARED_STACK } from "./names";
import { ConfigIssue } from "./rules";

/**
 * Protected means protected, whatever the edit (help/destroy.md#when-an-edit-drops-a-protected-resource).
 *
 * Terraform reads `prevent_destroy` from the configuration: a resource whose block leaves the
 * configuration loses its protection with it, and the next deploy destroys it without a word
 * (`identities.controlPlaneOperator: false`, removing `externalDns`, `oidc.issuer: shared →
 * perCluster`, renaming an aroHcp cluster...). So synth knows which protected resources the
 * deployment may hold, and refuses a config that drops one unless `protection.release` names it:
 *
 * - which resources are protected comes from the synthesized stacks themselves: every resource
 *   with `lifecycle.prevent_destroy = true` (`protectedResourcesOf`), recorded at each synth;
 * - local backend: what the deployment holds is read from the state files
 *   (`<backend.directory>/<subscriptionId>/<prefix>/<stack>.tfstate`); the state does not say which
 *   resources were protected, so synth keeps `protected-resources.lock` beside them (written once
 *   that folder exists, or under the cdktf CLI, which is about to deploy into it). Held = recorded
 *   as protected and present in its stack's state.
 * - azurerm and cloud: the state is not reachable offline: the committed record of cluster stacks
 *   (config/deployed-clusters.ts) lists the protected resources too, as `protected:` lines. Held =
 *   listed there (synth cannot know whether a deploy destroyed one: a released line is deleted by
 *   hand after that deploy).
 */

/** What the local backend's record of protected resources is called, in the environment's state folder. */
export const LOCAL_PROTECTED_RECORD = "protected-resources.lock";

/** One stack's Terraform JSON. */
type StackJson = Record<string, any>;

/** `<stack>/<address>` of every resource with `lifecycle.prevent_destroy = true` in the synthesized stacks. */
export function protectedResourcesOf(stacks: ReadonlyMap<string, StackJson>): Set<string> {
  const ids = new Set<string>();
  for (const [stack, json] of stacks) {
    for (const [type, byName] of Object.entries<any>(json?.resource ?? {})) {
      for (const [name, body] of Object.entries<any>(byName ?? {})) if (body?.lifecycle?.prevent_destroy === true) ids.add(`${stack}/${type}.${name}`);
    }
  }
  return ids;
}

/** `<stack>/<address>` of every resource the stacks declare, and of every `moved` block's old address (the resource lives on). */
function declaredResources(stacks: ReadonlyMap<string, StackJson>): Set<string> {
  const ids = new Set<string>();
  for (const [stack, json] of stacks) {
    for (const [type, byName] of Object.entries<any>(json?.resource ?? {})) for (const name of Object.keys(byName ?? {})) ids.add(`${stack}/${type}.${name}`);
    for (const moved of Array.isArray(json?.moved) ? json.moved : []) if (typeof moved?.from === "string") ids.add(`${stack}/${moved.from}`);
  }
  return ids;
}

/** What synth knows of the protected resources the deployment may hold. */
export interface DeployedProtection {
  /** Protected resources the deployment may hold, by ID, with whether an earlier synth saw them released. */
  readonly held: ProtectedRecord;
  /** Where that knowledge comes from, for messages. */
  readonly source: string;
  /** No record existed: nothing could be checked (a deployment from before protected resources were recorded). */
  readonly unrecorded: boolean;
}

/** The environment's state folder (local backend). */
function localStateFolder(loaded: LoadedConfig): string {
  return path.dirname(loaded.names.stateLocation(SHARED_STACK));
}

/** The local backend's record of protected resources, or undefined when the backend is remote. */
export function localProtectedRecordFile(loaded: LoadedConfig): string | undefined {
  return loaded.config.backend.type === "local" ? path.join(localStateFolder(loaded), LOCAL_PROTECTED_RECORD) : undefined;
}

/** Parses the local record: `protected:` lines, comments, blank lines. */
export function parseLocalProtectedRecord(text: string): { ok: true; protected: ProtectedRecord } | { ok: false; problems: string[] } {
  const held = new Map<string, { released: boolean }>();
  const problems: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const parsed = line.startsWith("protected:") ? parseProtectedLine(line.slice("protected:".length)) : "must be protected: <stack>/<resource address>";
    if (typeof parsed === "string") problems.push(`line ${index + 1}: "${line}" ${parsed}`);
    else held.set(parsed.id, { released: parsed.released });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, protected: held };
}

/** Managed resource addresses (`type.name`) of a state file with at least one instance; undefined when it cannot be read. */
export function stateAddresses(file: string): Set<string> | undefined {
  let state: any;
  try {
    state = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(state?.resources)) return undefined;
  return new Set(
    state.resources
      .filter((r: any) => r?.mode === "managed" && (r.instances?.length ?? 0) > 0 && !r.module)
      .map((r: any) => `${String(r.type)}.${String(r.name)}`),
  );
}

/**
 * The protected resources the deployment may hold: local, recorded and still in their stack's
 * state file; remote, the record's `protected:` lines. A malformed record is a config issue.
 */
export function deployedProtection(loaded: LoadedConfig): DeployedProtection | { issues: ConfigIssue[] } {
  const localFile = localProtectedRecordFile(loaded);
  if (localFile) {
    if (!fs.existsSync(localFile)) return { held: new Map(), source: shown(localFile), unrecorded: true };
    const parsed = parseLocalProtectedRecord(fs.readFileSync(localFile, "utf8"));
    if (!parsed.ok)
      return {
        issues: parsed.problems.map((problem) => ({ path: shown(localFile), message: `${problem} (synth's record of protected resources; help/destroy.md)` })),
      };
    const folder = localStateFolder(loaded);
    // Per stack: the addresses its state file holds; "unreadable" may hold anything (counted as holding what was recorded).
    const states = new Map<string, Set<string> | "unreadable">();
    const held = new Map<string, { released: boolean }>();
    for (const [id, entry] of parsed.protected) {
      const [, stack, address] = PROTECTED_ID.exec(id) as RegExpExecArray;
      if (!states.has(stack)) {
        const file = path.join(folder, `${stack}.tfstate`);
        states.set(stack, fs.existsSync(file) ? (stateAddresses(file) ?? "unreadable") : new Set());
      }
      const state = states.get(stack) as Set<string> | "unreadable";
      if (state === "unreadable" || state.has(address)) held.set(id, entry);
    }
    return { held, source: `${shown(folder)}/<stack>.tfstate`, unrecorded: false };
  }
  const read = readClusterRecord(loaded);
  // A missing or malformed record is config/deployed-clusters.ts's to report.
  if (!read?.record.ok) return { held: new Map(), source: "the record", unrecorded: true };
  return { held: read.record.protected, source: shown(read.file), unrecorded: read.record.protected.size === 0 };
}

/** What refusing or accepting the synthesized stacks leads to. */
export interface ProtectionCheck {
  /** Refusals: protected resources the config drops without a release. */
  readonly issues: readonly ConfigIssue[];
  /** The protected resources to record after this synth. */
  readonly next: ProtectedRecord;
  readonly warnings: readonly string[];
}

/**
 * Compares the protected resources the deployment holds with the synthesized stacks: a held one
 * whose address is no longer declared in its stack (nor carried over by a `moved` block) is
 * dropped, and refused unless `protection.release` names it.
 */
export function checkProtectedResources(loaded: LoadedConfig, stacks: ReadonlyMap<string, StackJson>, deployed: DeployedProtection): ProtectionCheck {
  const declared = declaredResources(stacks);
  const protectedNow = protectedResourcesOf(stacks);
  const release = loaded.config.protection.release;
  const released = new Set(release);
  const dropped = [...deployed.held.keys()].filter((id) => !declared.has(id));
  const refused = dropped.filter((id) => !released.has(id));
  const next = new Map<string, { released: boolean }>([...protectedNow].map((id) => [id, { released: false }]));
  // Released and dropped: still held until a deploy destroys them (local: until the state no longer lists them).
  for (const id of dropped) if (released.has(id)) next.set(id, { released: true });
  const warnings: string[] = [];
  release.forEach((id, index) => {
    if (protectedNow.has(id))
      warnings.push(
        `protection.release[${index}] (${id}): this config still declares it, protected: the release has no effect (a release only lets a config drop a resource; remove it).`,
      );
    else if (!deployed.held.has(id) && !declared.has(id))
      warnings.push(
        `protection.release[${index}] (${id}): the deployment holds no such protected resource (${deployed.source}): destroyed already, or a typo. Remove it from protection.release.`,
      );
  });
  for (const id of dropped.filter((d) => released.has(d)))
    warnings.push(
      `${id} is released (protection.release): the next deploy of ${stackOf(id)} destroys it. ` +
        (loaded.config.backend.type === "local"
          ? "Once it is gone from the state, remove it from protection.release."
          : `Once that deploy has run, delete its line from ${deployed.source} and remove it from protection.release.`),
    );
  if (deployed.unrecorded && loaded.config.backend.type !== "local" && deployed.source !== "the record")
    warnings.push(
      `${deployed.source} listed no protected resources (written before they were recorded): synth now records ${protectedNow.size}. A protected resource this very edit drops was not checked; compare with npm run review (help/destroy.md#when-an-edit-drops-a-protected-resource).`,
    );
  return { issues: refusalIssues(loaded, refused, deployed), next, warnings };
}

function stackOf(id: string): string {
  return id.slice(0, id.indexOf("/"));
}

/** The config edit that drops a protected resource, from its stack and address: the issue's path, value and words. */
function dropCause(loaded: LoadedConfig, id: string): { path: string; value?: unknown; edit: string } {
  const stack = stackOf(id);
  const name = id.slice(id.indexOf(".") + 1);
  const { config } = loaded;
  const cluster = clusterOfStack(stack);
  const clusterIndex = (c: string) => config.clusters.findIndex((x) => x.name === c);
  if (cluster !== undefined) {
    const index = clusterIndex(cluster);
    if (index < 0) return { path: "clusters", value: cluster, edit: `cluster ${cluster} left the config (removed or renamed), with its stack ${stack}` };
    const component = /^WorkloadIdentities_([A-Za-z]+)_/.exec(name)?.[1];
    if (component)
      return {
        path: `clusters[${index}].identities.${component}`,
        edit: `the ${component} workload identity of cluster ${cluster} is no longer configured (clusters[${index}].identities.${component}, or the component's removal)`,
      };
    if (name.startsWith("OidcIssuer_"))
      return { path: "oidc.issuer", value: config.oidc.issuer, edit: `cluster ${cluster} no longer has its own issuer (oidc.issuer: ${config.oidc.issuer})` };
    if (name.startsWith("KmsKey"))
      return { path: `clusters[${index}].hostedCluster.kms`, edit: `cluster ${cluster}'s created KMS Key Vault or key is no longer configured` };
    return { path: `clusters[${index}]`, edit: `cluster ${cluster}'s configuration no longer declares it` };
  }
  const controlPlane = /^ControlPlaneIdentities_(.+?)_[A-Za-z]+_/.exec(name)?.[1];
  if (controlPlane !== undefined) {
    return clusterIndex(controlPlane) < 0
      ? {
          path: "clusters",
          value: controlPlane,
          edit: `cluster ${controlPlane} left the config (removed or renamed): its control-plane principals and Key Vault secrets go with it`,
        }
      : { path: `clusters[${clusterIndex(controlPlane)}]`, edit: `cluster ${controlPlane}'s control-plane principals are no longer configured` };
  }
  if (name.startsWith("ExternalDns_")) return { path: "externalDns", edit: "externalDns was removed" };
  if (name.startsWith("OidcIssuer_"))
    return {
      path: "oidc.issuer",
      value: config.oidc.issuer,
      edit: `the shared issuer is gone (oidc.issuer: ${config.oidc.issuer}): every cluster's tokens were verified against its documents`,
    };
  if (name.startsWith("OidcStorage_")) return { path: "oidc", edit: "the OIDC storage account is no longer declared" };
  if (name.startsWith("PrivateLink"))
    return {
      path: "managementCluster.privateLink",
      edit: "the operator's Private Link principal is no longer created (privateLink removed, or credentialsFile set)",
    };
  if (name.startsWith("DnsZone")) return { path: "dns", edit: "the DNS zone is no longer created (dns removed or adopted)" };
  if (name.startsWith("KeyVault")) return { path: "topology", value: config.topology, edit: "the control-plane Key Vault is no longer created" };
  if (name.startsWith("PersistentResourceGroup"))
    return {
      path: "resourceGroup.create",
      value: config.resourceGroup.create,
      edit: "the persistent resource group is no longer created (an adopted group is only read)",
    };
  if (stack === "aks") return { path: "managementCluster.aks", edit: "the AKS management cluster is no longer created here" };
  if (stack === "management")
    return {
      path: "managementCluster",
      edit: "the operator's CRDs or namespaces are no longer declared (managementCluster, its bundle, or the hosted clusters' namespaces changed)",
    };
  return { path: "(config)", edit: `stack ${stack} no longer declares it` };
}

/** One issue per config edit, naming every resource it drops, why it matters and the way forward. */
function refusalIssues(loaded: LoadedConfig, refused: readonly string[], deployed: DeployedProtection): ConfigIssue[] {
  const byCause = new Map<string, { path: string; value?: unknown; edit: string; ids: string[] }>();
  for (const id of [...refused].sort()) {
    const cause = dropCause(loaded, id);
    const key = `${cause.path}\u0000${cause.edit}`;
    const entry = byCause.get(key) ?? { ...cause, ids: [] };
    entry.ids.push(id);
    byCause.set(key, entry);
  }
  return [...byCause.values()].map(({ path: at, value, edit, ids }) => {
    const stacks = [...new Set(ids.map(stackOf))];
    const count = ids.length === 1 ? "1 protected resource" : `${ids.length} protected resources`;
    return {
      path: at,
      value,
      message:
        `drops ${count} the deployment holds (${deployed.source}): ${edit}. ` +
        `prevent_destroy does not stop this: it lives in the resource's block, which leaves the configuration, so the next deploy of ${stacks.join(", ")} would destroy ${ids.length === 1 ? "it" : "them"} without asking:\n` +
        ids.map((id) => `      ${id}\n`).join("") +
        "    Undo the edit. To destroy them on purpose, release each one in the config, synth, and deploy; then remove the release " +
        `(${loaded.config.backend.type === "local" ? "once the state no longer lists them" : "and its line in the record"}; help/destroy.md#releasing-a-protected-resource):\n` +
        "      protection:\n        release:\n" +
        ids
          .map((id) => `          - ${id}\n`)
          .join("")
          .replace(/\n$/, ""),
    };
  });
}

/**
 * Writes the local backend's record of protected resources (after a successful synth): when the
 * state folder exists, or `create` (under the cdktf CLI, which deploys into it). Records what
 * this synth protects, and what it released that the state still holds.
 */
export function writeLocalProtectedRecord(loaded: LoadedConfig, next: ProtectedRecord, create: boolean): void {
  const file = localProtectedRecordFile(loaded);
  if (!file) return;
  const folder = path.dirname(file);
  if (!fs.existsSync(folder)) {
    if (!create) return;
    fs.mkdirSync(folder, { recursive: true });
  }
  const text = [
    "# Resources with prevent_destroy this environment's stacks declared, written by `npm run synth`",
    "# beside their state. Synth refuses a config that drops one the state still holds, unless",
    "# protection.release names it (help/destroy.md#when-an-edit-drops-a-protected-resource).",
    ...renderProtectedLines(next),
    "",
  ].join("\n");
  if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) return;
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

/** Keeps released entries the local state still holds, drops the rest (they are gone). */
export function localNext(deployed: DeployedProtection, next: ProtectedRecord): ProtectedRecord {
  return new Map([...next].filter(([id, { released }]) => !released || deployed.held.has(id)));
}

function shown(file: string): string {
  return path.relative(process.cwd(), file) || file;
}
