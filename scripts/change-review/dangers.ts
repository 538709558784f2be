import { BUILT_IN_ROLES } from "../../config/azure-roles";
import { HOSTED_CLUSTER_IMMUTABLE_FIELDS, ImmutableField, NODE_POOL_IMMUTABLE_FIELDS } from "../../constructs/hosted-cluster/immutable-fields";
import type { HyperShiftObject } from "../../constructs/hosted-cluster/hypershift-object";
import { ResourceChange, StackDiff } from "./diff";
import { nodeRollFindings } from "./node-rolls";
import { releaseFindings } from "./releases";

/** `danger` fails the review (exit 1 unless --allow-dangerous); `review` is listed for a human to read. */
export type Severity = "danger" | "review";

export interface Finding {
  readonly severity: Severity;
  readonly stack: string;
  /** The resource, when the finding is about one. */
  readonly address?: string;
  readonly message: string;
  /** `<Kind>/<name> <path>` of a refused HostedCluster/NodePool field, to merge with the CRD check's report of it. */
  readonly crdKey?: string;
}

/** Resource types that outlive a hosted cluster even without prevent_destroy (STYLE.md "Variants and lifecycle"). */
const PERSISTENT_TYPES: Readonly<Record<string, string>> = {
  azurerm_user_assigned_identity: "workload identity",
  azurerm_federated_identity_credential: "federated credential",
  azurerm_dns_zone: "DNS zone",
  azurerm_key_vault: "Key Vault",
  azurerm_key_vault_secret: "Key Vault secret",
  azurerm_key_vault_key: "Key Vault key (etcd's KMS key: secrets encrypted with it become unreadable)",
  azuread_application: "Entra application",
  azuread_service_principal: "service principal",
  azurerm_kubernetes_cluster: "management AKS cluster",
};

/** Kubernetes kinds whose deletion takes running clusters with it. */
const PERSISTENT_KINDS: Readonly<Record<string, string>> = {
  HostedCluster: "hosted cluster (HyperShift tears the cluster down)",
  CustomResourceDefinition: "CRD (deleting it deletes every object of its kind)",
  Namespace: "namespace (deleting it deletes everything in it)",
};

/** Why a resource must not be destroyed, or undefined when it may. */
export function persistentReason(type: string, body: any, address = ""): string | undefined {
  const path: string = body?.["//"]?.metadata?.path ?? "";
  if (body?.lifecycle?.prevent_destroy === true) return "it has prevent_destroy (a plan that replaces it fails until the protection is lifted)";
  if (PERSISTENT_TYPES[type]) return PERSISTENT_TYPES[type];
  if ((type === "azurerm_storage_account" || type === "azurerm_storage_container") && /\bOidc/.test(path))
    return "OIDC issuer storage (every issuer URL and federated credential points at it)";
  if (type === "azurerm_resource_group" && /\/PersistentResourceGroup\//.test(path)) return "the persistent resource group";
  if (type === "tls_private_key" && /SshKeyPair/.test(path || address))
    return "the workers' SSH private key, generated in Terraform state: its only copy (output ssh_private_key)";
  if (type === "kubernetes_manifest") return PERSISTENT_KINDS[body?.manifest?.kind];
  return undefined;
}

/** A short name for what a resource is: a Kubernetes object's (or Secret's) kind and name, else its type. */
export function describe(type: string, body: any): string {
  const manifest = body?.manifest;
  const kind = type === "kubernetes_manifest" ? manifest?.kind : type === "kubernetes_secret_v1" ? "Secret" : undefined;
  const metadata = type === "kubernetes_manifest" ? manifest?.metadata : body?.metadata;
  if (!kind || !metadata) return type;
  return `${kind} ${metadata.namespace ? `${metadata.namespace}/` : ""}${metadata.name ?? "?"}`;
}

const ROLE_NAMES = new Map<string, string>(Object.values(BUILT_IN_ROLES).map((role) => [role.guid, role.name]));

/** "Contributor on <scope> to <principal>", from a synthesized azurerm_role_assignment. */
export function roleAssignmentText(body: any): string {
  const definition = String(body?.role_definition_id ?? body?.role_definition_name ?? "?");
  const guid = definition.split("/").pop() ?? definition;
  const role = ROLE_NAMES.get(guid) ?? body?.role_definition_name ?? definition;
  return `${role} on \`${body?.scope ?? "?"}\` to \`${body?.principal_id ?? "?"}\``;
}

const kindOf = (body: any): string | undefined => body?.manifest?.kind;

/** The CRD rules the creation guard knows (constructs/hosted-cluster/immutable-fields.ts), checked between two manifests. */
export function immutableFieldViolations(before: HyperShiftObject, after: HyperShiftObject): { field: ImmutableField; was: string; now: string }[] {
  const fields = before.kind === "HostedCluster" ? HOSTED_CLUSTER_IMMUTABLE_FIELDS : before.kind === "NodePool" ? NODE_POOL_IMMUTABLE_FIELDS : [];
  const out: { field: ImmutableField; was: string; now: string }[] = [];
  for (const field of fields) {
    // A namespace change is a replacement (force-new.ts), reported as such.
    if (field.path === "metadata.namespace") continue;
    const was = field.read(before);
    const now = field.read(after);
    if (was === now) continue;
    const refused = field.rule === "always" || (field.rule === "whileSet" && was !== "" && now !== "") || (field.rule === "onceSet" && was !== "");
    if (refused) out.push({ field, was, now });
  }
  return out;
}

function resourceFindings(stack: string, change: ResourceChange): Finding[] {
  const { address, type, action } = change;
  const body = change.before ?? change.after;
  const what = describe(type, body);
  const at = (severity: Severity, message: string): Finding => ({ severity, stack, address, message });
  const findings: Finding[] = [];
  const persistent = change.before ? persistentReason(type, change.before, address) : undefined;
  const forcedBy = [
    ...change.attributes.filter((a) => a.forcesReplacement).map((a) => `\`${a.path}\``),
    ...(change.replacedWith ?? []).map((cause) => `\`${cause.split(" → ")[0]}\` (refers to the replaced ${cause.split(" → ")[1]})`),
  ];
  if (type === "azurerm_role_assignment") {
    if (action === "create" || action === "import") findings.push(at("review", `grants ${roleAssignmentText(change.after)}`));
    if (action === "delete") findings.push(at("danger", `removes the role assignment ${roleAssignmentText(change.before)}: what uses it loses access`));
    if (action === "replace")
      findings.push(
        at(
          "danger",
          `replaces the role assignment ${roleAssignmentText(change.before)} with ${roleAssignmentText(change.after)}, forced by ${forcedBy.join(", ")}: access is revoked, then granted again`,
        ),
      );
    if (action === "update") findings.push(at("review", `changes the role assignment ${roleAssignmentText(change.after)}`));
    return findings;
  }
  if (action === "delete") {
    if (change.before?.lifecycle?.prevent_destroy === true)
      findings.push(
        at(
          "danger",
          `destroys ${what}: its block leaves the configuration, and prevent_destroy with it, so Terraform destroys it without refusing. Synth refuses this config while the deployment holds it, unless protection.release names ${stack}/${address} (help/destroy.md#releasing-a-protected-resource)`,
        ),
      );
    else if (persistent) findings.push(at("danger", `destroys ${what}: ${persistent}`));
    else if (kindOf(body) === "NodePool") findings.push(at("review", `deletes ${what}: its machines are drained and deleted`));
  }
  if (action === "replace") {
    const running = kindOf(body) === "HostedCluster" || kindOf(body) === "NodePool";
    const severity: Severity = persistent || running ? "danger" : "review";
    findings.push(at(severity, `replaces ${what} (destroy, then create), forced by ${forcedBy.join(", ")}${persistent ? `: ${persistent}` : ""}`));
  }
  if (action === "update" || action === "replace") {
    if (change.importAdded)
      findings.push(at("review", `takes over the existing ${what} (a new import block, ID ${change.importAdded}) unless the state holds it already`));
    findings.push(...oidcFindings(stack, change));
    if (change.before?.lifecycle?.prevent_destroy === true && change.after?.lifecycle?.prevent_destroy !== true)
      findings.push(at("review", `lifts prevent_destroy from ${what}: a later destroy deletes it`));
    if ((kindOf(change.before) === "HostedCluster" || kindOf(change.before) === "NodePool") && kindOf(change.after) === kindOf(change.before)) {
      for (const { field, was, now } of immutableFieldViolations(change.before.manifest, change.after.manifest)) {
        findings.push({
          ...at(
            "danger",
            `${what}: the API server refuses the change of \`${field.path}\` (${field.crdMessage}): ${was || "(not set)"} → ${now || "(not set)"}`,
          ),
          crdKey: `${kindOf(change.before)}/${change.before.manifest?.metadata?.name} ${field.path}`,
        });
      }
    }
  }
  return findings;
}

/** The `kid`s of a JWKS document, in order; undefined when it is not one. */
export function jwksKeyIds(content: unknown): string[] | undefined {
  if (typeof content !== "string") return undefined;
  try {
    const keys = JSON.parse(content)?.keys;
    return Array.isArray(keys) ? keys.map((key: any) => String(key?.kid)) : undefined;
  } catch {
    return undefined;
  }
}

function issuerOf(content: unknown): string | undefined {
  if (typeof content !== "string") return undefined;
  try {
    const issuer = JSON.parse(content)?.issuer;
    return typeof issuer === "string" ? issuer : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What breaks when the OIDC trust changes (help/oidc-issuer.md): a JWKS that stops publishing the
 * key clusters sign with, an issuer URL that changes, a federated credential re-targeted to
 * another issuer, subject or audience.
 */
function oidcFindings(stack: string, change: ResourceChange): Finding[] {
  const { address, type } = change;
  const at = (severity: Severity, message: string): Finding => ({ severity, stack, address, message });
  const findings: Finding[] = [];
  if (type === "azurerm_storage_blob" && change.after?.name === "openid/v1/jwks") {
    const was = jwksKeyIds(change.before?.source_content);
    const now = jwksKeyIds(change.after?.source_content);
    if (was && now && was.join() !== now.join()) {
      const [current, ...previous] = was;
      const added = now.filter((kid) => !was.includes(kid));
      const gone = was.filter((kid) => !now.includes(kid));
      if (!now.includes(current))
        findings.push(
          at(
            "danger",
            `the JWKS stops publishing the signing key ${current}${added.length > 0 ? ` (now ${now.join(", ")})` : ""}: Entra ID rejects every token signed with it, for every cluster on this issuer, until each signs with a published key: workload identities lose Azure access. Rotate instead: keep the old public key in serviceAccountSigningKey.previousPublicKeyFiles until the clusters sign with the new key and their old tokens have expired (help/oidc-issuer.md#rotating-the-signing-key)`,
          ),
        );
      else if (gone.length > 0)
        findings.push(
          at(
            "review",
            `the JWKS stops publishing the previous key${gone.length > 1 ? "s" : ""} ${gone.join(", ")}: tokens signed with ${gone.length > 1 ? "them" : "it"} are rejected from now on; safe once every cluster signs with ${current} and their older tokens have expired`,
          ),
        );
      if (added.length > 0 && now.includes(current))
        findings.push(
          at(
            "review",
            `the JWKS adds the key ${added.join(", ")} and keeps ${[current, ...previous].filter((kid) => now.includes(kid)).join(", ")}: a safe rotation step (tokens signed with either verify); roll the clusters' signing key next (help/oidc-issuer.md#rotating-the-signing-key)`,
          ),
        );
    }
  }
  if (type === "azurerm_storage_blob" && change.after?.name === ".well-known/openid-configuration") {
    const was = issuerOf(change.before?.source_content);
    const now = issuerOf(change.after?.source_content);
    if (was && now && was !== now)
      findings.push(
        at(
          "danger",
          `the issuer URL changes (${was} → ${now}): tokens carry the issuer their cluster was created with (a HostedCluster's issuerURL is immutable), so Entra ID rejects them once the federated credentials name the new URL: every cluster on this issuer loses Azure access`,
        ),
      );
  }
  if (type === "azurerm_federated_identity_credential") {
    const retargeted = change.attributes.filter((a) => /^(issuer|subject|audience)\b/.test(a.path));
    if (retargeted.length > 0)
      findings.push(
        at(
          "danger",
          `re-targets the federated credential ${change.after?.name ?? ""} (${retargeted.map((a) => `\`${a.path}\` ${JSON.stringify(a.before)} → ${JSON.stringify(a.after)}`).join(", ")}): Entra ID no longer exchanges the tokens the workload presents now (another issuer, service account or audience), so it loses Azure access until its cluster mints matching tokens`,
        ),
      );
  }
  return findings;
}

/** Counts of what a removed stack held that must outlive it, e.g. "7 workload identity, 11 federated credential". */
function persistentCounts(resources: readonly ResourceChange[]): string {
  const counts = new Map<string, number>();
  for (const change of resources) {
    const reason = change.before ? persistentReason(change.type, change.before, change.address) : undefined;
    if (reason) counts.set(describeKind(change), (counts.get(describeKind(change)) ?? 0) + 1);
  }
  return [...counts].map(([what, n]) => `${n} ${what}`).join(", ");
}

const describeKind = (change: ResourceChange) => (change.type === "kubernetes_manifest" ? (kindOf(change.before) ?? change.type) : change.type);

/** Every finding of one stack's diff. */
export function stackFindings(diff: StackDiff): Finding[] {
  const { stack } = diff;
  if (diff.status === "removed") {
    const persistent = persistentCounts(diff.resources);
    return [
      {
        severity: "danger",
        stack,
        message:
          `stack removed: deploys no longer touch its ${diff.resources.length} resources, which stay in Azure and in its state, unmanaged. ` +
          "Retire a cluster first (`retired: true`, destroy, then remove it: help/retire-cluster.md)" +
          (persistent ? `. It holds ${persistent}` : ""),
      },
    ];
  }
  if (diff.status === "added") {
    const grants = diff.resources.filter((r) => r.type === "azurerm_role_assignment");
    return grants.length > 0 ? [{ severity: "review", stack, message: `new stack grants ${grants.length} role assignments (listed in its details)` }] : [];
  }
  const findings = [...diff.resources.flatMap((change) => resourceFindings(stack, change)), ...nodeRollFindings(diff), ...releaseFindings(diff)];
  for (const block of diff.blocks) {
    if (block.kind === "provider") {
      const moved = block.attributes.filter((a) => /(^|\.)(tenant_id|subscription_id)$/.test(a.path) && a.before !== undefined && a.after !== undefined);
      for (const attribute of moved)
        findings.push({
          severity: "danger",
          stack,
          message:
            `the provider ${block.address} changes \`${attribute.path}\` (${String(attribute.before)} → ${String(attribute.after)}): the state's resources live in the old ${attribute.path.endsWith("tenant_id") ? "tenant" : "subscription"}, so Terraform finds none of them there and plans to create everything again while the old ones stay, unmanaged; ` +
            "principal IDs, role assignments and federated credentials belong to the tenant they were made in. Deploy a new environment (another prefix and state) instead",
        });
    }
    if (block.kind === "terraform" && block.attributes.some((a) => a.path.startsWith("backend"))) {
      findings.push({
        severity: "danger",
        stack,
        message:
          "the state backend changes: Terraform would read another state and plan to create every resource again (migrate with `terraform init -migrate-state`)",
      });
    }
    if (block.kind === "variable" && block.action === "add")
      findings.push({
        severity: "review",
        stack,
        message: `new input \`${block.address}\`: set it in the workspace before the next plan (cdktf.out/workspaces.json)`,
      });
  }
  return findings;
}
