import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { availabilityZone, IPV4_CIDR, wholeDuration } from "./primitives";

/** `managementCluster.aks`: the AKS management cluster of the ARO HCP-style topology (seed 003). */

const nodePoolShape = (defaults: { vmSize: string; minCount: number; maxCount: number }, what: string) => ({
  vmSize: z
    .string()
    .regex(/^(Standard_|Basic_)?[A-Z]+[0-9]+(-[0-9]+)?[a-zA-Z]*(_[A-Z]*[0-9]+[A-Z]*)?(_v[0-9]+)?$/, {
      error: "must be an Azure VM size such as Standard_D4s_v5",
    })
    .default(defaults.vmSize)
    .describe(`VM size of the ${what} nodes.`),
  minCount: z
    .number()
    .int()
    .min(1, { error: "must be at least 1" })
    .max(1000, { error: "must be at most 1000" })
    .default(defaults.minCount)
    .describe("Fewest nodes the autoscaler keeps (1-1000)."),
  maxCount: z
    .number()
    .int()
    .min(1, { error: "must be at least 1" })
    .max(1000, { error: "must be at most 1000" })
    .default(defaults.maxCount)
    .describe("Most nodes the autoscaler adds (1-1000, at least minCount)."),
  osDiskSizeGb: z.number().int().min(30).max(2048).optional().describe("OS disk size in GB (30-2048). Default: AKS's default for the VM size."),
  zones: z.array(availabilityZone()).optional().describe("Availability zones of the nodes. Default: none (regional)."),
});

export const aksSchema = z
  .strictObject({
    name: azureName(AZURE_NAME_RULES.aksCluster).optional().describe("AKS cluster name. Default: <prefix>-mgmt."),
    resourceGroupName: azureName(AZURE_NAME_RULES.resourceGroup).optional().describe("Resource group of the AKS cluster. Default: <prefix>-mgmt-rg."),
    existing: z
      .boolean()
      .default(false)
      .describe(
        "true: use an existing AKS cluster (found by name and resource group; it needs the OIDC issuer, workload identity, the Key Vault secrets provider add-on, and Entra ID integration: Terraform signs in through kubelogin, or with its kube_config client certificate when entraIdRbac.enabled is false); only entraIdRbac.enabled and entraIdRbac.kubeloginMode still apply.",
      ),
    kubernetesVersion: z
      .string()
      .regex(/^\d+\.\d+(\.\d+)?$/, { error: "must be a Kubernetes version such as 1.33 or 1.33.2" })
      .optional()
      .describe("Kubernetes version. Default: AKS's default version."),
    skuTier: z.enum(["Free", "Standard", "Premium"]).default("Standard").describe("AKS pricing tier (Standard has the uptime SLA a management cluster needs)."),
    systemPool: z
      .strictObject(nodePoolShape({ vmSize: "Standard_D4s_v5", minCount: 2, maxCount: 3 }, "system"))
      .default({ vmSize: "Standard_D4s_v5", minCount: 2, maxCount: 3 })
      .describe("The default node pool, named system: critical add-ons only."),
    userPool: z
      .strictObject({
        name: z
          .string()
          .regex(/^[a-z][a-z0-9]{0,11}$/, { error: "must be 1-12 lowercase letters or digits, starting with a letter (AKS node pool name)" })
          .default("controlplane")
          .describe("Node pool name."),
        ...nodePoolShape({ vmSize: "Standard_D8s_v5", minCount: 2, maxCount: 6 }, "control-plane"),
      })
      .default({ name: "controlplane", vmSize: "Standard_D8s_v5", minCount: 2, maxCount: 6 })
      .describe("The node pool where HyperShift runs the hosted control planes."),
    secretRotationInterval: wholeDuration("2m")
      .default("2m")
      .describe("How often the Key Vault secrets provider re-reads mounted secrets (certificate renewal reaches the control planes this way)."),
    apiServerAuthorizedIpRanges: z
      .array(
        z.string().regex(IPV4_CIDR, {
          error: "must be an IPv4 CIDR such as 203.0.113.0/24",
        }),
      )
      .optional()
      .describe(
        "Only these IPv4 CIDRs reach the API server; include where Terraform runs (workstation, Terraform Cloud agents). Default: any address (synth warns).",
      ),
    entraIdRbac: z
      .strictObject({
        enabled: z
          .boolean()
          .default(true)
          .describe(
            "Microsoft Entra ID sign-in with Azure RBAC, local accounts disabled: Terraform signs in through kubelogin (help/aro-hcp.md). false re-enables local accounts (client certificates, Kubernetes RBAC only): Terraform then uses the kube_config client certificate. With existing: true, says how the existing cluster works.",
          ),
        kubeloginMode: z
          .enum(["azurecli", "workloadidentity", "spn", "msi"])
          .default("azurecli")
          .describe(
            "How kubelogin gets Terraform's token: azurecli (az login, workstation), workloadidentity (AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_FEDERATED_TOKEN_FILE), spn (AZURE_CLIENT_ID and AZURE_CLIENT_SECRET), msi (the VM's managed identity).",
          ),
        grantDeployerClusterAdmin: z
          .boolean()
          .default(true)
          .describe(
            "Grant the principal running Terraform Azure Kubernetes Service RBAC Cluster Admin on the created cluster (it applies the operator and HostedClusters).",
          ),
      })
      .default({ enabled: true, kubeloginMode: "azurecli", grantDeployerClusterAdmin: true })
      .describe("Entra ID authentication and Azure RBAC for the management cluster's API."),
  })
  .describe("AKS management cluster (topology: aroHcp): created in its own resource group, or an existing one.");

export type AksConfig = z.output<typeof aksSchema>;
