import * as path from "node:path";
import { CLOUD_ENDPOINTS } from "../cloud";
import { Config } from "../schema";
import { AdoptionNames, adoptionNames } from "./adoption";
import { GUIDE_EXTERNAL_DNS_APPLICATION, GUIDE_RESOURCE_GROUP } from "./guide";
import { aksNames, keyVaultNames } from "./aro-hcp";
import { clusterNames } from "./cluster";
import { defaultStorageAccountName, issuerUrl, stableSuffix } from "./naming";
import { keyFiles, userPath } from "./paths";
import { PrivateLinkOperatorNames, privateLinkOperatorNames } from "./private-link";
import { MANAGEMENT_STACK, SHARED_STACK } from "./stacks";
import { stateLocator } from "./state";
import type { ClusterNames, DnsNames, IssuerNames, TopologyNames } from "./types";

/**
 * Every name this project gives to a stack, an Azure resource, a URL or a file, derived from the
 * validated config in this one place (config/names/), deterministically (no clock, no
 * randomness). Stacks and rules ask for names here; constructs receive them as props.
 */

/** Files of the management-cluster stack: absolute, or starting with `~/` (expanded by the provider). */
export interface ManagementClusterFiles {
  readonly kubeconfig?: string;
  readonly bundleFile: string;
  readonly pullSecretFile?: string;
  readonly externalDnsCredentialsFile?: string;
}

export interface DeploymentNames {
  readonly sharedStack: string;
  /** Phase 2 stack: the HyperShift operator and ExternalDNS credentials on the management cluster. */
  readonly managementStack: string;
  readonly dns?: DnsNames;
  /** Files the management stack uses, when managementCluster is configured. */
  readonly managementCluster?: ManagementClusterFiles;
  /** The topology and what only it has: selfManaged, or aroHcp with its Key Vault and AKS cluster. */
  readonly topology: TopologyNames;
  /** Entra display name of the ExternalDNS application, when ExternalDNS is on. */
  readonly externalDnsApplication?: string;
  /** The operator's Private Link Service management, when managementCluster.privateLink is configured. */
  readonly privateLink?: PrivateLinkOperatorNames;
  readonly resourceGroup: { readonly name: string; readonly id: string };
  readonly storageAccount: {
    readonly name: string;
    readonly origin: string;
    readonly id: string;
    readonly blobEndpoint: string;
  };
  /** The shared issuer (oidc.issuer: shared), else undefined. */
  readonly sharedIssuer?: IssuerNames;
  readonly clusters: readonly ClusterNames[];
  /** Terraform import blocks that take over what seed 004's commands made (config `adopt`, `clusters[].adopt`). */
  readonly adoption: AdoptionNames;
  /**
   * Where a stack's state lives, in the configured backend's terms: the absolute state file
   * (local), the blob key (azurerm) or the workspace name (cloud).
   */
  stateLocation(stack: string): string;
}

/**
 * Derives every name. `configDir` is the absolute folder of the config file (relative paths in
 * the config are relative to it). Assumes a schema-valid config; `rules/` checks the results.
 */
export function deriveNames(config: Config, configDir: string, hypershiftRelease?: string): DeploymentNames {
  // Adoption: the guide's names are the defaults (rules/adopt.ts checks explicit names agree).
  const resourceGroupName =
    config.resourceGroup.name ?? (config.adopt ? (config.adopt.resourceGroupName ?? GUIDE_RESOURCE_GROUP) : `${config.prefix}-hcp-persistent`);
  const resourceGroupId = `/subscriptions/${config.subscriptionId}/resourceGroups/${resourceGroupName}`;
  const resourceGroup = { name: resourceGroupName, id: resourceGroupId };
  const accountName =
    config.oidc.storageAccountName ??
    config.adopt?.oidcStorageAccountName ??
    defaultStorageAccountName(config.prefix, config.subscriptionId, resourceGroupName);

  const storageAccount = {
    name: accountName,
    id: `${resourceGroupId}/providers/Microsoft.Storage/storageAccounts/${accountName}`,
    blobEndpoint: `https://${accountName}.${CLOUD_ENDPOINTS[config.cloud].blobSuffix}`,
  };
  const sharedIssuer = sharedIssuerNames(config, configDir, accountName);
  const dns = config.dns && dnsNames(config);
  const clusters = config.clusters.map((cluster, index) =>
    clusterNames(config, cluster, index, {
      configDir,
      storageAccountName: accountName,
      resourceGroup,
      sharedIssuer,
      deploymentZone: dns?.zoneName,
      hypershiftRelease,
    }),
  );

  return {
    sharedStack: SHARED_STACK,
    managementStack: MANAGEMENT_STACK,
    dns,
    topology: topologyNames(config, resourceGroupId),
    externalDnsApplication:
      config.externalDns &&
      (config.externalDns.applicationName ?? (config.adopt?.externalDns ? GUIDE_EXTERNAL_DNS_APPLICATION : `${config.prefix}-external-dns`)),
    managementCluster: managementClusterFiles(config, configDir),
    privateLink: privateLinkOperatorNames(config, configDir),
    resourceGroup,
    storageAccount: {
      ...storageAccount,
      origin: config.oidc.storageAccountName ? "oidc.storageAccountName" : config.adopt ? "adopt.oidcStorageAccountName" : "prefix",
    },
    sharedIssuer,
    clusters,
    adoption: adoptionNames(config, {
      resourceGroup,
      storageAccount,
      sharedContainer: sharedIssuer?.containerName,
      sharedStack: SHARED_STACK,
      dns,
      clusters,
    }),
    stateLocation: stateLocator(config, configDir),
  };
}

/** The management stack's files, when managementCluster is configured. */
function managementClusterFiles(config: Config, configDir: string): ManagementClusterFiles | undefined {
  const management = config.managementCluster;
  return (
    management && {
      kubeconfig: management.kubeconfig && userPath(configDir, management.kubeconfig.path),
      bundleFile: path.resolve(configDir, management.operator.bundleFile),
      pullSecretFile: management.pullSecretFile && path.resolve(configDir, management.pullSecretFile),
      externalDnsCredentialsFile: management.externalDnsCredentialsFile && path.resolve(configDir, management.externalDnsCredentialsFile),
    }
  );
}

/** The shared issuer (oidc.issuer: shared, with its signing key), else undefined. */
function sharedIssuerNames(config: Config, configDir: string, accountName: string): IssuerNames | undefined {
  if (config.oidc.issuer !== "shared" || !config.serviceAccountSigningKey) return undefined;
  return {
    containerName: config.oidc.containerName ?? accountName,
    containerOrigin: config.oidc.containerName ? "oidc.containerName" : "oidc.storageAccountName",
    url: issuerUrl(accountName, config.oidc.containerName ?? accountName, CLOUD_ENDPOINTS[config.cloud].blobSuffix),
    ...keyFiles(config.serviceAccountSigningKey, configDir),
    keyOrigin: "serviceAccountSigningKey",
  };
}

function dnsNames(config: Config): DnsNames | undefined {
  const dns = config.dns;
  if (!dns) return undefined;
  const parent = dns.parent;
  // rules/structure.ts guarantees a zone name or a parent to derive it from.
  const zoneName = dns.zoneName ?? (parent ? `${config.prefix}.${parent.zoneName}` : "");
  return {
    zoneName,
    zoneOrigin: dns.zoneName ? "dns.zoneName" : "prefix",
    parent: parent && {
      zoneName: parent.zoneName,
      resourceGroupName: parent.resourceGroupName,
      subscriptionId: parent.subscriptionId ?? config.subscriptionId,
    },
  };
}

function topologyNames(config: Config, persistentGroupId: string): TopologyNames {
  if (config.topology !== "aroHcp") return { kind: "selfManaged" };
  return { kind: "aroHcp", keyVault: keyVaultNames(config, persistentGroupId, stableSuffix), aks: aksNames(config, stableSuffix) };
}
