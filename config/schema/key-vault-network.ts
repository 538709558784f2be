import { z } from "zod";
import { armId, IPV4 } from "./primitives";

const subnetId = () =>
  armId(
    "Microsoft.Network/virtualNetworks/subnets",
    "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
  );

/**
 * A Key Vault's firewall (`network_acls`, `public_network_access_enabled`, a private endpoint):
 * the aroHcp control-plane credentials vault and a created KMS vault. Closed by default: deny,
 * with what is let in listed here; `rules/key-vault-network.ts` refuses a vault nothing can reach.
 */
export const keyVaultNetworkSchema = (vault: string) =>
  z
    .strictObject({
      allowPublicNetworkAccess: z
        .boolean()
        .default(false)
        .describe(
          "true: the vault's firewall admits every network (default_action Allow), the explicit opt-out of the default: deny everything but allowedIpRanges, allowedSubnetIds and privateEndpoint.",
        ),
      allowedIpRanges: z
        .array(
          z.string().regex(new RegExp(`^${IPV4}(\\/([0-9]|[12]\\d|3[0-2]))?$`), {
            error: "must be a public IPv4 address or CIDR such as 203.0.113.7 or 203.0.113.0/24",
          }),
        )
        .default([])
        .describe(
          "Public IPv4 addresses or CIDRs let through the firewall (ip_rules): where Terraform runs (it writes to the vault), and the management cluster's outbound addresses (its pods read the vault).",
        ),
      allowedSubnetIds: z
        .array(subnetId())
        .default([])
        .describe("Subnets let through the firewall (virtual_network_subnet_ids); each needs the Microsoft.KeyVault service endpoint."),
      privateEndpoint: z
        .strictObject({
          subnetId: subnetId().describe("Subnet of the private endpoint (its VNet in the config's location)."),
          // A privatelink.vaultcore.* zone: DNS labels of letters, digits, '_' and '-' (Azure naming rules).
          privateDnsZoneId: armId(
            "Microsoft.Network/privateDnsZones",
            "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/privateDnsZones/privatelink.vaultcore.azure.net (a privatelink.vaultcore.* private DNS zone)",
            { lastName: "privatelink\\.vaultcore(\\.[A-Za-z0-9_-]{1,63})+", ignoreCase: true },
          )
            .optional()
            .describe("privatelink.vaultcore.azure.net zone the endpoint registers in (private_dns_zone_group). Default: none, your DNS resolves the vault."),
        })
        .optional()
        .describe(
          "A private endpoint for the vault (subresource vault). With no allowedIpRanges or allowedSubnetIds, public network access is switched off. Default: none.",
        ),
    })
    .default({ allowPublicNetworkAccess: false, allowedIpRanges: [], allowedSubnetIds: [] })
    .describe(`Firewall of ${vault}: deny by default; say who reaches it (help/aro-hcp.md#key-vault-firewall).`);

export type KeyVaultNetworkConfig = z.output<ReturnType<typeof keyVaultNetworkSchema>>;
