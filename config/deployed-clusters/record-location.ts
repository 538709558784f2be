import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "../load";
import { clusterRecordName, RECORD_SUFFIX, RemoteBackendIdentity, remoteBackendIdentity } from "../names/state";
import { sh } from "./messages";

/**
 * Where a remote backend's record is, named after the backend's identity (config/names/state.ts),
 * where it was when records were named after the config, and the backend in words.
 */

/** The record of a config with a remote backend: `<config dir>/<clusterRecordName>`; undefined for the local backend. */
export function clusterRecordFile(loaded: LoadedConfig): string | undefined {
  const identity = remoteBackendIdentity(loaded.config);
  return identity && path.join(path.dirname(path.resolve(loaded.file)), clusterRecordName(identity));
}

/** Where a config's record was before records were named after the backend: `<dir>/<config name without .yaml/.yml>.clusters.lock`. */
export function legacyClusterRecordFile(configFile: string): string {
  const absolute = path.resolve(configFile);
  return path.join(path.dirname(absolute), `${configBase(absolute)}${RECORD_SUFFIX}`);
}

/** A config file's or record's name without `.yaml`/`.yml`/`.clusters.lock`. */
export function configBase(file: string): string {
  return path
    .basename(file)
    .replace(RECORD_SUFFIX, "")
    .replace(/\.ya?ml$/i, "");
}

/** Whether the config an old-style record was named after is beside it. */
export function configBeside(record: string): boolean {
  const base = path.join(path.dirname(record), configBase(record));
  return [".yaml", ".yml"].some((ext) => fs.existsSync(`${base}${ext}`));
}

/** A backend's identity in words. */
export function describeBackend(identity: RemoteBackendIdentity): string {
  return identity.type === "azurerm"
    ? `azurerm: storage account ${identity.storageAccountName}, container ${identity.containerName}, blobs ${identity.keyPrefix}<stack>.tfstate`
    : `cloud: organization ${identity.organization} on ${identity.hostname}, workspaces ${identity.workspacePrefix}<stack>`;
}

/** How to list what a backend holds: the state blobs or the workspaces. */
export function backendListing(identity: RemoteBackendIdentity): string {
  return identity.type === "azurerm"
    ? `az storage blob list --auth-mode login --account-name ${identity.storageAccountName} --container-name ${identity.containerName} --prefix ${sh(identity.keyPrefix)} --query '[].name' -o tsv`
    : `the workspaces named ${identity.workspacePrefix}* in organization ${identity.organization} on ${identity.hostname}`;
}
