/**
 * The arguments whose change makes Terraform replace (destroy, then create) a resource, for the
 * resource types this project synthesizes. azurerm rows are read from the provider source at
 * v4.55.0, the version @cdktf/provider-azurerm 14.23.1 is generated from
 * (hashicorp/terraform-provider-azurerm, `internal/services/<service>/<file>`: `ForceNew: true`,
 * plus `commonschema.ResourceGroupName()` and `commonschema.Location()`, which are ForceNew). A
 * type missing here is diffed in place: the review says it does not know.
 *
 * Nested blocks are listed by their top-level argument: a change anywhere under it counts (the
 * conservative reading for AKS, whose nested ForceNew fields are listed under their block).
 */
export interface ForceNewEntry {
  /** Top-level arguments (or `a.b.c` paths) whose change forces a new resource. */
  readonly attributes: readonly string[];
  /** Where the row comes from. */
  readonly source: string;
  /** What the table cannot say by attribute name alone (shown in help/review.md). */
  readonly note?: string;
  /** Arguments the provider replaces for some changes only (CustomizeDiff): whether old → new does. */
  readonly conditional?: Readonly<Record<string, (before: unknown, after: unknown) => boolean>>;
}

/** azurerm_storage_account's replication families: moving between them needs a new account. */
const ZONE_REDUNDANT = new Set(["ZRS", "GZRS", "RAGZRS"]);

const azurerm = (file: string) => `terraform-provider-azurerm v4.55.0 internal/services/${file}`;

export const FORCE_NEW: Readonly<Record<string, ForceNewEntry>> = {
  azurerm_resource_group: { attributes: ["name", "location"], source: azurerm("resource/resource_group_resource.go") },
  azurerm_user_assigned_identity: {
    attributes: ["name", "resource_group_name", "location"],
    source: azurerm("managedidentity/user_assigned_identity_resource.go"),
  },
  azurerm_federated_identity_credential: {
    attributes: ["name", "parent_id", "resource_group_name"],
    source: azurerm("managedidentity/federated_identity_credential_resource.go"),
  },
  azurerm_role_assignment: {
    attributes: [
      "name",
      "scope",
      "role_definition_id",
      "role_definition_name",
      "principal_id",
      "principal_type",
      "condition",
      "condition_version",
      "description",
      "delegated_managed_identity_resource_id",
    ],
    source: azurerm("authorization/role_assignment_resource.go"),
  },
  azurerm_storage_account: {
    attributes: [
      "name",
      "resource_group_name",
      "location",
      "account_tier",
      "dns_endpoint_type",
      "infrastructure_encryption_enabled",
      "is_hns_enabled",
      "nfsv3_enabled",
      "queue_encryption_key_type",
      "table_encryption_key_type",
      "provisioned_billing_model_version",
      "edge_zone",
    ],
    source: azurerm("storage/storage_account_resource.go"),
    note: "also account_kind, unless the old kind is Storage or the new one StorageV2, and account_replication_type between the LRS/GRS/RAGRS and ZRS/GZRS/RAGZRS families (CustomizeDiff; both evaluated)",
    conditional: {
      // Unset means the provider default, StorageV2.
      account_kind: (before, after) => (before ?? "StorageV2") !== "Storage" && (after ?? "StorageV2") !== "StorageV2",
      account_replication_type: (before, after) => ZONE_REDUNDANT.has(String(before).toUpperCase()) !== ZONE_REDUNDANT.has(String(after).toUpperCase()),
    },
  },
  azurerm_storage_container: {
    attributes: ["name", "storage_account_id", "storage_account_name", "default_encryption_scope", "encryption_scope_override_enabled"],
    source: azurerm("storage/storage_container_resource.go"),
  },
  azurerm_storage_blob: {
    attributes: [
      "name",
      "storage_account_name",
      "storage_container_name",
      "type",
      "size",
      "source",
      "source_content",
      "source_uri",
      "content_md5",
      "encryption_scope",
      "parallelism",
    ],
    source: azurerm("storage/storage_blob_resource.go"),
  },
  azurerm_virtual_network: { attributes: ["name", "resource_group_name", "location", "edge_zone"], source: azurerm("network/virtual_network_resource.go") },
  azurerm_subnet: { attributes: ["name", "resource_group_name", "virtual_network_name"], source: azurerm("network/subnet_resource.go") },
  azurerm_network_security_group: { attributes: ["name", "resource_group_name", "location"], source: azurerm("network/network_security_group_resource.go") },
  azurerm_subnet_network_security_group_association: {
    attributes: ["subnet_id", "network_security_group_id"],
    source: azurerm("network/subnet_network_security_group_association_resource.go"),
  },
  azurerm_public_ip: {
    attributes: ["name", "resource_group_name", "location", "sku", "sku_tier", "ip_version", "ip_tags", "public_ip_prefix_id", "zones", "edge_zone"],
    source: azurerm("network/public_ip_resource.go"),
  },
  azurerm_lb: {
    attributes: ["name", "resource_group_name", "location", "sku", "sku_tier", "edge_zone"],
    source: azurerm("loadbalancer/lb_resource.go"),
    note: "frontend_ip_configuration changes that move between public and private addresses also force a new load balancer (CustomizeDiff)",
  },
  azurerm_lb_backend_address_pool: {
    attributes: ["name", "loadbalancer_id", "synchronous_mode"],
    source: azurerm("loadbalancer/lb_backend_address_pool_resource.go"),
  },
  azurerm_lb_outbound_rule: { attributes: ["name", "loadbalancer_id"], source: azurerm("loadbalancer/lb_outbound_rule_resource.go") },
  azurerm_lb_probe: { attributes: ["name", "loadbalancer_id"], source: azurerm("loadbalancer/lb_probe_resource.go") },
  azurerm_private_dns_zone: { attributes: ["name", "resource_group_name", "soa_record"], source: azurerm("privatedns/private_dns_zone_resource.go") },
  azurerm_private_dns_zone_virtual_network_link: {
    attributes: ["name", "private_dns_zone_name", "resource_group_name", "virtual_network_id"],
    source: azurerm("privatedns/private_dns_zone_virtual_network_link_resource.go"),
  },
  azurerm_dns_zone: { attributes: ["name", "resource_group_name"], source: azurerm("dns/dns_zone_resource.go") },
  azurerm_dns_ns_record: { attributes: ["name", "resource_group_name", "zone_name"], source: azurerm("dns/dns_ns_record_resource.go") },
  azurerm_key_vault: { attributes: ["name", "resource_group_name", "location"], source: azurerm("keyvault/key_vault_resource.go") },
  azurerm_key_vault_secret: { attributes: ["name", "key_vault_id"], source: azurerm("keyvault/key_vault_secret_resource.go") },
  azurerm_key_vault_key: { attributes: ["name", "key_vault_id", "key_type", "key_size", "curve"], source: azurerm("keyvault/key_vault_key_resource.go") },
  azurerm_kubernetes_cluster: {
    attributes: [
      "name",
      "resource_group_name",
      "location",
      "dns_prefix",
      "dns_prefix_private_cluster",
      "node_resource_group",
      "disk_encryption_set_id",
      "private_cluster_enabled",
      "private_dns_zone_id",
      "role_based_access_control_enabled",
      "network_profile",
      "linux_profile",
      "kubelet_identity",
    ],
    source: azurerm("containers/kubernetes_cluster_resource.go"),
    note: "network_profile, linux_profile and kubelet_identity hold ForceNew fields (pod_cidr, service_cidr, network_plugin, admin_username, ...): any change under them is counted",
  },
  azurerm_kubernetes_cluster_node_pool: {
    attributes: [
      "name",
      "kubernetes_cluster_id",
      "os_type",
      "priority",
      "eviction_policy",
      "spot_max_price",
      "capacity_reservation_group_id",
      "host_group_id",
      "node_public_ip_prefix_id",
      "proximity_placement_group_id",
      "gpu_instance",
      "gpu_driver",
      "windows_profile",
    ],
    source: azurerm("containers/kubernetes_cluster_node_pool_resource.go"),
  },
  // kubernetes_manifest plans a replacement when the object's identity changes
  // (terraform-provider-kubernetes manifest/provider/plan.go: apiVersion, kind, name, namespace).
  kubernetes_manifest: {
    attributes: ["manifest.apiVersion", "manifest.kind", "manifest.metadata.name", "manifest.metadata.namespace"],
    source: "terraform-provider-kubernetes manifest/provider/plan.go (object identity)",
  },
  kubernetes_secret_v1: {
    attributes: ["metadata.name", "metadata.namespace", "type"],
    source: "terraform-provider-kubernetes kubernetes/resource_kubernetes_secret_v1.go",
  },
  tls_private_key: { attributes: ["algorithm", "rsa_bits", "ecdsa_curve"], source: "terraform-provider-tls (every argument RequiresReplace)" },
  tls_self_signed_cert: {
    attributes: [
      "private_key_pem",
      "subject",
      "validity_period_hours",
      "allowed_uses",
      "dns_names",
      "ip_addresses",
      "uris",
      "is_ca_certificate",
      "early_renewal_hours",
    ],
    source: "terraform-provider-tls (every argument RequiresReplace)",
  },
  random_bytes: { attributes: ["length", "keepers"], source: "terraform-provider-random (every argument RequiresReplace)" },
  terraform_data: { attributes: ["triggers_replace"], source: "Terraform built-in terraform_data" },
  azuread_application_password: {
    attributes: ["application_id", "display_name", "start_date", "end_date", "end_date_relative", "rotate_when_changed"],
    source: "terraform-provider-azuread internal/services/applications/application_password_resource.go",
  },
  azuread_application_certificate: {
    attributes: ["application_id", "type", "encoding", "value", "start_date", "end_date", "end_date_relative", "key_id"],
    source: "terraform-provider-azuread internal/services/applications/application_certificate_resource.go",
  },
  azuread_service_principal: {
    attributes: ["client_id"],
    source: "terraform-provider-azuread internal/services/serviceprincipals/service_principal_resource.go",
  },
};

/**
 * Whether a change at `path` (as diff.ts writes it: `a.b[0].c`) from `before` to `after` replaces a
 * resource of `type`; undefined when the type is not in the table.
 */
export function forcesReplacement(type: string, path: string, before?: unknown, after?: unknown): boolean | undefined {
  const entry = FORCE_NEW[type];
  if (!entry) return undefined;
  const condition = entry.conditional?.[path];
  if (condition) return condition(before, after);
  return entry.attributes.some((attribute) => path === attribute || path.startsWith(`${attribute}.`) || path.startsWith(`${attribute}[`));
}
