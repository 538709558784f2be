import type { ClusterNames, DeploymentNames, HostedClusterNames } from "../names";
import type { Config } from "../schema";

type HostedCluster = NonNullable<Config["clusters"][number]["hostedCluster"]>;

/**
 * What a hosted-cluster rule sees: one cluster with `hostedCluster`, and the whole deployment. In
 * a module of its own: the rule tables of every concern take it, and hosted-cluster.ts runs them.
 */
export interface HostedContext {
  readonly config: Config;
  readonly names: DeploymentNames;
  readonly cluster: ClusterNames;
  readonly hosted: HostedClusterNames;
  readonly spec: HostedCluster;
  /** `clusters[<i>].hostedCluster` */
  readonly at: string;
}
