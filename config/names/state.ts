import * as path from "node:path";
import { BackendConfig, Config } from "../schema";

/**
 * Where a stack's state lives, in the configured backend's terms: the absolute state file
 * (local), the blob key (azurerm) or the workspace name (cloud).
 */
export function stateLocator(config: Config, configDir: string): (stack: string) => string {
  const backend: BackendConfig = config.backend;
  switch (backend.type) {
    case "local":
      return (stack) => path.resolve(configDir, backend.directory, `${stack}.tfstate`);
    case "azurerm":
      return (stack) => `${backend.keyPrefix ?? `hcp-azure/${config.prefix}/`}${stack}.tfstate`;
    case "cloud":
      return (stack) => `${backend.workspacePrefix ?? `${config.prefix}-`}${stack}`;
  }
}
