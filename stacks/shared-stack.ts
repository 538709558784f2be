import { CLOUD_ENDPOINTS } from "../config/cloud";
import { TlsProvider } from "@cdktf/provider-tls/lib/provider";
import { Fn, TerraformOutput, TerraformStack, Token } from "cdktf";
import { Construct } from "constructs";
import { ControlPlaneIdentities } from "../constructs/control-plane-identities/control-plane-identities";
import { DelegatedDnsZone } from "../constructs/dns/delegated-dns-zone";
import { ExternalDnsPrincipal } from "../constructs/external-dns/external-dns-principal";
import { PrivateLinkPrincipal } from "../constructs/private-link/private-link-principal";
import { IdentityKeyVault } from "../constructs/key-vault/identity-key-vault";
import { OidcIssuer } from "../constructs/oidc/oidc-issuer";
import { OidcStorageAccount } from "../constructs/oidc/oidc-storage-account";
import { IPersistentResourceGroup, PersistentResourceGroup } from "../constructs/resource-group/persistent-resource-group";
import { protectionOf, releasingProviders } from "../config/protection";
import { hoursOf } from "../config/rules/aro-hcp";
import { aroHcpSettings } from "../config/schema";
import { ClusterNames, controlPlanePrincipalsOf, DnsNames, KeyVaultNames } from "../config/names";
import { Config } from "../config/schema";
import { ControlPlanePrincipals, RecordedPrincipal } from "../constructs/control-plane-identities/control-plane-principals";
import { aliasedAzurermProvider, configureAzuread, configureAzureStack } from "./azure-providers";
import { remoteState, StackContext } from "./stack-setup";

export interface SharedStackProps extends StackContext {
  /** SPKI PEM by absolute key file (from the config loader). */
  readonly publicKeys: ReadonlyMap<string, string>;
  /**
   * Topology aroHcp: the Key Vault of the control-plane credentials. The stack then also creates
   * the vault and every hosted cluster's control-plane service principals.
   * @default - self-managed: no vault and no control-plane principals
   */
  readonly controlPlaneKeyVault?: KeyVaultNames;
}

/** Output holding, per cluster, HyperShift's control-plane identities JSON (aroHcp). */
export const CONTROL_PLANE_IDENTITIES_OUTPUT = "control_plane_identities";

/**
 * Output holding, per cluster and control-plane component, the service principal's `object_id`
 * and `client_id` (aroHcp): the key the infra and cluster stacks find the principals by.
 */
export const CONTROL_PLANE_PRINCIPALS_OUTPUT = "control_plane_principals";

/** Output holding azure_mgmt.json; the management stack reads it through remote state. */
export const EXTERNAL_DNS_CREDENTIALS_OUTPUT = "external_dns_credentials";

/** Output holding the operator's Private Link credentials JSON; the management stack reads it through remote state. */
export const PRIVATE_LINK_CREDENTIALS_OUTPUT = "private_link_credentials";

/**
 * Phase 1, shared by every hosted cluster and never deleted with one: the persistent resource
 * group, the OIDC issuer storage (plus the issuer itself when it is shared), and optionally the
 * public DNS zone with its delegation and the ExternalDNS service principal. With topology aroHcp
 * also the Key Vault and every hosted cluster's control-plane identities (seed 003's shared
 * resources): they survive the cluster, so re-creating it reuses them.
 */
export class SharedStack extends TerraformStack {
  constructor(scope: Construct, props: SharedStackProps) {
    const { config, names } = props;
    super(scope, names.sharedStack);
    configureAzureStack(this, names.sharedStack, props);
    // Entra ID objects: ExternalDNS's principal and, with aroHcp, the control-plane principals; or
    // released ones the next deploy destroys (protection.release).
    if (
      names.externalDnsApplication ||
      props.controlPlaneKeyVault ||
      names.privateLink?.applicationName ||
      releasingProviders(config, names.sharedStack).has("azuread")
    )
      configureAzuread(this, config);

    const resourceGroup = config.resourceGroup.create
      ? new PersistentResourceGroup(this, "PersistentResourceGroup", {
          name: names.resourceGroup.name,
          location: config.location,
          preventDestroy: protectionOf(config).persistentResourceGroup,
          tags: config.tags,
        })
      : PersistentResourceGroup.fromExisting(this, "PersistentResourceGroup", { name: names.resourceGroup.name });
    this.addOidcIssuerStorage(props, resourceGroup.name);
    if (names.privateLink?.applicationName) this.addPrivateLinkPrincipal(props, names.privateLink.applicationName);
    if (props.controlPlaneKeyVault) this.addControlPlaneIdentities(props, resourceGroup.name, props.controlPlaneKeyVault);
    if (names.dns && config.dns) this.addDnsZone(props, resourceGroup, names.dns, config.dns);
  }

  /** The OIDC issuers' storage account and, when shared, the issuer itself. */
  private addOidcIssuerStorage(props: SharedStackProps, resourceGroupName: string): void {
    const { config, names } = props;
    const protection = protectionOf(config);
    const storage = new OidcStorageAccount(this, "OidcStorage", {
      name: names.storageAccount.name,
      resourceGroupName,
      location: config.location,
      subscriptionId: config.subscriptionId,
      grantDeployerBlobAccess: config.oidc.grantDeployerBlobAccess,
      // The shared issuer's container only; per-cluster issuers' containers are other stacks' (help/roles.md).
      deployerBlobAccessContainer: names.sharedIssuer?.containerName,
      infrastructureEncryption: !names.adoption.ccoctlIssuer,
      preventDestroy: protection.oidcIssuer,
      tags: config.tags,
    });
    new TerraformOutput(this, "resource_group_name", { value: names.resourceGroup.name });
    new TerraformOutput(this, "oidc_storage_account_name", { value: storage.account.name });
    if (!names.sharedIssuer) return;
    const issuer = new OidcIssuer(this, "OidcIssuer", {
      storageAccountName: names.storageAccount.name,
      storageAccountId: storage.account.id,
      containerName: names.sharedIssuer.containerName,
      publicKeyPem: props.publicKeys.get(names.sharedIssuer.publicKeyFile) as string,
      uploadsDependOn: storage.deployerAccess ? [storage.deployerAccess] : [],
      keepExistingDocuments: names.adoption.ccoctlIssuer,
      preventDestroy: protection.oidcIssuer,
      blobSuffix: CLOUD_ENDPOINTS[config.cloud].blobSuffix,
    });
    // A role on the container waits for it; the uploads wait for the role.
    const container = issuer.container;
    if (storage.deployerAccess) storage.deployerAccess.dependsOn = [`${container.terraformResourceType}.${container.friendlyUniqueId}`];
    new TerraformOutput(this, "oidc_issuer_url", { value: issuer.issuerUrl });
  }

  /** The public DNS zone, delegated from its parent zone when there is one, and ExternalDNS's principal on it. */
  private addDnsZone(props: SharedStackProps, resourceGroup: IPersistentResourceGroup, dns: DnsNames, dnsConfig: NonNullable<Config["dns"]>): void {
    const { config, names } = props;
    const parent = dns.parent;
    const zone = new DelegatedDnsZone(this, "DnsZone", {
      zoneName: dns.zoneName,
      resourceGroupName: resourceGroup.name,
      preventDestroy: protectionOf(config).dnsZone,
      tags: config.tags,
      parent: parent && {
        zoneName: parent.zoneName,
        resourceGroupName: parent.resourceGroupName,
        ttl: dnsConfig.parent?.ttl,
        // The parent zone may live in another subscription: a second, aliased provider.
        provider: aliasedAzurermProvider(this, "azurerm-parent-dns", { alias: "parent_dns", subscriptionId: parent.subscriptionId }, config),
      },
    });
    new TerraformOutput(this, "dns_zone_name", { value: zone.zone.name });
    new TerraformOutput(this, "dns_zone_name_servers", {
      value: zone.nameServers,
      description: parent
        ? "Name servers of the zone (delegated from the parent zone)."
        : "Name servers of the zone: add them as NS records at your parent zone or registrar.",
    });
    if (names.externalDnsApplication && config.externalDns)
      this.addExternalDnsPrincipal(props, names.externalDnsApplication, config.externalDns, zone, resourceGroup);
  }

  /** ExternalDNS's service principal, on the zone; its azure_mgmt.json is a sensitive output the management stack reads. */
  private addExternalDnsPrincipal(
    props: SharedStackProps,
    displayName: string,
    externalDns: NonNullable<Config["externalDns"]>,
    zone: DelegatedDnsZone,
    resourceGroup: IPersistentResourceGroup,
  ): void {
    const { config, names } = props;
    const principal = new ExternalDnsPrincipal(this, "ExternalDns", {
      displayName,
      tenantId: config.tenantId,
      subscriptionId: config.subscriptionId,
      // Adopted: the scope the guide's assignments have (names.adoption); else the zone's reference.
      zoneId: names.adoption.externalDns?.zoneScope ?? zone.zone.id,
      zoneResourceGroupName: names.resourceGroup.name,
      zoneResourceGroupId: resourceGroup.id,
      roles: externalDns.roles,
      passwordEndDate: externalDns.password.endDate,
      passwordValidFor: externalDns.password.validFor,
      passwordRotation: externalDns.password.rotation,
      cloud: config.cloud,
      preventDestroy: protectionOf(config).externalDnsPrincipal,
      roleAssignmentNames: names.adoption.externalDns?.roleAssignmentNames,
    });
    new TerraformOutput(this, "external_dns_client_id", { value: principal.application.clientId });
    new TerraformOutput(this, EXTERNAL_DNS_CREDENTIALS_OUTPUT, {
      value: principal.credentialsJson,
      sensitive: true,
      description: "azure_mgmt.json for ExternalDNS: terraform output -raw external_dns_credentials > azure_mgmt.json",
    });
  }

  /**
   * The HyperShift operator's Private Link service principal (managementCluster.privateLink):
   * Network Contributor on the management cluster's resource group and on the NAT subnets (their
   * VNet when created by an infra stack) outside it. Its credentials JSON is a sensitive output
   * the management stack reads, never a literal in cdktf.out.
   */
  private addPrivateLinkPrincipal(props: SharedStackProps, applicationName: string): void {
    const { config, names } = props;
    const settings = names.privateLink;
    const password = config.managementCluster?.privateLink?.password;
    if (!settings) return;
    const inGroup = (id: string) => id.toLowerCase().startsWith(`${settings.resourceGroupId.toLowerCase()}/`);
    const natScopes = names.clusters.flatMap((c) => {
      const access = c.hosted?.endpointAccess;
      const subnet = access && access.kind !== "Public" ? access.natSubnet : undefined;
      // A subnet an infra stack creates does not exist yet: its VNet (the management cluster's) does.
      const scope = subnet && (subnet.create ? subnet.vnetId : subnet.id);
      return scope && !inGroup(scope) ? [scope] : [];
    });
    const principal = new PrivateLinkPrincipal(this, "PrivateLink", {
      displayName: applicationName,
      tenantId: config.tenantId,
      subscriptionId: settings.subscriptionId,
      networkContributorScopes: [settings.resourceGroupId, ...natScopes],
      passwordEndDate: password?.endDate,
      passwordValidFor: password?.validFor,
      passwordRotation: password?.rotation,
      preventDestroy: protectionOf(config).privateLinkPrincipal,
    });
    new TerraformOutput(this, "private_link_client_id", { value: principal.application.clientId });
    new TerraformOutput(this, PRIVATE_LINK_CREDENTIALS_OUTPUT, {
      value: principal.credentialsJson,
      sensitive: true,
      description:
        "The HyperShift operator's Private Link credentials (--azure-private-creds): terraform output -raw private_link_credentials > azure-private-creds.json",
    });
  }

  /** aroHcp: the Key Vault and, per hosted cluster, its certificate service principals and their secrets. */
  private addControlPlaneIdentities(props: SharedStackProps, resourceGroupName: string, vaultNames: KeyVaultNames): void {
    const { config, names } = props;
    const settings = aroHcpSettings(config);
    const protection = protectionOf(config);
    new TlsProvider(this, "tls");
    const vault = new IdentityKeyVault(this, "KeyVault", {
      name: vaultNames.name,
      resourceGroupName,
      location: config.location,
      tenantId: config.tenantId,
      subscriptionId: config.subscriptionId,
      softDeleteRetentionDays: settings.keyVault.softDeleteRetentionDays,
      purgeProtectionEnabled: settings.keyVault.purgeProtection,
      preventDestroy: protection.keyVault,
      grantDeployerSecretsOfficer: settings.keyVault.grantDeployerAccess,
      network: settings.keyVault.network,
      tags: config.tags,
    });
    const json: Record<string, string> = {};
    const principals: Record<string, Record<string, { client_id: string; object_id: string }>> = {};
    for (const cluster of names.clusters) {
      const identities = new ControlPlaneIdentities(this, `ControlPlaneIdentities_${cluster.name}`, {
        identities: controlPlanePrincipalsOf(cluster.identities),
        // The vault's ID as a reference: secrets wait for the vault.
        keyVault: { name: vaultNames.name, id: vault.vault.id },
        tenantId: config.tenantId,
        validityHours: hoursOf(settings.certificates.validity),
        renewBeforeHours: hoursOf(settings.certificates.renewBefore),
        // Secrets are written once the deployer may, and can, reach the vault (its private endpoint).
        secretDependsOn: [vault.deployerAccess, vault.privateEndpoint].filter((d) => d !== undefined),
        preventDestroy: protection.controlPlaneIdentities,
        authorityHost: CLOUD_ENDPOINTS[config.cloud].authorityHost,
        tags: config.tags,
      });
      json[cluster.name] = identities.managedIdentitiesJson;
      principals[cluster.name] = Object.fromEntries(
        [...identities.identities].map(([key, identity]) => [key, { client_id: identity.clientId, object_id: identity.servicePrincipal.objectId }]),
      );
    }
    new TerraformOutput(this, "key_vault_name", { value: vaultNames.name });
    new TerraformOutput(this, CONTROL_PLANE_IDENTITIES_OUTPUT, {
      value: json,
      description: "Per cluster, HyperShift's --managed-identities-file: terraform output -json control_plane_identities | jq -r '.\"<cluster>\"'",
    });
    new TerraformOutput(this, CONTROL_PLANE_PRINCIPALS_OUTPUT, {
      value: principals,
      description:
        "Per cluster and component, the control-plane service principal's object_id and client_id: the infra and cluster stacks find the principals by them.",
    });
  }
}

/**
 * aroHcp: the cluster's control-plane service principals as the shared stack recorded them,
 * read from its state (references, resolved at plan time).
 */
export function recordedControlPlanePrincipals(stack: TerraformStack, stackName: string, context: StackContext, cluster: ClusterNames): RecordedPrincipal[] {
  const state = remoteState(stack, stackName, context.names.sharedStack, context);
  const recorded = (key: string, field: "object_id" | "client_id") =>
    Token.asString(Fn.lookupNested(state.get(CONTROL_PLANE_PRINCIPALS_OUTPUT), [cluster.name, key, field]));
  return controlPlanePrincipalsOf(cluster.identities).map(({ key }) => ({ key, objectId: recorded(key, "object_id"), clientId: recorded(key, "client_id") }));
}

/**
 * aroHcp: the cluster's control-plane service principals in a consuming stack (infra, cluster),
 * with the azuread provider that reads them: found by the object IDs the shared stack recorded
 * and checked at plan, never by display name.
 */
export function lookUpControlPlanePrincipals(stack: TerraformStack, stackName: string, context: StackContext, cluster: ClusterNames): ControlPlanePrincipals {
  const { config } = context;
  configureAzuread(stack, config);
  return new ControlPlanePrincipals(stack, "ControlPlanePrincipals", {
    principals: recordedControlPlanePrincipals(stack, stackName, context, cluster),
    tenantId: config.tenantId,
  });
}
