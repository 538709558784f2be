import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { armId, cidr, guid } from "./primitives";

/** The NAT subnet of the Private Link Service, in the management cluster's VNet (help/private-clusters.md). */
export const privateLinkSchema = z
  .strictObject({
    natSubnetId: armId(
      "Microsoft.Network/virtualNetworks/subnets",
      "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<management vnet>/subnets/<subnet>",
    )
      .optional()
      .describe(
        "Existing NAT subnet of the Private Link Service (privateLink.natSubnetID): in the management cluster's VNet, with privateLinkServiceNetworkPolicies Disabled. Not with natSubnet.",
      ),
    natSubnet: z
      .strictObject({
        vnetId: armId(
          "Microsoft.Network/virtualNetworks",
          "/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<management vnet>",
        ).describe("The management cluster's VNet (the VNet of its internal load balancer; only a subnet is added to it)."),
        cidr: cidr("NAT subnet").describe("Address range of the subnet: inside the VNet's address space, clear of its other subnets (e.g. a free /28 or /24)."),
        name: azureName(AZURE_NAME_RULES.networkName).optional().describe("Subnet name. Default: <infraID>-pls-nat (the name HyperShift's auto-create uses)."),
      })
      .optional()
      .describe(
        "Create the NAT subnet (infra stack) in the management cluster's VNet, with Private Link Service network policies disabled. Not with natSubnetId.",
      ),
    additionalAllowedSubscriptions: z
      .array(guid("subscription allowed to connect"))
      .min(1, { error: "must list at least one subscription, or be omitted" })
      .max(50, { error: "must list at most 50 subscriptions (CRD limit)" })
      .optional()
      .describe(
        "Other subscriptions allowed to create Private Endpoints to the cluster's Private Link Service (the cluster's own subscription is always allowed). Default: none.",
      ),
  })
  .describe("Private Link of a PublicAndPrivate or Private cluster: the NAT subnet (natSubnetId or natSubnet) and the allowed subscriptions.");

export type PrivateLinkConfig = z.output<typeof privateLinkSchema>;
