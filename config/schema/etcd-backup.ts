import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { ISSUER_URL } from "./sign-in-oidc";

/**
 * `managementCluster.etcdBackup` (Tech Preview, help/backup.md): the Azure storage, identity and
 * Secret HyperShift's HCPEtcdBackup needs (openshift/hypershift docs/content/how-to/azure/
 * backup-and-restore-etcd-snapshot.md, contrib/self-managed-azure/setup_backup.sh).
 */
export const etcdBackupSchema = z
  .strictObject({
    storageAccountName: azureName(AZURE_NAME_RULES.storageAccount).describe(
      "Storage account of the snapshots (globally unique, 3-24 lowercase letters or digits), created in the persistent resource group: shared keys off, TLS 1.2, no public blobs, ZRS where the region has zones.",
    ),
    containerName: azureName(AZURE_NAME_RULES.blobContainer).default("etcd-backups").describe("Blob container of the snapshots."),
    identityName: azureName(AZURE_NAME_RULES.userAssignedIdentity)
      .optional()
      .describe("User-assigned identity the backup Job signs in as (Storage Blob Data Contributor on the container only). Default: <prefix>-etcd-backup."),
    issuerUrl: z
      .string()
      .max(512)
      .regex(ISSUER_URL, {
        error:
          "must be an https URL without query, fragment, user info, spaces, quotes or <> (the management cluster's OIDC issuer, as `az aks show --query oidcIssuerProfile.issuerUrl` prints it)",
      })
      .optional()
      .describe(
        "OIDC issuer of the management cluster (not of a hosted cluster), trusted for system:serviceaccount:<operator namespace>:etcd-backup-job. Default with managementCluster.aks: the AKS cluster's; required otherwise.",
      ),
  })
  .describe(
    "etcd backup to Azure Blob Storage (Tech Preview; needs a bundle rendered with --tech-preview-no-upgrade from release-4.22 or later, help/backup.md). Default: none.",
  );

export type EtcdBackupConfig = z.output<typeof etcdBackupSchema>;
