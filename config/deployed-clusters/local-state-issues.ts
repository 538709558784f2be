import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "../load";
import { clusterOfStack, SHARED_STACK } from "../names";
import { ConfigIssue } from "../rules";
import { remoteRecordLeftBehind } from "./backend-switch";
import { configuredStacks, issuesFor } from "./cluster-issues";
import { legacyStateIssues } from "./legacy-state";
import { managedResources } from "./local-state";
import { plural, shown } from "./messages";

/**
 * The local backend: the state files, `<backend.directory>/<subscriptionId>/<prefix>/<stack>.tfstate`,
 * read directly. State still in the old shared folder comes first (legacy-state.ts); with no state,
 * a remote backend's record that lists this config (backend-switch.ts).
 */
export function localStateIssues(loaded: LoadedConfig): ConfigIssue[] {
  const directory = path.dirname(loaded.names.stateLocation(SHARED_STACK));
  const legacy = legacyStateIssues(loaded, directory);
  return legacy.length > 0 ? legacy : [...remoteRecordLeftBehind(loaded), ...removedWithLocalState(loaded, directory)];
}

function removedWithLocalState(loaded: LoadedConfig, directory: string): ConfigIssue[] {
  if (!fs.existsSync(directory)) return [];
  const configured = configuredStacks(loaded);
  const held = new Map<string, string>();
  for (const entry of fs.readdirSync(directory).sort()) {
    const stack = /^(.+)\.tfstate$/.exec(entry)?.[1];
    if (!stack || !clusterOfStack(stack) || configured.has(stack)) continue;
    const count = managedResources(path.join(directory, entry));
    if (count === 0) continue;
    held.set(stack, `${shown(path.join(directory, entry))}: ${count === undefined ? "unreadable" : plural(count, "resource")}`);
  }
  return issuesFor(
    loaded,
    held,
    (items) => items.join(", "),
    () => "If those resources are gone already, move the state files away.",
  );
}
