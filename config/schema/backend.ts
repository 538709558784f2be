import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";

/** `backend`: where Terraform keeps each stack's state (config/names derives the locations). */

export const backendSchema = z
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

export type BackendConfig = z.output<typeof backendSchema>;
