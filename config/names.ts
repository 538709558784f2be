import { createHash } from "node:crypto";
import * as path from "node:path";
import { WORKLOAD_IDENTITY_COMPONENTS, WorkloadIdentityKey } from "./components";
import { BackendConfig, Config, SigningKeyConfig } from "./schema";

/**
 * Every name this project gives to a stack, an Azure resource, a URL or a file, derived from the
 * validated config in this one place, deterministically (no clock, no randomness). Stacks and
 * rules ask for names here; constructs receive them as props.
 */

export interface FederatedCredentialName {
  /** `<identity>-fed-id[-<suffix>]`, as seed 004's `az identity federated-credential create`. */
  readonly name: string;
  /** `system:serviceaccount:<namespace>:<name>`. */
  readonly subject: string;
}

export interface IdentityNames {
  /** HyperShift's workloadIdentities key. */
  readonly key: WorkloadIdentityKey;
  /** `<namePrefix>-<component suffix>`. */
  readonly name: string;
  /** ARM ID of the user-assigned identity (known before it exists). */
  readonly id: string;
  readonly credentials: readonly FederatedCredentialName[];
}

export interface IssuerNames {
  /** Blob container serving the documents; the last segment of the issuer URL. */
  readonly containerName: string;
  /** Config path the container name comes from (for error messages). */
  readonly containerOrigin: string;
  /** `https://<account>.blob.core.windows.net/<container>`, no trailing slash. */
  readonly url: string;
  /** Absolute paths of the signing key pair. */
  readonly publicKeyFile: string;
  readonly privateKeyFile: string;
  /** Config path of the key pair (for error messages). */
  readonly keyOrigin: string;
}

export interface ClusterNames {
  readonly name: string;
  /** Index in `clusters` (for error messages). */
  readonly index: number;
  /** Stack holding this cluster's identities (and, per-cluster mode, its issuer). */
  readonly identitiesStack: string;
  /** Prefix of identity names and the config path it comes from. */
  readonly identityPrefix: string;
  readonly identityPrefixOrigin: string;
  readonly issuer: IssuerNames;
  /** Whether the issuer belongs to this cluster alone (oidc.issuer: perCluster). */
  readonly ownsIssuer: boolean;
  readonly identities: readonly IdentityNames[];
}

export interface DnsNames {
  /** The public zone in the persistent resource group. */
  readonly zoneName: string;
  /** Config path the zone name comes from (for error messages). */
  readonly zoneOrigin: string;
  /** ARM ID of the zone (known before it exists). */
  readonly zoneId: string;
  /** The delegating parent zone, when configured. */
  readonly parent?: {
    readonly zoneName: string;
    readonly resourceGroupName: string;
    readonly subscriptionId: string;
  };
}

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
  /** Entra display name of the ExternalDNS application, when ExternalDNS is on. */
  readonly externalDnsApplication?: string;
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
  /**
   * Where a stack's state lives, in the configured backend's terms: the absolute state file
   * (local), the blob key (azurerm) or the workspace name (cloud).
   */
  stateLocation(stack: string): string;
}

export const SHARED_STACK = "shared";
export const MANAGEMENT_STACK = "management";
export const identitiesStackName = (cluster: string) => `identities-${cluster}`;

/** Blob paths of the OIDC documents inside the issuer container (ccoctl and Kubernetes layout). */
export const OIDC_DISCOVERY_PATH = ".well-known/openid-configuration";
export const OIDC_JWKS_PATH = "openid/v1/jwks";

/** Stable 6-hex suffix making the storage account name globally unique per deployment. */
export function stableSuffix(...parts: string[]): string {
  return createHash("sha256").update(parts.join("/").toLowerCase()).digest("hex").slice(0, 6);
}

export function defaultStorageAccountName(prefix: string, subscriptionId: string, resourceGroup: string): string {
  return `${prefix.replace(/-/g, "").slice(0, 14)}oidc${stableSuffix(subscriptionId, resourceGroup, prefix)}`;
}

export function issuerUrl(storageAccount: string, container: string): string {
  return `https://${storageAccount}.blob.core.windows.net/${container}`;
}

/**
 * The record set name that delegates `zone` from `parent` (`a.b` for `a.b.example.com` in
 * `example.com`), or undefined when `parent` is not a proper suffix of `zone`.
 */
export function delegationRecordName(zone: string, parent: string): string | undefined {
  return zone.endsWith(`.${parent}`) && zone.length > parent.length + 1 ? zone.slice(0, -(parent.length + 1)) : undefined;
}

/** ccoctl's pair convention: `x.public` goes with `x.private`. */
export function defaultPrivateKeyFile(publicKeyFile: string): string {
  return publicKeyFile.endsWith(".public") ? publicKeyFile.replace(/\.public$/, ".private") : `${publicKeyFile}.private`;
}

function keyFiles(key: SigningKeyConfig, configDir: string) {
  return {
    publicKeyFile: path.resolve(configDir, key.publicKeyFile),
    privateKeyFile: path.resolve(configDir, key.privateKeyFile ?? defaultPrivateKeyFile(key.publicKeyFile)),
  };
}

function stateLocator(config: Config, configDir: string): (stack: string) => string {
  const backend: BackendConfig = config.backend;
  switch (backend.type) {
    case "local":
      return (stack) => path.resolve(configDir, backend.directory, `${stack}.tfstate`);
    case "azurerm":
      return (stack) => `${backend.keyPrefix ?? `hcp-azure/${config.prefix}/`}${stack}.tfstate`;
    case "cloud":
      return (stack) => `${backend.workspacePrefix ?? `${config.prefix}-`}${stack}`;
  }
}

function requireIssuer(issuer: IssuerNames | undefined, index: number): IssuerNames {
  // rules.ts (structure rules) guarantees a key for every issuer before names are derived.
  if (!issuer) throw new Error(`internal: clusters[${index}] has no OIDC issuer signing key`);
  return issuer;
}

/**
 * Derives every name. `configDir` is the absolute folder of the config file (relative paths in
 * the config are relative to it). Assumes a schema-valid config; `rules.ts` checks the results.
 */
export function deriveNames(config: Config, configDir: string): DeploymentNames {
  const resourceGroupName = config.resourceGroup.name ?? `${config.prefix}-hcp-persistent`;
  const resourceGroupId = `/subscriptions/${config.subscriptionId}/resourceGroups/${resourceGroupName}`;
  const accountName =
    config.oidc.storageAccountName ?? defaultStorageAccountName(config.prefix, config.subscriptionId, resourceGroupName);

  const sharedIssuer: IssuerNames | undefined =
    config.oidc.issuer === "shared" && config.serviceAccountSigningKey
      ? {
          containerName: config.oidc.containerName ?? accountName,
          containerOrigin: config.oidc.containerName ? "oidc.containerName" : "oidc.storageAccountName",
          url: issuerUrl(accountName, config.oidc.containerName ?? accountName),
          ...keyFiles(config.serviceAccountSigningKey, configDir),
          keyOrigin: "serviceAccountSigningKey",
        }
      : undefined;

  const clusters = config.clusters.map((cluster, index): ClusterNames => {
    const identityPrefix = cluster.identities.namePrefix ?? cluster.name;
    const ownsIssuer = config.oidc.issuer === "perCluster";
    const ownKey = cluster.serviceAccountSigningKey;
    const issuer: IssuerNames =
      ownsIssuer && ownKey
        ? {
            containerName: cluster.name,
            containerOrigin: `clusters[${index}].name`,
            url: issuerUrl(accountName, cluster.name),
            ...keyFiles(ownKey, configDir),
            keyOrigin: `clusters[${index}].serviceAccountSigningKey`,
          }
        : requireIssuer(sharedIssuer, index);
    const enabled = (key: WorkloadIdentityKey) =>
      key === "controlPlaneOperator" ? cluster.identities.controlPlaneOperator : key === "kms" ? cluster.identities.kms : true;
    const identities = WORKLOAD_IDENTITY_COMPONENTS.filter((c) => !c.optional || enabled(c.key)).map((component) => {
      const name = `${identityPrefix}-${component.suffix}`;
      return {
        key: component.key,
        name,
        id: `${resourceGroupId}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}`,
        credentials: component.credentials.map((credential) => ({
          name: credential.suffix ? `${name}-fed-id-${credential.suffix}` : `${name}-fed-id`,
          subject: credential.subject,
        })),
      };
    });
    return {
      name: cluster.name,
      index,
      identitiesStack: identitiesStackName(cluster.name),
      identityPrefix,
      identityPrefixOrigin: cluster.identities.namePrefix ? `clusters[${index}].identities.namePrefix` : `clusters[${index}].name`,
      issuer,
      ownsIssuer,
      identities,
    };
  });

  return {
    sharedStack: SHARED_STACK,
    managementStack: MANAGEMENT_STACK,
    dns: config.dns && dnsNames(config, resourceGroupId),
    externalDnsApplication: config.externalDns && (config.externalDns.applicationName ?? `${config.prefix}-external-dns`),
    managementCluster: config.managementCluster && {
      kubeconfig: config.managementCluster.kubeconfig && userPath(configDir, config.managementCluster.kubeconfig.path),
      bundleFile: path.resolve(configDir, config.managementCluster.operator.bundleFile),
      pullSecretFile: config.managementCluster.pullSecretFile && path.resolve(configDir, config.managementCluster.pullSecretFile),
      externalDnsCredentialsFile:
        config.managementCluster.externalDnsCredentialsFile && path.resolve(configDir, config.managementCluster.externalDnsCredentialsFile),
    },
    resourceGroup: { name: resourceGroupName, id: resourceGroupId },
    storageAccount: {
      name: accountName,
      origin: config.oidc.storageAccountName ? "oidc.storageAccountName" : "prefix",
      id: `${resourceGroupId}/providers/Microsoft.Storage/storageAccounts/${accountName}`,
      blobEndpoint: `https://${accountName}.blob.core.windows.net`,
    },
    sharedIssuer,
    clusters,
    stateLocation: stateLocator(config, configDir),
  };
}

/** `~/...` stays as written (the Kubernetes provider expands it where Terraform runs); anything else is resolved. */
function userPath(configDir: string, file: string): string {
  return file === "~" || file.startsWith("~/") ? file : path.resolve(configDir, file);
}

function dnsNames(config: Config, resourceGroupId: string): DnsNames | undefined {
  const dns = config.dns;
  if (!dns) return undefined;
  const parent = dns.parent;
  // rules.ts (structure rules) guarantees a zone name or a parent to derive it from.
  const zoneName = dns.zoneName ?? (parent ? `${config.prefix}.${parent.zoneName}` : "");
  return {
    zoneName,
    zoneOrigin: dns.zoneName ? "dns.zoneName" : "prefix",
    zoneId: `${resourceGroupId}/providers/Microsoft.Network/dnsZones/${zoneName}`,
    parent: parent && {
      zoneName: parent.zoneName,
      resourceGroupName: parent.resourceGroupName,
      subscriptionId: parent.subscriptionId ?? config.subscriptionId,
    },
  };
}
