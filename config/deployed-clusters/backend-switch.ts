import * as path from "node:path";
import { LoadedConfig } from "../load";
import { clusterOfStack, SHARED_STACK } from "../names";
import { environmentStateDirectory, RemoteBackendIdentity } from "../names/state";
import { ConfigIssue } from "../rules";
import { heldState } from "./local-state";
import { plural, sh, shown } from "./messages";
import { CONFIGS_LINE } from "./record-format";
import { otherRecords } from "./record-file";
import { configBase, describeBackend } from "./record-location";

/**
 * The backend switched to or from `local` (help/terraform-cloud.md#switching-the-backend). A change
 * between remote backends is refused from the records (record-issues.ts); these are the two
 * switches that involve the local folder, refused from what each side leaves behind:
 * - azurerm/cloud with no record, while this environment's local state folder (the default
 *   `backend.directory`) holds resources: the state stayed local;
 * - local with no state in the environment's folder, while a remote backend's record beside the
 *   config lists this config: the state stayed in that backend.
 * Either way every stack would plan from empty state, and the removed-cluster and protected-resource
 * checks would have nothing to compare. Nothing is moved: the messages say how to, deliberately.
 */

const HELP = "help/terraform-cloud.md#switching-the-backend";
const MIGRATE =
  "npm run deploy -- '*' --migrate-state (terraform init -migrate-state in each stack's folder: it copies the stack's state from the backend of its last init)";

/** A held state file as messages show it: `<file>: <n> resources`, or unreadable. */
export function heldText(held: { file: string; resources: number | undefined }, file = path.basename(held.file)): string {
  return `${file}: ${held.resources === undefined ? "unreadable" : plural(held.resources, "resource")}`;
}

/** azurerm/cloud, no record: the local state this environment left in the default local folder. */
export function localStateLeftBehind(loaded: LoadedConfig, identity: RemoteBackendIdentity, recordFile: string): ConfigIssue[] {
  const { config } = loaded;
  const directory = environmentStateDirectory(config, path.dirname(path.resolve(loaded.file)));
  const held = heldState(directory);
  if (held.length === 0) return [];
  const clusterStacks = held.map((h) => h.stack).filter((stack) => clusterOfStack(stack) !== undefined);
  const record = sh(shown(recordFile));
  const create = clusterStacks.length > 0 ? `printf '%s\\n' ${clusterStacks.join(" ")} > ${record}` : `: > ${record}`;
  return [
    {
      path: "backend",
      value: config.backend.type,
      message:
        `(${describeBackend(identity)}) has no record of its cluster stacks yet (${shown(recordFile)}), but this environment's local state folder ${shown(directory)}/ ` +
        `(prefix ${config.prefix}, subscriptionId ${config.subscriptionId}) holds state: ${held.map((h) => heldText(h)).join(", ")}. The backend changed from local, and state does not move with the config: ` +
        "every stack would plan from empty state in the new backend, creating everything again beside what runs, and the clusters in that folder would go unnoticed. " +
        `Put the backend back (type: local); or move the state deliberately: create the record with the cluster stacks that folder holds (${create}), synth, ` +
        `then ${MIGRATE}, and once every stack is migrated move ${shown(directory)}/ away. If that state is stale (an old trial whose resources no longer exist), move ${shown(directory)}/ away now. Synth writes nothing until then (${HELP})`,
    },
  ];
}

/** local, no local state: a remote backend's record beside the config that lists this config. */
export function remoteRecordLeftBehind(loaded: LoadedConfig): ConfigIssue[] {
  const directory = path.dirname(loaded.names.stateLocation(SHARED_STACK));
  const configFile = path.resolve(loaded.file);
  const base = path.basename(configFile);
  const records = otherRecords(path.dirname(configFile), []).filter(({ file, record }) =>
    record.backend !== undefined ? record.configs.includes(base) : configBase(file) === configBase(configFile),
  );
  if (records.length === 0 || heldState(directory).length > 0) return [];
  return records.map(({ file, record }) => {
    const stacks = [...record.record.keys()];
    const backend = record.backend === undefined ? "a remote backend (a record from before records named their backend)" : describeRecorded(record.backend);
    return {
      path: "backend",
      value: "local",
      message:
        `keeps state in ${shown(directory)}/, which holds none, but ${shown(file)}, the record of ${backend}, says ${base} deployed with that backend` +
        ` (cluster stacks: ${stacks.length > 0 ? stacks.join(", ") : "none"}). The backend changed to local, and state does not move with the config: every stack would plan from empty state in the local folder, ` +
        "and the clusters recorded there and their protected resources would go unnoticed. " +
        `Put the backend settings back; or move the state deliberately: copy each stack's state into ${shown(directory)}/<stack>.tfstate (terraform state pull > that file, in the stack's folder while it still uses the old backend), and synth sees it; ` +
        `or remove "${base}" from the ${CONFIGS_LINE} line of ${shown(file)} (delete the file if it is a record from before), synth, then ${MIGRATE}. ` +
        `If ${base} now describes another environment on purpose, remove "${base}" from that line too. Synth writes nothing until then (${HELP})`,
    };
  });
}

/** A record's `backend:` identity in words (canonical JSON as record-format.ts keeps it). */
function describeRecorded(backend: string): string {
  const identity = JSON.parse(backend) as RemoteBackendIdentity;
  return identity.type === "azurerm" || identity.type === "cloud" ? describeBackend(identity) : backend;
}
