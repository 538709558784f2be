import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";

/** The local backend's state folder, relative to the config file, when `backend.directory` is not set. */
export const DEFAULT_STATE_DIRECTORY = "terraform-state";

/** `backend`: where Terraform keeps each stack's state (config/names derives the locations). */

/**
 * HCP Terraform's name rules (help/configuration.md, backend). These names reach Terraform JSON
 * (the `cloud` block, terraform_remote_state, and npm run tfc-bootstrap's provider, project,
 * workspaces and federated credential subjects), so only a name HCP Terraform itself accepts
 * passes: no `${`, `%{`, quote or control character ever comes from here. Sources:
 * organization: "Organization names can include numbers, letters, underscores (_), and hyphens
 * (-)" (HCP Terraform / Terraform Enterprise docs, users-teams-organizations/organizations);
 * project: `\A[\w\-][\w\- ]+[\w\-]\z`, 3-40 characters ("can only include letters, numbers,
 * spaces, -, and _."), hashicorp/terraform-provider-tfe internal/provider/resource_tfe_project.go
 * (36 at most on Terraform Enterprise v202404-2 and earlier, website/docs/r/project.html.markdown).
 */
const TFC_NAME_RULES = {
  organization: {
    pattern: /^[A-Za-z0-9_-]+$/,
    rule: "must be an HCP Terraform organization name: letters, digits, '-' or '_' only. Use the organization's name as its settings page shows it",
  },
  project: {
    pattern: /^(?=.{3,40}$)[A-Za-z0-9_-][A-Za-z0-9_ -]*[A-Za-z0-9_-]$/,
    rule: "must be an HCP Terraform project name: 3-40 letters, digits, spaces, '-' or '_', not starting or ending with a space (36 at most on Terraform Enterprise v202404-2 and earlier). Use the project's name as HCP Terraform shows it",
  },
  /** A DNS host name (labels of letters, digits and inner '-', 253 characters at most), optionally `:<port>` (1-65535). */
  hostname: {
    pattern:
      /^(?=[^:]{1,253}(:|$))[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?$/,
    rule: "must be a DNS host name, optionally with :<port>, without a scheme or path: app.terraform.io, app.eu.terraform.io or your Terraform Enterprise host (e.g. tfe.example.com:8443)",
  },
} as const;

const tfcName = (name: keyof typeof TFC_NAME_RULES) => z.string().regex(TFC_NAME_RULES[name].pattern, { error: TFC_NAME_RULES[name].rule });

export const backendSchema = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("local"),
      directory: z
        .string()
        .min(1)
        .default(DEFAULT_STATE_DIRECTORY)
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
      organization: tfcName("organization").describe("Terraform Cloud / HCP Terraform organization (letters, digits, '-', '_')."),
      hostname: tfcName("hostname").default("app.terraform.io").describe("Terraform Cloud or Terraform Enterprise host: a DNS host name, optionally :<port>."),
      workspacePrefix: z
        .string()
        .regex(/^[A-Za-z0-9_-]*$/, { error: "must contain only letters, digits, '-' or '_' (workspace names)" })
        .optional()
        .describe("Each stack uses the workspace <workspacePrefix><stack>. Default: <prefix>-."),
      project: tfcName("project")
        .optional()
        .describe("Terraform Cloud project for the workspaces (3-40 letters, digits, spaces, '-', '_'). Default: the organization's default project."),
    }),
  ])
  .default({ type: "local", directory: DEFAULT_STATE_DIRECTORY })
  .describe("Where Terraform keeps state: one state (workspace) per stack.");

export type BackendConfig = z.output<typeof backendSchema>;
