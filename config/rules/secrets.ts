import * as fs from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import type { DeploymentNames } from "../names";
import { secretsSource } from "../plan-time-inputs";
import type { Config } from "../schema";
import type { ConfigIssue, Rule } from "./rule";

/**
 * Rules of plan-time secrets and the management-cluster connection (secrets.source), run with
 * the other structure rules (structure.ts).
 */
export const SECRETS_STRUCTURE_RULES: ReadonlyArray<Rule<Config>> = [
  {
    rule: "no kubeconfig file when no stack may read files",
    check: (c) => {
      const kubeconfig = c.managementCluster?.kubeconfig;
      if (!kubeconfig || secretsSource(c) !== "variables") return [];
      const why = c.secrets.source ? "with secrets.source: variables" : "with backend.type: cloud (secrets.source defaults to variables)";
      return [
        {
          path: "managementCluster.kubeconfig.path",
          value: kubeconfig.path,
          message: `is a file, and ${why} no stack reads files (a remote run has only its stack folder). Remove managementCluster.kubeconfig and set the KUBE_* environment variables on the workspaces (e.g. KUBE_HOST, KUBE_CLUSTER_CA_CERT_DATA, KUBE_TOKEN), or set managementCluster.credentialsFromVariables: true; for a Terraform Cloud workspace in local execution mode set secrets.source: files (help/terraform-cloud.md)`,
        },
      ];
    },
  },
  {
    rule: "one management-cluster connection",
    check: (c) => {
      const m = c.managementCluster;
      if (!m?.credentialsFromVariables) return [];
      const other = m.kubeconfig ? "managementCluster.kubeconfig" : m.aks ? "managementCluster.aks" : undefined;
      return other
        ? [
            {
              path: "managementCluster.credentialsFromVariables",
              value: true,
              message: `is not allowed with ${other}: the provider connects one way (drop one of them)`,
            },
          ]
        : [];
    },
  },
  {
    rule: "filesOnlyWhereTerraformRuns belongs to files mode",
    check: (c) =>
      c.secrets.filesOnlyWhereTerraformRuns && secretsSource(c) === "variables"
        ? [{ path: "secrets.filesOnlyWhereTerraformRuns", value: true, message: "is only used with secrets.source: files (variables mode reads no files)" }]
        : [],
  },
];

/**
 * Files mode: every secret file Terraform will read must exist on this machine, or a deploy fails
 * half-way (after shared and identities-* were applied). Checked by synth (main.ts), not by the
 * loader, since it is a fact about this machine; `secrets.filesOnlyWhereTerraformRuns` says the
 * files exist only where Terraform runs.
 */
export function missingSecretFiles(config: Config, names: DeploymentNames, exists: (file: string) => boolean = fs.existsSync): ConfigIssue[] {
  if (secretsSource(config) !== "files" || config.secrets.filesOnlyWhereTerraformRuns) return [];
  const files: Array<[path: string, file: string | undefined, stack: string]> = [];
  for (const cluster of names.clusters) {
    const hosted = cluster.hosted;
    if (!hosted) continue;
    const at = `clusters[${cluster.index}].hostedCluster`;
    files.push([`${at}.pullSecretFile`, hosted.files.pullSecretFile, hosted.clusterStack]);
    files.push([`${at}.sshPublicKeyFile`, hosted.files.sshPublicKeyFile, hosted.clusterStack]);
    files.push([`${cluster.issuer.keyOrigin}.privateKeyFile`, cluster.issuer.privateKeyFile, hosted.clusterStack]);
  }
  // The operator bundle is read at synth (loader); these are read by Terraform at plan time.
  if (names.managementCluster) {
    files.push(["managementCluster.pullSecretFile", names.managementCluster.pullSecretFile, names.managementStack]);
    files.push(["managementCluster.externalDnsCredentialsFile", names.managementCluster.externalDnsCredentialsFile, names.managementStack]);
    files.push(["managementCluster.privateLink.credentialsFile", names.privateLink?.credentialsFile, names.managementStack]);
    files.push(["managementCluster.kubeconfig.path", names.managementCluster.kubeconfig, names.managementStack]);
  }
  const seen = new Set<string>();
  const issues: ConfigIssue[] = [];
  for (const [path, file, stack] of files) {
    if (!file || exists(expandHome(file)) || seen.has(`${path} ${file}`)) continue;
    seen.add(`${path} ${file}`);
    // Variables mode refuses a kubeconfig file (the first rule above): its way out is credentialsFromVariables instead.
    const otherSource =
      path === "managementCluster.kubeconfig.path"
        ? "remove managementCluster.kubeconfig and set managementCluster.credentialsFromVariables: true (help/terraform-cloud.md)"
        : "set secrets.source: variables (help/terraform-cloud.md)";
    issues.push({
      path,
      value: file,
      message: `does not exist; Terraform reads it when it plans ${stack}, so deploy would stop there after the earlier stacks were applied. Create it, ${otherSource}, or set secrets.filesOnlyWhereTerraformRuns: true if it exists only where Terraform runs`,
    });
  }
  return issues;
}

/**
 * variables mode outside Terraform Cloud: every cluster-<name> stack declares the same variable
 * names, and TF_VAR_* gives each the same value. With per-cluster signing keys (or different pull
 * secret files) one value cannot fit every stack (a wrong signing key is refused at plan, stack by stack).
 */
export function secretsWarnings(config: Config, names: DeploymentNames): string[] {
  if (secretsSource(config) !== "variables" || config.backend.type === "cloud") return [];
  const hosted = names.clusters.filter((c) => c.hosted);
  const keys = new Set(hosted.map((c) => c.issuer.privateKeyFile));
  const pullSecrets = new Set(hosted.flatMap((c) => (c.hosted ? [c.hosted.files.pullSecretFile] : [])));
  const differing = [...(keys.size > 1 ? ["service_account_signing_key"] : []), ...(pullSecrets.size > 1 ? ["pull_secret"] : [])];
  if (differing.length === 0) return [];
  return [
    `secrets: the cluster stacks ${hosted.map((c) => c.hosted?.clusterStack).join(", ")} each declare ${differing.join(" and ")} with different sources, and TF_VAR_* gives every stack the same value: deploy them one at a time with that stack's values, give each its own workspace (backend cloud), or use secrets.source: files (help/terraform-cloud.md).`,
  ];
}

/** `~/x` as the Kubernetes provider reads it (a kubeconfig path may start with ~/). */
export function expandHome(file: string): string {
  return file === "~" || file.startsWith("~/") ? nodePath.join(os.homedir(), file.slice(1)) : file;
}
