import { CONTROL_PLANE_OPERATOR_IDENTITY_SINCE, releaseAtLeast } from "../hypershift-release";
import { LoadedConfig } from "../load";
import { clusterOfStack } from "../names";
import { ConfigIssue } from "../rules";
import { DeployedProtection } from "./deployed";

/** The refusal of a config that drops protected resources: which edit did it, and the way forward. */

/** The config edit that dropped a protected resource: the issue's path and value, and the edit in words. */
interface DropCause {
  readonly path: string;
  readonly value?: unknown;
  readonly edit: string;
}

/** The stack of a `<stack>/<address>` ID. */
export function stackOf(id: string): string {
  return id.slice(0, id.indexOf("/"));
}

/** The config edit that drops a protected resource, from its stack and address. */
function dropCause(loaded: LoadedConfig, id: string): DropCause {
  const stack = stackOf(id);
  const name = id.slice(id.indexOf(".") + 1);
  const cluster = clusterOfStack(stack);
  return cluster !== undefined ? clusterDropCause(loaded, cluster, stack, name) : sharedDropCause(loaded, stack, name);
}

/** A resource of a cluster's stack (`cluster`), by its construct path (`name`). */
function clusterDropCause(loaded: LoadedConfig, cluster: string, stack: string, name: string): DropCause {
  const { config } = loaded;
  const index = config.clusters.findIndex((x) => x.name === cluster);
  if (index < 0) return { path: "clusters", value: cluster, edit: `cluster ${cluster} left the config (removed or renamed), with its stack ${stack}` };
  const component = /^WorkloadIdentities_([A-Za-z]+)_/.exec(name)?.[1];
  if (
    component === "controlPlaneOperator" &&
    config.clusters[index].identities.controlPlaneOperator === undefined &&
    !releaseAtLeast(loaded.hypershiftRelease, CONTROL_PLANE_OPERATOR_IDENTITY_SINCE)
  )
    return {
      path: `clusters[${index}].identities.controlPlaneOperator`,
      edit:
        `the control-plane operator's workload identity of cluster ${cluster} is not created before HyperShift ${CONTROL_PLANE_OPERATOR_IDENTITY_SINCE} (managementCluster.operator.hypershiftRelease: ${loaded.hypershiftRelease}), ` +
        "whose HostedCluster has no field for it: nothing uses it there, so releasing it is safe; or keep the release the cluster was deployed with",
    };
  if (component)
    return {
      path: `clusters[${index}].identities.${component}`,
      edit: `the ${component} workload identity of cluster ${cluster} is no longer configured (clusters[${index}].identities.${component}, or the component's removal)`,
    };
  if (name.startsWith("OidcIssuer_"))
    return { path: "oidc.issuer", value: config.oidc.issuer, edit: `cluster ${cluster} no longer has its own issuer (oidc.issuer: ${config.oidc.issuer})` };
  if (name.startsWith("KmsKey"))
    return { path: `clusters[${index}].hostedCluster.kms`, edit: `cluster ${cluster}'s created KMS Key Vault or key is no longer configured` };
  return { path: `clusters[${index}]`, edit: `cluster ${cluster}'s configuration no longer declares it` };
}

/** A resource of the shared, management or aks stack, by its construct path (`name`). */
function sharedDropCause(loaded: LoadedConfig, stack: string, name: string): DropCause {
  const { config } = loaded;
  const clusterIndex = (c: string) => config.clusters.findIndex((x) => x.name === c);
  const controlPlane = /^ControlPlaneIdentities_(.+?)_[A-Za-z]+_/.exec(name)?.[1];
  if (controlPlane !== undefined) {
    return clusterIndex(controlPlane) < 0
      ? {
          path: "clusters",
          value: controlPlane,
          edit: `cluster ${controlPlane} left the config (removed or renamed): its control-plane principals and Key Vault secrets go with it`,
        }
      : { path: `clusters[${clusterIndex(controlPlane)}]`, edit: `cluster ${controlPlane}'s control-plane principals are no longer configured` };
  }
  if (name.startsWith("ExternalDns_")) return { path: "externalDns", edit: "externalDns was removed" };
  if (name.startsWith("OidcIssuer_"))
    return {
      path: "oidc.issuer",
      value: config.oidc.issuer,
      edit: `the shared issuer is gone (oidc.issuer: ${config.oidc.issuer}): every cluster's tokens were verified against its documents`,
    };
  if (name.startsWith("OidcStorage_")) return { path: "oidc", edit: "the OIDC storage account is no longer declared" };
  if (name.startsWith("EtcdBackup_"))
    return {
      path: "managementCluster.etcdBackup",
      edit: "the etcd backup storage is no longer declared (managementCluster.etcdBackup removed): its storage account and container would go, and every etcd snapshot in them",
    };
  if (name.startsWith("PrivateLink"))
    return {
      path: "managementCluster.privateLink",
      edit: "the operator's Private Link principal is no longer created (privateLink removed, or credentialsFile set)",
    };
  if (name.startsWith("DnsZone")) return { path: "dns", edit: "the DNS zone is no longer created (dns removed or adopted)" };
  if (name.startsWith("KeyVault")) return { path: "topology", value: config.topology, edit: "the control-plane Key Vault is no longer created" };
  if (name.startsWith("PersistentResourceGroup"))
    return {
      path: "resourceGroup.create",
      value: config.resourceGroup.create,
      edit: "the persistent resource group is no longer created (an adopted group is only read)",
    };
  if (stack === "aks") return { path: "managementCluster.aks", edit: "the AKS management cluster is no longer created here" };
  if (stack === "management")
    return {
      path: "managementCluster",
      edit: "the operator's CRDs or namespaces are no longer declared (managementCluster, its bundle, or the hosted clusters' namespaces changed)",
    };
  return { path: "(config)", edit: `stack ${stack} no longer declares it` };
}

/** One issue per config edit, naming every resource it drops, why it matters and the way forward. */
export function refusalIssues(loaded: LoadedConfig, refused: readonly string[], deployed: DeployedProtection): ConfigIssue[] {
  const byCause = new Map<string, DropCause & { ids: string[] }>();
  for (const id of [...refused].sort()) {
    const cause = dropCause(loaded, id);
    const key = `${cause.path}\u0000${cause.edit}`;
    const entry = byCause.get(key) ?? { ...cause, ids: [] };
    entry.ids.push(id);
    byCause.set(key, entry);
  }
  return [...byCause.values()].map(({ path: at, value, edit, ids }) => {
    const stacks = [...new Set(ids.map(stackOf))];
    const count = ids.length === 1 ? "1 protected resource" : `${ids.length} protected resources`;
    return {
      path: at,
      value,
      message:
        `drops ${count} the deployment holds (${deployed.source}): ${edit}. ` +
        `prevent_destroy does not stop this: it lives in the resource's block, which leaves the configuration, so the next deploy of ${stacks.join(", ")} would destroy ${ids.length === 1 ? "it" : "them"} without asking:\n` +
        ids.map((id) => `      ${id}\n`).join("") +
        "    Undo the edit. To destroy them on purpose, release each one in the config, synth, and deploy; then remove the release " +
        `(${loaded.config.backend.type === "local" ? "once the state no longer lists them" : "and its line in the record"}; help/destroy.md#releasing-a-protected-resource):\n` +
        "      protection:\n        release:\n" +
        ids
          .map((id) => `          - ${id}\n`)
          .join("")
          .replace(/\n$/, ""),
    };
  });
}
