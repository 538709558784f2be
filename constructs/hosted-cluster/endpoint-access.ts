import type { EndpointAccessNames } from "../../config/names";
import { publishedHost } from "../../config/names/sign-in";

/**
 * How a HostedCluster's control-plane endpoints are reached and published: the CLI's
 * `--endpoint-access`, `--external-dns-domain` and `--oauth-publishing-strategy` (notes §1.3, §6,
 * cmd/cluster/azure/create.go).
 */

/** `hypershift create cluster azure --endpoint-access`: Public, PublicAndPrivate or Private. */
export type EndpointAccess = "Public" | "PublicAndPrivate" | "Private";

/** Public, or private endpoint access over Private Link through a NAT subnet. */
export type EndpointAccessProps =
  | { readonly kind: "Public" }
  | {
      readonly kind: "PublicAndPrivate" | "Private";
      /** ARM ID of the Private Link Service's NAT subnet, in the management cluster's VNet (`privateLink.natSubnetID`). */
      readonly natSubnetId: string;
      /** Other subscriptions allowed to connect to the Private Link Service. @default [] */
      readonly additionalAllowedSubscriptions?: readonly string[];
    };

/** A cluster's derived endpoint access as props: Public, or private through its NAT subnet (config rules require one). */
export function endpointAccessProps(cluster: string, access: EndpointAccessNames): EndpointAccessProps {
  if (access.kind === "Public") return access;
  if (!access.natSubnet) throw new Error(`internal: HostedCluster ${cluster}: endpointAccess ${access.kind} without a NAT subnet (config rules)`);
  return { kind: access.kind, natSubnetId: access.natSubnet.id, additionalAllowedSubscriptions: access.additionalAllowedSubscriptions };
}

/** How the OAuth server is published (`--oauth-publishing-strategy`). */
export type OAuthPublishing = "Route" | "LoadBalancer";

/** The four services of `GetIngressServicePublishingStrategyMapping`, sorted by name (no OIDC entry). */
const SERVICES = [
  { service: "APIServer", host: "api" },
  { service: "Ignition", host: "ignition" },
  { service: "Konnectivity", host: "konnectivity" },
  { service: "OAuthServer", host: "oauth" },
] as const;

/**
 * How the control-plane endpoints are published, as the CLI writes them (notes §1.3, §6:
 * `GetIngressServicePublishingStrategyMapping` and `cmd/cluster/azure/create.go`). With an
 * ExternalDNS domain D the API server and OAuth are Routes named `<host>-<cluster>.D`; Konnectivity
 * and Ignition are named too only with Public endpoint access (private clusters reach them through
 * the Private Endpoint). Without D the API server gets its own LoadBalancer, except with Private
 * access, where it is a Route like the rest. Azure requires Konnectivity and Ignition to be
 * Routes in every case (CEL, §2.5).
 */
export function servicePublishing(
  name: string,
  externalDnsDomain: string | undefined,
  endpointAccess: EndpointAccess = "Public",
  oauthPublishing: OAuthPublishing = "Route",
): Record<string, unknown>[] {
  const named = (host: string) => host === "api" || host === "oauth" || endpointAccess === "Public";
  return SERVICES.map(({ service, host }) => {
    // --oauth-publishing-strategy LoadBalancer: its hostname goes under loadBalancer (cmd/cluster/azure/create.go).
    if (service === "OAuthServer" && oauthPublishing === "LoadBalancer") {
      return {
        service,
        servicePublishingStrategy: {
          type: "LoadBalancer",
          ...(externalDnsDomain ? { loadBalancer: { hostname: publishedHost(host, name, externalDnsDomain) } } : {}),
        },
      };
    }
    if (externalDnsDomain) {
      return {
        service,
        servicePublishingStrategy: { type: "Route", ...(named(host) ? { route: { hostname: publishedHost(host, name, externalDnsDomain) } } : {}) },
      };
    }
    return { service, servicePublishingStrategy: { type: service === "APIServer" && endpointAccess !== "Private" ? "LoadBalancer" : "Route" } };
  });
}

/**
 * `topology` and `private` as the CLI writes them for self-managed clusters: Public, or the
 * private topology with `type: PrivateLink` and the NAT subnet (and the other allowed
 * subscriptions, when there are any).
 */
export function endpointTopology(access: EndpointAccessProps): Record<string, unknown> {
  if (access.kind === "Public") return { topology: "Public" };
  const allowed = access.additionalAllowedSubscriptions ?? [];
  return {
    topology: access.kind,
    private: {
      type: "PrivateLink",
      privateLink: {
        natSubnetID: access.natSubnetId,
        ...(allowed.length > 0 ? { additionalAllowedSubscriptions: [...allowed] } : {}),
      },
    },
  };
}
