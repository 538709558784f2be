import type { RoleSet, WorkloadIdentityKey } from "../components";
import type { HostedClusterConfig } from "../schema";
import type { AksNames, ControlPlaneIdentityNames, KeyVaultNames } from "./aro-hcp";
import type { KmsNames } from "./kms";
import type { NodePoolNames } from "./node-pools";
import type { EndpointAccessNames } from "./private-link";
import type { HostedRoleAssignmentNames } from "./role-assignments";

/**
 * The name types several modules of config/names/ share: a cluster's names, its identities and
 * its hosted cluster's, the topology and the deployment's DNS zone. In a module of their own, so
 * the modules that derive them import types from here and never each other (no import cycle).
 */

export interface FederatedCredentialName {
  /** `<identity>-fed-id[-<suffix>]`, as seed 004's `az identity federated-credential create`. */
  readonly name: string;
  /** `system:serviceaccount:<namespace>:<name>`. */
  readonly subject: string;
}

export interface IdentityNames {
  /** HyperShift's workloadIdentities key. */
  readonly key: WorkloadIdentityKey;
  /** `<namePrefix>-<component suffix>`. */
  readonly name: string;
  /** ARM ID of the user-assigned identity (known before it exists). */
  readonly id: string;
  readonly credentials: readonly FederatedCredentialName[];
}

export interface IssuerNames {
  /** Blob container serving the documents; the last segment of the issuer URL. */
  readonly containerName: string;
  /** Config path the container name comes from (for error messages). */
  readonly containerOrigin: string;
  /** `https://<account>.blob.core.windows.net/<container>`, no trailing slash. */
  readonly url: string;
  /** Absolute paths of the signing key pair. */
  readonly publicKeyFile: string;
  readonly privateKeyFile: string;
  /** The private key path as the config writes it (or derives it): absolute paths stay absolute in Terraform. */
  readonly privateKeyFileAsWritten: string;
  /** Config path of the key pair (for error messages). */
  readonly keyOrigin: string;
}

export interface ClusterNames {
  readonly name: string;
  /** Index in `clusters` (for error messages). */
  readonly index: number;
  /** Stack holding this cluster's managed identities (and, per-cluster mode, its issuer). */
  readonly identitiesStack: string;
  /** Prefix of identity names and the config path it comes from. */
  readonly identityPrefix: string;
  readonly identityPrefixOrigin: string;
  readonly issuer: IssuerNames;
  /** Whether the issuer belongs to this cluster alone (oidc.issuer: perCluster). */
  readonly ownsIssuer: boolean;
  /** The cluster's identities: workload identities (selfManaged), or data-plane identities and control-plane principals (aroHcp). */
  readonly identities: ClusterIdentityNames;
  /** Phase 3 names, when the cluster has `hostedCluster`. */
  readonly hosted?: HostedClusterNames;
  /**
   * `clusters[].retired`: its stacks are synthesized only to be destroyed. Constructs that protect
   * what outlives a cluster (prevent_destroy) lift the protection for a retired cluster.
   */
  readonly retired: boolean;
  /** This cluster's stacks, in destroy order: `cluster-` and `infra-` (with hosted), `identities-`. */
  readonly stacks: readonly string[];
}

/**
 * The deployment's topology (config `topology`), as one union: what exists only in one variant
 * lives in that variant, so a stack switches on `kind` instead of testing optional names.
 */
export type TopologyNames =
  /** Self-managed: HyperShift's WorkloadIdentities on an OpenShift management cluster. */
  | { readonly kind: "selfManaged" }
  /** ARO HCP style (seed 003): certificate service principals whose credentials live in a Key Vault. */
  | {
      readonly kind: "aroHcp";
      /** The Key Vault of the control-plane credentials (persistent group). */
      readonly keyVault: KeyVaultNames;
      /** The AKS management cluster, when managementCluster is configured. */
      readonly aks?: AksNames;
    };

/** One cluster's identities, by topology. */
export type ClusterIdentityNames =
  | {
      readonly kind: "selfManaged";
      /** HyperShift's workloadIdentities: managed identities with federated credentials (identities-<cluster>). */
      readonly workloadIdentities: readonly IdentityNames[];
    }
  | {
      readonly kind: "aroHcp";
      /** The data-plane managed identities with federated credentials (identities-<cluster>). */
      readonly dataPlaneIdentities: readonly IdentityNames[];
      /** The control-plane certificate service principals (shared stack). */
      readonly controlPlanePrincipals: readonly ControlPlaneIdentityNames[];
      /** The Key Vault holding the principals' credentials secrets (the deployment's one vault). */
      readonly keyVault: KeyVaultNames;
    };

export interface DnsNames {
  /** The public zone in the persistent resource group. */
  readonly zoneName: string;
  /** Config path the zone name comes from (for error messages). */
  readonly zoneOrigin: string;
  /** The delegating parent zone, when configured. */
  readonly parent?: {
    readonly zoneName: string;
    readonly resourceGroupName: string;
    readonly subscriptionId: string;
  };
}

/** A resource group of a hosted cluster: created by its infra stack, or not (`create: false`). */
export interface ResourceGroupNames {
  readonly name: string;
  readonly id: string;
  /** Whether the infra stack creates it (false for groups of existing resources). */
  readonly create: boolean;
  /** Config path of the name (for error messages). */
  readonly origin: string;
}

/** A network resource of a hosted cluster: created in `resourceGroup`, or existing (`create: false`). */
export interface NetworkResourceNames {
  readonly name: string;
  readonly id: string;
  readonly resourceGroup: string;
  readonly create: boolean;
  readonly origin: string;
}

/** Phase 3 names of one hosted cluster (present when the cluster has `hostedCluster`). */
export interface HostedClusterNames {
  /** The validated `hostedCluster` block these names derive from: with them, one resolved object per hosted cluster. */
  readonly config: HostedClusterConfig;
  /** Azure infrastructure stack: `infra-<cluster>`. */
  readonly infraStack: string;
  /** HostedCluster stack on the management cluster: `cluster-<cluster>`. */
  readonly clusterStack: string;
  readonly infraId: string;
  readonly infraIdOrigin: string;
  /** Namespace of the HostedCluster and its secrets. */
  readonly namespace: string;
  /** Where HyperShift runs the control plane: `<namespace>-<name>`. */
  readonly controlPlaneNamespace: string;
  readonly resourceGroups: {
    readonly managed: ResourceGroupNames;
    readonly vnet: ResourceGroupNames;
    readonly nsg: ResourceGroupNames;
  };
  readonly vnet: NetworkResourceNames;
  readonly subnet: NetworkResourceNames;
  readonly nsg: NetworkResourceNames;
  /** `<name>.<baseDomain>` in the managed group, linked to the VNet. */
  readonly privateZone: { readonly name: string; readonly id: string; readonly linkName: string };
  /** The existing public zone named baseDomain. */
  readonly publicZone: { readonly name: string; readonly id: string; readonly resourceGroupName: string; readonly resourceGroupId: string };
  /** Egress public IP and load balancer (and its frontend, pool, probe, outbound rule): all `<infraID>`. */
  readonly loadBalancer: { readonly name: string };
  /** Secret names as `hypershift create cluster azure --render` writes them. */
  readonly secrets: {
    readonly pullSecret: string;
    readonly sshKey: string;
    readonly signingKey: string;
    readonly etcdEncryptionKey: string;
    readonly cloudCredentials: string;
    /** Written by HyperShift (key `kubeconfig`) once the API server is up; status.kubeconfig names it. */
    readonly adminKubeconfig: string;
  };
  /**
   * ConfigMap of the additional trust bundle: `<name>-user-ca-bundle`. The CLI names it
   * `user-ca-bundle` in every cluster; per cluster here, so two clusters in one namespace do not
   * overwrite each other's (HyperShift reads whichever ConfigMap spec.additionalTrustBundle names).
   */
  readonly trustBundleConfigMap: string;
  readonly files: { readonly pullSecretFile: string; readonly sshPublicKeyFile?: string; readonly additionalTrustBundleFile?: string };
  /** The ExternalDNS zone the Routes are named in, when this cluster uses ExternalDNS. */
  readonly externalDnsDomain?: string;
  /** Which roles the identities get (`hostedCluster.roles`, resolved). */
  readonly roleSet: RoleSet;
  /** Role assignments of the cluster's identities, by topology, each list deduplicated (same name = same assignment). */
  readonly roleAssignments: HostedRoleAssignmentNames;
  /** Public, or private endpoint access over Private Link with its NAT subnet. */
  readonly endpointAccess: EndpointAccessNames;
  /** The NodePool objects, in config order: a pool with availabilityZones gives one per zone. */
  readonly nodePools: readonly NodePoolNames[];
  /** The etcd encryption key (`kms`); undefined for AES-CBC. */
  readonly kms?: KmsNames;
}
