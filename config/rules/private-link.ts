import { overlaps, parseCidr, networkOf } from "../cidr";
import { DeploymentNames, EndpointAccessNames, NatSubnetNames } from "../names";
import { Config } from "../schema";
import type { HostedContext } from "./hosted-context";
import { ConfigIssue, Rule } from "./rule";

/**
 * Private endpoint access (Private Link, help/private-clusters.md; notes
 * `hypershift-azure-options.md` §1): per hosted cluster, and across clusters for the NAT subnets
 * the infra stacks create in the management cluster's VNet.
 */

const isPrivate = (access: string) => access !== "Public";

/** The subscription of the management cluster: the operator's Private Link clients use only this one. */
export function managementSubscription(config: Config): string {
  return config.managementCluster?.privateLink?.subscriptionId ?? config.subscriptionId;
}

export const PRIVATE_LINK_RULES: ReadonlyArray<Rule<HostedContext>> = [
  {
    rule: "privateLink goes with private endpoint access, which needs a NAT subnet",
    check: ({ spec, at }) => {
      const link = spec.privateLink;
      if (!isPrivate(spec.endpointAccess)) {
        return link
          ? [
              {
                path: `${at}.privateLink`,
                message:
                  "is only used with endpointAccess PublicAndPrivate or Private; remove it (a Public cluster cannot become private later: create a new cluster with endpointAccess set)",
              },
            ]
          : [];
      }
      if (!link || (!link.natSubnetId && !link.natSubnet)) {
        return [
          {
            path: `${at}.privateLink`,
            message: `needs natSubnetId (an existing subnet of the management cluster's VNet with Private Link Service network policies disabled) or natSubnet: {vnetId, cidr} (created) with endpointAccess ${spec.endpointAccess}`,
          },
        ];
      }
      return link.natSubnetId && link.natSubnet
        ? [{ path: `${at}.privateLink.natSubnet`, message: "is exclusive with privateLink.natSubnetId: create a subnet or bring one, not both" }]
        : [];
    },
  },
  {
    rule: "Private Link with workload identities needs the control-plane-operator identity",
    check: ({ config, cluster, spec }) =>
      isPrivate(spec.endpointAccess) && config.topology !== "aroHcp" && config.clusters[cluster.index].identities.controlPlaneOperator === false
        ? [
            {
              path: `clusters[${cluster.index}].identities.controlPlaneOperator`,
              value: false,
              message: `must be true with hostedCluster.endpointAccess ${spec.endpointAccess}: the control-plane operator creates the Private Endpoint and Private DNS zones in the cluster's resource groups, and the CRD requires workloadIdentities.controlPlaneOperator for Private Link; remove identities.controlPlaneOperator: false (the identity is created by default)`,
            },
          ]
        : [],
  },
  {
    rule: "private endpoint access is self-managed only",
    check: ({ config, spec, at }) =>
      isPrivate(spec.endpointAccess) && config.topology === "aroHcp"
        ? [
            {
              path: `${at}.endpointAccess`,
              value: spec.endpointAccess,
              message:
                "is not supported with topology: aroHcp: ARO HCP makes private clusters with Swift networking, which HyperShift's CLI does not render and this project does not implement, and the operator's Private Link controller does not run for ARO HCP; use endpointAccess: Public, or topology: selfManaged with an OpenShift management cluster on Azure",
            },
          ]
        : [],
  },
  {
    rule: "private endpoint access needs the operator's Private Link settings",
    check: ({ config, spec, at }) =>
      isPrivate(spec.endpointAccess) && config.topology !== "aroHcp" && !config.managementCluster?.privateLink
        ? [
            {
              path: "managementCluster.privateLink",
              message: `is required because ${at}.endpointAccess is ${spec.endpointAccess}: the HyperShift operator creates the cluster's Private Link Service; set resourceGroupName to the management cluster's infrastructure resource group`,
            },
          ]
        : [],
  },
  {
    rule: "the NAT subnet is in the management cluster's VNet and subscription",
    check: ({ config, names, hosted }) => {
      const subnet = natSubnetOf(hosted.endpointAccess);
      if (!subnet) return [];
      const issues: ConfigIssue[] = [];
      const subscription = managementSubscription(config);
      if (subnet.subscription.toLowerCase() !== subscription.toLowerCase()) {
        issues.push({
          path: subnet.origin,
          value: subnet.create ? subnet.vnetId : subnet.id,
          message: `must be in the management cluster's subscription ${subscription} (managementCluster.privateLink.subscriptionId, default subscriptionId): the operator's Private Link clients work in that one subscription`,
        });
      }
      const guest = names.clusters.find((c) => c.hosted && c.hosted.vnet.id.toLowerCase() === subnet.vnetId.toLowerCase());
      if (guest) {
        issues.push({
          path: subnet.origin,
          value: subnet.vnetId,
          message: `is in the VNet of hosted cluster clusters[${guest.index}]; the NAT subnet belongs in the management cluster's VNet, beside its internal load balancer`,
        });
      }
      if (subnet.cidr) {
        const cidr = parseCidr(subnet.cidr);
        if (!cidr.aligned) issues.push({ path: `${subnet.origin}.cidr`, value: subnet.cidr, message: `has host bits set; the network is ${networkOf(cidr)}` });
        if (cidr.prefix > 29) issues.push({ path: `${subnet.origin}.cidr`, value: subnet.cidr, message: "must be /29 or larger (Azure's smallest subnet)" });
      }
      return issues;
    },
  },
  {
    rule: "allowed subscriptions are a set",
    check: ({ spec, at }) => {
      const subscriptions = spec.privateLink?.additionalAllowedSubscriptions ?? [];
      return subscriptions
        .map((s, i) => ({ s, i }))
        .filter(({ s, i }) => subscriptions.findIndex((o) => o.toLowerCase() === s.toLowerCase()) !== i)
        .map(({ s, i }) => ({
          path: `${at}.privateLink.additionalAllowedSubscriptions[${i}]`,
          value: s,
          message: "is listed twice (the CRD holds a set)",
        }));
    },
  },
];

function natSubnetOf(access: EndpointAccessNames): NatSubnetNames | undefined {
  return access.kind === "Public" ? undefined : access.natSubnet;
}

/**
 * Across clusters: the NAT subnets the infra stacks create must not collide with each other, and
 * a subnet one cluster's infra stack creates (and deletes with it) is not another cluster's.
 */
export function privateLinkCollisions(names: DeploymentNames): ConfigIssue[] {
  const subnets = names.clusters.flatMap((c) => {
    const subnet = c.hosted && natSubnetOf(c.hosted.endpointAccess);
    return subnet ? [{ index: c.index, subnet }] : [];
  });
  const issues: ConfigIssue[] = [];
  for (const [i, { index, subnet }] of subnets.entries()) {
    for (const { index: otherIndex, subnet: other } of subnets.slice(0, i)) {
      const sameVnet = subnet.vnetId.toLowerCase() === other.vnetId.toLowerCase();
      if (subnet.create && other.create && sameVnet && subnet.name.toLowerCase() === other.name.toLowerCase()) {
        issues.push({
          path: subnet.origin,
          value: subnet.name,
          message: `names the same subnet as clusters[${otherIndex}]'s natSubnet; give each cluster its own name`,
        });
      } else if (subnet.create && other.create && sameVnet && overlaps(parseCidr(subnet.cidr as string), parseCidr(other.cidr as string))) {
        issues.push({
          path: `${subnet.origin}.cidr`,
          value: subnet.cidr,
          message: `overlaps clusters[${otherIndex}]'s NAT subnet ${other.cidr} in the same VNet; subnets of a VNet must be disjoint`,
        });
      } else if (subnet.create !== other.create && subnet.id.toLowerCase() === other.id.toLowerCase()) {
        const [created, user] = subnet.create ? [index, otherIndex] : [otherIndex, index];
        issues.push({
          path: (subnet.create ? other : subnet).origin,
          value: subnet.id,
          message: `is the subnet clusters[${created}]'s infra stack creates and deletes with that cluster; clusters[${user}] needs its own natSubnet or a subnet managed elsewhere`,
        });
      }
    }
  }
  return issues;
}

/** Deployment-level rules on managementCluster.privateLink. */
export const PRIVATE_LINK_STRUCTURE_RULES: ReadonlyArray<Rule<Config>> = [
  {
    rule: "the operator's Private Link settings are self-managed only; a handed-over credential takes no principal settings",
    check: (c) => {
      const settings = c.managementCluster?.privateLink;
      if (!settings) return [];
      if (c.topology === "aroHcp") {
        return [
          {
            path: "managementCluster.privateLink",
            message: "is not supported with topology: aroHcp (HyperShift's Private Link controller does not run for ARO HCP); remove it",
          },
        ];
      }
      return settings.credentialsFile && settings.applicationName !== undefined
        ? [
            {
              path: "managementCluster.privateLink.applicationName",
              value: settings.applicationName,
              message: "is not used with credentialsFile (no service principal is created); remove one of them",
            },
          ]
        : [];
    },
  },
];
