import { TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { OidcIssuer } from "../constructs/oidc/oidc-issuer";
import { OidcStorageAccount } from "../constructs/oidc/oidc-storage-account";
import { PersistentResourceGroup } from "../constructs/resource-group/persistent-resource-group";
import { configureAzureStack, StackContext } from "./stack-setup";

export interface SharedStackProps extends StackContext {
  /** SPKI PEM by absolute key file (from the config loader). */
  readonly publicKeys: ReadonlyMap<string, string>;
}

/**
 * Phase 1, shared by every hosted cluster and never deleted with one: the persistent resource
 * group and the OIDC issuer storage (plus the issuer itself when it is shared).
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
  }
}
