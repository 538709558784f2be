import { TerraformOutput } from "cdktf";
import { Construct } from "constructs";
import { ETCD_BACKUP_SECRET, ETCD_BACKUP_SERVICE_ACCOUNT, etcdBackupNames } from "../config/names/etcd-backup";
import { OperatorBundle } from "../config/operator-bundle";
import { Config } from "../config/schema";
import { EtcdBackupStorage } from "../constructs/backup/etcd-backup-storage";
import { HypershiftOperator } from "../constructs/hypershift-operator/hypershift-operator";
import { OperatorSecret } from "../constructs/hypershift-operator/operator-secret";
import { DeploymentNames } from "../config/names";
import { ManagementClusterAccess } from "./stack-setup";

/**
 * managementCluster.etcdBackup (help/backup.md): the storage and identity HCPEtcdBackup needs,
 * and the Secret that names the identity, in the operator namespace. The management stack has
 * the azurerm provider when this is configured.
 */
export function addEtcdBackup(
  scope: Construct,
  { config, names, bundle }: { config: Config; names: DeploymentNames; bundle: OperatorBundle },
  access: ManagementClusterAccess,
  operator: HypershiftOperator,
): void {
  const backup = etcdBackupNames(config);
  if (!backup) return;
  // config/rules/etcd-backup.ts requires issuerUrl without managementCluster.aks.
  const issuerUrl = backup.issuerUrl ?? access.aks?.oidcIssuerUrl;
  if (!issuerUrl) throw new Error("internal: managementCluster.etcdBackup without an issuer");
  const storage = new EtcdBackupStorage(scope, "EtcdBackup", {
    ...backup,
    issuerUrl,
    operatorNamespace: bundle.operatorNamespace,
    serviceAccount: ETCD_BACKUP_SERVICE_ACCOUNT,
    resourceGroupName: names.resourceGroup.name,
    location: config.location,
    subscriptionId: config.subscriptionId,
    preventDestroy: config.protection.preventDestroy,
    tags: config.tags,
  });
  const secret = new OperatorSecret(scope, "EtcdBackupCredentials", {
    name: ETCD_BACKUP_SECRET,
    namespace: bundle.operatorNamespace,
    data: { cloud: storage.cloudCredentials(config.subscriptionId, config.tenantId, names.resourceGroup.name, config.cloud) },
    dependsOn: operator.definitions,
  });
  operator.addWorkloadDependency(secret.resource);
  new TerraformOutput(scope, "etcd_backup_storage_account", { value: backup.storageAccountName });
  new TerraformOutput(scope, "etcd_backup_container", { value: backup.containerName });
}
