import { DataAzurermKeyVaultKey } from "@cdktf/provider-azurerm/lib/data-azurerm-key-vault-key";
import { RandomProvider } from "@cdktf/provider-random/lib/provider";
import { TlsProvider } from "@cdktf/provider-tls/lib/provider";
import { TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { WorkloadIdentityKey } from "../config/components";
import { adoptedClusterObjects, ClusterIdentityNames, ClusterNames, HostedClusterNames, IdentityNames, KmsNames, managedIdentitiesOf } from "../config/names";
import { CreationGuard } from "../constructs/hosted-cluster/creation-guard";
import { HostedCluster } from "../constructs/hosted-cluster/hosted-cluster";
import { HostedClusterSecrets, HostedClusterSecretsProps } from "../constructs/hosted-cluster/hosted-cluster-secrets";
import { TrustBundle } from "../constructs/hosted-cluster/trust-bundle";
import {
  HostedClusterIdentities,
  ManagedIdentitiesInput,
  REQUIRED_WORKLOAD_IDENTITIES,
  RequiredWorkloadIdentity,
  WorkloadIdentityClientIds,
} from "../constructs/hosted-cluster/hosted-cluster-identities";
import { KmsEncryptionInput } from "../constructs/hosted-cluster/secret-encryption";
import { pullSecretInput, secretsSource, signingKeyInput, sshPublicKeyInput } from "../config/plan-time-inputs";
import { PlanTimeInputs } from "../constructs/plan-time-input/plan-time-inputs";
import { IdentityClientIds } from "../constructs/workload-identities/identity-client-ids";
import { lookUpControlPlanePrincipals } from "./shared-stack";
import { configureAzureStack } from "./azure-providers";
import { addClusterSignIn } from "./cluster-sign-in";
import { clusterUpgradeProps } from "./cluster-upgrade";
import { hostedClusterProps } from "./hosted-cluster-props";
import { configureKubernetesProvider, guardRetiredCluster, ManagementClusterProps, StackContext, terraformFilePath } from "./stack-setup";

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
  /** Namespace of the HyperShift operator (its supported-versions ConfigMap). @default "hypershift" */
  readonly operatorNamespace?: string;
  /** The HyperShift release the operator runs (config/hypershift-release.ts): which upgrade wait it supports and which HostedCluster fields its CRD has. @default - unknown (main) */
  readonly hypershiftRelease?: string;
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
    const clientIds = new IdentityClientIds(this, {
      identities: managedIdentitiesOf(cluster.identities),
      resourceGroupName: names.resourceGroup.name,
      owner: `clusters[${cluster.index}]`,
    });
    const clusterIdentities = cluster.identities;
    const identities: HostedClusterIdentities =
      clusterIdentities.kind === "aroHcp"
        ? { kind: "managedIdentities", ...this.managedIdentities(props, stackName, clusterIdentities, clientIds) }
        : { kind: "workloadIdentities", clientIds: workloadIdentityClientIds(clusterIdentities.workloadIdentities, clientIds) };
    const kmsEncryption = hosted.kms && this.kmsEncryption(cluster, hosted.kms, clientIds);

    const inputs = new PlanTimeInputs(this, { source, terraformPath: (file) => terraformFilePath(props, stackName, file.written, file.resolved) });
    const adopted = adoptedClusterObjects(names.adoption, stackName);
    const secrets = new HostedClusterSecrets(this, "Secrets", {
      namespace: hosted.namespace,
      names: hosted.secrets,
      ...hostedClusterSecretInputs(props, inputs, adopted !== undefined),
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

    const signIn = addClusterSignIn(this, config, cluster);
    this.hostedCluster = new HostedCluster(this, "HostedCluster", {
      ...hostedClusterProps(config, cluster, { identities, kms: kmsEncryption }, props.hypershiftRelease),
      signIn: signIn.manifest,
      ...clusterUpgradeProps(this, props, stackName),
      dependsOn: [...secrets.all, ...(trustBundle ? [trustBundle.configMap] : []), ...(signIn.resources?.secrets ?? [])],
      existing: adopted && HostedCluster.fromExisting(adopted.nodePools.map((pool) => pool.name)),
    });
    new CreationGuard(this, "CreationGuard", { hostedCluster: this.hostedCluster, cluster, storageAccountOrigin: names.storageAccount.origin });
    this.addOutputs(hosted, secrets);
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
    clientIds: IdentityClientIds,
  ): ManagedIdentitiesInput {
    const principals = lookUpControlPlanePrincipals(this, stackName, props, props.cluster);
    // The KMS principal (hostedCluster.kms) goes in secretEncryption, not in managedIdentities.
    const controlPlane = Object.fromEntries(
      identities.controlPlanePrincipals
        .flatMap((identity) => (identity.key === "kms" ? [] : [identity]))
        .map((identity) => [identity.key, { clientId: principals.clientIds.get(identity.key) as string, secretName: identity.secretName }]),
    ) as ManagedIdentitiesInput["controlPlane"];
    const clientId = (key: WorkloadIdentityKey) => clientIds.clientId(key);
    return {
      keyVault: { name: identities.keyVault.name, tenantId: props.config.tenantId },
      controlPlane,
      dataPlane: { imageRegistry: clientId("imageRegistry"), disk: clientId("disk"), file: clientId("file") },
    };
  }

  /** hostedCluster.kms: the keys (a created key's current version read at plan) and who unwraps them. */
  private kmsEncryption(cluster: ClusterNames, kms: KmsNames, clientIds: IdentityClientIds): KmsEncryptionInput {
    const identities = cluster.identities;
    const kmsPrincipal = identities.kind === "aroHcp" ? identities.controlPlanePrincipals.find((p) => p.key === "kms") : undefined;
    if (identities.kind === "aroHcp" && !kmsPrincipal) throw new Error(`internal: clusters[${cluster.index}] has hostedCluster.kms but no KMS principal`);
    // A created key without a pinned version: its current version, read at plan.
    const version = kms.activeKey.keyVersion ?? new DataAzurermKeyVaultKey(this, "KmsKey", { name: kms.activeKey.keyName, keyVaultId: kms.vault.id }).version;
    return {
      activeKey: { ...kms.activeKey, keyVersion: version },
      backupKey: kms.backupKey && { ...kms.backupKey, keyVersion: kms.backupKey.keyVersion as string },
      keyVaultType: kms.keyVaultType,
      identity:
        identities.kind === "selfManaged"
          ? { workloadIdentityClientId: clientIds.clientId("kms") }
          : { credentialsSecretName: (kmsPrincipal as { secretName: string }).secretName },
    };
  }

  private addOutputs(hosted: HostedClusterNames, secrets: HostedClusterSecrets): void {
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
}

/**
 * The Secrets' plan-time values: the pull secret, the service account signing key and, when given, the workers' SSH public key.
 * Adopted (help/adopt.md): the CLI's etcd key, and its SSH key unless sshPublicKeyFile is set, stay as they are.
 */
function hostedClusterSecretInputs(
  props: ClusterStackProps,
  inputs: PlanTimeInputs,
  adopted: boolean,
): Pick<HostedClusterSecretsProps, "pullSecret" | "signingKey" | "sshPublicKey" | "etcdEncryptionKey"> {
  const { config, cluster } = props;
  const hosted = cluster.hosted as HostedClusterNames;
  const hostedConfig = hosted.config;
  const at = `clusters[${cluster.index}].hostedCluster`;
  const pullSecret = inputs.add("PullSecretInput", pullSecretInput(`the HostedCluster ${cluster.name}`, `${at}.pullSecretFile`, hostedConfig.pullSecretFile), {
    written: hostedConfig.pullSecretFile,
    resolved: hosted.files.pullSecretFile,
  });
  const { issuer } = cluster;
  const publicKey = secretsSource(config) === "variables" ? requirePublicKey(props.publicKeys, issuer.publicKeyFile) : undefined;
  const signingKey = inputs.add("SigningKeyInput", signingKeyInput(cluster.name, issuer.keyOrigin, issuer.privateKeyFileAsWritten, publicKey), {
    written: issuer.privateKeyFileAsWritten,
    resolved: issuer.privateKeyFile,
  });
  const sshPublicKey =
    hostedConfig.sshPublicKeyFile && hosted.files.sshPublicKeyFile
      ? inputs.add("SshPublicKeyInput", sshPublicKeyInput(cluster.name, `${at}.sshPublicKeyFile`, hostedConfig.sshPublicKeyFile), {
          written: hostedConfig.sshPublicKeyFile,
          resolved: hosted.files.sshPublicKeyFile,
        })
      : undefined;
  const kept = HostedClusterSecrets.fromExistingData();
  return {
    pullSecret: pullSecret.value,
    signingKey: signingKey.value,
    sshPublicKey: sshPublicKey?.value ?? (adopted ? kept : undefined),
    ...(adopted && { etcdEncryptionKey: kept }),
  };
}

/** Self-managed: the workload identities' client IDs (the control-plane-operator one when the cluster has it). */
function workloadIdentityClientIds(workloadIdentities: readonly IdentityNames[], clientIds: IdentityClientIds): WorkloadIdentityClientIds {
  const required = Object.fromEntries(REQUIRED_WORKLOAD_IDENTITIES.map((key) => [key, clientIds.clientId(key)])) as Record<RequiredWorkloadIdentity, string>;
  // The control-plane-operator identity is optional (private clusters); KMS's goes in secretEncryption.
  return workloadIdentities.some((i) => i.key === "controlPlaneOperator")
    ? { ...required, controlPlaneOperator: clientIds.clientId("controlPlaneOperator") }
    : required;
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
