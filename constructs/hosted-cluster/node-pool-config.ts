import { ConfigMapV1 } from "@cdktf/provider-kubernetes/lib/config-map-v1";
import { Construct } from "constructs";
import { stringify } from "yaml";
import { MANAGED_BY_LABELS } from "../kubernetes-constants";
import { escapeTemplates } from "../terraform-literal";

/** Data key of a `spec.config` ConfigMap (HyperShift's `TokenSecretConfigKey`, CRD: a single key named "config"). */
export const NODE_POOL_CONFIG_KEY = "config";
/** Data key of a `spec.tuningConfig` ConfigMap (CRD: a single key named "tuning"). */
export const NODE_POOL_TUNING_KEY = "tuning";
/** Where NTO keeps Tuned objects; HyperShift's NTO mirrors the pool's into the guest cluster. */
const TUNED_NAMESPACE = "openshift-cluster-node-tuning-operator";

/** Kubelet settings (machineconfiguration.openshift.io/v1 KubeletConfig `spec.kubeletConfig`). */
export interface NodePoolKubeletSettings {
  /** Most pods per node. @default - OpenShift's 250 */
  readonly maxPods?: number;
  /** Resources kept for system daemons (`cpu`, `memory` quantities). @default - automatic */
  readonly systemReserved?: { readonly cpu?: string; readonly memory?: string };
  /** Hard eviction thresholds by signal (`memory.available`...). @default - the kubelet's */
  readonly evictionHard?: Readonly<Record<string, string | undefined>>;
}

/** CRI-O settings (ContainerRuntimeConfig `spec.containerRuntimeConfig`). */
export interface NodePoolContainerRuntimeSettings {
  /** Most processes per container. @default - CRI-O's */
  readonly pidsLimit?: number;
  /** Largest container log before rotation, a quantity. @default - CRI-O's */
  readonly logSizeMax?: string;
}

/** The typed node configuration of a pool. */
export interface NodePoolNodeConfig {
  /** @default - no KubeletConfig */
  readonly kubelet?: NodePoolKubeletSettings;
  /** @default - no ContainerRuntimeConfig */
  readonly containerRuntime?: NodePoolContainerRuntimeSettings;
}

/** A TuneD profile for the pool (a tuned.openshift.io/v1 Tuned). */
export interface NodePoolTuning {
  readonly profileName: string;
  /** The profile's ini text. */
  readonly data: string;
  /** Priority of its recommend entry. */
  readonly priority: number;
}

/** Drops undefined values, so the YAML has only what is set. */
const defined = <T extends object>(object: T): Partial<T> =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;

/** The objects of a `spec.config` ConfigMap: a KubeletConfig and/or a ContainerRuntimeConfig named after the pool. */
export function nodeConfigObjects(poolName: string, config: NodePoolNodeConfig): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  const kubelet = config.kubelet;
  if (kubelet) {
    const settings = defined({
      maxPods: kubelet.maxPods,
      systemReserved: kubelet.systemReserved && defined(kubelet.systemReserved),
      evictionHard: kubelet.evictionHard && defined(kubelet.evictionHard),
    });
    objects.push({
      apiVersion: "machineconfiguration.openshift.io/v1",
      kind: "KubeletConfig",
      metadata: { name: `${poolName}-kubelet` },
      spec: { kubeletConfig: settings },
    });
  }
  const runtime = config.containerRuntime;
  if (runtime) {
    objects.push({
      apiVersion: "machineconfiguration.openshift.io/v1",
      kind: "ContainerRuntimeConfig",
      metadata: { name: `${poolName}-container-runtime` },
      spec: { containerRuntimeConfig: defined({ pidsLimit: runtime.pidsLimit, logSizeMax: runtime.logSizeMax }) },
    });
  }
  return objects;
}

/** The Tuned of a `spec.tuningConfig` ConfigMap, as HyperShift's docs write one (a profile and its recommend entry). */
export function tunedObject(poolName: string, tuning: NodePoolTuning): Record<string, unknown> {
  return {
    apiVersion: "tuned.openshift.io/v1",
    kind: "Tuned",
    metadata: { name: `${poolName}-tuned`, namespace: TUNED_NAMESPACE },
    spec: {
      profile: [{ name: tuning.profileName, data: tuning.data }],
      recommend: [{ priority: tuning.priority, profile: tuning.profileName }],
    },
  };
}

/** YAML documents joined by `---`, as HyperShift's ConfigGenerator splits them. */
export const yamlDocuments = (objects: readonly Record<string, unknown>[]) => objects.map((object) => stringify(object, { lineWidth: 0 })).join("---\n");

export interface NodePoolConfigMapsProps {
  /** Namespace of the HostedCluster (the NodePool's). */
  readonly namespace: string;
  /** The NodePool's name: the objects inside are named after it. */
  readonly poolName: string;
  /** The node configuration and its ConfigMap's name. @default - none */
  readonly config?: { readonly name: string; readonly settings: NodePoolNodeConfig };
  /** The TuneD profile and its ConfigMap's name. @default - none */
  readonly tuning?: { readonly name: string; readonly settings: NodePoolTuning };
}

/**
 * The ConfigMaps a NodePool's `spec.config` and `spec.tuningConfig` name, in the HostedCluster's
 * namespace: key `config` with machineconfiguration.openshift.io objects, key `tuning` with a Tuned
 * (the NodePool CRD's contract). Construct IDs: `Config` and `Tuning`.
 */
export class NodePoolConfigMaps extends Construct {
  /** The ConfigMaps, for the NodePool to depend on (created first, deleted after it). */
  public readonly configMaps: readonly ConfigMapV1[];

  constructor(scope: Construct, id: string, props: NodePoolConfigMapsProps) {
    super(scope, id);
    const configMaps: ConfigMapV1[] = [];
    const make = (constructId: string, name: string, key: string, text: string) =>
      configMaps.push(
        new ConfigMapV1(this, constructId, {
          metadata: { name, namespace: props.namespace, labels: { ...MANAGED_BY_LABELS } },
          data: { [key]: escapeTemplates(text) as string },
        }),
      );
    if (props.config) {
      const objects = nodeConfigObjects(props.poolName, props.config.settings);
      if (objects.length === 0) throw new Error(`NodePoolConfigMaps ${id}: config ${props.config.name} has neither kubelet nor containerRuntime`);
      make("Config", props.config.name, NODE_POOL_CONFIG_KEY, yamlDocuments(objects));
    }
    if (props.tuning) make("Tuning", props.tuning.name, NODE_POOL_TUNING_KEY, yamlDocuments([tunedObject(props.poolName, props.tuning.settings)]));
    this.configMaps = configMaps;
  }
}
