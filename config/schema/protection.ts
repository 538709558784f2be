import { z } from "zod";

/** `protection`: what Terraform refuses to destroy (config/protection.ts resolves it per resource). */

export const protectionSchema = z
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
  .describe("What Terraform refuses to destroy. The per-resource preventDestroy keys override it for their resource.");
