import { Cidr, contains, networkOf, parseCidr } from "../cidr";
import type { KeyVaultNetworkConfig } from "../schema";
import type { ConfigIssue } from "./rule";

/** Ranges Key Vault's firewall refuses in IP rules: only public addresses are allowed there. */
const NON_PUBLIC_RANGES = ["0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16"].map(parseCidr);

const cidrOf = (range: string): Cidr => parseCidr(range.includes("/") ? range : `${range}/32`);

/**
 * A Key Vault firewall (`aroHcp.keyVault.network`, `kms.keyVault.network`): something must be let
 * in, unless every network is, and the addresses must be public, aligned and distinct. `path` is
 * the network block's path; `readers` says who reads the vault from the management cluster.
 */
export function keyVaultNetworkIssues(network: KeyVaultNetworkConfig, path: string, readers: string): ConfigIssue[] {
  const ranges = network.allowedIpRanges;
  const subnets = network.allowedSubnetIds;
  if (network.allowPublicNetworkAccess) {
    return [
      ...(ranges.length > 0
        ? [{ path: `${path}.allowedIpRanges`, value: ranges, message: "is not used with allowPublicNetworkAccess: true (every network is let in)" }]
        : []),
      ...(subnets.length > 0
        ? [{ path: `${path}.allowedSubnetIds`, value: subnets, message: "is not used with allowPublicNetworkAccess: true (every network is let in)" }]
        : []),
    ];
  }
  if (ranges.length === 0 && subnets.length === 0 && !network.privateEndpoint) {
    return [
      {
        path,
        message: `lets nothing through the vault's firewall, which denies every network by default: Terraform (it writes the vault) and ${readers} would get 403 ForbiddenByFirewall. Add allowedIpRanges: [<where Terraform runs, e.g. the address curl -s https://api.ipify.org prints>, <the management cluster's outbound addresses>], or allowedSubnetIds or privateEndpoint; or set allowPublicNetworkAccess: true to let every network in (help/aro-hcp.md#key-vault-firewall)`,
      },
    ];
  }
  return [...ipRangeIssues(ranges, `${path}.allowedIpRanges`), ...duplicateSubnets(subnets, `${path}.allowedSubnetIds`)];
}

/** IP rules must be public, without host bits, and each listed once. */
function ipRangeIssues(ranges: readonly string[], path: string): ConfigIssue[] {
  const seen = new Set<string>();
  return ranges.flatMap((range, i) => {
    const cidr = cidrOf(range);
    const at = `${path}[${i}]`;
    const issues: ConfigIssue[] = [];
    const reserved = NON_PUBLIC_RANGES.find((r) => contains(r, cidr) || contains(cidr, r));
    if (reserved)
      issues.push({
        path: at,
        value: range,
        message: `is in the non-public range ${networkOf(reserved)}, which Key Vault IP rules refuse: let a VNet in with allowedSubnetIds or privateEndpoint`,
      });
    if (!cidr.aligned) issues.push({ path: at, value: range, message: `has host bits set; did you mean ${networkOf(cidr)}?` });
    if (seen.has(networkOf(cidr))) issues.push({ path: at, value: range, message: "is listed twice" });
    seen.add(networkOf(cidr));
    return issues;
  });
}

function duplicateSubnets(subnets: readonly string[], path: string): ConfigIssue[] {
  const seen = new Set<string>();
  return subnets.flatMap((subnet, i) => {
    const repeated = seen.has(subnet.toLowerCase());
    seen.add(subnet.toLowerCase());
    return repeated ? [{ path: `${path}[${i}]`, value: subnet, message: "is listed twice" }] : [];
  });
}
