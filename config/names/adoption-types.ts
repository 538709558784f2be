import type { RoleScope, WorkloadIdentityKey } from "../components";
import type { ClusterNames, DnsNames } from "./types";

/**
 * What adoption imports, stack by stack (config/names/adoption.ts derives them): each existing
 * object by what it is, never by where a construct keeps its resource.
 */

/** One existing object to take over: its import ID, and the command of the guide that made it. */
export interface AdoptedResource {
  /** The Terraform resource type the import ID is for. */
  readonly type: string;
  /** Import ID, in the provider's documented format. */
  readonly id: string;
  /** The guide's command that made it (help/adopt.md's table). */
  readonly madeBy: string;
}

/** A named object among several of one kind (a federated credential, a blob, a role assignment by its own name). */
export interface AdoptedNamedResource {
  readonly name: string;
  readonly resource: AdoptedResource;
}

/** Phase 1 in the shared stack: the persistent group, ccoctl's issuer, the DNS zone and the ExternalDNS principal. */
export interface SharedStackImports {
  readonly kind: "shared";
  readonly persistentResourceGroup?: AdoptedResource;
  readonly oidcStorageAccount: AdoptedResource;
  /** ccoctl's container and its documents (blobs by name), with the shared issuer. */
  readonly oidcIssuer?: { readonly container: AdoptedResource; readonly documents: readonly AdoptedNamedResource[] };
  readonly dnsZone?: { readonly zone: AdoptedResource; readonly delegation?: AdoptedResource };
  /** The application, its service principal and az's role assignments (by their names). */
  readonly externalDns?: {
    readonly application: AdoptedResource;
    readonly servicePrincipal: AdoptedResource;
    readonly roleAssignments: readonly AdoptedNamedResource[];
  };
}

/** Phase 1 steps 1 and 4 in a cluster's identities stack: the guide's identities and their federated credentials (by name). */
export interface IdentitiesStackImports {
  readonly kind: "identities";
  readonly identities: ReadonlyArray<{
    readonly key: WorkloadIdentityKey;
    readonly identity: AdoptedResource;
    readonly federatedCredentials: readonly AdoptedNamedResource[];
  }>;
}

/** Phase 3 in a cluster's infra stack: groups, network, private zone, egress and HyperShift's role assignments. */
export interface InfraStackImports {
  readonly kind: "infra";
  readonly resourceGroups: Partial<Record<"managed" | "vnet" | "nsg", AdoptedResource>>;
  readonly network: {
    readonly securityGroup?: AdoptedResource;
    readonly virtualNetwork?: AdoptedResource;
    readonly subnet?: AdoptedResource;
    /** The subnet's NSG association (`az network vnet create --nsg`). */
    readonly subnetSecurityGroup?: AdoptedResource;
  };
  readonly privateDnsZone: { readonly zone: AdoptedResource; readonly vnetLink: AdoptedResource };
  readonly egressLoadBalancer: {
    readonly publicIp: AdoptedResource;
    readonly loadBalancer: AdoptedResource;
    readonly backendAddressPool: AdoptedResource;
    readonly probe: AdoptedResource;
    readonly outboundRule: AdoptedResource;
  };
  /** The workload identities' role assignments, by identity and scope. */
  readonly roleAssignments: ReadonlyArray<{
    readonly identity: WorkloadIdentityKey;
    readonly scopeKind: RoleScope;
    /** A grant that is not the identity's own component's (role-assignments.ts). */
    readonly grant?: string;
    readonly resource: AdoptedResource;
  }>;
}

/** The Secrets `hypershift create cluster azure` wrote under the names the cluster stack gives its own. */
export type AdoptedSecretKey = "pullSecret" | "sshKey" | "signingKey" | "etcdEncryptionKey" | "cloudCredentials";

/**
 * Phase 3 step 2 in a cluster's cluster stack: the Kubernetes objects `hypershift create cluster
 * azure` applied (cmd/cluster/core/create.go, cmd/cluster/azure/create.go).
 */
export interface ClusterStackImports {
  readonly kind: "cluster";
  readonly hostedCluster: AdoptedResource;
  /** The NodePool the CLI made, by its name (the cluster's), when the config has a pool of that name. */
  readonly nodePools: readonly AdoptedNamedResource[];
  readonly secrets: Readonly<Record<AdoptedSecretKey, AdoptedResource>>;
}

/** What one stack imports, by the kind of stack. */
export type StackImports = SharedStackImports | IdentitiesStackImports | InfraStackImports | ClusterStackImports;

export interface AdoptionBasis {
  readonly resourceGroup: { readonly name: string; readonly id: string };
  readonly storageAccount: { readonly name: string; readonly id: string; readonly blobEndpoint: string };
  readonly sharedContainer?: string;
  readonly sharedStack: string;
  readonly dns?: DnsNames;
  readonly clusters: readonly ClusterNames[];
}
