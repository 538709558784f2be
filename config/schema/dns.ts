import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { guid } from "./primitives";

/** `dns`: the public DNS zone the hosted clusters share, and its delegation. */

export const dnsSchema = z
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

export type DnsConfig = z.output<typeof dnsSchema>;
