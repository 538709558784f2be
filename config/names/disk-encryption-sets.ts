import { BUILT_IN_ROLES } from "../azure-roles";
import { WorkloadIdentityKey } from "../components";
import { uuidv5 } from "../uuid";
import type { HostedClusterNames } from "./types";
import { parseArmId } from "./naming";

/** A role on a NodePool's disk encryption set (the shape `WorkloadIdentityRoles` takes). */
export interface DiskEncryptionSetRole {
  readonly identity: Extract<WorkloadIdentityKey, "nodePoolManagement" | "disk">;
  /** `diskEncryptionSet_<group>_<name>`: with `identity`, the construct ID of the assignment. */
  readonly scopeKind: string;
  /** The disk encryption set's ARM ID. */
  readonly scope: string;
  readonly roleGuid: string;
  readonly roleName: string;
  /** UUIDv5 (DNS namespace) of `<infraID>-<component>-<scope>`, as HyperShift names its assignments. */
  readonly name: string;
}

/**
 * Who must read a NodePool's disk encryption set: Azure checks `Microsoft.Compute/diskEncryptionSets/read`
 * on the set as a linked scope (LinkedAuthorizationFailed otherwise) whenever a VM or disk that
 * uses it is written. CAPZ (nodePoolManagement) creates the workers with it; the Azure Disk CSI
 * controller (disk) attaches volumes to those VMs, which writes the VM (OCPBUGS-984). Reader on
 * the set alone is the least built-in role that has that action. HyperShift grants nothing here:
 * its scopes are the cluster's resource groups, and a set lives elsewhere.
 */
const READERS = [
  { identity: "nodePoolManagement", component: "capz" },
  { identity: "disk", component: "azure-disk" },
] as const;

/** The Reader assignments on every disk encryption set the cluster's NodePools name, once per set and identity. */
export function diskEncryptionSetRoles(hosted: HostedClusterNames): DiskEncryptionSetRole[] {
  const sets = new Map<string, string>();
  for (const pool of hosted.config.nodePools) {
    const id = pool.osDisk.diskEncryptionSetId;
    if (id && !sets.has(id.toLowerCase())) sets.set(id.toLowerCase(), id);
  }
  return [...sets.values()].flatMap((scope) => {
    const { resourceGroup, name } = parseArmId(scope);
    return READERS.map(({ identity, component }) => ({
      identity,
      scopeKind: `diskEncryptionSet_${resourceGroup}_${name}`,
      scope,
      roleGuid: BUILT_IN_ROLES.reader.guid,
      roleName: BUILT_IN_ROLES.reader.name,
      name: uuidv5(`${hosted.infraId}-${component}-${scope.toLowerCase()}`),
    }));
  });
}
