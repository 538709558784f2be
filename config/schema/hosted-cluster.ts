import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { clusterConfigurationOptions } from "./cluster-configuration";
import { hostedClusterOptions } from "./hosted-options";
import { kmsSchema } from "./kms";
import { hostedMonitoringSchema } from "./monitoring";
import { nodePoolSchema } from "./node-pool";
import { armId, cidr, filePath, guid, kubernetesName, releaseImage, wholeDuration } from "./primitives";
import { privateLinkSchema } from "./private-link";
import { signInSchema } from "./sign-in";
import { upgradeSchema } from "./upgrade";

/** `clusters[].hostedCluster`: the cluster's Azure infrastructure and its HostedCluster (rules across fields: rules/hosted-cluster.ts). */

export const hostedClusterSchema = z
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
            vnetId: armId("Microsoft.Network/virtualNetworks", "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>")
              .optional()
              .describe("Bring your own VNet (full ARM ID); needs subnetId."),
            subnetId: armId(
              "Microsoft.Network/virtualNetworks/subnets",
              "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
            )
              .optional()
              .describe("Bring your own subnet (full ARM ID, in vnetId)."),
            nsgId: armId(
              "Microsoft.Network/networkSecurityGroups",
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
    privateLink: privateLinkSchema.optional(),
    nodePools: z.array(nodePoolSchema).default([]).describe("NodePools of the cluster (add, scale or remove them here)."),
    kms: kmsSchema.optional(),
    monitoring: hostedMonitoringSchema.optional(),
    deleteResourceGroupsWithContents: z
      .boolean()
      .default(false)
      .describe(
        "Let destroying infra-<name> delete its resource groups although they still hold resources Terraform did not create (disks of persistent volumes, NICs, public IPs, the image registry's storage account). Default false: the azurerm provider refuses and lists them.",
      ),
    availableTimeout: wholeDuration("45m")
      .default("45m")
      .describe("How long apply waits for the HostedCluster condition Available (and delete for its finalizers)."),
    upgrade: upgradeSchema,
    signIn: signInSchema.optional(),
    ...hostedClusterOptions,
    ...clusterConfigurationOptions,
  })
  .describe("Phase 3: the cluster's Azure infrastructure and the HostedCluster on the management cluster. Omit for Phase 1 only.");

export type HostedClusterConfig = z.output<typeof hostedClusterSchema>;
