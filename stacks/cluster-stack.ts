import { AzureadProvider } from "@cdktf/provider-azuread/lib/provider";
import { DataAzurermKeyVaultKey } from "@cdktf/provider-azurerm/lib/data-azurerm-key-vault-key";
import { DataAzurermUserAssignedIdentity } from "@cdktf/provider-azurerm/lib/data-azurerm-user-assigned-identity";
import { RandomProvider } from "@cdktf/provider-random/lib/provider";
import { TlsProvider } from "@cdktf/provider-tls/lib/provider";
import { TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { WorkloadIdentityKey } from "../config/components";
import { ClusterIdentityNames, ClusterNames, IdentityNames } from "../config/names";
import { ControlPlanePrincipals } from "../constructs/control-plane-identities/control-plane-principals";
import { CreationGuard } from "../constructs/hosted-cluster/creation-guard";
import { HostedCluster } from "../constructs/hosted-cluster/hosted-cluster";
import { HostedClusterSecrets } from "../constructs/hosted-cluster/hosted-cluster-secrets";
import { TrustBundle } from "../constructs/hosted-cluster/trust-bundle";
import {
  HostedClusterIdentities,
  KmsEncryptionInput,
  ManagedIdentitiesInput,
  REQUIRED_WORKLOAD_IDENTITIES,
  RequiredWorkloadIdentity,
  WorkloadIdentityClientIds,
} from "../constructs/hosted-cluster/manifests";
import { pullSecretInput, secretsSource, signingKeyInput, sshPublicKeyInput } from "../config/plan-time-inputs";
import { PlanTimeInput } from "../constructs/plan-time-input/plan-time-input";
import { recordedControlPlanePrincipals } from "./shared-stack";
import {
  azureadEnvironment,
  configureAzureStack,
  configureKubernetesProvider,
  guardRetiredCluster,
  ManagementClusterProps,
  StackContext,
  terraformFilePath,
} from "./stack-setup";

export interface ClusterStackProps extends StackContext, ManagementClusterProps {
  /** The hosted cluster (it must have `hostedCluster` in the config). */
  readonly cluster: ClusterNames;
  /** PEM of each additional trust bundle by absolute file path (read by config/load.ts). @default - none */
  readonly trustBundles?: ReadonlyMap<string, string>;
  /**
   * SPKI PEM of each issuer's public key by absolute file path (LoadedConfig.publicKeys): with
   * `secrets.source: variables` the signing key is checked at plan against its issuer's.
   * @default - none (files mode only)
   */
  readonly publicKeys?: ReadonlyMap<string, string>;
}

/**
 * Phase 3 on the management cluster for one hosted cluster: its Secrets, the HostedCluster and
 * its NodePools, through the Kubernetes provider. Needs the HyperShift CRDs (management stack)
 * and the cluster's Azure infrastructure (infra stack) in place; finds the workload identities'
 * client IDs by name, since Azure assigns them.
 */
export class ClusterStack extends TerraformStack {
  public readonly hostedCluster: HostedCluster;

  constructor(scope: Construct, props: ClusterStackProps) {
    const { config, names, cluster } = props;
    const hosted = cluster.hosted;
    if (!hosted) throw new Error(`internal: ClusterStack needs clusters[${cluster.index}].hostedCluster`);
    const hostedConfig = hosted.config;
    const stackName = hosted.clusterStack;
    super(scope, stackName);
    configureAzureStack(this, stackName, props);
    guardRetiredCluster(this, cluster);
    configureKubernetesProvider(this, stackName, props);
    new RandomProvider(this, "random");
    // Plan-time secrets: files Terraform reads, or sensitive variables (secrets.source).
    const source = secretsSource(config);
    // tls: the generated SSH key pair, and in variables mode the signing key's public half.
    if (!hosted.files.sshPublicKeyFile || source === "variables") new TlsProvider(this, "tls");

    // Client IDs are assigned by Azure: found by the derived names.
    const clientId = (identities: readonly IdentityNames[], key: WorkloadIdentityKey) => {
      const identity = identities.find((i) => i.key === key);
      if (!identity) throw new Error(`internal: clusters[${cluster.index}] has no ${key} identity`);
      return new DataAzurermUserAssignedIdentity(this, `Identity_${key}`, { name: identity.name, resourceGroupName: names.resourceGroup.name }).clientId;
    };
    const clusterIdentities = cluster.identities;
    const identities: HostedClusterIdentities =
      clusterIdentities.kind === "aroHcp"
        ? {
            kind: "managedIdentities",
            ...this.managedIdentities(props, stackName, clusterIdentities, (key) => clientId(clusterIdentities.dataPlaneIdentities, key)),
          }
        : {
            kind: "workloadIdentities",
            clientIds: workloadIdentityClientIds(clusterIdentities.workloadIdentities, (key) => clientId(clusterIdentities.workloadIdentities, key)),
          };

    const kms = hosted.kms;
    let kmsEncryption: KmsEncryptionInput | undefined;
    if (kms) {
      const kmsPrincipal = clusterIdentities.kind === "aroHcp" ? clusterIdentities.controlPlanePrincipals.find((p) => p.key === "kms") : undefined;
      if (clusterIdentities.kind === "aroHcp" && !kmsPrincipal)
        throw new Error(`internal: clusters[${cluster.index}] has hostedCluster.kms but no KMS principal`);
      // A created key without a pinned version: its current version, read at plan.
      const version = kms.activeKey.keyVersion ?? new DataAzurermKeyVaultKey(this, "KmsKey", { name: kms.activeKey.keyName, keyVaultId: kms.vault.id }).version;
      kmsEncryption = {
        activeKey: { ...kms.activeKey, keyVersion: version },
        backupKey: kms.backupKey && { ...kms.backupKey, keyVersion: kms.backupKey.keyVersion as string },
        keyVaultType: kms.keyVaultType,
        identity:
          clusterIdentities.kind === "selfManaged"
            ? { workloadIdentityClientId: clientId(clusterIdentities.workloadIdentities, "kms") }
            : { credentialsSecretName: (kmsPrincipal as { secretName: string }).secretName },
      };
    }

    const at = `clusters[${cluster.index}].hostedCluster`;
    const file = (written: string, resolved: string) => (source === "files" ? terraformFilePath(props, stackName, written, resolved) : undefined);
    const pullSecret = new PlanTimeInput(this, "PullSecretInput", {
      spec: pullSecretInput(`the HostedCluster ${cluster.name}`, `${at}.pullSecretFile`, hostedConfig.pullSecretFile),
      source,
      file: file(hostedConfig.pullSecretFile, hosted.files.pullSecretFile),
    });
    const signingKey = new PlanTimeInput(this, "SigningKeyInput", {
      spec: signingKeyInput(
        cluster.name,
        cluster.issuer.keyOrigin,
        cluster.issuer.privateKeyFileAsWritten,
        source === "variables" ? requirePublicKey(props.publicKeys, cluster.issuer.publicKeyFile) : undefined,
      ),
      source,
      file: file(cluster.issuer.privateKeyFileAsWritten, cluster.issuer.privateKeyFile),
    });
    const sshPublicKey =
      hostedConfig.sshPublicKeyFile && hosted.files.sshPublicKeyFile
        ? new PlanTimeInput(this, "SshPublicKeyInput", {
            spec: sshPublicKeyInput(cluster.name, `${at}.sshPublicKeyFile`, hostedConfig.sshPublicKeyFile),
            source,
            file: file(hostedConfig.sshPublicKeyFile, hosted.files.sshPublicKeyFile),
          })
        : undefined;

    const secrets = new HostedClusterSecrets(this, "Secrets", {
      namespace: hosted.namespace,
      names: hosted.secrets,
      pullSecret: pullSecret.value,
      signingKey: signingKey.value,
      sshPublicKey: sshPublicKey?.value,
      subscriptionId: config.subscriptionId,
      tenantId: config.tenantId,
    });

    const trustBundleFile = hosted.files.additionalTrustBundleFile;
    const trustBundle = trustBundleFile
      ? new TrustBundle(this, "TrustBundle", {
          namespace: hosted.namespace,
          name: hosted.trustBundleConfigMap,
          pem: requireTrustBundle(props.trustBundles, trustBundleFile),
        })
      : undefined;

    this.hostedCluster = new HostedCluster(this, "HostedCluster", {
      name: cluster.name,
      names: hosted,
      hostedCluster: hostedConfig,
      issuerUrl: cluster.issuer.url,
      location: config.location,
      subscriptionId: config.subscriptionId,
      tenantId: config.tenantId,
      identities,
      kms: kmsEncryption,
      cloud: config.cloud,
      dependsOn: trustBundle ? [...secrets.all, trustBundle.configMap] : secrets.all,
    });
    new CreationGuard(this, "CreationGuard", { hostedCluster: this.hostedCluster, cluster, storageAccountOrigin: names.storageAccount.origin });

    new TerraformOutput(this, "hosted_cluster_namespace", { value: hosted.namespace });
    new TerraformOutput(this, "control_plane_namespace", {
      value: hosted.controlPlaneNamespace,
      description: "Namespace where HyperShift runs the control plane",
    });
    new TerraformOutput(this, "kubeconfig_secret", {
      value: this.hostedCluster.kubeconfigSecretName,
      description: `Admin kubeconfig Secret (key kubeconfig) HyperShift writes in ${hosted.namespace} once the API server is up`,
    });
    if (secrets.generatedSshPrivateKey) {
      new TerraformOutput(this, "ssh_private_key", {
        value: secrets.generatedSshPrivateKey,
        sensitive: true,
        description: "Generated SSH private key of the workers (user core): terraform output -raw ssh_private_key",
      });
    }
  }

  /**
   * aroHcp: the Key Vault and secret names (derived), the control-plane service principals'
   * client IDs (by the object IDs the shared stack recorded) and the data-plane identities'
   * client IDs (by name).
   */
  private managedIdentities(
    props: ClusterStackProps,
    stackName: string,
    identities: Extract<ClusterIdentityNames, { kind: "aroHcp" }>,
    clientId: (key: WorkloadIdentityKey) => string,
  ): ManagedIdentitiesInput {
    const { config, cluster } = props;
    new AzureadProvider(this, "azuread", { tenantId: config.tenantId, ...azureadEnvironment(config) });
    // Found by the object IDs the shared stack recorded and checked at plan, never by display name.
    const principals = new ControlPlanePrincipals(this, "ControlPlanePrincipals", {
      principals: recordedControlPlanePrincipals(this, stackName, props, cluster),
      tenantId: config.tenantId,
    });
    // The KMS principal (hostedCluster.kms) goes in secretEncryption, not in managedIdentities.
    const controlPlane = Object.fromEntries(
      identities.controlPlanePrincipals
        .flatMap((identity) => (identity.key === "kms" ? [] : [identity]))
        .map((identity) => [identity.key, { clientId: principals.clientIds.get(identity.key) as string, secretName: identity.secretName }]),
    ) as ManagedIdentitiesInput["controlPlane"];
    return {
      keyVault: { name: identities.keyVault.name, tenantId: config.tenantId },
      controlPlane,
      dataPlane: { imageRegistry: clientId("imageRegistry"), disk: clientId("disk"), file: clientId("file") },
    };
  }
}

/** Self-managed: the workload identities' client IDs (the control-plane-operator one when the cluster has it). */
function workloadIdentityClientIds(workloadIdentities: readonly IdentityNames[], clientId: (key: WorkloadIdentityKey) => string): WorkloadIdentityClientIds {
  const required = Object.fromEntries(REQUIRED_WORKLOAD_IDENTITIES.map((key) => [key, clientId(key)])) as Record<RequiredWorkloadIdentity, string>;
  // The control-plane-operator identity is optional (private clusters); KMS's goes in secretEncryption.
  return workloadIdentities.some((i) => i.key === "controlPlaneOperator") ? { ...required, controlPlaneOperator: clientId("controlPlaneOperator") } : required;
}

function requirePublicKey(keys: ReadonlyMap<string, string> | undefined, file: string): string {
  const pem = keys?.get(file);
  if (pem === undefined) throw new Error(`internal: the public key ${file} was not read (config/load.ts reads it)`);
  return pem;
}

function requireTrustBundle(bundles: ReadonlyMap<string, string> | undefined, file: string): string {
  const pem = bundles?.get(file);
  if (pem === undefined) throw new Error(`internal: the trust bundle ${file} was not read (config/load.ts reads it)`);
  return pem;
}
