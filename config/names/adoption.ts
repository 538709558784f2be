import { BUILT_IN_ROLES } from "../azure-roles";
import { adoptsHostedCluster, Config } from "../schema";
import { clusterImports, identitiesImports, infraImports, sharedImports } from "./adoption-imports";
import type { AdoptedResource, AdoptionBasis, ClusterStackImports, StackImports } from "./adoption-types";
import { dnsZoneId } from "./naming";

/**
 * Adoption (config `adopt`, `clusters[].adopt`): the Terraform import ID of every resource seed
 * 004's commands made, by stack and by what it is (help/adopt.md). Which resource of a stack takes
 * each one over is the constructs' to say (their `importTargets`); the stacks join the two. Import
 * ID formats are the providers' documented ones (azurerm 4.x, azuread 3.x "Import" sections).
 */

export interface AdoptionNames {
  /** What each stack imports, by stack name; a stack without adoption has no entry. */
  readonly stacks: ReadonlyMap<string, StackImports>;
  /** The same imports as one list per stack (for counting and listing them). */
  readonly imports: ReadonlyMap<string, readonly AdoptedResource[]>;
  /**
   * ccoctl's issuer is adopted: its storage account keeps the settings that would force a
   * replacement (infrastructure encryption off), and its documents are kept until their content changes.
   */
  readonly ccoctlIssuer: boolean;
  /** The adopted ExternalDNS principal's role assignments, as `az role assignment create` made them. */
  readonly externalDns?: {
    /** Their names (az's random GUIDs), by role definition GUID. */
    readonly roleAssignmentNames: Readonly<Record<string, string>>;
    /**
     * Their scope, exactly as az passed it: the zone ID `az network dns zone show` printed, with
     * ARM's lowercase `dnszones`. azurerm keeps a resource scope as ARM returns it and a
     * different one forces a replacement, so the zone resource's own ID (`dnsZones`) will not do.
     */
    readonly zoneScope: string;
  };
}

/** Every import of the deployment: the shared stack's (config `adopt`) and each adopted cluster's. */
export function adoptionNames(config: Config, basis: AdoptionBasis): AdoptionNames {
  const stacks = new Map<string, StackImports>();
  const adopt = config.adopt;
  let externalDns: AdoptionNames["externalDns"];
  if (adopt) {
    stacks.set(basis.sharedStack, sharedImports(config, basis));
    if (adopt.externalDns && basis.dns) {
      externalDns = {
        roleAssignmentNames: {
          [BUILT_IN_ROLES.reader.guid]: adopt.externalDns.roleAssignments.reader,
          [BUILT_IN_ROLES.contributor.guid]: adopt.externalDns.roleAssignments.contributor,
        },
        zoneScope: dnsZoneId(basis.resourceGroup.id, basis.dns.zoneName),
      };
    }
  }
  for (const cluster of basis.clusters) {
    const spec = config.clusters[cluster.index];
    if (!spec.adopt || cluster.retired) continue;
    stacks.set(cluster.identitiesStack, identitiesImports(cluster));
    const infra = spec.adopt.infrastructure ? infraImports(cluster, basis.resourceGroup.name) : undefined;
    if (infra && cluster.hosted) stacks.set(cluster.hosted.infraStack, infra);
    // The HostedCluster is Phase 3's: adopted with it unless hostedCluster: false (a rule refuses true without it).
    const objects = adoptsHostedCluster(spec.adopt) ? clusterImports(cluster) : undefined;
    if (objects && cluster.hosted && config.managementCluster) stacks.set(cluster.hosted.clusterStack, objects);
  }
  const imports = new Map([...stacks].map(([stack, record]) => [stack, adoptedResourcesOf(record)]));
  return { stacks, imports, ccoctlIssuer: adopt !== undefined && basis.sharedContainer !== undefined, externalDns };
}

/**
 * The objects `hypershift create cluster azure` made that `stack` (a cluster stack) takes over, or
 * undefined when it creates its own: the cluster stack keeps their etcd and SSH keys and applies
 * them with force_conflicts.
 */
export function adoptedClusterObjects(adoption: AdoptionNames, stack: string): ClusterStackImports | undefined {
  const imports = adoption.stacks.get(stack);
  return imports?.kind === "cluster" ? imports : undefined;
}

/** Every adopted resource a stack's imports hold, in the order they are written. */
function adoptedResourcesOf(record: StackImports): AdoptedResource[] {
  const found: AdoptedResource[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isAdoptedResource(value)) found.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(record);
  return found;
}

function isAdoptedResource(value: unknown): value is AdoptedResource {
  return typeof value === "object" && value !== null && "type" in value && "id" in value && "madeBy" in value;
}
