import { AzureadProvider } from "@cdktf/provider-azuread/lib/provider";
import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { TerraformStack } from "cdktf";
import { CLOUD_ENDPOINTS } from "../config/cloud";
import { Config } from "../config/schema";
import { configureBackend, StackContext } from "./stack-setup";

/**
 * Backend and Azure provider of one stack. Credentials are never configured here: the provider
 * takes them from the environment (az login, ARM_* variables, OIDC in Terraform Cloud).
 */
export function configureAzureStack(
  stack: TerraformStack,
  stackName: string,
  context: StackContext,
  options: {
    /**
     * Let destroy delete resource groups that still hold resources Terraform did not create
     * (what `hypershift destroy infra azure` does). Only for stacks whose groups are owned by
     * one hosted cluster: HyperShift, CAPZ and the cluster's operators leave disks, NICs, public
     * IPs and the image registry's storage account in them.
     * @default false
     */
    readonly deleteNonEmptyResourceGroups?: boolean;
  } = {},
): void {
  configureBackend(stack, stackName, context);
  new AzurermProvider(stack, "azurerm", {
    features: [options.deleteNonEmptyResourceGroups ? { resourceGroup: [{ preventDeletionIfContainsResources: false }] } : {}],
    subscriptionId: context.config.subscriptionId,
    tenantId: context.config.tenantId,
    // Storage accounts have shared keys disabled: data-plane calls (blob uploads) use Entra ID.
    storageUseAzuread: true,
    ...azurermEnvironment(context.config),
  });
}

/**
 * The azurerm provider's `environment` for the config's cloud; nothing for the public cloud (the
 * provider default), so public deployments' JSON is unchanged.
 */
export function azurermEnvironment(config: Pick<Config, "cloud">): { environment?: string } {
  return config.cloud === "AzurePublicCloud" ? {} : { environment: CLOUD_ENDPOINTS[config.cloud].azurerm };
}

/** The azuread provider's `environment` for the config's cloud; nothing for the public cloud (`global`, the default). */
export function azureadEnvironment(config: Pick<Config, "cloud">): { environment?: string } {
  return config.cloud === "AzurePublicCloud" ? {} : { environment: CLOUD_ENDPOINTS[config.cloud].azuread };
}

/** The azuread provider of a stack that reads or writes Entra ID objects (`azuread`). */
export function configureAzuread(stack: TerraformStack, config: Pick<Config, "cloud" | "tenantId">): AzureadProvider {
  return new AzureadProvider(stack, "azuread", { tenantId: config.tenantId, ...azureadEnvironment(config) });
}

/** Whether two subscription IDs name the same subscription: GUIDs, compared case-insensitively (Azure's own comparison). */
export function sameSubscription(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * A second azurerm provider for the few resources a stack touches in another subscription (the
 * parent DNS zone, a private cluster's NAT subnet), or undefined when `subscriptionId` is the
 * deployment's own ({@link sameSubscription}): the resources then use the stack's provider.
 */
export function aliasedAzurermProvider(
  stack: TerraformStack,
  id: string,
  props: { readonly alias: string; readonly subscriptionId: string },
  config: Pick<Config, "cloud" | "subscriptionId" | "tenantId">,
): AzurermProvider | undefined {
  if (sameSubscription(props.subscriptionId, config.subscriptionId)) return undefined;
  return new AzurermProvider(stack, id, {
    alias: props.alias,
    features: [{}],
    subscriptionId: props.subscriptionId,
    tenantId: config.tenantId,
    ...azurermEnvironment(config),
    // Only those resources are touched there: registering resource providers would need
    // subscription-wide rights the owner of that subscription may not grant.
    resourceProviderRegistrations: "none",
  });
}
