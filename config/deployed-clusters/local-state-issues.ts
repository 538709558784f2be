import * as path from "node:path";
import { LoadedConfig } from "../load";
import { clusterOfStack, SHARED_STACK } from "../names";
import { ConfigIssue } from "../rules";
import { heldText, remoteRecordLeftBehind } from "./backend-switch";
import { configuredStacks, issuesFor } from "./cluster-issues";
import { legacyStateIssues } from "./legacy-state";
import { heldState } from "./local-state";
import { shown } from "./messages";

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
  const configured = configuredStacks(loaded);
  const held = new Map(
    heldState(directory)
      .filter((h) => clusterOfStack(h.stack) && !configured.has(h.stack))
      .map((h) => [h.stack, heldText(h, shown(h.file))]),
  );
  return issuesFor(
    loaded,
    held,
    (items) => items.join(", "),
    () => "If those resources are gone already, move the state files away.",
  );
}
