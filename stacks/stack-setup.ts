import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { AzurermBackend, CloudBackend, LocalBackend, NamedCloudWorkspace, TerraformStack } from "cdktf";
import * as path from "node:path";
import { DeploymentNames } from "../config/names";
import { Config } from "../config/schema";

/** What every stack needs to configure its backend and providers. */
export interface StackContext {
  readonly config: Config;
  readonly names: DeploymentNames;
  /** Absolute synth output folder (cdktf.out); local state paths are relative to it. */
  readonly outdir: string;
}

/**
 * Backend and Azure provider of one stack. Credentials are never configured here: the provider
 * takes them from the environment (az login, ARM_* variables, OIDC in Terraform Cloud).
 */
export function configureAzureStack(stack: TerraformStack, stackName: string, context: StackContext): void {
  configureBackend(stack, stackName, context);
  new AzurermProvider(stack, "azurerm", {
    features: [{}],
    subscriptionId: context.config.subscriptionId,
    tenantId: context.config.tenantId,
    // Storage accounts have shared keys disabled: data-plane calls (blob uploads) use Entra ID.
    storageUseAzuread: true,
  });
}

function configureBackend(stack: TerraformStack, stackName: string, context: StackContext): void {
  const { config, names, outdir } = context;
  const state = names.stateLocation(stackName);
  const backend = config.backend;
  switch (backend.type) {
    case "local":
      // Terraform runs in <outdir>/stacks/<stack>; a relative path keeps the synthesized JSON
      // free of machine-specific absolute paths, and the state outside cdktf.out.
      new LocalBackend(stack, { path: path.relative(path.join(outdir, "stacks", stackName), state) });
      return;
    case "azurerm":
      new AzurermBackend(stack, {
        resourceGroupName: backend.resourceGroupName,
        storageAccountName: backend.storageAccountName,
        containerName: backend.containerName,
        key: state,
        subscriptionId: config.subscriptionId,
        tenantId: config.tenantId,
        useAzureadAuth: true,
      });
      return;
    case "cloud":
      new CloudBackend(stack, {
        organization: backend.organization,
        hostname: backend.hostname,
        workspaces: new NamedCloudWorkspace(state, backend.project),
      });
      return;
  }
}
