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
  | "imageRegistry"
  | "ingress"
  | "file"
  | "disk"
  | "nodePoolManagement"
  | "cloudProvider"
  | "network"
  | "controlPlaneOperator"
  | "kms";

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
    credentials: [
      { suffix: "", subject: sa("openshift-cloud-network-config-controller", "cloud-network-config-controller") },
    ],
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
