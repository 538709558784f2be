import { z } from "zod";

/** `secrets`: how plan-time secrets enter the stacks (config/plan-time-inputs.ts). */

export const secretsSchema = z
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

export type SecretsConfig = z.output<typeof secretsSchema>;
