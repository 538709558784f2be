import { TerraformOutput, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import * as path from "node:path";
import { protectionOf, releasingProviders } from "../config/protection";
import { AKS_KEY_VAULT_USER_ENV, OPERATOR_CLOUD_ENV, OperatorBundle, PULL_SECRET_NAME, withOperatorEnv } from "../config/operator-bundle";
import { externalDnsCredentialsInput, privateLinkCredentialsInput, pullSecretInput, secretsSource } from "../config/plan-time-inputs";
import { PlanTimeInputs } from "../constructs/plan-time-input/plan-time-inputs";
import { addExampleBundleGuard } from "../constructs/hypershift-operator/example-bundle-guard";
import { addHostedClusterNamespaces } from "../constructs/hypershift-operator/hosted-cluster-namespaces";
import { HypershiftOperator } from "../constructs/hypershift-operator/hypershift-operator";
import { OperatorSecret } from "../constructs/hypershift-operator/operator-secret";
import { EXTERNAL_DNS_CREDENTIALS_OUTPUT, PRIVATE_LINK_CREDENTIALS_OUTPUT } from "./shared-stack";
import { configureAzureStack } from "./azure-providers";
import { addEtcdBackup } from "./management-backup";
import { addManagementMonitoring } from "./management-monitoring";
import {
  configureBackend,
  configureKubernetesProvider,
  ManagementClusterAccess,
  ManagementClusterProps,
  remoteState,
  StackContext,
  terraformFilePath,
} from "./stack-setup";

export interface ManagementStackProps extends StackContext, ManagementClusterProps {
  /** The checked operator bundle (config loader). */
  readonly bundle: OperatorBundle;
}

/**
 * Phase 2 (seed 004): the HyperShift operator and, with ExternalDNS, the Azure credentials its
 * external-dns reads, applied to the management cluster through the Kubernetes provider.
 * Needs the cluster reachable at plan time (kubernetes_manifest reads the API schema).
 */
export class ManagementStack extends TerraformStack {
  constructor(scope: Construct, props: ManagementStackProps) {
    const { config, names, bundle } = props;
    const stackName = names.managementStack;
    super(scope, stackName);
    // azurerm: to read an AKS management cluster (its kube config, its add-on identity), for etcd backup
    // storage, or to destroy released etcd backup storage (protection.release).
    if (props.managementAks || config.managementCluster?.etcdBackup || releasingProviders(config, stackName).has("azurerm"))
      configureAzureStack(this, stackName, props);
    else configureBackend(this, stackName, props);
    const management = config.managementCluster;
    const protection = protectionOf(config);
    const files = names.managementCluster;
    if (!management || !files) throw new Error("internal: ManagementStack needs managementCluster in the config");

    const access = configureKubernetesProvider(this, stackName, props);

    if (bundle.exampleOnly) addExampleBundleGuard(this, { bundleFileName: path.basename(files.bundleFile) });

    const operator = new HypershiftOperator(this, "HypershiftOperator", {
      objects: operatorObjects(props, access),
      rolloutTimeout: management.operator.rolloutTimeout,
      preventDestroy: protection.operator,
      forceConflicts: management.operator.forceConflicts,
    });

    // Plan-time secrets: files Terraform reads, or sensitive variables (secrets.source).
    const inputs = new PlanTimeInputs(this, {
      source: secretsSource(config),
      terraformPath: (file) => terraformFilePath(props, stackName, file.written, file.resolved),
    });
    this.addExternalDnsCredentials(props, operator, inputs);
    this.addPrivateLinkCredentials(props, operator, inputs);
    addManagementMonitoring(this, config, bundle, operator);
    addEtcdBackup(this, props, access, operator);
    if (management.pullSecretFile && files.pullSecretFile) {
      const input = inputs.add(
        "PullSecretInput",
        pullSecretInput(`the Secret ${bundle.operatorNamespace}/${PULL_SECRET_NAME}`, "managementCluster.pullSecretFile", management.pullSecretFile),
        { written: management.pullSecretFile, resolved: files.pullSecretFile },
      );
      const pullSecret = new OperatorSecret(this, "PullSecret", {
        name: PULL_SECRET_NAME,
        namespace: bundle.operatorNamespace,
        type: "kubernetes.io/dockerconfigjson",
        data: { ".dockerconfigjson": input.value },
        dependsOn: operator.definitions,
      });
      operator.addWorkloadDependency(pullSecret.resource);
    }

    // Deleting a namespace would delete every HostedCluster in it: protected with the operator.
    addHostedClusterNamespaces(this, {
      namespaces: names.clusters.flatMap((c) => (c.hosted ? [c.hosted.namespace] : [])),
      preventDestroy: protection.operator,
    });

    new TerraformOutput(this, "operator_namespace", { value: bundle.operatorNamespace });
  }

  /**
   * ExternalDNS's azure_mgmt.json: handed over (a file or a variable), or read from the shared
   * stack's state. Either way a reference: the client secret is resolved by Terraform, never synthesized.
   */
  private addExternalDnsCredentials(props: ManagementStackProps, operator: HypershiftOperator, inputs: PlanTimeInputs): void {
    const { names, bundle } = props;
    const management = props.config.managementCluster;
    const externalDns = bundle.externalDns;
    if (!externalDns?.credentialsSecret || !management) return;
    const written = management.externalDnsCredentialsFile;
    const resolved = names.managementCluster?.externalDnsCredentialsFile;
    const credentials =
      written && resolved
        ? inputs.add("ExternalDnsCredentialsInput", externalDnsCredentialsInput(written), { written, resolved }).value
        : remoteState(this, names.managementStack, names.sharedStack, props).getString(EXTERNAL_DNS_CREDENTIALS_OUTPUT);
    const secret = new OperatorSecret(this, "ExternalDnsCredentials", {
      name: externalDns.credentialsSecret,
      namespace: externalDns.namespace,
      // HyperShift mounts the secret at /etc/provider; external-dns reads /etc/provider/credentials.
      data: { credentials },
      dependsOn: operator.definitions,
    });
    operator.addWorkloadDependency(secret.resource);
  }

  /**
   * The operator's Private Link credentials (--private-platform Azure): handed over, or the shared
   * stack's principal read from its state; the Secret the bundle mounts at /etc/azure-provider.
   */
  private addPrivateLinkCredentials(props: ManagementStackProps, operator: HypershiftOperator, inputs: PlanTimeInputs): void {
    const { names, bundle } = props;
    const privateLink = names.privateLink;
    const rendered = bundle.privateLink;
    if (!privateLink || !rendered.credentialsSecret || !rendered.credentialsKey) return;
    const written = props.config.managementCluster?.privateLink?.credentialsFile;
    const resolved = privateLink.credentialsFile;
    const credentials =
      written && resolved
        ? inputs.add("PrivateLinkCredentialsInput", privateLinkCredentialsInput(written), { written, resolved }).value
        : remoteState(this, names.managementStack, names.sharedStack, props).getString(PRIVATE_LINK_CREDENTIALS_OUTPUT);
    const secret = new OperatorSecret(this, "PrivateLinkCredentials", {
      name: rendered.credentialsSecret,
      namespace: bundle.operatorNamespace,
      data: { [rendered.credentialsKey]: credentials },
      dependsOn: operator.definitions,
    });
    operator.addWorkloadDependency(secret.resource);
  }
}

/** The bundle's objects, with the environment the operator needs and no install flag sets. */
function operatorObjects({ config, bundle }: ManagementStackProps, access: ManagementClusterAccess): OperatorBundle["objects"] {
  // ARO HCP style: HyperShift's SecretProviderClasses mount the control-plane credentials as
  // the AKS Key Vault secrets provider add-on identity, whose client ID the operator reads from
  // its environment (--aro-hcp-key-vault-users-client-id). Set from the cluster itself, so the
  // bundle can be rendered before the cluster exists.
  const withAksEnv = access.aks
    ? withOperatorEnv(bundle.objects, AKS_KEY_VAULT_USER_ENV, access.aks.keyVaultSecretsProvider.get(0).secretIdentity.get(0).clientId)
    : bundle.objects;
  // Private Link in a sovereign cloud: the operator manages Private Link Services in the cloud it
  // reads from AZURE_CLOUD_NAME (default AzurePublicCloud), which no install flag sets.
  return config.managementCluster?.privateLink && config.cloud !== "AzurePublicCloud"
    ? withOperatorEnv(withAksEnv, OPERATOR_CLOUD_ENV, config.cloud)
    : withAksEnv;
}
