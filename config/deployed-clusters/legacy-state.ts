import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "../load";
import { AKS_STACK, clusterOfStack, MANAGEMENT_STACK, SHARED_STACK } from "../names";
import { legacyStateDirectory } from "../names/state";
import { ConfigIssue } from "../rules";
import { managedResources, resourceGroupIds } from "./local-state";
import { plural, sh, shown } from "./messages";

/**
 * Migration of the local backend's state from the folder every config beside it used before
 * state was keyed by environment (`<backend.directory>/<stack>.tfstate`) to the environment's
 * own (config/names/state.ts). Synth does not move it itself: those files may be another
 * environment's.
 */

/** A stack this project can synthesize: shared, management, aks or a cluster's. */
function isStackName(name: string): boolean {
  return /^[a-z0-9][-a-z0-9]*$/.test(name) && ([SHARED_STACK, MANAGEMENT_STACK, AKS_STACK].includes(name) || clusterOfStack(name) !== undefined);
}

/**
 * State files in the old folder: while one holds resources, the config would plan from empty
 * state in `directory` (its environment's folder), so synth refuses with the command that moves them.
 */
export function legacyStateIssues(loaded: LoadedConfig, directory: string): ConfigIssue[] {
  const legacy = legacyStateDirectory(directory);
  if (!fs.existsSync(legacy)) return [];
  const files = fs
    .readdirSync(legacy)
    .sort()
    .filter((entry) => isStackName(entry.replace(/\.tfstate$/, "")) && entry.endsWith(".tfstate") && fs.statSync(path.join(legacy, entry)).isFile());
  const counts = files.map((entry) => managedResources(path.join(legacy, entry)));
  if (counts.every((count) => count === 0)) return [];

  const { config } = loaded;
  const described = files.map((entry, i) => describeLegacyFile(loaded, path.join(legacy, entry), counts[i]));
  const moves = files.flatMap((entry) => [entry, `${entry}.backup`]).filter((entry) => fs.existsSync(path.join(legacy, entry)));
  const clashes = moves.filter((entry) => fs.existsSync(path.join(directory, entry)));
  const movable = moves.filter((entry) => !clashes.includes(entry));
  const target = shown(directory);
  const command =
    movable.length > 0
      ? `mkdir -p ${sh(target)} && mv ${movable.map((entry) => sh(shown(path.join(legacy, entry)))).join(" ")} ${sh(`${target}/`)}`
      : undefined;
  return [
    {
      path: "backend.directory",
      value: config.backend.type === "local" ? config.backend.directory : undefined,
      message:
        `holds state files where every config beside it kept its state before each environment got its own folder: ${described.join(", ")}. ` +
        `This config's state (prefix ${config.prefix}, subscriptionId ${config.subscriptionId}) is now ${target}/, so a config of another environment beside it never shares it; with those files left where they are, it would plan as if nothing were deployed. ` +
        "Synth does not move them itself: that folder was shared by every config beside it, and a state file does not say which environment wrote it. " +
        (command ? `If they are this environment's state, move them:\n      ${command}\n    ` : "") +
        (clashes.length > 0
          ? `${clashes.map((entry) => shown(path.join(directory, entry))).join(", ")} exist${clashes.length === 1 ? "s" : ""} in both places: keep the one that is this environment's state and move the other away. `
          : "") +
        "Then add --migrate-state to the next deploy, diff or destroy (npm run deploy -- '*' --migrate-state): each stack's folder in the output remembers the old path. " +
        "If they are another config's, synth that config and move them where it says; files of a destroyed environment can go (help/retire-cluster.md#state-from-before-environments-had-their-own-folder).",
    },
  ];
}

/** `<file>: <count> resources`, and for `shared`, whose environment its persistent resource group says it is. */
function describeLegacyFile(loaded: LoadedConfig, file: string, count: number | undefined): string {
  let text = `${shown(file)}: ${count === undefined ? "unreadable" : plural(count, "resource")}`;
  if (path.basename(file) === `${SHARED_STACK}.tfstate`) {
    const groups = resourceGroupIds(file);
    const ours = groups.find((id) => id.toLowerCase() === loaded.names.resourceGroup.id.toLowerCase());
    if (ours) text += ` (resource group ${ours}: this config's)`;
    else if (groups.length > 0)
      text += ` (resource group ${groups.join(", ")}: not this config's ${loaded.names.resourceGroup.id}, so probably another config's state)`;
  }
  return text;
}
