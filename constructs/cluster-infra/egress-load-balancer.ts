import { Lb } from "@cdktf/provider-azurerm/lib/lb";
import { LbBackendAddressPool } from "@cdktf/provider-azurerm/lib/lb-backend-address-pool";
import { LbOutboundRule } from "@cdktf/provider-azurerm/lib/lb-outbound-rule";
import { LbProbe } from "@cdktf/provider-azurerm/lib/lb-probe";
import { PublicIp } from "@cdktf/provider-azurerm/lib/public-ip";
import { Token } from "cdktf";
import { Construct } from "constructs";
import { ExistingObject, ImportTarget, importTargetsOf } from "../adoption/import-existing";
import { AZURE_NAME_RULES } from "../../config/azure-rules";
import { literal, literalTags } from "../terraform-literal";

export interface EgressLoadBalancerProps {
  /**
   * Name of the public IP, load balancer, frontend, backend pool, probe and outbound rule: the
   * infraID, because CAPZ (`nodeOutboundLB`) and the cloud provider (`loadBalancerName`) find the
   * load balancer and pool by that name. 1-80 letters, digits, '-', '_' or '.'.
   */
  readonly name: string;
  /** Resource group (HyperShift: the managed group). */
  readonly resourceGroupName: string;
  /** Azure region. */
  readonly location: string;
  /**
   * SNAT ports per backend instance: a multiple of 8 up to 64000 (0: Azure's default allocation).
   * @default 1024 (HyperShift's)
   */
  readonly allocatedOutboundPorts?: number;
  /** Idle timeout of outbound flows, in minutes (4-120). @default 4 (HyperShift's) */
  readonly outboundIdleTimeoutInMinutes?: number;
  /** Tags of the public IP and load balancer. @default {} */
  readonly tags?: Record<string, string>;
}

/**
 * The health probe HyperShift creates (`create infra azure`, networking.go). A probe affects
 * inbound traffic only, and this load balancer has no load-balancing rules: it gates nothing
 * until the cloud provider adds rules for Services.
 */
export const EGRESS_PROBE = { protocol: "Http", port: 30595, requestPath: "/healthz", intervalInSeconds: 5, probeThreshold: 2 } as const;

/**
 * The workers' outbound path: a Standard public load balancer with one public IP and an outbound
 * rule (SNAT for the backend pool the cluster API provider fills), and no load-balancing rules.
 * Everything is named after the infraID, exactly as HyperShift's `create infra azure`.
 */
export class EgressLoadBalancer extends Construct {
  public readonly publicIp: PublicIp;
  public readonly loadBalancer: Lb;
  public readonly backendAddressPool: LbBackendAddressPool;
  public readonly probe: LbProbe;
  public readonly outboundRule: LbOutboundRule;

  constructor(scope: Construct, id: string, props: EgressLoadBalancerProps) {
    super(scope, id);
    const allocatedOutboundPorts = props.allocatedOutboundPorts ?? 1024;
    const idleTimeoutInMinutes = props.outboundIdleTimeoutInMinutes ?? 4;
    validate(props, allocatedOutboundPorts, idleTimeoutInMinutes);
    const tags = literalTags(props.tags);
    // The group's name may come from the config (an existing group): a literal.
    const resourceGroupName = literal(props.resourceGroupName);

    // Standard SKU allows static allocation only. No zones, as HyperShift.
    this.publicIp = new PublicIp(this, "PublicIp", {
      name: props.name,
      resourceGroupName,
      location: props.location,
      sku: "Standard",
      allocationMethod: "Static",
      ipVersion: "IPv4",
      idleTimeoutInMinutes: 4,
      tags,
    });
    this.loadBalancer = new Lb(this, "LoadBalancer", {
      name: props.name,
      resourceGroupName,
      location: props.location,
      sku: "Standard",
      frontendIpConfiguration: [{ name: props.name, publicIpAddressId: this.publicIp.id }],
      tags,
      // The cloud provider (loadBalancerName: <infraID>) adds a frontend per LoadBalancer Service
      // to this load balancer; a later apply must not remove them.
      lifecycle: { ignoreChanges: ["frontend_ip_configuration"] },
    });
    this.backendAddressPool = new LbBackendAddressPool(this, "BackendPool", {
      name: props.name,
      loadbalancerId: this.loadBalancer.id,
    });
    this.probe = new LbProbe(this, "HealthProbe", { name: props.name, loadbalancerId: this.loadBalancer.id, ...EGRESS_PROBE });
    this.outboundRule = new LbOutboundRule(this, "OutboundRule", {
      name: props.name,
      loadbalancerId: this.loadBalancer.id,
      protocol: "All",
      allocatedOutboundPorts,
      // tcp_reset_enabled: azurerm 4.x's name (enable_tcp_reset is deprecated).
      tcpResetEnabled: true,
      idleTimeoutInMinutes,
      frontendIpConfiguration: [{ name: props.name }],
      backendAddressPoolId: this.backendAddressPool.id,
    });
  }

  /** Adoption: the import targets that make the public IP, load balancer and its parts take over existing ones. */
  public importTargets(
    existing: Partial<Readonly<Record<"publicIp" | "loadBalancer" | "backendAddressPool" | "probe" | "outboundRule", ExistingObject>>>,
  ): ImportTarget[] {
    const { publicIp, loadBalancer, backendAddressPool, probe, outboundRule } = this;
    return importTargetsOf(this, { publicIp, loadBalancer, backendAddressPool, probe, outboundRule }, existing);
  }
}

function validate(props: EgressLoadBalancerProps, ports: number, idle: number): void {
  const problems: string[] = [];
  if (!Token.isUnresolved(props.name) && !AZURE_NAME_RULES.networkName.test(props.name)) {
    problems.push(`name "${props.name}" ${AZURE_NAME_RULES.networkName.rule}`);
  }
  // Azure rejects both at apply time; azurerm checks only ports >= 0 and no idle range.
  if (!Number.isInteger(ports) || ports < 0 || ports > 64000 || ports % 8 !== 0) {
    problems.push(
      `allocatedOutboundPorts ${ports} must be a multiple of 8 from 0 to 64000 (Azure allocates SNAT ports in blocks of 8, at most 64000 per frontend IP)`,
    );
  }
  if (!Number.isInteger(idle) || idle < 4 || idle > 120) {
    problems.push(`outboundIdleTimeoutInMinutes ${idle} must be a whole number of minutes from 4 to 120 (outbound rule idle timeout)`);
  }
  if (problems.length > 0) throw new Error(`EgressLoadBalancer: ${problems.join("; ")}`);
}
