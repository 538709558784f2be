import { OperatorBundle } from "../operator-bundle";
import { Config } from "../schema";
import { ConfigIssue } from "./rule";

/** The CRD `hypershift install --tech-preview-no-upgrade` adds from release-4.22 (help/backup.md). */
export const HCP_ETCD_BACKUP_CRD = "hcpetcdbackups.hypershift.openshift.io";

const PATH = "managementCluster.etcdBackup";

/** etcd backup needs the management cluster's issuer and an operator that knows HCPEtcdBackup. */
export function etcdBackupIssues(config: Config, bundle: OperatorBundle): ConfigIssue[] {
  const management = config.managementCluster;
  const backup = management?.etcdBackup;
  if (!management || !backup) return [];
  const issues: ConfigIssue[] = [];
  if (!backup.issuerUrl && !management.aks) {
    issues.push({
      path: `${PATH}.issuerUrl`,
      message:
        "is required without managementCluster.aks: the backup identity trusts the management cluster's OIDC issuer (OpenShift on Azure: oc get authentication cluster -o jsonpath='{.spec.serviceAccountIssuer}')",
    });
  }
  const hasCrd = bundle.objects.some((o) => o.manifest.kind === "CustomResourceDefinition" && o.manifest.metadata.name === HCP_ETCD_BACKUP_CRD);
  if (!hasCrd) {
    issues.push({
      path: "managementCluster.operator.bundleFile",
      message: `has no CRD ${HCP_ETCD_BACKUP_CRD}, which ${PATH} needs: render the bundle with a hypershift CLI from release-4.22 or later with --tech-preview-no-upgrade (Tech Preview; help/backup.md), or remove ${PATH}`,
    });
  }
  return issues;
}
