import { FederatedIdentityCredential } from "@cdktf/provider-azurerm/lib/federated-identity-credential";
import { UserAssignedIdentity } from "@cdktf/provider-azurerm/lib/user-assigned-identity";
import { Construct } from "constructs";
import { AZURE_NAME_RULES } from "../../config/azure-rules";
import { WORKLOAD_IDENTITY_AUDIENCE, WorkloadIdentityKey } from "../../config/components";
import { protectedLifecycle } from "../../config/protection";
import { federatedCredentialIssues } from "../../config/rules/names";
import { ExistingNamedObject, ExistingObject, ImportTarget, importTargetOf, importTargetsByName } from "../adoption/import-existing";
import { literalTags } from "../terraform-literal";

export interface WorkloadIdentitySpec {
  /** HyperShift workloadIdentities key, e.g. `imageRegistry`; `kms` goes to `kmsClientID`. */
  readonly key: WorkloadIdentityKey;
  /** Identity name: 3-128 letters, digits, '-' or '_'. */
  readonly name: string;
  /** Federated credentials, created one after another in this order. */
  readonly credentials: ReadonlyArray<{
    /** Credential name: ^[a-zA-Z0-9][a-zA-Z0-9-_]{2,119}$. */
    readonly name: string;
    /** Token subject: `system:serviceaccount:<namespace>:<service account>`. */
    readonly subject: string;
  }>;
}

export interface WorkloadIdentitiesProps {
  /** Resource group of the identities (the persistent group: they outlive the cluster). */
  readonly resourceGroupName: string;
  /** Azure region of the identities. */
  readonly location: string;
  /** OIDC issuer URL the hosted cluster signs tokens with; compared byte for byte by Entra ID. */
  readonly issuerUrl: string;
  /** The identities and their credentials (see config/components.ts for HyperShift's set). */
  readonly identities: readonly WorkloadIdentitySpec[];
  /**
   * Token audience of every credential.
   * @default "openshift" (what HyperShift's components request)
   */
  readonly audience?: string;
  /**
   * Make Terraform refuse to destroy the identities and their federated credentials: they outlive the cluster,
   * and a re-created identity has a new client ID (lifecycle prevent_destroy; config
   * `protection.preventDestroy`).
   * @default true
   */
  readonly preventDestroy?: boolean;
  /** Tags of the identities (credentials take none). @default {} */
  readonly tags?: Record<string, string>;
}

/**
 * User-assigned managed identities for a hosted cluster's components, each trusting the
 * cluster's service-account tokens through federated identity credentials (seed 004 Phase 1
 * steps 1, 2 and 4).
 */
export class WorkloadIdentities extends Construct {
  /** Identity resources by key. */
  public readonly identities: ReadonlyMap<WorkloadIdentityKey, UserAssignedIdentity>;
  /**
   * `workload-identities.json` as HyperShift reads it (`--workload-identities-file`), key order
   * and layout as seed 004 prints it; client IDs are resolved at apply time.
   */
  public readonly workloadIdentitiesJson: string;
  /** Federated credentials by identity key, then by credential name. */
  private readonly credentials = new Map<WorkloadIdentityKey, Map<string, FederatedIdentityCredential>>();

  constructor(scope: Construct, id: string, props: WorkloadIdentitiesProps) {
    super(scope, id);
    validate(props);
    const identities = new Map<WorkloadIdentityKey, UserAssignedIdentity>();
    for (const spec of props.identities) {
      const group = new Construct(this, spec.key);
      const identity = new UserAssignedIdentity(group, "Identity", {
        name: spec.name,
        resourceGroupName: props.resourceGroupName,
        location: props.location,
        tags: literalTags(props.tags),
        lifecycle: protectedLifecycle(props.preventDestroy),
      });
      identities.set(spec.key, identity);
      // Azure rejects concurrent credential writes under one identity (409
      // ConcurrentFederatedIdentityCredentialsWritesForSingleManagedIdentity); azurerm's lock is
      // per process only, so chain them explicitly. Different identities still run in parallel.
      let previous: FederatedIdentityCredential | undefined;
      const credentials = new Map<string, FederatedIdentityCredential>();
      this.credentials.set(spec.key, credentials);
      for (const credential of spec.credentials) {
        // Construct ID without the user's prefix ("fed-id-node"): stable as the prefix changes.
        const localId = credential.name.startsWith(`${spec.name}-`) ? credential.name.slice(spec.name.length + 1) : credential.name;
        previous = new FederatedIdentityCredential(group, localId, {
          name: credential.name,
          resourceGroupName: props.resourceGroupName,
          parentId: identity.id,
          issuer: props.issuerUrl,
          subject: credential.subject,
          audience: [props.audience ?? WORKLOAD_IDENTITY_AUDIENCE],
          dependsOn: previous ? [previous] : undefined,
          lifecycle: protectedLifecycle(props.preventDestroy),
        });
        credentials.set(credential.name, previous);
      }
    }
    this.identities = identities;
    this.workloadIdentitiesJson = renderWorkloadIdentitiesJson(new Map([...identities].map(([key, identity]) => [key, identity.clientId])));
  }

  /** Adoption: the import targets that make identities and their federated credentials (by name) take over existing ones. */
  public importTargets(
    existing: ReadonlyArray<{
      readonly key: WorkloadIdentityKey;
      readonly identity: ExistingObject;
      readonly federatedCredentials: readonly ExistingNamedObject[];
    }>,
  ): ImportTarget[] {
    return existing.flatMap(({ key, identity, federatedCredentials }) => {
      const resource = this.identities.get(key);
      if (!resource) throw new Error(`${this.node.path}: no ${key} identity here to import ${identity.id} into`);
      return [importTargetOf(resource, identity), ...importTargetsByName(this, this.credentials.get(key) ?? new Map(), federatedCredentials)];
    });
  }
}

/**
 * Renders the file HyperShift reads: `{"<key>": {"clientID": ...}, ...}` with 2-space indent,
 * plus `kmsClientID` at the top level as `hypershift create iam azure` writes it.
 */
export function renderWorkloadIdentitiesJson(clientIds: ReadonlyMap<WorkloadIdentityKey, string>): string {
  const entries = [...clientIds].map(([key, clientId]) =>
    key === "kms" ? `  "kmsClientID": "${clientId}"` : `  "${key}": {\n    "clientID": "${clientId}"\n  }`,
  );
  return `{\n${entries.join(",\n")}\n}\n`;
}

/**
 * HyperShift's `--data-plane-identities-file` (DataPlaneManagedIdentities, seed 003):
 * `{"imageRegistryMSIClientID", "diskMSIClientID", "fileMSIClientID"}`, 2-space indent.
 */
export function renderDataPlaneIdentitiesJson(identities: ReadonlyMap<WorkloadIdentityKey, { readonly clientId: string }>): string {
  const entries = (["imageRegistry", "disk", "file"] as const).map((key) => {
    const identity = identities.get(key);
    if (!identity) throw new Error(`renderDataPlaneIdentitiesJson: the ${key} identity is missing`);
    return `  "${key}MSIClientID": "${identity.clientId}"`;
  });
  return `{\n${entries.join(",\n")}\n}\n`;
}

function validate(props: WorkloadIdentitiesProps): void {
  const problems: string[] = [];
  const keys = new Set<string>();
  for (const spec of props.identities) {
    if (keys.has(spec.key)) problems.push(`identity key ${spec.key} appears twice`);
    keys.add(spec.key);
    if (!AZURE_NAME_RULES.userAssignedIdentity.test(spec.name)) {
      problems.push(`identity name "${spec.name}" ${AZURE_NAME_RULES.userAssignedIdentity.rule}`);
    }
    for (const credential of spec.credentials) {
      if (!AZURE_NAME_RULES.federatedCredential.test(credential.name)) {
        problems.push(`credential name "${credential.name}" ${AZURE_NAME_RULES.federatedCredential.rule}`);
      }
    }
    problems.push(...federatedCredentialIssues(spec, props.issuerUrl, spec.name).map((i) => `${String(i.value)}: ${i.message}`));
  }
  if (problems.length > 0) throw new Error(`WorkloadIdentities: ${problems.join("; ")}`);
}
