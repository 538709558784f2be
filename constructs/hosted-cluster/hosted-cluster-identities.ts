import { ControlPlaneIdentityKey, DataPlaneIdentityKey, WorkloadIdentityKey } from "../../config/components";

/**
 * How a HostedCluster authenticates to Azure (`spec.platform.azure.azureAuthenticationConfig`), by
 * topology: self-managed WorkloadIdentities (client IDs of federated managed identities), or ARO
 * HCP-style ManagedIdentities (cmd/cluster/azure/create.go).
 */

/** The identities HyperShift requires in `workloadIdentities` (the KMS one goes elsewhere, §2.2). */
export type RequiredWorkloadIdentity = Exclude<WorkloadIdentityKey, "controlPlaneOperator" | "kms">;

/** Client ID (a UUID, or a Terraform reference to one) of each workload identity. */
export type WorkloadIdentityClientIds = Readonly<Record<RequiredWorkloadIdentity, string>> & {
  /** Only when the cluster has the control-plane-operator identity. @default - omitted */
  readonly controlPlaneOperator?: string;
};

/** The required workload identities, in the order the CLI writes them. */
export const REQUIRED_WORKLOAD_IDENTITIES: readonly RequiredWorkloadIdentity[] = [
  "imageRegistry",
  "ingress",
  "file",
  "disk",
  "nodePoolManagement",
  "cloudProvider",
  "network",
];

/**
 * ARO HCP-style identities (ManagedIdentities): certificate service principals whose credentials
 * HyperShift mounts from Key Vault, and federated data-plane managed identities.
 */
export interface ManagedIdentitiesInput {
  /** The Key Vault holding the credentials secrets (`managedIdentitiesKeyVault`). */
  readonly keyVault: { readonly name: string; readonly tenantId: string };
  /** Per control-plane component: client ID (UUID or Terraform reference) and Key Vault secret name. */
  readonly controlPlane: Readonly<Record<ControlPlaneIdentityKey, { readonly clientId: string; readonly secretName: string }>>;
  /** Client IDs of the data-plane identities. */
  readonly dataPlane: Readonly<Record<DataPlaneIdentityKey, string>>;
}

/** The cluster's Azure identities: workload identities (self-managed) or managed identities (ARO HCP style). */
export type HostedClusterIdentities =
  { readonly kind: "workloadIdentities"; readonly clientIds: WorkloadIdentityClientIds } | ({ readonly kind: "managedIdentities" } & ManagedIdentitiesInput);

/**
 * Pod Security admission level HyperShift puts on the control-plane namespace of an ARO
 * HCP-style cluster (its AKS scripts pass it: contrib/managed-azure/create_basic_hosted_cluster.sh);
 * HyperShift's default is restricted.
 */
export const ARO_HCP_ANNOTATIONS = { "hypershift.openshift.io/pod-security-admission-label-override": "baseline" } as const;

/** `azureAuthenticationConfig` of the identities, as the CLI writes it. */
export function azureAuthenticationConfig(identities: HostedClusterIdentities): Record<string, unknown> {
  if (identities.kind === "managedIdentities") {
    const controlPlane: Record<string, unknown> = { managedIdentitiesKeyVault: { name: identities.keyVault.name, tenantID: identities.keyVault.tenantId } };
    for (const [key, identity] of Object.entries(identities.controlPlane)) {
      // The CLI forces utf-8: the secret is the JSON text itself. The CRD has no default.
      controlPlane[key] = { clientID: identity.clientId, credentialsSecretName: identity.secretName, objectEncoding: "utf-8" };
    }
    return {
      azureAuthenticationConfigType: "ManagedIdentities",
      managedIdentities: {
        controlPlane,
        dataPlane: {
          imageRegistryMSIClientID: identities.dataPlane.imageRegistry,
          diskMSIClientID: identities.dataPlane.disk,
          fileMSIClientID: identities.dataPlane.file,
        },
      },
    };
  }
  const clientIds = identities.clientIds;
  const workloadIdentities: Record<string, { clientID: string }> = {};
  for (const key of REQUIRED_WORKLOAD_IDENTITIES) workloadIdentities[key] = { clientID: clientIds[key] };
  if (clientIds.controlPlaneOperator !== undefined) workloadIdentities.controlPlaneOperator = { clientID: clientIds.controlPlaneOperator };
  return { azureAuthenticationConfigType: "WorkloadIdentities", workloadIdentities };
}
