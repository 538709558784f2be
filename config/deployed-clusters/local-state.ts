import * as fs from "node:fs";
import * as path from "node:path";
import { readLimitedFile } from "../read-file";

/**
 * What synth reads from the local backend's Terraform state files (format version 4): managed
 * resources, their addresses, resource group IDs. Read through read-file.ts (`state`: a regular
 * file of at most 256 MiB); a file that cannot be read or parsed as state is `undefined`, which
 * callers count as possibly holding anything.
 */

interface StateFile {
  resources?: Array<{ mode?: string; type?: string; name?: unknown; module?: unknown; instances?: Array<{ attributes?: { id?: unknown } }> }>;
}

function readState(file: string): StateFile | undefined {
  const read = readLimitedFile(file, "state");
  if (!read.ok) return undefined;
  try {
    return JSON.parse(read.text) as StateFile;
  } catch {
    return undefined;
  }
}

/** Managed resource instances in a state file; undefined when it cannot be read as state. */
export function managedResources(file: string): number | undefined {
  const state = readState(file);
  if (!state || !Array.isArray(state.resources)) return undefined;
  return state.resources.filter((r) => r.mode === "managed").reduce((sum, r) => sum + (r.instances?.length ?? 0), 0);
}

/** The IDs of the resource groups (created or looked up) a state file holds. */
export function resourceGroupIds(file: string): string[] {
  const resources = readState(file)?.resources;
  if (!Array.isArray(resources)) return [];
  return resources
    .filter((r) => r.type === "azurerm_resource_group")
    .flatMap((r) => r.instances ?? [])
    .map((instance) => instance?.attributes?.id)
    .filter((id): id is string => typeof id === "string");
}

/** Managed resource addresses (`type.name`) of a state file with at least one instance; undefined when it cannot be read. */
export function stateAddresses(file: string): Set<string> | undefined {
  const state: any = readState(file);
  if (!Array.isArray(state?.resources)) return undefined;
  return new Set(
    state.resources
      .filter((r: any) => r?.mode === "managed" && (r.instances?.length ?? 0) > 0 && !r.module)
      .map((r: any) => `${String(r.type)}.${String(r.name)}`),
  );
}

/**
 * The state files (`<stack>.tfstate`) of a folder that hold resources or cannot be read as state,
 * by stack, sorted: `resources` undefined when unreadable (it may hold anything).
 */
export function heldState(directory: string): Array<{ stack: string; file: string; resources: number | undefined }> {
  if (!fs.existsSync(directory) || !fs.statSync(directory).isDirectory()) return [];
  return fs
    .readdirSync(directory)
    .sort()
    .flatMap((entry) => {
      const stack = /^(.+)\.tfstate$/.exec(entry)?.[1];
      const file = path.join(directory, entry);
      if (!stack || !fs.statSync(file).isFile()) return [];
      const resources = managedResources(file);
      return resources === 0 ? [] : [{ stack, file, resources }];
    });
}
