import { AzureadProvider } from "@cdktf/provider-azuread/lib/provider";
import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { DelegatedDnsZone } from "../constructs/dns/delegated-dns-zone";
import { ExternalDnsPrincipal } from "../constructs/external-dns/external-dns-principal";
import { OidcIssuer } from "../constructs/oidc/oidc-issuer";
import { OidcStorageAccount } from "../constructs/oidc/oidc-storage-account";
import { PersistentResourceGroup } from "../constructs/resource-group/persistent-resource-group";
import { configureAzureStack, StackContext } from "./stack-setup";

export interface SharedStackProps extends StackContext {
  /** SPKI PEM by absolute key file (from the config loader). */
  readonly publicKeys: ReadonlyMap<string, string>;
}

/** Output holding azure_mgmt.json; the management stack reads it through remote state. */
export const EXTERNAL_DNS_CREDENTIALS_OUTPUT = "external_dns_credentials";

/**
 * Phase 1, shared by every hosted cluster and never deleted with one: the persistent resource
 * group, the OIDC issuer storage (plus the issuer itself when it is shared), and optionally the
 * public DNS zone with its delegation and the ExternalDNS service principal.
 */
export class SharedStack extends TerraformStack {
  constructor(scope: Construct, props: SharedStackProps) {
    const { config, names } = props;
    super(scope, names.sharedStack);
    configureAzureStack(this, names.sharedStack, props);

    const resourceGroup = new PersistentResourceGroup(this, "PersistentResourceGroup", {
      name: names.resourceGroup.name,
      location: config.location,
      create: config.resourceGroup.create,
      preventDestroy: config.resourceGroup.preventDestroy,
      tags: config.tags,
    });
    const storage = new OidcStorageAccount(this, "OidcStorage", {
      name: names.storageAccount.name,
      resourceGroupName: resourceGroup.name,
      location: config.location,
      subscriptionId: config.subscriptionId,
      grantDeployerBlobAccess: config.oidc.grantDeployerBlobAccess,
      tags: config.tags,
    });
    new TerraformOutput(this, "resource_group_name", { value: names.resourceGroup.name });
    new TerraformOutput(this, "oidc_storage_account_name", { value: storage.account.name });

    if (names.sharedIssuer) {
      const issuer = new OidcIssuer(this, "OidcIssuer", {
        storageAccountName: names.storageAccount.name,
        storageAccountId: storage.account.id,
        containerName: names.sharedIssuer.containerName,
        publicKeyPem: props.publicKeys.get(names.sharedIssuer.publicKeyFile) as string,
        uploadsDependOn: storage.deployerAccess ? [storage.deployerAccess] : [],
      });
      new TerraformOutput(this, "oidc_issuer_url", { value: issuer.issuerUrl });
    }

    if (names.dns && config.dns) {
      const parent = names.dns.parent;
      const zone = new DelegatedDnsZone(this, "DnsZone", {
        zoneName: names.dns.zoneName,
        resourceGroupName: resourceGroup.name,
        preventDestroy: config.dns.preventDestroy,
        tags: config.tags,
        parent: parent && {
          zoneName: parent.zoneName,
          resourceGroupName: parent.resourceGroupName,
          ttl: config.dns.parent?.ttl,
          // The parent zone may live in another subscription: a second, aliased provider.
          provider:
            parent.subscriptionId === config.subscriptionId
              ? undefined
              : new AzurermProvider(this, "azurerm-parent-dns", {
                  alias: "parent_dns",
                  features: [{}],
                  subscriptionId: parent.subscriptionId,
                  tenantId: config.tenantId,
                  // Only the parent zone is touched there: registering resource providers would
                  // need subscription-wide rights the DNS owner may not grant.
                  resourceProviderRegistrations: "none",
                }),
        },
      });
      new TerraformOutput(this, "dns_zone_name", { value: zone.zone.name });
      new TerraformOutput(this, "dns_zone_name_servers", {
        value: zone.nameServers,
        description: parent ? "Name servers of the zone (delegated from the parent zone)." : "Name servers of the zone: add them as NS records at your parent zone or registrar.",
      });

      if (names.externalDnsApplication && config.externalDns) {
        new AzureadProvider(this, "azuread", { tenantId: config.tenantId });
        const principal = new ExternalDnsPrincipal(this, "ExternalDns", {
          displayName: names.externalDnsApplication,
          tenantId: config.tenantId,
          subscriptionId: config.subscriptionId,
          zoneId: zone.zone.id,
          zoneResourceGroupName: names.resourceGroup.name,
          zoneResourceGroupId: resourceGroup.id,
          roles: config.externalDns.roles,
          passwordEndDate: config.externalDns.password.endDate,
          passwordValidFor: config.externalDns.password.validFor,
          passwordRotation: config.externalDns.password.rotation,
        });
        new TerraformOutput(this, "external_dns_client_id", { value: principal.application.clientId });
        new TerraformOutput(this, EXTERNAL_DNS_CREDENTIALS_OUTPUT, {
          value: principal.credentialsJson,
          sensitive: true,
          description: "azure_mgmt.json for ExternalDNS: terraform output -raw external_dns_credentials > azure_mgmt.json",
        });
      }
    }
  }
}
