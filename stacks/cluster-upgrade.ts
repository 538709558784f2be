import { TerraformLocal } from "cdktf";
import { Construct } from "constructs";
import { deployedHostedClusterRelease } from "../config/deployed-clusters/deployed-release";
import { controlPlaneWaitKind } from "../config/release-change";
import { HostedClusterProps } from "../constructs/hosted-cluster/hosted-cluster";
import { SupportedVersions } from "../constructs/hosted-cluster/supported-versions";
import { ClusterNames, HostedClusterNames } from "../config/names";
import { StackContext } from "./stack-setup";

/** The operator namespace `hypershift install` uses by default. */
const DEFAULT_OPERATOR_NAMESPACE = "hypershift";

/**
 * The cluster stack's ordered upgrades (help/upgrades.md): the release the HostedCluster last
 * applied (the local backend's state; none for remote state, which waits on the control plane's
 * own version where operator and release report it), the timeouts, the plan-time check against
 * the operator's supported versions, and the acknowledged minor as a local the review reads.
 */
export function clusterUpgradeProps(
  scope: Construct,
  props: StackContext & { readonly cluster: ClusterNames; readonly operatorNamespace?: string; readonly hypershiftRelease?: string },
  stackName: string,
): Pick<HostedClusterProps, "upgrade" | "preconditions"> {
  const { config, names, cluster } = props;
  const hosted = cluster.hosted as HostedClusterNames;
  const spec = hosted.config;
  const local = config.backend.type === "local";
  const deployedRelease = local ? deployedHostedClusterRelease(names.stateLocation(stackName)) : undefined;
  // Local state tells creation from a change: a creation keeps Available (help/upgrades.md "Which wait").
  const waitForControlPlaneVersion =
    controlPlaneWaitKind({ local, deployedRelease, operatorRelease: props.hypershiftRelease, releaseImage: spec.releaseImage }) === "controlPlaneVersion";
  if (spec.upgrade.acknowledgeMinor) new TerraformLocal(scope, "upgrade_acknowledged_minor", spec.upgrade.acknowledgeMinor);
  const supported = new SupportedVersions(scope, "SupportedVersions", { operatorNamespace: props.operatorNamespace ?? DEFAULT_OPERATOR_NAMESPACE });
  return {
    upgrade: {
      deployedRelease,
      waitForControlPlaneVersion,
      controlPlaneTimeout: spec.upgrade.controlPlaneTimeout,
      nodePoolTimeout: spec.upgrade.nodePoolTimeout,
    },
    preconditions: supported.preconditionFor(spec.releaseImage, `clusters[${cluster.index}].hostedCluster`),
  };
}
