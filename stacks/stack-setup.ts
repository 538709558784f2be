import { DataAzurermKubernetesCluster } from "@cdktf/provider-azurerm/lib/data-azurerm-kubernetes-cluster";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import {
  AzurermBackend,
  CloudBackend,
  DataTerraformRemoteState,
  DataTerraformRemoteStateAzurerm,
  DataTerraformRemoteStateLocal,
  Fn,
  LocalBackend,
  NamedCloudWorkspace,
  NamedRemoteWorkspace,
  TerraformRemoteState,
  TerraformStack,
} from "cdktf";
import * as path from "node:path";
import { AksNames, ClusterNames, DeploymentNames } from "../config/names";
import { kubernetesInputs } from "../config/plan-time-inputs";
import { RetiredClusterGuard } from "../constructs/lifecycle/retired-cluster-guard";
import { PlanTimeInput } from "../constructs/plan-time-input/plan-time-input";
import { Config } from "../config/schema";
import { literal } from "../constructs/terraform-literal";

/** What every stack needs to configure its backend and providers. */
export interface StackContext {
  readonly config: Config;
  readonly names: DeploymentNames;
  /** Absolute synth output folder (cdktf.out); local state paths are relative to it. */
  readonly outdir: string;
}

/**
 * A path as Terraform must see it from a stack's working directory (<outdir>/stacks/<stack>):
 * relative, so synthesized JSON holds no machine-specific absolute path.
 */
export function pathFromStack(context: StackContext, stackName: string, file: string): string {
  return path.relative(path.join(context.outdir, "stacks", stackName), file);
}

/**
 * A file path for Terraform functions and provider settings: as written when absolute or `~/`
 * (the provider expands `~` where Terraform runs); a relative one is rebased onto the stack folder.
 */
export function terraformFilePath(context: StackContext, stackName: string, written: string, resolved: string): string {
  return written.startsWith("~") || path.isAbsolute(written) ? written : pathFromStack(context, stackName, resolved);
}

/** How the management cluster is reached, by topology (switched once, in app.ts). */
export interface ManagementClusterProps {
  /**
   * The AKS management cluster (topology aroHcp with managementCluster.aks): reached through its
   * own kube config, read at plan time.
   * @default - a cluster reached by the config's kubeconfig, Terraform variables or KUBE_* variables
   */
  readonly managementAks?: AksNames;
}

/** How a stack reaches the management cluster. */
export interface ManagementClusterAccess {
  readonly provider: KubernetesProvider;
  /** The AKS management cluster as read at plan time (managementCluster.aks), else undefined. */
  readonly aks?: DataAzurermKubernetesCluster;
}

/**
 * The Kubernetes provider for the management cluster. With managementCluster.aks: the AKS
 * cluster's own kube config, read at plan time (the stack needs the azurerm provider; the
 * credentials stay in state and never reach the synthesized JSON). With credentialsFromVariables:
 * sensitive Terraform variables. Otherwise the config's kubeconfig path and context, or nothing, so
 * the provider reads KUBE_* environment variables (Terraform Cloud).
 */
export function configureKubernetesProvider(stack: TerraformStack, stackName: string, context: StackContext & ManagementClusterProps): ManagementClusterAccess {
  const aks = context.managementAks;
  if (aks) {
    const entraId = context.config.managementCluster?.aks?.entraIdRbac;
    const cluster = new DataAzurermKubernetesCluster(stack, "ManagementCluster", {
      name: aks.name,
      resourceGroupName: aks.resourceGroup.name,
      lifecycle: entraId?.enabled
        ? undefined
        : {
            postcondition: [
              {
                // Without local accounts kube_config has no client certificate, and the provider's
                // own error would not say why.
                condition: '${try(self.kube_config[0].client_key, "") != ""}',
                errorMessage: `AKS cluster ${aks.name} gives no client certificate (local accounts disabled?): Terraform reaches the management cluster with it, or set managementCluster.aks.entraIdRbac.enabled (help/aro-hcp.md).`,
              },
            ],
          },
    });
    // Azure returns every PEM base64-encoded. With local accounts (the default) kube_config holds
    // a client certificate; with Entra ID only, a token from kubelogin (help/aro-hcp.md).
    const kube = cluster.kubeConfig.get(0);
    const provider = new KubernetesProvider(stack, "kubernetes", {
      host: kube.host,
      clusterCaCertificate: Fn.base64decode(kube.clusterCaCertificate),
      ...(entraId?.enabled
        ? { exec: [kubeloginExec(entraId.kubeloginMode, context.config.tenantId)] }
        : { clientCertificate: Fn.base64decode(kube.clientCertificate), clientKey: Fn.base64decode(kube.clientKey) }),
    });
    return { provider, aks: cluster };
  }
  if (context.config.managementCluster?.credentialsFromVariables) {
    // Sensitive variables (Terraform Cloud workspace variables or TF_VAR_*), validated at plan.
    const inputs = Object.fromEntries(
      kubernetesInputs().map((spec) => [spec.variable, new PlanTimeInput(stack, `ManagementCluster_${spec.variable}`, { spec, source: "variables" }).value]),
    );
    const provider = new KubernetesProvider(stack, "kubernetes", {
      host: inputs.kube_host,
      clusterCaCertificate: inputs.kube_cluster_ca_certificate,
      token: inputs.kube_token,
      clientCertificate: inputs.kube_client_certificate,
      clientKey: inputs.kube_client_key,
    });
    return { provider };
  }
  const kubeconfig = context.config.managementCluster?.kubeconfig;
  const resolved = context.names.managementCluster?.kubeconfig;
  const provider = new KubernetesProvider(stack, "kubernetes", {
    // Provider arguments are templates; paths and names from the config are literals.
    configPath: kubeconfig && resolved && literal(terraformFilePath(context, stackName, kubeconfig.path, resolved)),
    configContext: kubeconfig?.context && literal(kubeconfig.context),
  });
  return { provider };
}

/** Construct ID of the remote-state data source reading `producer` (workspaces.json finds producers by it). */
export function remoteStateId(producer: string): string {
  return `${producer}-state`;
}

/** The producer stack a remote-state data source reads, from its construct ID. */
export function remoteStateProducer(id: string): string | undefined {
  return id.endsWith("-state") ? id.slice(0, -"-state".length) : undefined;
}

/**
 * The AKS Microsoft Entra server application: every AKS cluster with Entra ID authentication
 * accepts tokens for it (https://azure.github.io/kubelogin/, "--server-id").
 */
export const AKS_ENTRA_SERVER_ID = "6dae42f8-4368-4678-94ff-3960e28e3630";

/** kubelogin as the provider's credential plugin; it must be on PATH where Terraform runs. */
function kubeloginExec(mode: string, tenantId: string) {
  return {
    apiVersion: "client.authentication.k8s.io/v1beta1",
    command: "kubelogin",
    args: ["get-token", "--login", mode, "--server-id", AKS_ENTRA_SERVER_ID, "--tenant-id", tenantId],
  };
}

/**
 * Reads another stack's outputs from its state in the same backend (terraform_remote_state).
 * Values stay references: a secret output is never copied into synthesized JSON.
 */
export function remoteState(stack: TerraformStack, stackName: string, producer: string, context: StackContext): TerraformRemoteState {
  const { config, names } = context;
  const state = names.stateLocation(producer);
  const backend = config.backend;
  const id = remoteStateId(producer);
  // One data source per producer and stack, however many outputs the stack reads from it.
  const existing = stack.node.tryFindChild(id);
  if (existing) return existing as TerraformRemoteState;
  switch (backend.type) {
    case "local":
      // Unlike the backend block (read verbatim), remote-state arguments are templates.
      return new DataTerraformRemoteStateLocal(stack, id, { path: literal(pathFromStack(context, stackName, state)) });
    case "azurerm":
      return new DataTerraformRemoteStateAzurerm(stack, id, azurermState(backend, state, config));
    case "cloud":
      // What cdktf's CloudBackend itself generates; the producer workspace must share its state.
      return new DataTerraformRemoteState(stack, id, {
        organization: literal(backend.organization),
        hostname: literal(backend.hostname),
        workspaces: new NamedRemoteWorkspace(literal(state)),
      });
  }
}

/** One stack's state blob: the backend and the remote-state reader must agree on every field. */
function azurermState(backend: Extract<Config["backend"], { type: "azurerm" }>, key: string, config: Config) {
  return {
    resourceGroupName: backend.resourceGroupName,
    storageAccountName: backend.storageAccountName,
    containerName: backend.containerName,
    key,
    subscriptionId: config.subscriptionId,
    tenantId: config.tenantId,
    useAzureadAuth: true,
  };
}

export function configureBackend(stack: TerraformStack, stackName: string, context: StackContext): void {
  const { config, names } = context;
  const state = names.stateLocation(stackName);
  const backend = config.backend;
  switch (backend.type) {
    case "local":
      // Terraform runs in <outdir>/stacks/<stack>; a relative path keeps the synthesized JSON
      // free of machine-specific absolute paths, and the state outside cdktf.out.
      new LocalBackend(stack, { path: pathFromStack(context, stackName, state) });
      return;
    case "azurerm":
      new AzurermBackend(stack, azurermState(backend, state, config));
      return;
    case "cloud":
      new CloudBackend(stack, {
        organization: backend.organization,
        hostname: backend.hostname,
        workspaces: new NamedCloudWorkspace(state, backend.project),
      });
      return;
  }
}

/** `clusters[].retired`: the cluster's stacks plan only in destroy mode (see RetiredClusterGuard). */
export function guardRetiredCluster(stack: TerraformStack, cluster: ClusterNames): void {
  if (!cluster.retired) return;
  new RetiredClusterGuard(stack, "RetiredClusterGuard", { clusterName: cluster.name, origin: `clusters[${cluster.index}].retired`, stacks: cluster.stacks });
}
