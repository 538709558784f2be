/**
 * The OpenShift components that authenticate to Azure with workload identity, in the order of
 * `workload-identities.json` (seed 004, Phase 1 step 2).
 *
 * Identity suffixes and credential names follow seed 004 (`<cluster>-<suffix>`,
 * `<identity>-fed-id[-<credential>]`); subjects and the `openshift` audience are HyperShift's
 * (`cmd/infra/azure/identities.go`, notes §5). The control-plane-operator and KMS identities exist
 * only in HyperShift's `create iam azure`, so they are opt-in and named in the seed's style.
 */
export interface CredentialSpec {
  /** Credential name suffix after `<identity>-fed-id`; empty for the identity's only credential. */
  readonly suffix: string;
  /** Kubernetes service account in the hosted cluster: `system:serviceaccount:<ns>:<sa>`. */
  readonly subject: string;
}

export interface ComponentSpec {
  /** Key in HyperShift's `workloadIdentities` (and in workload-identities.json). */
  readonly key: WorkloadIdentityKey;
  /** Identity name suffix: the identity is `<prefix>-<suffix>`. */
  readonly suffix: string;
  /** Whether the component is created only on request (config `identities.<key>: true`). */
  readonly optional: boolean;
  readonly credentials: readonly CredentialSpec[];
}

export type WorkloadIdentityKey =
  "imageRegistry" | "ingress" | "file" | "disk" | "nodePoolManagement" | "cloudProvider" | "network" | "controlPlaneOperator" | "kms";

/** Audience of every federated credential: HyperShift's token minter requests `openshift`. */
export const WORKLOAD_IDENTITY_AUDIENCE = "openshift";

const sa = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;
const CSI = "openshift-cluster-csi-drivers";

export const WORKLOAD_IDENTITY_COMPONENTS: readonly ComponentSpec[] = [
  {
    key: "imageRegistry",
    suffix: "image-registry",
    optional: false,
    credentials: [
      { suffix: "registry", subject: sa("openshift-image-registry", "registry") },
      { suffix: "operator", subject: sa("openshift-image-registry", "cluster-image-registry-operator") },
    ],
  },
  {
    key: "ingress",
    suffix: "ingress",
    optional: false,
    credentials: [{ suffix: "", subject: sa("openshift-ingress-operator", "ingress-operator") }],
  },
  {
    key: "file",
    suffix: "file-csi",
    optional: false,
    credentials: [
      { suffix: "node", subject: sa(CSI, "azure-file-csi-driver-node-sa") },
      { suffix: "operator", subject: sa(CSI, "azure-file-csi-driver-operator") },
      { suffix: "controller", subject: sa(CSI, "azure-file-csi-driver-controller-sa") },
    ],
  },
  {
    key: "disk",
    suffix: "disk-csi",
    optional: false,
    credentials: [
      { suffix: "node", subject: sa(CSI, "azure-disk-csi-driver-node-sa") },
      { suffix: "operator", subject: sa(CSI, "azure-disk-csi-driver-operator") },
      { suffix: "controller", subject: sa(CSI, "azure-disk-csi-driver-controller-sa") },
    ],
  },
  {
    key: "nodePoolManagement",
    suffix: "nodepool-mgmt",
    optional: false,
    credentials: [{ suffix: "", subject: sa("kube-system", "capi-provider") }],
  },
  {
    key: "cloudProvider",
    suffix: "cloud-provider",
    optional: false,
    credentials: [{ suffix: "", subject: sa("kube-system", "azure-cloud-provider") }],
  },
  {
    key: "network",
    suffix: "network",
    optional: false,
    credentials: [{ suffix: "", subject: sa("openshift-cloud-network-config-controller", "cloud-network-config-controller") }],
  },
  {
    key: "controlPlaneOperator",
    suffix: "control-plane-operator",
    optional: true,
    credentials: [{ suffix: "", subject: sa("kube-system", "control-plane-operator") }],
  },
  {
    key: "kms",
    suffix: "kms",
    optional: true,
    credentials: [{ suffix: "", subject: sa("kube-system", "kms-provider") }],
  },
];

/** Resource groups a component's role is granted on (HyperShift `GetServicePrincipalScopes`). */
export type RoleScope = "managed" | "nsg" | "vnet" | "dnsZone";

export interface ComponentRole {
  /** HyperShift's component name: part of the role assignment name. */
  readonly component: string;
  /** Role definition GUID (built-in; same in every tenant). */
  readonly roleGuid: string;
  /** Role display name, for docs and messages. */
  readonly roleName: string;
  /** Scopes in HyperShift's order (always the managed group first). */
  readonly scopes: readonly RoleScope[];
}

/**
 * What `--assign-service-principal-roles` grants each workload identity (notes §4:
 * support/config/constants.go, support/azureutil/azureutil.go). KMS gets none (Key Vault Crypto
 * User on the vault is granted by hand, as HyperShift's docs say).
 */
export const COMPONENT_ROLES: Readonly<Partial<Record<WorkloadIdentityKey, ComponentRole>>> = {
  nodePoolManagement: { component: "capz", roleGuid: "b24988ac-6180-42a0-ab88-20f7382dd24c", roleName: "Contributor", scopes: ["managed", "vnet"] },
  cloudProvider: {
    component: "cloud-provider",
    roleGuid: "a1f96423-95ce-4224-ab27-4e3dc72facd4",
    roleName: "Azure Red Hat OpenShift Cloud Controller Manager",
    scopes: ["managed", "nsg", "vnet"],
  },
  ingress: {
    component: "ingress",
    roleGuid: "0336e1d3-7a87-462b-b6db-342b63f7802c",
    roleName: "Azure Red Hat OpenShift Cluster Ingress Operator",
    scopes: ["managed", "vnet", "dnsZone"],
  },
  controlPlaneOperator: { component: "cpo", roleGuid: "b24988ac-6180-42a0-ab88-20f7382dd24c", roleName: "Contributor", scopes: ["managed", "nsg", "vnet"] },
  file: {
    component: "azure-file",
    roleGuid: "0d7aedc0-15fd-4a67-a412-efad370c947e",
    roleName: "Azure Red Hat OpenShift File Storage Operator",
    scopes: ["managed", "nsg", "vnet"],
  },
  disk: {
    component: "azure-disk",
    roleGuid: "5b7237c5-45e1-49d6-bc18-a1f62f400748",
    roleName: "Azure Red Hat OpenShift Disk Storage Operator",
    scopes: ["managed"],
  },
  network: {
    component: "cncc",
    roleGuid: "be7a6435-15ae-4171-8f30-4a343eff9e8f",
    roleName: "Azure Red Hat OpenShift Network Operator",
    scopes: ["managed", "vnet"],
  },
  imageRegistry: {
    component: "ciro",
    roleGuid: "8b32b316-c2f5-4ddf-b05b-83dacd2d08b5",
    roleName: "Azure Red Hat OpenShift Image Registry Operator",
    scopes: ["managed"],
  },
};

/**
 * ARO HCP-style control-plane identities (seed 003): one Entra application and service principal
 * per component, authenticated by a certificate whose credentials JSON HyperShift mounts from Key
 * Vault. Keys are HyperShift's `managedIdentities.controlPlane` keys, in the seed's order; suffixes
 * are seed 003's Key Vault secret names (`<name>-<suffix>`). The control-plane operator is always
 * present here (HyperShift's AssignControlPlaneRoles always includes it).
 */
export type ControlPlaneIdentityKey = Exclude<WorkloadIdentityKey, "kms">;

/**
 * Key of an ARO HCP-style certificate service principal: a control-plane component, or `kms` (the
 * identity of etcd encryption with a Key Vault key, `hostedCluster.kms`), which HyperShift takes
 * as `secretEncryption.kms.azure.kms` rather than in `managedIdentities.controlPlane`
 * (`--kms-credentials-secret-name`, notes §2.1).
 */
export type ControlPlanePrincipalKey = ControlPlaneIdentityKey | "kms";

export const CONTROL_PLANE_COMPONENTS: ReadonlyArray<{ readonly key: ControlPlaneIdentityKey; readonly suffix: string }> = [
  { key: "cloudProvider", suffix: "cloud-provider" },
  { key: "nodePoolManagement", suffix: "nodepool-mgmt" },
  { key: "controlPlaneOperator", suffix: "cpo" },
  { key: "imageRegistry", suffix: "image-registry" },
  { key: "ingress", suffix: "ingress" },
  { key: "network", suffix: "network" },
  { key: "disk", suffix: "disk" },
  { key: "file", suffix: "file" },
];

/** The data-plane identities HyperShift's ManagedIdentities mode takes (`dataPlane.<key>MSIClientID`). */
export type DataPlaneIdentityKey = Extract<WorkloadIdentityKey, "imageRegistry" | "disk" | "file">;

/**
 * Data-plane (worker-side) managed identities of the ARO HCP-style topology. Their federated
 * credentials are the self-managed ones of the same components: the union of HyperShift's dev
 * script (node-sa, node-sa, registry: contrib/managed-azure/setup_dataplane_identities.sh) and
 * ARO-HCP's production list (operators, controller-sa), notes §5; names get `dp-` so they never
 * meet a self-managed identity of the same cluster.
 */
export const DATA_PLANE_COMPONENTS: readonly ComponentSpec[] = (["imageRegistry", "disk", "file"] as const).map((key) => {
  const spec = WORKLOAD_IDENTITY_COMPONENTS.find((c) => c.key === key) as ComponentSpec;
  return { ...spec, suffix: `dp-${spec.suffix.replace(/-csi$/, "")}`, optional: false };
});

/**
 * Roles of the data-plane identities: HyperShift's AssignDataPlaneRoles, on the managed resource
 * group only, with its `WI` component names (notes §4, ARO HCP extras).
 */
export const DATA_PLANE_ROLES: Readonly<Record<DataPlaneIdentityKey, ComponentRole>> = {
  imageRegistry: {
    component: "ciroWI",
    roleGuid: "8b32b316-c2f5-4ddf-b05b-83dacd2d08b5",
    roleName: "Azure Red Hat OpenShift Image Registry Operator",
    scopes: ["managed"],
  },
  disk: {
    component: "azure-diskWI",
    roleGuid: "5b7237c5-45e1-49d6-bc18-a1f62f400748",
    roleName: "Azure Red Hat OpenShift Disk Storage Operator",
    scopes: ["managed"],
  },
  file: {
    component: "azure-fileWI",
    roleGuid: "0d7aedc0-15fd-4a67-a412-efad370c947e",
    roleName: "Azure Red Hat OpenShift File Storage Operator",
    scopes: ["managed"],
  },
};
