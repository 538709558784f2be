import { z } from "zod";
import { filePath } from "./schema-files";
import { scalarAsText } from "./yaml-scalars";
import { AZURE_NAME_RULES, azureName, TAG_RULES } from "./azure-rules";
import { adoptSchema, clusterAdoptSchema } from "./schema-adopt";
import { AZURE_CLOUDS } from "./cloud";
import { aksSchema, aroHcpSchema } from "./schema-aro-hcp";
import { hostedClusterOptions } from "./schema-hosted-options";
import { kmsSchema } from "./schema-kms";

/**
 * The deployment config file, validated once here. Field rules live in the schema; rules that
 * span fields or apply to derived names live in `rules/`. Descriptions feed the published JSON
 * Schema (editor completion) and must agree with help/configuration.md (a test checks the keys).
 */

const guid = (what: string) =>
  z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    error: `must be a UUID like 00000000-0000-0000-0000-000000000000 (${what})`,
  });

export const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;

const tags = z
  .record(z.string(), z.string())
  .superRefine((value, ctx) => {
    const entries = Object.entries(value);
    if (entries.length > TAG_RULES.maxTags) {
      ctx.addIssue({ code: "custom", message: `has ${entries.length} tags; Azure allows at most ${TAG_RULES.maxTags}` });
    }
    for (const [name, tagValue] of entries) {
      if (name.length === 0 || name.length > TAG_RULES.maxNameLength || TAG_RULES.forbiddenNameCharacters.test(name)) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          input: name,
          message: `tag name must be 1-${TAG_RULES.maxNameLength} characters without < > * % & : \\ ? / +`,
        });
      }
      // eslint-disable-next-line no-control-regex
      const control = /[\u0000-\u001f\u007f]/;
      if (control.test(name) || control.test(tagValue)) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          input: control.test(name) ? name : tagValue,
          message: `tag ${control.test(name) ? "name" : "value"} has a control character (tab, line break, NUL...); Azure tags are one line of printable text`,
        });
      }
      if (tagValue.length > TAG_RULES.maxValueLength) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          input: tagValue,
          message: `tag value must be at most ${TAG_RULES.maxValueLength} characters`,
        });
      }
    }
  })
  .describe("Azure tags applied to every resource that takes tags.");

/** The client secret of a service principal this deployment creates (ExternalDNS, Private Link). */
const clientSecret = (whose: string) =>
  z
    .strictObject({
      endDate: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, {
          error: "must be an RFC 3339 time such as 2027-06-30T00:00:00Z",
        })
        .optional()
        .describe("Absolute expiry of the client secret (RFC 3339). Not together with validFor."),
      validFor: z
        .string()
        .regex(/^[1-9]\d*h$/, { error: "must be a whole number of hours such as 8760h" })
        .optional()
        .describe("Lifetime of the client secret from its creation, in hours. Default: 8760h (one year) unless endDate is set."),
      rotation: z.string().optional().describe("Any value; changing it replaces the client secret (rotation). Default: none."),
    })
    .default({})
    .describe(`Client secret of ${whose}.`);

const signingKey = z
  .strictObject({
    publicKeyFile: filePath().describe(
      "PEM public key (SPKI, ccoctl's serviceaccount-signer.public), relative to the config file. Read at synth to publish the JWKS.",
    ),
    privateKeyFile: filePath()
      .optional()
      .describe(
        "PEM private key (PKCS#1, ccoctl's serviceaccount-signer.private), relative to the config file. Never read at synth; later stacks read it at plan time. Default: publicKeyFile with .public replaced by .private.",
      ),
    previousPublicKeyFiles: z
      .array(filePath())
      .optional()
      .describe(
        "Public keys still published in the JWKS beside publicKeyFile during a signing-key rotation: tokens signed with them keep verifying until the clusters sign with the new key and their old tokens have expired (help/oidc-issuer.md#rotating-the-signing-key). Default: none.",
      ),
  })
  .describe("Service-account signing key pair of the hosted clusters' kube-apiserver.");

/** IPv4 CIDR; the address/prefix consistency and overlaps are checked in rules/hosted-cluster.ts. */
const cidr = (what: string) =>
  z.string().regex(/^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\/([0-9]|[12]\d|3[0-2])$/, {
    error: `must be an IPv4 CIDR such as 10.0.0.0/16 (${what})`,
  });

const kubernetesName = (what: string) =>
  z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, {
    error: `must be 1-63 lowercase letters, digits or '-', starting and ending with a letter or digit (${what})`,
  });

/** A full ARM ID of a resource type; the subscription is checked against the config in rules/hosted-cluster.ts. */
const armId = (type: string, example: string) =>
  z.string().regex(new RegExp(`^/subscriptions/[0-9a-fA-F-]{36}/resourceGroups/[-\\w.()]{1,90}/providers/${type.replace(/\./g, "\\.")}$`), {
    error: `must be a full ARM ID like ${example}`,
  });

/** The tags of quay.io/openshift-release-dev/ocp-release: `<x.y.z>[-<pre>]-<arch>`, arches as config/release-version.ts. */
const OCP_RELEASE_TAG = /^\d+\.\d+\.\d+(-[0-9A-Za-z]+(\.[0-9A-Za-z]+)*)?-(x86_64|aarch64|ppc64le|s390x|multi)$/;

/** An OpenShift release image reference with a tag or digest (HyperShift needs an exact release). */
const releaseImage = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)+(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$/, {
    error: "must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64 (registry/repository with a tag or @sha256 digest)",
  })
  .refine((image) => /(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|@sha256:[a-f0-9]{64})$/.test(image.replace(/^[^/]*\//, "")), {
    error: "must name a tag or an @sha256 digest (HyperShift needs an exact release)",
  })
  .refine(
    (image) => !/^quay\.io\/openshift-release-dev\/ocp-release:/.test(image) || image.includes("@") || OCP_RELEASE_TAG.test(image.split(":").pop() as string),
    {
      error:
        "names a tag that quay.io/openshift-release-dev/ocp-release does not publish: its tags are <x.y.z>[-<pre>]-<arch> with arch x86_64, aarch64, ppc64le, s390x or multi (e.g. 4.21.0-x86_64), or give an @sha256 digest; HyperShift would refuse it only after the cluster stack waited",
    },
  );

/** A Go duration as metav1.Duration parses it (`time.ParseDuration`), not negative: 0, 90s, 1h30m, 1.5h. */
export const GO_DURATION = /^(0|((\d+(\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;
const goDuration = (what: string) =>
  z
    .string()
    .regex(GO_DURATION, { error: `must be a Go duration such as 0s, 10m or 1h30m (${what})` })
    .default("0s");

/** Default VM size per architecture, as `create nodepool azure` without --instance-type (cmd/nodepool/azure/create.go). */
export const DEFAULT_VM_SIZE = { amd64: "Standard_D4s_v5", arm64: "Standard_D4ps_v5" } as const;

const nodePool = z
  .strictObject({
    name: kubernetesName("NodePool name").describe("NodePool name (metadata.name), unique in the cluster's namespace."),
    replicas: z
      .number()
      .int()
      .min(0, { error: "must be 0 or more" })
      .optional()
      .describe("Number of worker VMs. Default: 2 without autoscaling; not allowed with autoscaling."),
    autoscaling: z
      .strictObject({
        min: z.number().int().min(0, { error: "must be 0 or more" }).describe("Fewest workers (0 only with the operator's scale-from-zero on Azure)."),
        max: z.number().int().min(1, { error: "must be 1 or more" }).describe("Most workers; at least min."),
      })
      .superRefine((a, ctx) => {
        if (a.max < a.min)
          ctx.addIssue({ code: "custom", path: ["max"], input: a.max, message: `must be equal or greater than min ${a.min} (the NodePool CRD rule)` });
      })
      .optional()
      .describe("Let the cluster autoscaler size the NodePool between min and max (spec.autoScaling) instead of fixed replicas. Default: none."),
    arch: z
      .enum(["amd64", "arm64"])
      .default("amd64")
      .describe("CPU architecture of the workers (--arch); immutable. arm64 needs an arm64 VM size (a 'p' size such as Standard_D4ps_v5)."),
    autoRepair: z.boolean().default(false).describe("Replace unhealthy workers (a MachineHealthCheck, --auto-repair)."),
    upgradeType: z
      .enum(["Replace", "InPlace"])
      .default("Replace")
      .describe("How workers are upgraded (--node-upgrade-type): Replace (new VMs) or InPlace; immutable."),
    nodeDrainTimeout: goDuration("node drain timeout").describe("How long a worker is drained before it is removed anyway (Go duration; 0s: wait forever)."),
    nodeVolumeDetachTimeout: goDuration("volume detach timeout").describe(
      "How long volumes may take to detach from a removed worker (Go duration; 0s: wait forever).",
    ),
    pausedUntil: scalarAsText(
      z
        .string()
        .max(35, { error: "must be at most 35 characters (the CRD's limit)" })
        .regex(/^(true|false|True|False|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))$/, {
          error: "must be true, false or an RFC 3339 time such as 2027-01-31T00:00:00Z (as --pausedUntil and the CRD)",
        }),
    )
      .optional()
      .describe("Pause reconciling the NodePool: true (until removed) or until an RFC 3339 time. Default: not paused."),
    releaseImage: releaseImage
      .optional()
      .describe(
        "The NodePool's own release image, to upgrade its workers after the control plane: at most the HostedCluster's version and at most 3 minor versions older. Default: hostedCluster.releaseImage.",
      ),
    subnetId: armId(
      "Microsoft.Network/virtualNetworks/[^/]+/subnets/[^/]+",
      "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
    )
      .optional()
      .describe("Subnet of the workers (--nodepool-subnet-id), in the cluster's VNet; immutable. Default: the cluster's subnet."),
    vmSize: z
      .string()
      .regex(/^(Standard_|Basic_)?[A-Z]+[0-9]+(-[0-9]+)?[abdilmptsCNP]*(_[A-Z]*[0-9]+[A-Z]*)?(_v[0-9]+)?$/, {
        error: "must be an Azure VM size such as Standard_D4s_v5 (the NodePool CRD pattern)",
      })
      .optional()
      .describe("Azure VM size of the workers. Default: Standard_D4s_v5 (amd64) or Standard_D4ps_v5 (arm64), as the CLI."),
    osDisk: z
      .strictObject({
        sizeGiB: z.number().int().min(16).max(32767).default(120).describe("OS disk size in GiB (16-32767)."),
        storageAccountType: z
          .enum(["Premium_LRS", "PremiumV2_LRS", "Standard_LRS", "StandardSSD_LRS"])
          .default("Premium_LRS")
          .describe("OS disk storage type."),
        persistence: z
          .enum(["Persistent", "Ephemeral"])
          .optional()
          .describe(
            "Ephemeral: the OS disk lives on the VM's local cache, temp or NVMe disk (--enable-ephemeral-disk); the VM size must have one at least sizeGiB large, at most 2040 GiB. Default: not set (a persistent managed disk).",
          ),
        diskEncryptionSetId: z
          .string()
          .max(285, { error: "must be at most 285 characters" })
          .regex(
            /^\/subscriptions\/[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\/resourceGroups\/[-\w.()]{0,89}[-\w()]\/providers\/Microsoft\.Compute\/diskEncryptionSets\/[-\w]{1,80}$/,
            {
              error: "must be a disk encryption set ARM ID like /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/diskEncryptionSets/<name>",
            },
          )
          .optional()
          .describe(
            "Disk encryption set of the OS disks (--disk-encryption-set-id), in the cluster's subscription and location. The infra stack grants the nodePoolManagement and disk identities Reader on it. Default: platform-managed keys.",
          ),
      })
      .default({ sizeGiB: 120, storageAccountType: "Premium_LRS" })
      .describe("OS disk of the workers (as `hypershift create cluster azure` writes it)."),
    diagnostics: z
      .enum(["Managed", "Disabled", "UserManaged"])
      .default("Managed")
      .describe("Boot diagnostics storage: Managed (Azure-managed storage), Disabled, or UserManaged (your storage account, diagnosticsStorageAccountUri)."),
    diagnosticsStorageAccountUri: z
      // The CRD's CEL: isURL(self) && url(self).getScheme() == 'https'.
      .string()
      .regex(/^https:\/\/\S+$/, { error: "must be an https URL such as https://mydiagnostics.blob.core.windows.net/" })
      .refine((uri) => URL.canParse(uri), { error: "must be a valid URL such as https://mydiagnostics.blob.core.windows.net/" })
      .max(1024, { error: "must be at most 1024 characters" })
      .optional()
      .describe("Blob endpoint of the boot diagnostics storage account; required with diagnostics: UserManaged, and only then."),
    imageId: z
      .string()
      .max(255, { error: "must be at most 255 characters (the NodePool CRD limit)" })
      .regex(
        /^\/subscriptions\/[0-9a-fA-F-]{36}\/resourceGroups\/[-\w.()]{1,90}\/providers\/Microsoft\.Compute\/(images\/[^/]+|galleries\/[^/]+\/images\/[^/]+(\/versions\/[^/]+)?)$/,
        {
          error:
            "must be the ARM ID of a managed image or an Azure Compute Gallery image (version), /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/images/<name>",
        },
      )
      .optional()
      .describe("Boot image by ARM ID (image type ImageID) instead of a marketplace image. Default: a marketplace image."),
    imageGeneration: z.enum(["Gen1", "Gen2"]).default("Gen2").describe("Hyper-V generation of the marketplace image (case-sensitive)."),
    marketplace: z
      .strictObject({
        publisher: z
          .string()
          .regex(/^[a-z0-9][a-z0-9-_]{2,49}$/, { error: "must match ^[a-z0-9][a-z0-9-_]{2,49}$" })
          .describe("Image publisher, e.g. azureopenshift."),
        offer: z.string().min(1).max(255).describe("Image offer, e.g. aro4."),
        sku: z
          .string()
          .regex(/^[a-z0-9-_]{1,255}$/, { error: "must match ^[a-z0-9-_]+$" })
          .describe("Image SKU, e.g. aro_419."),
        version: z
          .string()
          .max(32, { error: "must be at most 32 characters" })
          .regex(/^([0-9]+\.[0-9]+\.[0-9]+|latest)$/, { error: "must be <major>.<minor>.<patch> or latest" })
          .describe("Image version."),
      })
      .optional()
      .describe("A specific marketplace image: all four fields. Default: the image of the release payload (OpenShift 4.20+)."),
    availabilityZone: scalarAsText(z.enum(["1", "2", "3"]))
      .optional()
      .describe("Azure availability zone of the VMs. Default: none. Not with availabilityZones."),
    availabilityZones: z
      .array(scalarAsText(z.enum(["1", "2", "3"])))
      .min(1, { error: "must list at least one zone" })
      .optional()
      .describe(
        "Spread the pool over zones as `--availability-zones` does: one NodePool per zone, named <name>-<zone>, each with the full replicas (3 zones x 2 replicas = 6 nodes). Default: one NodePool, no zone.",
      ),
    encryptionAtHost: z
      .enum(["Enabled", "Disabled"])
      .optional()
      .describe("Host encryption of the VMs. Default: the CRD's Enabled, which needs the subscription feature Microsoft.Compute/EncryptionAtHost."),
  })
  .superRefine((pool, ctx) => {
    // The CRD: "Both replicas or autoScaling should not be set".
    if (pool.autoscaling && pool.replicas !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["replicas"],
        input: pool.replicas,
        message: "is not allowed with autoscaling (the NodePool takes one or the other); remove it",
      });
    }
  })
  .transform((pool) => ({
    ...pool,
    replicas: pool.autoscaling ? undefined : (pool.replicas ?? 2),
    vmSize: pool.vmSize ?? DEFAULT_VM_SIZE[pool.arch],
  }))
  .describe("A NodePool: a set of identical worker VMs.");

/** The NAT subnet of the Private Link Service, in the management cluster's VNet (help/private-clusters.md). */
const privateLink = z
  .strictObject({
    natSubnetId: armId(
      "Microsoft.Network/virtualNetworks/[^/]+/subnets/[^/]+",
      "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<management vnet>/subnets/<subnet>",
    )
      .optional()
      .describe(
        "Existing NAT subnet of the Private Link Service (privateLink.natSubnetID): in the management cluster's VNet, with privateLinkServiceNetworkPolicies Disabled. Not with natSubnet.",
      ),
    natSubnet: z
      .strictObject({
        vnetId: armId(
          "Microsoft.Network/virtualNetworks/[^/]+",
          "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<management vnet>",
        ).describe("The management cluster's VNet (the VNet of its internal load balancer; only a subnet is added to it)."),
        cidr: cidr("NAT subnet").describe("Address range of the subnet: inside the VNet's address space, clear of its other subnets (e.g. a free /28 or /24)."),
        name: azureName(AZURE_NAME_RULES.networkName).optional().describe("Subnet name. Default: <infraID>-pls-nat (the name HyperShift's auto-create uses)."),
      })
      .optional()
      .describe(
        "Create the NAT subnet (infra stack) in the management cluster's VNet, with Private Link Service network policies disabled. Not with natSubnetId.",
      ),
    additionalAllowedSubscriptions: z
      .array(guid("subscription allowed to connect"))
      .min(1, { error: "must list at least one subscription, or be omitted" })
      .max(50, { error: "must list at most 50 subscriptions (CRD limit)" })
      .optional()
      .describe(
        "Other subscriptions allowed to create Private Endpoints to the cluster's Private Link Service (the cluster's own subscription is always allowed). Default: none.",
      ),
  })
  .describe("Private Link of a PublicAndPrivate or Private cluster: the NAT subnet (natSubnetId or natSubnet) and the allowed subscriptions.");

const hostedCluster = z
  .strictObject({
    releaseImage: releaseImage.describe(
      "OpenShift release image of the control plane and of the NodePools without their own releaseImage (upgrade: change it).",
    ),
    baseDomain: azureName(AZURE_NAME_RULES.dnsZone).describe("Base domain: an existing public Azure DNS zone (seed 004: the parent zone, e.g. example.com)."),
    publicZone: z
      .strictObject({
        resourceGroupName: azureName(AZURE_NAME_RULES.resourceGroup).describe("Resource group of the baseDomain zone."),
        subscriptionId: guid("subscription of the baseDomain zone").optional().describe("Subscription of the baseDomain zone. Default: subscriptionId."),
      })
      .optional()
      .describe("Where the baseDomain zone is (dns.publicZoneID, ingress role scope). Default: dns.parent when baseDomain is dns.parent.zoneName."),
    externalDns: z
      .boolean()
      .optional()
      .describe("Publish the API, OAuth, Konnectivity and Ignition as Routes named in the ExternalDNS zone. Default: true when externalDns is configured."),
    namespace: kubernetesName("namespace").default("clusters").describe("Namespace of the HostedCluster, NodePools and secrets on the management cluster."),
    infraId: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/, { error: "must be 1-40 lowercase letters, digits or '-', starting and ending with a letter or digit" })
      .optional()
      .describe("Infrastructure ID (names the load balancer, public IP and role assignments). Default: <name, 21 chars>-<5 hex of a stable hash>."),
    pullSecretFile: filePath().describe(
      "Pull secret JSON, relative to the config file; read at plan time, never at synth. With secrets.source: variables it is not read: the value comes from the variable pull_secret and this path is named as its source.",
    ),
    sshPublicKeyFile: filePath()
      .optional()
      .describe("SSH public key for the workers, relative to the config file. Default: a key generated in Terraform state (tls provider)."),
    controllerAvailabilityPolicy: z
      .enum(["SingleReplica", "HighlyAvailable"])
      .default("SingleReplica")
      .describe("Control-plane replicas (the CLI default is SingleReplica)."),
    etcd: z
      .strictObject({
        storageSize: z
          .string()
          .regex(/^[1-9][0-9]*(Mi|Gi|Ti)$/, { error: "must be a size such as 8Gi" })
          .default("8Gi")
          .describe("etcd volume size."),
        storageClassName: kubernetesName("storage class").optional().describe("Storage class of the etcd volume. Default: the cluster default."),
      })
      .default({ storageSize: "8Gi" })
      .describe("Managed etcd storage."),
    network: z
      .strictObject({
        singleResourceGroup: z
          .boolean()
          .default(false)
          .describe("Put the VNet and NSG in the managed resource group (as --resource-group-name does) instead of their own groups."),
        resourceGroups: z
          .strictObject({
            managed: azureName(AZURE_NAME_RULES.resourceGroup).optional().describe("Managed resource group. Default: <name>-managed-rg."),
            vnet: azureName(AZURE_NAME_RULES.resourceGroup).optional().describe("VNet resource group. Default: <name>-customer-vnet-rg."),
            nsg: azureName(AZURE_NAME_RULES.resourceGroup).optional().describe("NSG resource group. Default: <name>-customer-nsg-rg."),
          })
          .default({})
          .describe("Resource group names (seed 004's, with the cluster name for the prefix)."),
        vnetName: azureName(AZURE_NAME_RULES.virtualNetwork).optional().describe("VNet name. Default: <name>-customer-vnet."),
        subnetName: azureName(AZURE_NAME_RULES.networkName).optional().describe("Subnet name. Default: <name>-customer-subnet-1."),
        nsgName: azureName(AZURE_NAME_RULES.networkName).optional().describe("NSG name. Default: <name>-customer-nsg."),
        vnetCidr: cidr("VNet address space").default("10.0.0.0/16").describe("VNet address space."),
        subnetCidr: cidr("subnet").default("10.0.0.0/24").describe("Subnet of the workers, inside vnetCidr."),
        existing: z
          .strictObject({
            vnetId: armId(
              "Microsoft.Network/virtualNetworks/[^/]+",
              "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>",
            )
              .optional()
              .describe("Bring your own VNet (full ARM ID); needs subnetId."),
            subnetId: armId(
              "Microsoft.Network/virtualNetworks/[^/]+/subnets/[^/]+",
              "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
            )
              .optional()
              .describe("Bring your own subnet (full ARM ID, in vnetId)."),
            nsgId: armId(
              "Microsoft.Network/networkSecurityGroups/[^/]+",
              "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/networkSecurityGroups/<nsg>",
            )
              .optional()
              .describe("Bring your own network security group (full ARM ID)."),
          })
          .optional()
          .describe("Existing network resources: none of them is created (nor its resource group)."),
        clusterNetwork: cidr("pod network").default("10.132.0.0/14").describe("Pod network (HyperShift's default)."),
        serviceNetwork: cidr("service network").default("172.31.0.0/16").describe("Service network (HyperShift's default)."),
        machineNetwork: cidr("machine network").optional().describe("Machine network. Default: none (as the CLI)."),
      })
      .default({
        singleResourceGroup: false,
        resourceGroups: {},
        vnetCidr: "10.0.0.0/16",
        subnetCidr: "10.0.0.0/24",
        clusterNetwork: "10.132.0.0/14",
        serviceNetwork: "172.31.0.0/16",
      })
      .describe("Azure network of the workers and the cluster's internal networks."),
    roles: z
      .enum(["leastPrivilege", "hypershiftDefaults"])
      .optional()
      .describe(
        "Azure roles of the cluster's identities. leastPrivilege: each identity's Azure Red Hat OpenShift role (as ARO HCP) on the managed group and on the VNet, subnet, NSG and DNS zones it acts on, never their groups. hypershiftDefaults: exactly what hypershift create infra azure --assign-identity-roles grants (Contributor for the control-plane operator and NodePool management, whole resource groups). Default: leastPrivilege; hypershiftDefaults with adopt.infrastructure (help/roles.md).",
      ),
    endpointAccess: z
      .enum(["Public", "PublicAndPrivate", "Private"])
      .default("Public")
      .describe(
        "Where the API server is reachable (--endpoint-access): Public; PublicAndPrivate (also over Private Link from the cluster's VNet); Private (only over Private Link). Fixed at creation between Public and the others (help/private-clusters.md).",
      ),
    privateLink: privateLink.optional(),
    nodePools: z.array(nodePool).default([]).describe("NodePools of the cluster (add, scale or remove them here)."),
    kms: kmsSchema.optional(),
    deleteResourceGroupsWithContents: z
      .boolean()
      .default(false)
      .describe(
        "Let destroying infra-<name> delete its resource groups although they still hold resources Terraform did not create (disks of persistent volumes, NICs, public IPs, the image registry's storage account). Default false: the azurerm provider refuses and lists them.",
      ),
    availableTimeout: z
      .string()
      .regex(/^[1-9]\d*[smh]$/, { error: "must be a duration such as 45m" })
      .default("45m")
      .describe("How long apply waits for the HostedCluster condition Available (and delete for its finalizers)."),
    ...hostedClusterOptions,
  })
  .describe("Phase 3: the cluster's Azure infrastructure and the HostedCluster on the management cluster. Omit for Phase 1 only.");

const cluster = z
  .strictObject({
    name: z
      .string()
      .regex(CLUSTER_NAME, {
        error: "must be 1-40 lowercase letters, digits or '-', starting and ending with a letter or digit (Kubernetes and Azure name)",
      })
      .describe("Hosted cluster name (HostedCluster metadata.name); also the default prefix of its identity names."),
    serviceAccountSigningKey: signingKey.optional().describe("This cluster's own signing key. Required with oidc.issuer: perCluster; not allowed with shared."),
    identities: z
      .strictObject({
        namePrefix: azureName(AZURE_NAME_RULES.userAssignedIdentity)
          .optional()
          .describe("Prefix of the identity names (<namePrefix>-<component>). Default: the cluster name."),
        controlPlaneOperator: z
          .boolean()
          .optional()
          .describe(
            "Create the control-plane-operator identity (private clusters need it). Default: true with topology selfManaged, as `hypershift create iam azure`; false opts out. Not used with aroHcp.",
          ),
        kms: z.boolean().default(false).describe("Also create the KMS identity (etcd encryption with Azure Key Vault)."),
      })
      .default({ kms: false })
      .describe("Workload identities of this cluster."),
    hostedCluster: hostedCluster.optional(),
    adopt: clusterAdoptSchema.optional(),
    retired: z
      .boolean()
      .default(false)
      .describe(
        "Being retired: its stacks are still synthesized so `cdktf destroy` can remove them, and a deploy of them fails at plan. Remove the cluster from the config once they are destroyed (help/retire-cluster.md).",
      ),
  })
  .describe("A hosted cluster.");

const backend = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("local"),
      directory: z
        .string()
        .min(1)
        .default("terraform-state")
        .describe("Folder of the environments' state, relative to the config file: <directory>/<subscriptionId>/<prefix>/<stack>.tfstate."),
    }),
    z.strictObject({
      type: z.literal("azurerm"),
      resourceGroupName: azureName(AZURE_NAME_RULES.resourceGroup).describe("Resource group of the state storage account."),
      storageAccountName: azureName(AZURE_NAME_RULES.storageAccount).describe("Existing storage account that holds state."),
      containerName: azureName(AZURE_NAME_RULES.blobContainer).describe("Existing blob container that holds state."),
      keyPrefix: z
        .string()
        .regex(/^[A-Za-z0-9._/-]*$/, { error: "must contain only letters, digits, '.', '_', '-' or '/'" })
        .optional()
        .describe("State blob name prefix; the key is <keyPrefix><stack>.tfstate. Default: hcp-azure/<prefix>/."),
    }),
    z.strictObject({
      type: z.literal("cloud"),
      organization: z.string().min(1).describe("Terraform Cloud / HCP Terraform organization."),
      hostname: z.string().min(1).default("app.terraform.io").describe("Terraform Cloud or Terraform Enterprise host."),
      workspacePrefix: z
        .string()
        .regex(/^[A-Za-z0-9_-]*$/, { error: "must contain only letters, digits, '-' or '_' (workspace names)" })
        .optional()
        .describe("Each stack uses the workspace <workspacePrefix><stack>. Default: <prefix>-."),
      project: z.string().min(1).optional().describe("Terraform Cloud project for the workspaces. Default: the organization's default project."),
    }),
  ])
  .default({ type: "local", directory: "terraform-state" })
  .describe("Where Terraform keeps state: one state (workspace) per stack.");

const secrets = z
  .strictObject({
    source: z
      .enum(["files", "variables"])
      .optional()
      .describe(
        "How plan-time secrets (pull secrets, the signing private key, ExternalDNS credentials, a BYO SSH key) enter the stacks. files: Terraform reads the configured files at plan time (workstation). variables: each is a sensitive Terraform variable (Terraform Cloud workspace variable or TF_VAR_*); no stack refers to a file. Default: variables with backend.type cloud, files otherwise.",
      ),
    filesOnlyWhereTerraformRuns: z
      .boolean()
      .default(false)
      .describe(
        "files mode: the secret files exist only where Terraform runs (another machine or an agent), so synth does not require them here. Default false: synth fails when one is missing, before anything is deployed.",
      ),
  })
  .default({ filesOnlyWhereTerraformRuns: false })
  .describe("Plan-time secrets: read from files or given as sensitive Terraform variables (help/terraform-cloud.md).");

const dns = z
  .strictObject({
    zoneName: azureName(AZURE_NAME_RULES.dnsZone)
      .optional()
      .describe(
        "Public DNS zone created in the persistent resource group and shared by every hosted cluster. Default: <prefix>.<parent.zoneName>; required without parent.",
      ),
    parent: z
      .strictObject({
        zoneName: azureName(AZURE_NAME_RULES.dnsZone).describe(
          "Existing Azure DNS zone to delegate from (e.g. example.com); only read, never changed or deleted.",
        ),
        resourceGroupName: azureName(AZURE_NAME_RULES.resourceGroup).describe("Resource group of the parent zone."),
        subscriptionId: guid("subscription of the parent zone").optional().describe("Subscription of the parent zone. Default: subscriptionId."),
        ttl: z
          .number()
          .int({ error: "must be a whole number of seconds" })
          .min(1, { error: "must be at least 1 second" })
          .max(2147483647, { error: "must be at most 2147483647 seconds (Azure DNS limit)" })
          .default(3600)
          .describe("TTL in seconds of the delegating NS record in the parent zone."),
      })
      .optional()
      .describe("Delegate the zone from an Azure DNS parent zone with an NS record. Omit to delegate it yourself (the stack outputs the name servers)."),
    preventDestroy: z
      .boolean()
      .optional()
      .describe("Make Terraform refuse to destroy the zone (it holds every cluster's records). Default: protection.preventDestroy."),
  })
  .describe("Public DNS zone for hosted clusters (seed 004 Phase 1 step 5). Omit for the seed's 'without External DNS' strategy.");

const externalDns = z
  .strictObject({
    applicationName: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(120, { error: "must be at most 120 characters (Entra display name)" })
      .optional()
      .describe("Display name of the Entra application and service principal. Default: <prefix>-external-dns."),
    roles: z
      .enum(["leastPrivilege", "seed"])
      .default("leastPrivilege")
      .describe(
        "leastPrivilege: DNS Zone Contributor on the zone + Reader on its resource group (ExternalDNS lists zones there). seed: Reader + Contributor on the zone, as seed 004.",
      ),
    password: clientSecret("the service principal"),
  })
  .describe("ExternalDNS service principal (seed 004 Phase 1 step 6); needs dns. Omit for the 'without External DNS' strategy.");

const managementCluster = z
  .strictObject({
    kubeconfig: z
      .strictObject({
        path: filePath().describe("Kubeconfig file used at plan/apply time; relative to the config file, absolute, or starting with ~/. Never read at synth."),
        context: z.string().min(1).optional().describe("Kubeconfig context. Default: the file's current context."),
      })
      .optional()
      .describe(
        "How Terraform reaches the management cluster. Omit to use the Kubernetes provider's KUBE_* environment variables (Terraform Cloud), or with aks.",
      ),
    credentialsFromVariables: z
      .boolean()
      .default(false)
      .describe(
        "Connect the Kubernetes provider with the sensitive Terraform variables kube_host, kube_cluster_ca_certificate and kube_token (or kube_client_certificate + kube_client_key) instead of KUBE_* environment variables. Not with kubeconfig or aks.",
      ),
    aks: aksSchema.optional(),
    operator: z
      .strictObject({
        bundleFile: filePath().describe(
          "Output of `hypershift install render --format yaml --outputs all ...`, relative to the config file (see help/management-cluster.md).",
        ),
        rolloutTimeout: z
          .string()
          .regex(/^[1-9]\d*[smh]$/, { error: "must be a duration such as 10m" })
          .default("10m")
          .describe("How long apply waits for each operator Deployment to roll out."),
        omitKinds: z
          .array(z.string().regex(/^[A-Z][A-Za-z0-9]*$/, { error: "must be a Kubernetes kind such as ServiceMonitor" }))
          .default([])
          .describe(
            "Kinds of the bundle not to apply, e.g. [ServiceMonitor, PrometheusRule, PodMonitor] on a cluster without the Prometheus operator CRDs (AKS).",
          ),
        preventDestroy: z
          .boolean()
          .optional()
          .describe(
            "Make Terraform refuse to delete the HyperShift CRDs and namespaces (deleting a CRD deletes every HostedCluster). Default: protection.preventDestroy.",
          ),
        forceConflicts: z
          .boolean()
          .default(false)
          .describe(
            "Take over fields owned by another field manager (objects from an earlier hypershift install, after import) instead of failing with a conflict.",
          ),
      })
      .describe("The HyperShift operator, applied from a rendered bundle."),
    pullSecretFile: filePath()
      .optional()
      .describe(
        "Pull secret (JSON) for the Secret pull-secret in the operator namespace, as `hypershift install --pull-secret`; external-dns pulls its image from registry.redhat.io with it. Relative to the config file; read at plan time, never at synth. Default: no pull-secret Secret.",
      ),
    externalDnsCredentialsFile: filePath()
      .optional()
      .describe(
        "azure_mgmt.json handed over by the Azure administrator, read at plan time. Default: read from the shared stack's state (output external_dns_credentials).",
      ),
    privateLink: z
      .strictObject({
        resourceGroupName: azureName(AZURE_NAME_RULES.resourceGroup).describe(
          "Resource group of the management cluster's internal load balancer, where the operator creates the Private Link Services (--azure-pls-resource-group; oc get infrastructure cluster -o jsonpath='{.status.platformStatus.azure.resourceGroupName}').",
        ),
        subscriptionId: guid("subscription of the management cluster")
          .optional()
          .describe("Subscription of the management cluster (its load balancer, VNet and the NAT subnets). Default: subscriptionId."),
        applicationName: z
          .string()
          .min(1, { error: "must not be empty" })
          .max(120, { error: "must be at most 120 characters (Entra display name)" })
          .optional()
          .describe("Display name of the operator's Private Link service principal (shared stack). Default: <prefix>-private-link."),
        password: clientSecret("the Private Link service principal"),
        credentialsFile: filePath()
          .optional()
          .describe(
            "Credentials JSON {subscriptionId, tenantId, clientId, clientSecret} handed over by the Azure administrator, read at plan time; then no service principal is created here. Default: the shared stack's principal (output private_link_credentials).",
          ),
      })
      .optional()
      .describe(
        "The operator's Private Link Service management (hypershift install --private-platform Azure): needed when a cluster has endpointAccess PublicAndPrivate or Private (help/private-clusters.md).",
      ),
  })
  .describe("Management cluster (seed 004 Phase 2): the HyperShift operator and the ExternalDNS credentials, through the Terraform Kubernetes provider.");

export const configSchema = z
  .strictObject({
    $schema: z.string().optional().describe("JSON Schema reference for editors; ignored."),
    prefix: z
      .string()
      .regex(/^[a-z]([-a-z0-9]{0,18}[a-z0-9])?$/, {
        error: "must be 1-20 lowercase letters, digits or '-', starting with a letter and not ending with '-'",
      })
      .describe("Short deployment prefix; part of derived names (storage account, state keys)."),
    subscriptionId: guid("Azure subscription ID").describe("Azure subscription for every resource."),
    tenantId: guid("Microsoft Entra tenant ID").describe("Microsoft Entra tenant of the subscription."),
    topology: z
      .enum(["selfManaged", "aroHcp"])
      .default("selfManaged")
      .describe(
        "selfManaged: workload identities for every component (seed 004). aroHcp: AKS management cluster, control-plane service principals with certificates in Key Vault, data-plane managed identities (seed 003).",
      ),
    aroHcp: aroHcpSchema.optional(),
    cloud: z
      .enum(AZURE_CLOUDS)
      .default("AzurePublicCloud")
      .describe(
        "Azure cloud of every resource: the HostedClusters' spec.platform.azure.cloud, the azurerm/azuread provider environment, the authority host of the credentials written, and the OIDC issuer's Blob endpoint. Sovereign-cloud regions are not in the built-in region table: set allowUnlistedLocation.",
      ),
    location: z
      .string()
      .regex(/^[a-z][a-z0-9]{1,39}$/, {
        error: "must be an Azure region name in lowercase without spaces, e.g. eastus (the Name column of `az account list-locations -o table`)",
      })
      .describe("Azure region of every regional resource; must be in the built-in region table unless allowUnlistedLocation is true."),
    allowUnlistedLocation: z
      .boolean()
      .default(false)
      .describe("Accept a location missing from the built-in table of Azure regions (config/azure-regions.ts): only for a region newer than this release."),
    tags: tags.default({}),
    resourceGroup: z
      .strictObject({
        name: azureName(AZURE_NAME_RULES.resourceGroup)
          .optional()
          .describe("Persistent resource group (identities, OIDC issuer). Default: <prefix>-hcp-persistent."),
        create: z
          .boolean()
          .default(true)
          .describe("true: create and manage it. false: adopt an existing group (e.g. os4-common); it is only read, never changed or deleted."),
        preventDestroy: z
          .boolean()
          .optional()
          .describe("With create: true, make Terraform refuse to destroy the group (it outlives clusters). Default: protection.preventDestroy."),
      })
      .default({ create: true })
      .describe("The persistent resource group that outlives hosted clusters."),
    oidc: z
      .strictObject({
        issuer: z
          .enum(["shared", "perCluster"])
          .default("shared")
          .describe("shared: one issuer and key for all clusters (the seeds' layout). perCluster: one container and key per cluster (tenant isolation)."),
        storageAccountName: azureName(AZURE_NAME_RULES.storageAccount)
          .optional()
          .describe("Storage account serving the issuer documents (globally unique). Default: <prefix without '-'>oidc<6 hex of a stable hash>."),
        containerName: azureName(AZURE_NAME_RULES.blobContainer)
          .optional()
          .describe(
            "Blob container of the shared issuer (last segment of the issuer URL). Default: the storage account name, as ccoctl. Not allowed with perCluster (the container is the cluster name).",
          ),
        grantDeployerBlobAccess: z
          .boolean()
          .default(true)
          .describe(
            "Grant the deploying principal Storage Blob Data Contributor on the account, so Terraform can upload the documents with shared keys disabled.",
          ),
      })
      .default({ issuer: "shared", grantDeployerBlobAccess: true })
      .describe("OIDC issuer hosted on Azure Blob Storage (replaces ccoctl azure create-oidc-issuer)."),
    serviceAccountSigningKey: signingKey
      .optional()
      .describe("Signing key of the shared issuer. Required with oidc.issuer: shared; not allowed with perCluster."),
    clusters: z.array(cluster).min(1, { error: "must list at least one hosted cluster" }).describe("Hosted clusters."),
    dns: dns.optional(),
    externalDns: externalDns.optional(),
    managementCluster: managementCluster.optional(),
    secrets,
    adopt: adoptSchema.optional(),
    protection: z
      .strictObject({
        preventDestroy: z
          .boolean()
          .default(true)
          .describe(
            "Give every persistent resource Terraform's prevent_destroy (OIDC storage and containers, identities and federated credentials, DNS zone, ExternalDNS and control-plane principals and secrets, Key Vault, the clusters' KMS Key Vaults and keys, AKS cluster, operator CRDs and namespaces). false only to tear the whole environment down on purpose (help/destroy.md).",
          ),
        release: z
          .array(
            z.string().regex(/^[a-z0-9][-a-z0-9]*\/[a-z][a-z0-9_]*\.[A-Za-z0-9_-]+$/, {
              error: "must be <stack>/<resource address>, as synth names it, e.g. shared/azuread_application.ExternalDns_Application_E5E1316B",
            }),
          )
          .default([])
          .describe(
            "Protected resources (<stack>/<resource address>) this config may drop: synth refuses a config that drops a protected resource the deployment holds unless it is listed here; the next deploy destroys it (help/destroy.md#releasing-a-protected-resource).",
          ),
      })
      .default({ preventDestroy: true, release: [] })
      .describe("What Terraform refuses to destroy. The per-resource preventDestroy keys override it for their resource."),
    backend,
  })
  .describe("hcp-azure deployment config: HyperShift hosted control planes on Azure.");

/** The config as written (before defaults). */
export type ConfigInput = z.input<typeof configSchema>;
/** The config after defaults. */
export type Config = z.output<typeof configSchema>;
export type ClusterConfig = Config["clusters"][number];
export type BackendConfig = Config["backend"];
export type SigningKeyConfig = z.output<typeof signingKey>;
export type DnsConfig = z.output<typeof dns>;
export type ExternalDnsConfig = z.output<typeof externalDns>;
export type ManagementClusterConfig = z.output<typeof managementCluster>;
export type HostedClusterConfig = z.output<typeof hostedCluster>;
export type NodePoolConfig = z.output<typeof nodePool>;
export type SecretsConfig = z.output<typeof secrets>;
export type PrivateLinkConfig = z.output<typeof privateLink>;
export type { AzureCloud } from "./cloud";
