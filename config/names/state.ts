import { createHash } from "node:crypto";
import * as path from "node:path";
import { BackendConfig, Config } from "../schema";
import { DEFAULT_STATE_DIRECTORY } from "../schema/backend";

/**
 * Where state lives, keyed by what identifies the environment (never by the config's file name):
 *
 * - local: `<backend.directory>/<subscriptionId>/<prefix>/<stack>.tfstate` beside the config. Two
 *   configs in one folder share state only when they name the same prefix and subscription, i.e.
 *   the same Azure resources. Before, every config beside it used `<backend.directory>/<stack>.tfstate`
 *   (`legacyStateDirectory`): config/deployed-clusters/ refuses to synth while state is there.
 * - azurerm: the blob `<keyPrefix><stack>.tfstate` (default key prefix `hcp-azure/<prefix>/`).
 * - cloud: the workspace `<workspacePrefix><stack>` (default `<prefix>-`).
 *
 * With a remote backend, synth also keeps a record of the cluster stacks it synthesized
 * (config/deployed-clusters/), named after the backend's identity: `clusterRecordName`.
 */

/** A local backend's state folder: `<backend.directory>/<subscriptionId, lower case>/<prefix>` beside the config. */
export function localStateDirectory(config: Config, configDir: string): string | undefined {
  const backend = config.backend;
  if (backend.type !== "local") return undefined;
  return environmentStateDirectory(config, configDir, backend.directory);
}

/**
 * The environment's folder under a local state folder, whatever the backend is now: where a
 * config switched to azurerm or cloud kept its state while it was local (the default
 * `backend.directory`; config/deployed-clusters/backend-switch.ts).
 */
export function environmentStateDirectory(config: Config, configDir: string, directory: string = DEFAULT_STATE_DIRECTORY): string {
  return path.resolve(configDir, directory, config.subscriptionId.toLowerCase(), config.prefix);
}

/**
 * Where every config beside it kept its local state before state was keyed by environment,
 * `<backend.directory>` itself, given the folder `localStateDirectory` returns (two levels below it).
 */
export function legacyStateDirectory(stateDirectory: string): string {
  return path.dirname(path.dirname(stateDirectory));
}

/**
 * Where a stack's state lives, in the configured backend's terms: the absolute state file
 * (local), the blob key (azurerm) or the workspace name (cloud).
 */
export function stateLocator(config: Config, configDir: string): (stack: string) => string {
  const backend: BackendConfig = config.backend;
  switch (backend.type) {
    case "local": {
      const directory = localStateDirectory(config, configDir) as string;
      return (stack) => path.join(directory, `${stack}.tfstate`);
    }
    case "azurerm":
      return (stack) => `${azurermKeyPrefix(config, backend)}${stack}.tfstate`;
    case "cloud":
      return (stack) => `${cloudWorkspacePrefix(config, backend)}${stack}`;
  }
}

type AzurermBackend = Extract<BackendConfig, { type: "azurerm" }>;
type CloudBackend = Extract<BackendConfig, { type: "cloud" }>;

const azurermKeyPrefix = (config: Config, backend: AzurermBackend) => backend.keyPrefix ?? `hcp-azure/${config.prefix}/`;
const cloudWorkspacePrefix = (config: Config, backend: CloudBackend) => backend.workspacePrefix ?? `${config.prefix}-`;

/**
 * What identifies a remote backend's states, with the config's field names and defaults applied:
 * two configs with equal identities read and write the same states. azurerm: the storage account
 * (its name is global), container and key prefix. cloud: the host, organization and workspace
 * prefix (a workspace name is unique in its organization; the project only groups them).
 */
export type RemoteBackendIdentity =
  | { readonly type: "azurerm"; readonly storageAccountName: string; readonly containerName: string; readonly keyPrefix: string }
  | { readonly type: "cloud"; readonly hostname: string; readonly organization: string; readonly workspacePrefix: string };

export function remoteBackendIdentity(config: Config): RemoteBackendIdentity | undefined {
  const backend = config.backend;
  switch (backend.type) {
    case "local":
      return undefined;
    case "azurerm":
      return {
        type: "azurerm",
        storageAccountName: backend.storageAccountName,
        containerName: backend.containerName,
        keyPrefix: azurermKeyPrefix(config, backend),
      };
    case "cloud":
      return { type: "cloud", hostname: backend.hostname, organization: backend.organization, workspacePrefix: cloudWorkspacePrefix(config, backend) };
  }
}

/** The identity as one line of JSON, its keys in a fixed order: what a record states and is compared by. */
export function identityText(identity: RemoteBackendIdentity): string {
  return JSON.stringify(identity);
}

export const RECORD_SUFFIX = ".clusters.lock";
/** File names stay well under the usual 255-byte limit; longer ones end in a hash of the whole. */
const MAX_RECORD_NAME = 200;

/**
 * The file name of a remote backend's record of cluster stacks: the identity's values joined by
 * `+`, each byte outside `[A-Za-z0-9._-]` written `%XX` (so `/` is `%2F` and a `+` in a value
 * cannot be confused with the separator), e.g.
 * `azurerm+acmetfstate+tfstate+hcp-azure%2Facme-hcp%2F.clusters.lock`. Distinct identities get
 * distinct names (a name cut to length ends in a hash of the whole; the record's `backend:` line
 * is compared too).
 */
export function clusterRecordName(identity: RemoteBackendIdentity): string {
  const { type, ...fields } = identity;
  const name = [type, ...Object.values(fields)].map(encodeNamePart).join("+");
  if (name.length + RECORD_SUFFIX.length <= MAX_RECORD_NAME) return `${name}${RECORD_SUFFIX}`;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 16);
  return `${name.slice(0, MAX_RECORD_NAME - RECORD_SUFFIX.length - hash.length - 1)}~${hash}${RECORD_SUFFIX}`;
}

function encodeNamePart(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9._-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
}
