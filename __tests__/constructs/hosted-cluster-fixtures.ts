import { Fn } from "cdktf";
import { HostedClusterProps } from "../../constructs/hosted-cluster/hosted-cluster";
import { HostedClusterSecretsProps } from "../../constructs/hosted-cluster/hosted-cluster-secrets";
import { NodePoolManifestProps } from "../../constructs/hosted-cluster/node-pool-manifest";
import { hostedClusterProps } from "../../stacks/hosted-cluster-props";
import { CLIENT_IDS, hostedClusterSpec, loadInline, minimalConfig } from "../helpers";

/**
 * A validated config with cluster hc1 (`hostedCluster` overrides), and with `externalDns` the
 * public zone myprefix.example.com plus ExternalDNS; and the cluster's names.
 */
export function loadedCluster(hosted: Record<string, unknown> = {}, options: { externalDns?: boolean } = {}) {
  const dnsConfig = options.externalDns
    ? {
        prefix: "myprefix",
        dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } },
        externalDns: {},
        managementCluster: { operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" } },
      }
    : { managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } } };
  const loaded = loadInline(
    minimalConfig({
      ...dnsConfig,
      clusters: [
        {
          name: "hc1",
          hostedCluster: {
            ...hostedClusterSpec(),
            ...hosted,
          },
        },
      ],
    }),
  );
  return { loaded, cluster: loaded.names.clusters[0] };
}

/** The HostedCluster props of hc1, mapped as the cluster stack maps them. */
export function input(hosted: Record<string, unknown> = {}, options: { externalDns?: boolean } = {}): HostedClusterProps {
  const { loaded, cluster } = loadedCluster(hosted, options);
  return hostedClusterProps(loaded.config, cluster, { identities: { kind: "workloadIdentities", clientIds: CLIENT_IDS } });
}

export function nodePoolInput(pool: Record<string, unknown>): NodePoolManifestProps {
  const hc = input({ nodePools: [{ name: "pool", ...pool }] });
  return { ...hc.nodePools![0], clusterName: hc.name, namespace: hc.namespace, releaseImage: hc.releaseImage, subnetId: hc.azure.subnetId };
}

export const spec = (manifest: { spec: Record<string, unknown> }) => manifest.spec as any;

/** HostedClusterSecrets props of cluster hc1, secret values as plan-time `file()` expressions. */
export function secretsProps(overrides: Partial<HostedClusterSecretsProps> = {}): HostedClusterSecretsProps {
  return {
    namespace: "clusters",
    names: loadedCluster().cluster.hosted!.secrets,
    pullSecret: Fn.sensitive(Fn.file("../../files/pull-secret.json")),
    signingKey: Fn.sensitive(Fn.file("../../keys/signer.private")),
    subscriptionId: "00000000-0000-0000-0000-000000000000",
    tenantId: "11111111-1111-1111-1111-111111111111",
    ...overrides,
  };
}
