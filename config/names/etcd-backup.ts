import { REGIONS_WITHOUT_ZONES } from "../azure-regions";
import { Config } from "../schema";

/** The Secret HyperShift's docs name, in the operator namespace (HCPEtcdBackup `credentials.name`). */
export const ETCD_BACKUP_SECRET = "etcd-backup-azure-credentials";

/** The service account of HyperShift's backup Job (hypershift-operator/controllers/etcdbackup). */
export const ETCD_BACKUP_SERVICE_ACCOUNT = "etcd-backup-job";

export interface EtcdBackupNames {
  readonly storageAccountName: string;
  readonly containerName: string;
  /** ZRS where the region has availability zones, else LRS (as ARO HCP's hcp-backups/storage.bicep). */
  readonly replication: "ZRS" | "LRS";
  readonly identityName: string;
  /** Federated credential on the identity (names are per identity): `etcd-backup-job`. */
  readonly federatedCredentialName: string;
  /** The management cluster's issuer from the config; undefined with managementCluster.aks (read from the cluster). */
  readonly issuerUrl?: string;
}

/** The etcd backup's names, when managementCluster.etcdBackup is configured. */
export function etcdBackupNames(config: Config): EtcdBackupNames | undefined {
  const backup = config.managementCluster?.etcdBackup;
  if (!backup) return undefined;
  const identityName = backup.identityName ?? `${config.prefix}-etcd-backup`;
  return {
    storageAccountName: backup.storageAccountName,
    containerName: backup.containerName,
    replication: REGIONS_WITHOUT_ZONES.has(config.location) ? "LRS" : "ZRS",
    identityName,
    federatedCredentialName: ETCD_BACKUP_SERVICE_ACCOUNT,
    issuerUrl: backup.issuerUrl,
  };
}
