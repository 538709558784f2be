import { DataAzureadClientConfig } from "@cdktf/provider-azuread/lib/data-azuread-client-config";
import { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import { CONTROL_PLANE_COMPONENTS, ControlPlanePrincipalKey } from "../../config/components";
import { ControlPlaneIdentity } from "./control-plane-identity";

export interface ControlPlaneIdentitiesProps {
  /** One entry per HyperShift control-plane component, each key once (all 8 for a HostedCluster). */
  readonly identities: ReadonlyArray<{
    readonly key: ControlPlanePrincipalKey;
    /** Entra display name (1-120 characters). */
    readonly applicationName: string;
    /** Key Vault secret name (credentialsSecretName): 1-127 letters, digits or '-'. */
    readonly secretName: string;
  }>;
  /** The Key Vault holding the credentials: its name (for HyperShift) and ARM ID. */
  readonly keyVault: { readonly name: string; readonly id: string };
  /** Microsoft Entra tenant. */
  readonly tenantId: string;
  /** Certificate lifetime in hours (24-17520). */
  readonly validityHours: number;
  /** Hours before expiry from which an apply renews a certificate (less than validityHours). */
  readonly renewBeforeHours: number;
  /**
   * What the secret writes must wait for (the deployer's role on the vault).
   * @default - nothing
   */
  readonly secretDependsOn?: ITerraformDependable[];
  /**
   * Make Terraform refuse to destroy the applications, service principals and Key Vault secrets (not the
   * certificates: renewal replaces them) (lifecycle prevent_destroy; config
   * `protection.preventDestroy`).
   * @default true
   */
  readonly preventDestroy?: boolean;
  /** Tags of the Key Vault secrets. @default {} */
  readonly tags?: Record<string, string>;
  /** Microsoft Entra authority host written into each credential. @default - the public cloud's (ControlPlaneIdentity) */
  readonly authorityHost?: string;
}

/**
 * The control-plane identities of one hosted cluster (ARO HCP style, seed 003): a certificate
 * service principal and a Key Vault secret per component, owned by the deployer.
 */
export class ControlPlaneIdentities extends Construct {
  public readonly identities: ReadonlyMap<ControlPlanePrincipalKey, ControlPlaneIdentity>;
  /**
   * HyperShift's `--managed-identities-file` (ControlPlaneManagedIdentities, notes §8): the vault
   * and the 8 components `{clientID, credentialsSecretName, objectEncoding: "utf-8"}`, in seed
   * 003's order with 2-space indent; client IDs resolve at apply time.
   */
  public readonly managedIdentitiesJson: string;

  constructor(scope: Construct, id: string, props: ControlPlaneIdentitiesProps) {
    super(scope, id);
    const keys = props.identities.map((identity) => identity.key);
    const duplicate = keys.find((key, i) => keys.indexOf(key) !== i);
    if (duplicate) throw new Error(`ControlPlaneIdentities: identity key ${duplicate} appears twice`);
    const deployer = new DataAzureadClientConfig(this, "Deployer", {});
    const identities = new Map<ControlPlanePrincipalKey, ControlPlaneIdentity>();
    for (const spec of props.identities) {
      identities.set(
        spec.key,
        new ControlPlaneIdentity(this, spec.key, {
          applicationName: spec.applicationName,
          secretName: spec.secretName,
          keyVaultId: props.keyVault.id,
          tenantId: props.tenantId,
          owners: [deployer.objectId],
          validityHours: props.validityHours,
          renewBeforeHours: props.renewBeforeHours,
          secretDependsOn: props.secretDependsOn,
          tags: props.tags,
          preventDestroy: props.preventDestroy,
          authorityHost: props.authorityHost,
        }),
      );
    }
    this.identities = identities;
    this.managedIdentitiesJson = renderManagedIdentitiesJson(
      { name: props.keyVault.name, tenantId: props.tenantId },
      props.identities.map((spec) => ({ key: spec.key, clientId: (identities.get(spec.key) as ControlPlaneIdentity).clientId, secretName: spec.secretName })),
    );
  }
}

/**
 * Renders ControlPlaneManagedIdentities JSON: the vault first, then the components in seed 003's
 * order. The KMS principal is not one of them (HyperShift takes it as `--kms-credentials-secret-name`).
 */
export function renderManagedIdentitiesJson(
  vault: { name: string; tenantId: string },
  identities: ReadonlyArray<{ key: ControlPlanePrincipalKey; clientId: string; secretName: string }>,
): string {
  const order: readonly ControlPlanePrincipalKey[] = CONTROL_PLANE_COMPONENTS.map((c) => c.key);
  const sorted = identities.filter((i) => order.includes(i.key)).sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  // Literals are JSON-escaped; client IDs are Terraform references to UUIDs.
  const q = JSON.stringify;
  const entries = [
    `  "managedIdentitiesKeyVault": {\n    "name": ${q(vault.name)},\n    "tenantID": ${q(vault.tenantId)}\n  }`,
    ...sorted.map(
      (i) => `  "${i.key}": {\n    "clientID": "${i.clientId}",\n    "credentialsSecretName": ${q(i.secretName)},\n    "objectEncoding": "utf-8"\n  }`,
    ),
  ];
  return `{\n${entries.join(",\n")}\n}\n`;
}
