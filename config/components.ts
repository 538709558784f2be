import { BUILT_IN_ROLES, RoleDefinition } from "./azure-roles";

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

/**
 * Where a component's role is granted. Resource groups (HyperShift's `GetServicePrincipalScopes`):
 * `managed`, `nsg` and `vnet` (the groups of the NSG and VNet), `dnsZone` (the base domain's group).
 * Resources: `subnet`, `virtualNetwork`, `securityGroup`, `publicZone` (the baseDomain zone) and
 * `privateZone` (`<name>.<baseDomain>`). With the identity, the kind is the role assignment's construct ID.
 */
export type RoleScope = "managed" | "nsg" | "vnet" | "dnsZone" | "subnet" | "virtualNetwork" | "securityGroup" | "publicZone" | "privateZone";

/**
 * Which roles the hosted cluster's identities get (config `hostedCluster.roles`): `leastPrivilege`,
 * each identity's Azure Red Hat OpenShift role on the resources it acts on (Azure/ARO-HCP's
 * operator roles and resource scopes); `hypershiftDefaults`, exactly what HyperShift's
 * `--assign-identity-roles` grants (Contributor for two components, whole resource groups).
 */
export type RoleSet = "leastPrivilege" | "hypershiftDefaults";
export const ROLE_SETS: readonly RoleSet[] = ["leastPrivilege", "hypershiftDefaults"];

/** One role of a component at one kind of scope, and why the component needs it there. */
export interface RoleGrant {
  readonly role: RoleDefinition;
  readonly scope: RoleScope;
  readonly why: string;
}

export interface ComponentRole {
  /** HyperShift's component name: part of the role assignment name. */
  readonly component: string;
  /** Grants in creation order (HyperShift's order: the managed group first); one per scope kind. */
  readonly grants: readonly RoleGrant[];
}

const R = BUILT_IN_ROLES;
const at = (role: RoleDefinition, scopes: readonly RoleScope[], why: string): RoleGrant[] => scopes.map((scope) => ({ role, scope, why }));
const HYPERSHIFT = "HyperShift's default (support/azureutil GetServicePrincipalScopes)";

/**
 * What `--assign-identity-roles` grants each workload identity (notes §4:
 * support/config/constants.go, support/azureutil/azureutil.go): Contributor for the control-plane
 * operator and NodePool management (upstream TODO CNTRLPLANE-171), whole resource groups for all.
 * KMS gets none (Key Vault Crypto User on the key is KmsCryptoUser's).
 */
const HYPERSHIFT_DEFAULTS: Readonly<Partial<Record<WorkloadIdentityKey, ComponentRole>>> = {
  nodePoolManagement: { component: "capz", grants: at(R.contributor, ["managed", "vnet"], HYPERSHIFT) },
  cloudProvider: { component: "cloud-provider", grants: at(R.aroCloudControllerManager, ["managed", "nsg", "vnet"], HYPERSHIFT) },
  ingress: { component: "ingress", grants: at(R.aroIngressOperator, ["managed", "vnet", "dnsZone"], HYPERSHIFT) },
  controlPlaneOperator: { component: "cpo", grants: at(R.contributor, ["managed", "nsg", "vnet"], HYPERSHIFT) },
  file: { component: "azure-file", grants: at(R.aroFileStorageOperator, ["managed", "nsg", "vnet"], HYPERSHIFT) },
  disk: { component: "azure-disk", grants: at(R.aroDiskStorageOperator, ["managed"], HYPERSHIFT) },
  network: { component: "cncc", grants: at(R.aroNetworkOperator, ["managed", "vnet"], HYPERSHIFT) },
  imageRegistry: { component: "ciro", grants: at(R.aroImageRegistryOperator, ["managed"], HYPERSHIFT) },
};

/**
 * Least privilege: the role ARO-HCP gives each operator identity (cluster-service/deploy/values.yaml
 * `azureOperatorsMI`), on the managed group where the component creates resources, and on the
 * customer's network resources, not their groups (ARO-HCP test/e2e-setup/bicep/modules/
 * non-msi-scoped-assignments.bicep, `rbacScope: resource`). DNS records: the zones, not their groups.
 */
const LEAST_PRIVILEGE: Readonly<Partial<Record<WorkloadIdentityKey, ComponentRole>>> = {
  nodePoolManagement: {
    component: "capz",
    grants: [
      { role: R.aroHcpClusterApiProvider, scope: "managed", why: "creates the workers' VMs, NICs and disks in the managed group" },
      { role: R.aroHcpClusterApiProvider, scope: "subnet", why: "joins the workers' NICs to the subnet" },
    ],
  },
  cloudProvider: {
    component: "cloud-provider",
    grants: [
      { role: R.aroCloudControllerManager, scope: "managed", why: "creates Service load balancers and public IPs in the managed group" },
      { role: R.aroCloudControllerManager, scope: "securityGroup", why: "writes the Service rules into the NSG" },
      { role: R.aroCloudControllerManager, scope: "subnet", why: "joins internal load balancers to the subnet" },
    ],
  },
  ingress: {
    component: "ingress",
    grants: [
      { role: R.aroIngressOperator, scope: "privateZone", why: "writes the *.apps A records into the private zone" },
      { role: R.aroIngressOperator, scope: "subnet", why: "reads and joins the subnet of the router's load balancer" },
      { role: R.aroIngressOperator, scope: "publicZone", why: "writes the *.apps A records into the baseDomain zone" },
    ],
  },
  controlPlaneOperator: {
    component: "cpo",
    grants: [
      { role: R.aroHcpControlPlaneOperator, scope: "managed", why: "reads the managed group" },
      { role: R.aroHcpControlPlaneOperator, scope: "virtualNetwork", why: "reads the VNet" },
      { role: R.aroHcpControlPlaneOperator, scope: "securityGroup", why: "reads the NSG" },
    ],
  },
  file: {
    component: "azure-file",
    grants: [
      { role: R.aroFileStorageOperator, scope: "managed", why: "creates the file shares' storage accounts in the managed group" },
      { role: R.aroFileStorageOperator, scope: "securityGroup", why: "joins the NSG (NFS shares' network rules)" },
      { role: R.aroFileStorageOperator, scope: "subnet", why: "adds the storage service endpoint to the subnet" },
    ],
  },
  disk: {
    component: "azure-disk",
    grants: [{ role: R.aroDiskStorageOperator, scope: "managed", why: "creates and attaches disks and snapshots in the managed group" }],
  },
  network: {
    component: "cncc",
    grants: [
      { role: R.aroNetworkOperator, scope: "managed", why: "adds egress IPs to the workers' NICs in the managed group" },
      { role: R.aroNetworkOperator, scope: "virtualNetwork", why: "reads the VNet and joins its subnet" },
    ],
  },
  imageRegistry: {
    component: "ciro",
    grants: [{ role: R.aroImageRegistryOperator, scope: "managed", why: "creates the registry's storage account in the managed group" }],
  },
};

/**
 * The control-plane operator of a self-managed PublicAndPrivate or Private cluster also creates the
 * Private Endpoint, the private DNS zones, their VNet links and A records in the managed group
 * (control-plane-operator/controllers/azureprivatelinkservice/controller.go lists the actions; ARO HCP
 * skips that controller). No Azure Red Hat OpenShift role allows them: Network Contributor, the
 * narrowest built-in role that does, on the managed group and the VNet (endpoint in the subnet,
 * links to the VNet); the NSG stays read-only.
 */
const CONTROL_PLANE_OPERATOR_PRIVATE_LINK: ComponentRole = {
  component: "cpo",
  grants: [
    { role: R.networkContributor, scope: "managed", why: "creates the Private Endpoint and private DNS zones, links and records in the managed group" },
    { role: R.networkContributor, scope: "virtualNetwork", why: "puts the Private Endpoint in the subnet and links the zones to the VNet" },
    { role: R.aroHcpControlPlaneOperator, scope: "securityGroup", why: "reads the NSG" },
  ],
};

/**
 * The roles of a hosted cluster's control-plane components (workload identities, or with aroHcp
 * the control-plane service principals) in a role set. `privateLink`: the self-managed control-plane
 * operator reconciles Private Link (endpointAccess PublicAndPrivate or Private).
 */
export function componentRoles(set: RoleSet, options: { readonly privateLink: boolean }): Readonly<Partial<Record<WorkloadIdentityKey, ComponentRole>>> {
  if (set === "hypershiftDefaults") return HYPERSHIFT_DEFAULTS;
  return options.privateLink ? { ...LEAST_PRIVILEGE, controlPlaneOperator: CONTROL_PLANE_OPERATOR_PRIVATE_LINK } : LEAST_PRIVILEGE;
}

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
 * group only, with its `WI` component names (notes §4, ARO HCP extras). The same in both role sets:
 * the managed group is where these components create disks, shares and the registry's storage.
 */
export const DATA_PLANE_ROLES: Readonly<Record<DataPlaneIdentityKey, ComponentRole>> = {
  imageRegistry: { component: "ciroWI", grants: at(R.aroImageRegistryOperator, ["managed"], "creates the registry's storage account in the managed group") },
  disk: { component: "azure-diskWI", grants: at(R.aroDiskStorageOperator, ["managed"], "creates and attaches disks in the managed group") },
  file: { component: "azure-fileWI", grants: at(R.aroFileStorageOperator, ["managed"], "creates the file shares' storage accounts in the managed group") },
};
