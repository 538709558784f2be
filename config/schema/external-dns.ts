import { z } from "zod";
import { clientSecret } from "./primitives";

/** `externalDns`: the service principal ExternalDNS writes the zone with. */

export const externalDnsSchema = z
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

export type ExternalDnsConfig = z.output<typeof externalDnsSchema>;
