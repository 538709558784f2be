import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { AZURE_CLOUDS } from "../cloud";
import { adoptSchema } from "./adopt";
import { aroHcpSchema } from "./aro-hcp";
import { backendSchema } from "./backend";
import { clusterSchema } from "./cluster";
import { dnsSchema } from "./dns";
import { externalDnsSchema } from "./external-dns";
import { managementClusterSchema } from "./management-cluster";
import { oidcSchema, signingKeySchema } from "./oidc";
import { guid, tags } from "./primitives";
import { protectionSchema } from "./protection";
import { secretsSchema } from "./secrets";

/**
 * The deployment config file, validated once here. Field rules live in the schema; rules that
 * span fields or apply to derived names live in `rules/`. Descriptions feed the published JSON
 * Schema (editor completion) and must agree with help/configuration.md (a test checks the keys).
 * Each section is its own file; the keys here keep the order the JSON Schema publishes.
 */

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
    oidc: oidcSchema,
    serviceAccountSigningKey: signingKeySchema
      .optional()
      .describe("Signing key of the shared issuer. Required with oidc.issuer: shared; not allowed with perCluster."),
    clusters: z.array(clusterSchema).min(1, { error: "must list at least one hosted cluster" }).describe("Hosted clusters."),
    dns: dnsSchema.optional(),
    externalDns: externalDnsSchema.optional(),
    managementCluster: managementClusterSchema.optional(),
    secrets: secretsSchema,
    adopt: adoptSchema.optional(),
    protection: protectionSchema,
    backend: backendSchema,
  })
  .describe("hcp-azure deployment config: HyperShift hosted control planes on Azure.");

/** The config as written (before defaults). */
export type ConfigInput = z.input<typeof configSchema>;
/** The config after defaults. */
export type Config = z.output<typeof configSchema>;
export type ClusterConfig = Config["clusters"][number];
