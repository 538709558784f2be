import { DeploymentNames } from "../names";
import { protectionWarnings } from "../protection";
import { Config } from "../schema";
import { adoptionWarnings } from "./adopt";
import { aroHcpWarnings } from "./aro-hcp";
import { capacityWarnings } from "./capacity";
import { hostedOptionWarnings } from "./hosted-options";
import { nodePoolWarnings } from "./node-pools";
import { roleWarnings } from "./roles";
import { secretsWarnings } from "./secrets";

/** Valid config that needs attention soon (printed by synth). */
export function configWarnings(config: Config, names: DeploymentNames, now: number = Date.now()): string[] {
  const warnings: string[] = [];
  for (const hosted of names.clusters.flatMap((c) => c.hosted ?? [])) {
    const pools = hosted.config.nodePools;
    const hostEncrypted = pools.filter((p) => p.encryptionAtHost === undefined).map((p) => p.name);
    if (hostEncrypted.length > 0) {
      warnings.push(
        `${hosted.clusterStack}: NodePools ${hostEncrypted.join(", ")} get the CRD default encryptionAtHost: Enabled, which needs the subscription feature Microsoft.Compute/EncryptionAtHost (az feature register --namespace Microsoft.Compute --name EncryptionAtHost); set encryptionAtHost to silence this (help/troubleshooting.md#encryptionathost-is-not-registered-for-the-subscription).`,
      );
    }
    const rotation = hosted.config.kms?.keyVault;
    if (rotation?.rotateAfter && !rotation.keyVersion) {
      warnings.push(
        `${hosted.clusterStack}: kms.keyVault.rotateAfter ${rotation.rotateAfter} without kms.keyVault.keyVersion: after each automatic rotation, the next apply of ${hosted.clusterStack} makes the new version the active key with no backup key, which HyperShift releases without status.secretEncryption tracking cannot survive (secrets written with the old key become unreadable). Pin keyVersion once the key exists and rotate step by step (help/kms.md#key-rotation-step-by-step).`,
      );
    }
    warnings.push(...nodePoolWarnings(hosted));
    const existing = hosted.config.network.existing;
    if (existing?.vnetId && !existing.nsgId) {
      warnings.push(
        `${hosted.infraStack}: with an existing VNet and no network.existing.nsgId, a new NSG is created but not attached to your subnet (as hypershift create infra does); the cloud provider writes Service rules into it. Attach it, or give nsgId.`,
      );
    }
  }
  const endDate = config.externalDns?.password.endDate;
  if (endDate && Date.parse(endDate) <= now) {
    warnings.push(
      `externalDns.password.endDate ${endDate} has passed: ExternalDNS can no longer authenticate. Set a later endDate (this replaces the client secret) and deploy shared, then management (help/troubleshooting.md#externaldns-does-not-write-records).`,
    );
  }
  warnings.push(...aroHcpWarnings(config), ...protectionWarnings(config), ...secretsWarnings(config, names), ...hostedOptionWarnings(config));
  warnings.push(...roleWarnings(names), ...capacityWarnings(names), ...adoptionWarnings(config));
  return warnings;
}

/** Variables that override the kubeconfig for kubernetes_manifest, but not for kubernetes_secret_v1. */
export const KUBE_ENV_OVERRIDES = ["KUBE_CONFIG_PATH", "KUBE_CONFIG_PATHS", "KUBE_CTX", "KUBE_HOST", "KUBE_TOKEN"] as const;

/** A kubeconfig in the config plus KUBE_* variables could send objects to two different clusters. */
export function environmentWarnings(config: Config, env: NodeJS.ProcessEnv): string[] {
  const set = KUBE_ENV_OVERRIDES.filter((name) => env[name]);
  const configured = config.managementCluster?.kubeconfig
    ? "managementCluster.kubeconfig"
    : config.managementCluster?.aks
      ? "managementCluster.aks"
      : undefined;
  return configured && set.length > 0
    ? [
        `management: ${set.join(", ")} ${set.length === 1 ? "is" : "are"} set and ${configured} too; kubernetes_manifest lets the variables win while kubernetes_secret_v1 uses the configured connection. Unset them${configured === "managementCluster.kubeconfig" ? ", or drop managementCluster.kubeconfig" : ""}.`,
      ]
    : [];
}
