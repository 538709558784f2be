import { CLOUD_ENDPOINTS } from "../config/cloud";
import { TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { ClusterNames, managedIdentitiesOf } from "../config/names";
import { clusterProtection, kmsKeyProtection } from "../config/protection";
import { KmsCryptoUser, KmsKey } from "../constructs/kms/kms-key";
import { escapeTemplates } from "../constructs/terraform-literal";
import { OidcIssuer } from "../constructs/oidc/oidc-issuer";
import { renderDataPlaneIdentitiesJson, WorkloadIdentities } from "../constructs/workload-identities/workload-identities";
import { configureAzureStack } from "./azure-providers";
import { guardRetiredCluster, StackContext } from "./stack-setup";

export interface IdentitiesStackProps extends StackContext {
  readonly cluster: ClusterNames;
  /** SPKI PEM by absolute key file (from the config loader). */
  readonly publicKeys: ReadonlyMap<string, string>;
}

/**
 * Phase 1 for one hosted cluster: its workload identities and federated credentials (and its own
 * OIDC issuer with oidc.issuer: perCluster); with topology aroHcp, its data-plane identities. Persistent: deleting the cluster keeps them, as the
 * seeds require. Finds shared resources by derived name, never by cross-stack reference.
 */
export class IdentitiesStack extends TerraformStack {
  constructor(scope: Construct, props: IdentitiesStackProps) {
    const { config, names, cluster } = props;
    super(scope, cluster.identitiesStack);
    configureAzureStack(this, cluster.identitiesStack, props);
    guardRetiredCluster(this, cluster);
    // A retired cluster's identities are on their way out: no prevent_destroy (help/retire-cluster.md).
    const protection = clusterProtection(config, cluster);

    if (cluster.ownsIssuer) {
      new OidcIssuer(this, "OidcIssuer", {
        storageAccountName: names.storageAccount.name,
        storageAccountId: names.storageAccount.id,
        containerName: cluster.issuer.containerName,
        publicKeyPem: props.publicKeys.get(cluster.issuer.publicKeyFile) as string,
        preventDestroy: protection.oidcIssuer,
        blobSuffix: CLOUD_ENDPOINTS[config.cloud].blobSuffix,
      });
    }
    // The issuer URL is known from names: credentials need not wait for the storage account.
    const identities = new WorkloadIdentities(this, "WorkloadIdentities", {
      resourceGroupName: names.resourceGroup.name,
      location: config.location,
      issuerUrl: cluster.issuer.url,
      identities: managedIdentitiesOf(cluster.identities),
      preventDestroy: protection.workloadIdentities,
      tags: config.tags,
    });
    this.addKmsKey(props, identities);
    if (cluster.identities.kind === "aroHcp") {
      // ARO HCP style: these are the data-plane identities (seed 003); the control-plane ones are
      // certificate service principals in the shared stack.
      new TerraformOutput(this, "data_plane_identities_json", {
        value: renderDataPlaneIdentitiesJson(identities.identities),
        description: "HyperShift's --data-plane-identities-file: terraform output -raw data_plane_identities_json > data-plane-identities.json",
      });
    } else {
      new TerraformOutput(this, "workload_identities_json", {
        value: identities.workloadIdentitiesJson,
        description: "workload-identities.json for HyperShift: terraform output -raw workload_identities_json > workload-identities.json",
      });
    }
    new TerraformOutput(this, "oidc_issuer_url", { value: cluster.issuer.url });
  }

  /**
   * etcd encryption (hostedCluster.kms): the created vault and key outlive the cluster, as its
   * identities do; self-managed, the KMS workload identity's Key Vault Crypto User on the key(s).
   */
  private addKmsKey(props: IdentitiesStackProps, identities: WorkloadIdentities): void {
    const { config, cluster } = props;
    const kms = cluster.hosted?.kms;
    const kmsConfig = cluster.hosted?.config.kms;
    if (!kms || !kmsConfig) return;
    const kmsIdentity = identities.identities.get("kms");
    const created =
      kms.vault.create && kmsConfig.keyVault
        ? new KmsKey(this, "KmsKey", {
            vaultName: kms.vault.name,
            resourceGroupName: kms.vault.resourceGroupName,
            location: config.location,
            tenantId: config.tenantId,
            subscriptionId: config.subscriptionId,
            keyName: kmsConfig.keyVault.keyName,
            keySize: kmsConfig.keyVault.keySize,
            rotateAfter: kmsConfig.keyVault.rotateAfter,
            softDeleteRetentionDays: kmsConfig.keyVault.softDeleteRetentionDays,
            preventDestroy: kmsKeyProtection(config, config.clusters[cluster.index]),
            grantDeployerCryptoOfficer: kmsConfig.keyVault.grantDeployerAccess,
            network: kmsConfig.keyVault.network,
            tags: config.tags,
          })
        : undefined;
    // Self-managed: the KMS workload identity gets Key Vault Crypto User here. ARO HCP style: the
    // KMS service principal lives in the shared stack; infra-<name> grants it (it reads its ID).
    if (kmsIdentity) {
      new KmsCryptoUser(this, "KmsCryptoUser", {
        principalId: kmsIdentity.principalId,
        keyArmIds: kms.cryptoUserScopes,
        dependsOn: created ? [created.key] : undefined,
      });
    }
    // An existing vault's name comes from the config (kms.keyVaultId): a literal.
    new TerraformOutput(this, "kms_key_vault_name", { value: escapeTemplates(kms.vault.name) });
    if (created) {
      new TerraformOutput(this, "kms_key_id", {
        value: created.key.id,
        description: "The created key's current version URL (as --encryption-key-id); HostedCluster activeKey takes its version",
      });
    }
  }
}
