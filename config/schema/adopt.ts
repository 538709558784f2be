import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { guid } from "./primitives";

/**
 * Config of adoption: taking over what seed 004's `az` / `ccoctl` / `hypershift` commands built,
 * with Terraform `import` blocks (help/adopt.md). The deployment's block is `adopt`, a
 * cluster's `clusters[].adopt`.
 */

const externalDnsAdoption = z
  .strictObject({
    applicationObjectId: guid("object ID of the Entra application")
      .transform((id) => id.toLowerCase())
      .describe(
        "Object ID (not the appId) of the application `az ad sp create-for-rbac` made: `az ad app show --id $EXTERNAL_DNS_SP_APP_ID --query id -o tsv`.",
      ),
    servicePrincipalObjectId: guid("object ID of the service principal")
      .transform((id) => id.toLowerCase())
      .describe("Object ID of its service principal: `az ad sp show --id $EXTERNAL_DNS_SP_APP_ID --query id -o tsv`."),
    roleAssignments: z
      .strictObject({
        reader: guid("role assignment name")
          .transform((id) => id.toLowerCase())
          .describe("Name (a random GUID az chose) of the guide's Reader assignment on the zone (help/adopt.md shows the az query)."),
        contributor: guid("role assignment name")
          .transform((id) => id.toLowerCase())
          .describe("Name of the guide's Contributor assignment on the zone."),
      })
      .describe("The guide's two `az role assignment create` on the zone; az names them with random GUIDs, so they are looked up once and written here."),
  })
  .describe("Adopt the ExternalDNS service principal of Phase 1 step 6 (needs externalDns with roles: seed). Omit to create a new one.");

export const adoptSchema = z
  .strictObject({
    resourceGroupName: azureName(AZURE_NAME_RULES.resourceGroup)
      .optional()
      .describe(
        "The guide's PERSISTENT_RG_NAME: the persistent resource group's name unless resourceGroup.name is set (then they must be equal). Imported with resourceGroup.create: true; only read with false. Default: os4-common (the guide's value) when resourceGroup.name is not set.",
      ),
    oidcStorageAccountName: azureName(AZURE_NAME_RULES.storageAccount).describe(
      "The guide's OIDC_STORAGE_ACCOUNT_NAME (ccoctl --name, with its timestamp, e.g. myprefixoidc1705432123): the issuer's storage account and container. Must equal oidc.storageAccountName when that is set.",
    ),
    externalDns: externalDnsAdoption.optional(),
  })
  .describe(
    "Adopt the Phase 1 resources seed 004's commands made (persistent group, ccoctl's OIDC issuer, DNS zone and delegation, ExternalDNS principal): synth adds Terraform import blocks so the first deploy takes them over (help/adopt.md). Per cluster: clusters[].adopt.",
  );

export const clusterAdoptSchema = z
  .strictObject({
    guidePrefix: z
      .string()
      .regex(/^[a-z]([-a-z0-9]{0,18}[a-z0-9])?$/, { error: "must be the guide's PREFIX: lowercase letters, digits or '-'" })
      .optional()
      .describe(
        "The guide's PREFIX of Phase 3: default names of the resource groups, VNet, subnet and NSG become <guidePrefix>-managed-rg, -customer-vnet-rg, -customer-nsg-rg, -customer-vnet, -customer-subnet-1, -customer-nsg. Default: prefix.",
      ),
    infrastructure: z
      .boolean()
      .default(true)
      .describe(
        "Also adopt Phase 3 (the az groups and network, and what hypershift create cluster azure made: private DNS zone, load balancer, role assignments); needs hostedCluster.infraId. false: only the identities (Phase 1 done by the guide, Phase 3 by us).",
      ),
    hostedCluster: z
      .boolean()
      .optional()
      .describe(
        "Also import the Kubernetes objects hypershift create cluster azure applied into cluster-<name>: the HostedCluster, its NodePool <name> (into the configured pool of that name) and the Secrets (pull secret, SSH key, signing key, etcd encryption key, cloud credentials); the etcd key and SSH key are kept as the cluster has them. false: leave cluster-<name> undeployed while the hand-made HostedCluster lives. Default: infrastructure (true needs infrastructure: true).",
      ),
  })
  .describe("Adopt this cluster's guide-made workload identities and federated credentials (and its Phase 3 infrastructure): help/adopt.md.");

export type AdoptConfig = z.output<typeof adoptSchema>;
export type ClusterAdoptConfig = z.output<typeof clusterAdoptSchema>;

/** Whether a cluster's `cluster-<name>` takes over the CLI's HostedCluster, NodePool and Secrets: `adopt.hostedCluster`, whose default is `adopt.infrastructure`. */
export function adoptsHostedCluster(adopt: ClusterAdoptConfig | undefined): boolean {
  return adopt !== undefined && adopt.infrastructure && (adopt.hostedCluster ?? true);
}
