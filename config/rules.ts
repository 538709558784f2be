import {
  AZURE_NAME_RULES,
  MAX_FEDERATED_CREDENTIALS_PER_IDENTITY,
  NameRule,
  REGIONS_WITHOUT_FEDERATED_CREDENTIALS,
} from "./azure-rules";
import { unlistedLocationMessage } from "./azure-regions";
import { contains, networkOf, overlaps, parseCidr } from "./cidr";
import { ClusterNames, delegationRecordName, DeploymentNames, HostedClusterNames, parseArmId } from "./names";
import { ARO_HCP_MANAGED_SERVICE, MANAGED_SERVICE_ENV, OperatorBundle, PULL_SECRET_NAME } from "./operator-bundle";
import { protectionWarnings } from "./protection";
import { ARO_HCP_NAME_RULES, ARO_HCP_STRUCTURE_RULES, aroHcpWarnings } from "./rules-aro-hcp";
import { SECRETS_STRUCTURE_RULES } from "./rules-secrets";
import { Config } from "./schema";

/** One problem in the config: the field path, the value received and the rule it breaks. */
export interface ConfigIssue {
  readonly path: string;
  readonly value?: unknown;
  readonly message: string;
}

/**
 * Rules that span fields: checked on a schema-valid config before names are derived (names need
 * them to hold, e.g. every issuer has a signing key).
 */
export const STRUCTURE_RULES: ReadonlyArray<{ rule: string; check: (config: Config) => ConfigIssue[] }> = [
  {
    rule: "shared issuer needs serviceAccountSigningKey",
    check: (c) =>
      c.oidc.issuer === "shared" && !c.serviceAccountSigningKey
        ? [{ path: "serviceAccountSigningKey", message: "is required with oidc.issuer: shared (the key of the shared issuer)" }]
        : [],
  },
  {
    rule: "per-cluster issuer takes per-cluster keys only",
    check: (c) =>
      c.oidc.issuer === "perCluster" && c.serviceAccountSigningKey
        ? [
            {
              path: "serviceAccountSigningKey",
              message: "is not allowed with oidc.issuer: perCluster; give each cluster its own clusters[].serviceAccountSigningKey",
            },
          ]
        : [],
  },
  {
    rule: "per-cluster keys only with a per-cluster issuer",
    check: (c) =>
      c.clusters.flatMap((cluster, i) => {
        if (c.oidc.issuer === "perCluster" && !cluster.serviceAccountSigningKey) {
          return [{ path: `clusters[${i}].serviceAccountSigningKey`, message: "is required with oidc.issuer: perCluster (each cluster signs with its own key)" }];
        }
        if (c.oidc.issuer === "shared" && cluster.serviceAccountSigningKey) {
          return [
            {
              path: `clusters[${i}].serviceAccountSigningKey`,
              message: "is only allowed with oidc.issuer: perCluster; with a shared issuer all clusters use serviceAccountSigningKey",
            },
          ];
        }
        return [];
      }),
  },
  {
    rule: "containerName belongs to the shared issuer",
    check: (c) =>
      c.oidc.issuer === "perCluster" && c.oidc.containerName !== undefined
        ? [{ path: "oidc.containerName", value: c.oidc.containerName, message: "is only allowed with oidc.issuer: shared (per-cluster containers are named after the cluster)" }]
        : [],
  },
  {
    rule: "an adopted group is named",
    check: (c) =>
      !c.resourceGroup.create && c.resourceGroup.name === undefined
        ? [{ path: "resourceGroup.name", message: "is required with resourceGroup.create: false (the name of the existing group to adopt)" }]
        : [],
  },
  {
    rule: "cluster names are unique",
    check: (c) => duplicates(c.clusters.map((cluster, i) => ({ key: cluster.name, path: `clusters[${i}].name` })), "another cluster has this name"),
  },
  {
    rule: "a DNS zone has a name or a parent to derive it from",
    check: (c) =>
      c.dns && c.dns.zoneName === undefined && c.dns.parent === undefined
        ? [{ path: "dns.zoneName", message: "is required without dns.parent (the default <prefix>.<parent> needs a parent zone)" }]
        : [],
  },
  {
    rule: "ExternalDNS needs the DNS zone",
    check: (c) =>
      c.externalDns && !c.dns
        ? [{ path: "externalDns", message: "needs dns: ExternalDNS writes the hosted clusters' records into that public zone" }]
        : [],
  },
  {
    // An end date in the past is only a warning (configWarnings): the secret may already exist,
    // and an error would block every stack's synth until it is rotated.
    rule: "the ExternalDNS secret has one expiry",
    check: (c) => {
      const password = c.externalDns?.password;
      if (!password?.endDate) return [];
      if (password.validFor !== undefined) {
        return [{ path: "externalDns.password.validFor", value: password.validFor, message: "is not allowed together with externalDns.password.endDate (choose one expiry)" }];
      }
      return Number.isNaN(Date.parse(password.endDate))
        ? [{ path: "externalDns.password.endDate", value: password.endDate, message: "is not a valid date" }]
        : [];
    },
  },
  {
    rule: "location is an Azure region",
    check: (c) => {
      const message = c.allowUnlistedLocation ? undefined : unlistedLocationMessage(c.location);
      return message ? [{ path: "location", value: c.location, message }] : [];
    },
  },
  {
    rule: "federated credentials are supported in the region",
    check: (c) =>
      REGIONS_WITHOUT_FEDERATED_CREDENTIALS.includes(c.location)
        ? [
            {
              path: "location",
              value: c.location,
              message: "does not support federated identity credentials on managed identities (Azure answers 405); choose another region",
            },
          ]
        : [],
  },
  ...ARO_HCP_STRUCTURE_RULES,
  ...SECRETS_STRUCTURE_RULES,
];

/** Rules on derived names: what Azure enforces and the provider does not. */
export const NAME_RULES: ReadonlyArray<{ rule: string; check: (names: DeploymentNames) => ConfigIssue[] }> = [
  {
    rule: "derived storage account name is valid",
    check: (n) => nameIssue(AZURE_NAME_RULES.storageAccount, n.storageAccount.name, n.storageAccount.origin, "storage account name"),
  },
  {
    rule: "issuer container names are valid",
    check: (n) =>
      uniqueIssuers(n).flatMap((issuer) =>
        nameIssue(AZURE_NAME_RULES.blobContainer, issuer.containerName, issuer.containerOrigin, "OIDC issuer container name"),
      ),
  },
  {
    rule: "identity and credential names are valid",
    check: (n) =>
      n.clusters.flatMap((cluster) =>
        cluster.identities.flatMap((identity) => [
          ...nameIssue(AZURE_NAME_RULES.userAssignedIdentity, identity.name, cluster.identityPrefixOrigin, "identity name"),
          ...identity.credentials.flatMap((credential) =>
            nameIssue(AZURE_NAME_RULES.federatedCredential, credential.name, cluster.identityPrefixOrigin, "federated credential name"),
          ),
        ]),
      ),
  },
  {
    rule: "identity names are unique in the persistent resource group",
    check: (n) =>
      duplicates(
        n.clusters.flatMap((cluster) =>
          cluster.identities.map((identity) => ({ key: identity.name.toLowerCase(), path: cluster.identityPrefixOrigin, value: identity.name })),
        ),
        "gives an identity name that another cluster also uses (identities live in one resource group; set clusters[].identities.namePrefix)",
      ),
  },
  {
    rule: "at most 20 federated credentials per identity, unique (issuer, subject)",
    check: (n) =>
      n.clusters.flatMap((cluster) =>
        cluster.identities.flatMap((identity) => federatedCredentialIssues(identity, cluster.issuer.url, cluster.identityPrefixOrigin)),
      ),
  },
  {
    rule: "the DNS zone name is valid and below its parent",
    check: (n) => {
      if (!n.dns) return [];
      const issues = nameIssue(AZURE_NAME_RULES.dnsZone, n.dns.zoneName, n.dns.zoneOrigin, "DNS zone name");
      const parent = n.dns.parent;
      if (issues.length === 0 && parent && delegationRecordName(n.dns.zoneName, parent.zoneName) === undefined) {
        issues.push({
          path: "dns.parent.zoneName",
          value: parent.zoneName,
          message: `must be a proper suffix of the zone "${n.dns.zoneName}" (the zone must be <label>.${parent.zoneName})`,
        });
      }
      return issues;
    },
  },
  {
    rule: "per-cluster issuers have distinct containers",
    check: (n) =>
      duplicates(
        n.clusters.filter((c) => c.ownsIssuer).map((c) => ({ key: c.issuer.containerName, path: c.issuer.containerOrigin })),
        "gives an issuer container that another cluster also uses",
      ),
  },
  ...ARO_HCP_NAME_RULES,
];

/** Checks one identity's credentials: count limit, unique names and unique (issuer, subject). */
export function federatedCredentialIssues(
  identity: { name: string; credentials: ReadonlyArray<{ name: string; subject: string }> },
  issuer: string,
  path: string,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (identity.credentials.length > MAX_FEDERATED_CREDENTIALS_PER_IDENTITY) {
    issues.push({
      path,
      value: identity.name,
      message: `gives identity ${identity.name} ${identity.credentials.length} federated credentials; Azure allows at most ${MAX_FEDERATED_CREDENTIALS_PER_IDENTITY}`,
    });
  }
  const seenNames = new Set<string>();
  const seenSubjects = new Set<string>();
  for (const credential of identity.credentials) {
    if (seenNames.has(credential.name)) {
      issues.push({ path, value: credential.name, message: `gives identity ${identity.name} two federated credentials with this name` });
    }
    if (seenSubjects.has(credential.subject)) {
      issues.push({ path, value: credential.subject, message: `gives identity ${identity.name} the issuer ${issuer} with this subject twice (Azure requires unique issuer and subject)` });
    }
    seenNames.add(credential.name);
    seenSubjects.add(credential.subject);
  }
  return issues;
}

function uniqueIssuers(n: DeploymentNames) {
  return [...new Map(n.clusters.map((c) => [c.issuer.url, c.issuer])).values()];
}

function nameIssue(rule: NameRule, name: string, origin: string, what: string): ConfigIssue[] {
  return rule.test(name) ? [] : [{ path: origin, value: name, message: `gives the ${what} "${name}", which ${rule.rule}` }];
}

function duplicates(entries: Array<{ key: string; path: string; value?: unknown }>, message: string): ConfigIssue[] {
  const seen = new Set<string>();
  const issues: ConfigIssue[] = [];
  for (const entry of entries) {
    if (seen.has(entry.key)) issues.push({ path: entry.path, value: entry.value ?? entry.key, message });
    seen.add(entry.key);
  }
  return issues;
}

const BUNDLE_PATH = "managementCluster.operator.bundleFile";

/** The render flags that add external-dns to the bundle, for error messages. */
export function externalDnsRenderFlags(zone: string): string {
  return `--external-dns-provider=azure --external-dns-secret external-dns-credentials --external-dns-domain-filter ${zone} --external-dns-txt-owner-id <stable id>`;
}

/** The rendered operator bundle must agree with the DNS strategy of the config. */
export function bundleIssues(config: Config, names: DeploymentNames, bundle: OperatorBundle): ConfigIssue[] {
  const namespaceClashes: ConfigIssue[] = names.clusters
    .filter((c) => c.hosted?.namespace === bundle.operatorNamespace)
    .map((c) => ({
      path: `clusters[${c.index}].hostedCluster.namespace`,
      value: bundle.operatorNamespace,
      message: "is the HyperShift operator's namespace; HostedClusters go in their own (default clusters)",
    }));
  const managedService = bundle.operatorEnv[MANAGED_SERVICE_ENV];
  const aroHcp: ConfigIssue[] =
    config.topology === "aroHcp" && managedService !== ARO_HCP_MANAGED_SERVICE
      ? [
          {
            path: BUNDLE_PATH,
            value: managedService,
            message: `has no ${MANAGED_SERVICE_ENV}=${ARO_HCP_MANAGED_SERVICE} on the operator; with topology: aroHcp render it with --managed-service ARO-HCP --aro-hcp-key-vault-users-client-id <any UUID> (the stack sets the AKS add-on identity's client ID)`,
          },
        ]
      : config.topology !== "aroHcp" && managedService === ARO_HCP_MANAGED_SERVICE
        ? [{ path: BUNDLE_PATH, value: managedService, message: "is rendered with --managed-service ARO-HCP, which only fits topology: aroHcp" }]
        : [];
  return [...namespaceClashes, ...aroHcp, ...externalDnsBundleIssues(config, names, bundle)];
}

function externalDnsBundleIssues(config: Config, names: DeploymentNames, bundle: OperatorBundle): ConfigIssue[] {
  const externalDns = bundle.externalDns;
  const zone = names.dns?.zoneName;
  if (!externalDns) {
    return config.externalDns && zone
      ? [{ path: BUNDLE_PATH, message: `has no external-dns Deployment, but externalDns is configured: render it again with ${externalDnsRenderFlags(zone)}` }]
      : [];
  }
  if (!config.externalDns && !config.managementCluster?.externalDnsCredentialsFile) {
    return [
      {
        path: BUNDLE_PATH,
        message:
          "renders external-dns, but nothing provides its Azure credentials: configure dns and externalDns, set managementCluster.externalDnsCredentialsFile, or render without the --external-dns-* flags",
      },
    ];
  }
  const issues: ConfigIssue[] = [];
  if (externalDns.provider !== "azure") {
    issues.push({ path: BUNDLE_PATH, value: externalDns.provider, message: "configures external-dns with a provider other than azure (--external-dns-provider=azure)" });
  }
  // Without dns in this config (credentials handed over by another team) the zone is unknown here.
  if (zone && (externalDns.domainFilters.length !== 1 || externalDns.domainFilters[0] !== zone)) {
    issues.push({
      path: BUNDLE_PATH,
      value: externalDns.domainFilters.join(","),
      message: `gives external-dns the domain filter shown, which must be exactly the delegated zone ${zone} (${names.dns?.zoneOrigin === "dns.zoneName" ? "dns.zoneName" : "<prefix>.<dns.parent.zoneName>"}); render with --external-dns-domain-filter ${zone}`,
    });
  }
  if (!externalDns.credentialsSecret) {
    issues.push({ path: BUNDLE_PATH, message: "has an external-dns Deployment that mounts no Secret at /etc/provider; render it with --external-dns-secret external-dns-credentials" });
  }
  return issues;
}

/** Things that are valid but will fail or surprise at plan time unless the user acts. */
export function bundleWarnings(bundle: OperatorBundle, config: Config): string[] {
  const warnings: string[] = [];
  if (bundle.exampleOnly) {
    warnings.push("management: the operator bundle is an abridged example (hcp-azure.dev/example-only); deploy refuses it. Render your own (help/management-cluster.md).");
  }
  const external = [...new Set(bundle.objects.filter((o) => o.needsExistingCrd).map((o) => `${o.manifest.kind} (${o.manifest.apiVersion})`))];
  if (external.length > 0) {
    warnings.push(
      `management: the bundle has objects whose CRDs must be on the cluster before Terraform plans (OpenShift has them; AKS does not): ${external.join(", ")}. Install those CRDs first, or list the kinds in managementCluster.operator.omitKinds.`,
    );
  }
  // Secrets the workloads need and nothing here creates: apply waits for a rollout that cannot finish.
  const created = new Set<string>();
  if (bundle.externalDns?.credentialsSecret && (config.externalDns || config.managementCluster?.externalDnsCredentialsFile)) {
    created.add(`${bundle.externalDns.namespace}/${bundle.externalDns.credentialsSecret}`);
  }
  if (config.managementCluster?.pullSecretFile) created.add(`${bundle.operatorNamespace}/${PULL_SECRET_NAME}`);
  const missing = bundle.secretReferences.filter((r) => !created.has(`${r.namespace}/${r.secret}`));
  const describe = (refs: typeof missing) => refs.map((r) => `${r.namespace}/${r.secret} (${r.use === "volume" ? "mounted" : "image pull"} by ${r.workload})`).join(", ");
  const absent = missing.filter((r) => !r.servingCert);
  if (absent.length > 0) {
    const pullHint = absent.some((r) => r.secret === PULL_SECRET_NAME)
      ? ": set managementCluster.pullSecretFile for pull-secret (OpenShift nodes can fall back to the cluster pull secret; AKS nodes cannot)"
      : "";
    warnings.push(`management: nothing creates the Secrets ${describe(absent)}; those workloads cannot start and apply waits until rolloutTimeout${pullHint}.`);
  }
  const servingCerts = missing.filter((r) => r.servingCert);
  if (servingCerts.length > 0) {
    warnings.push(
      `management: on OpenShift the service CA creates ${describe(servingCerts)}; on other clusters (AKS) nothing does: render with --enable-conversion-webhook=false and no other webhooks, or create it first.`,
    );
  }
  const owner = bundle.externalDns?.txtOwnerId;
  if (bundle.externalDns && (!owner || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(owner))) {
    warnings.push(
      `management: external-dns has ${owner ? `the TXT owner ID ${owner}, which looks like the random UUID render makes when --external-dns-txt-owner-id is not given` : "no --txt-owner-id"}; every render would change it (a perpetual diff, and records of the old owner left behind). Render with --external-dns-txt-owner-id <stable id>.`,
    );
  }
  return warnings;
}

/** Valid config that needs attention soon (printed by synth). */
export function configWarnings(config: Config, names: DeploymentNames, now: number = Date.now()): string[] {
  const warnings: string[] = [];
  for (const cluster of names.clusters) {
    const pools = config.clusters[cluster.index].hostedCluster?.nodePools ?? [];
    const hostEncrypted = pools.filter((p) => p.encryptionAtHost === undefined).map((p) => p.name);
    if (hostEncrypted.length > 0) {
      warnings.push(
        `${cluster.hosted?.clusterStack}: NodePools ${hostEncrypted.join(", ")} get the CRD default encryptionAtHost: Enabled, which needs the subscription feature Microsoft.Compute/EncryptionAtHost (az feature register --namespace Microsoft.Compute --name EncryptionAtHost); set encryptionAtHost to silence this.`,
      );
    }
    const existing = config.clusters[cluster.index].hostedCluster?.network.existing;
    if (existing?.vnetId && !existing.nsgId) {
      warnings.push(
        `${cluster.hosted?.infraStack}: with an existing VNet and no network.existing.nsgId, a new NSG is created but not attached to your subnet (as hypershift create infra does); the cloud provider writes Service rules into it. Attach it, or give nsgId.`,
      );
    }
  }
  const endDate = config.externalDns?.password.endDate;
  if (endDate && Date.parse(endDate) <= now) {
    warnings.push(
      `externalDns.password.endDate ${endDate} has passed: ExternalDNS can no longer authenticate. Set a later endDate (this replaces the client secret) and deploy shared, then management.`,
    );
  }
  warnings.push(...aroHcpWarnings(config), ...protectionWarnings(config));
  return warnings;
}

/** Variables that override the kubeconfig for kubernetes_manifest, but not for kubernetes_secret_v1. */
export const KUBE_ENV_OVERRIDES = ["KUBE_CONFIG_PATH", "KUBE_CONFIG_PATHS", "KUBE_CTX", "KUBE_HOST", "KUBE_TOKEN"] as const;

/** A kubeconfig in the config plus KUBE_* variables could send objects to two different clusters. */
export function environmentWarnings(config: Config, env: NodeJS.ProcessEnv): string[] {
  const set = KUBE_ENV_OVERRIDES.filter((name) => env[name]);
  const configured = config.managementCluster?.kubeconfig ? "managementCluster.kubeconfig" : config.managementCluster?.aks ? "managementCluster.aks" : undefined;
  return configured && set.length > 0
    ? [
        `management: ${set.join(", ")} ${set.length === 1 ? "is" : "are"} set and ${configured} too; kubernetes_manifest lets the variables win while kubernetes_secret_v1 uses the configured connection. Unset them${configured === "managementCluster.kubeconfig" ? ", or drop managementCluster.kubeconfig" : ""}.`,
      ]
    : [];
}

type HostedCluster = NonNullable<Config["clusters"][number]["hostedCluster"]>;
interface HostedContext {
  readonly config: Config;
  readonly names: DeploymentNames;
  readonly cluster: ClusterNames;
  readonly hosted: HostedClusterNames;
  readonly spec: HostedCluster;
  /** `clusters[<i>].hostedCluster` */
  readonly at: string;
}

/**
 * Phase 3 rules, on each cluster with `hostedCluster` (after names are derived): networks,
 * existing resources, DNS, and the names Azure and Kubernetes would reject or that would collide.
 */
export const HOSTED_CLUSTER_RULES: ReadonlyArray<{ rule: string; check: (c: HostedContext) => ConfigIssue[] }> = [
  {
    rule: "a hosted cluster needs the management cluster",
    check: ({ config, at }) =>
      config.managementCluster ? [] : [{ path: at, message: "needs managementCluster: the HostedCluster is applied there, after the HyperShift operator" }],
  },
  {
    rule: "CIDRs are network addresses",
    check: ({ spec, at }) =>
      (["vnetCidr", "subnetCidr", "clusterNetwork", "serviceNetwork", "machineNetwork"] as const).flatMap((key) => {
        const text = spec.network[key];
        if (!text) return [];
        const cidr = parseCidr(text);
        return cidr.aligned ? [] : [{ path: `${at}.network.${key}`, value: text, message: `has host bits set; the network is ${networkOf(cidr)}` }];
      }),
  },
  {
    rule: "networks avoid OVN-Kubernetes' reserved ranges; the pod network fits the host prefix",
    check: ({ spec, at }) => {
      const reserved = ["100.64.0.0/16", "100.88.0.0/16"].map(parseCidr); // OVN join and transit switches
      const issues: ConfigIssue[] = [];
      for (const key of ["vnetCidr", "subnetCidr", "clusterNetwork", "serviceNetwork", "machineNetwork"] as const) {
        const text = spec.network[key];
        const clash = text ? reserved.find((r) => overlaps(r, parseCidr(text))) : undefined;
        if (text && clash) issues.push({ path: `${at}.network.${key}`, value: text, message: `overlaps ${clash.text}, which OVN-Kubernetes reserves` });
      }
      // Each node takes a /23 of the pod network (HyperShift's hostPrefix).
      if (parseCidr(spec.network.clusterNetwork).prefix > 22) {
        issues.push({ path: `${at}.network.clusterNetwork`, value: spec.network.clusterNetwork, message: "must be /22 or larger: every node takes a /23 of it (hostPrefix 23)" });
      }
      return issues;
    },
  },
  {
    rule: "the VNet contains the subnet; cluster, service and VNet networks are disjoint",
    check: ({ spec, at }) => {
      const n = spec.network;
      const issues: ConfigIssue[] = [];
      const created = !n.existing?.vnetId;
      if (created && !contains(parseCidr(n.vnetCidr), parseCidr(n.subnetCidr))) {
        issues.push({ path: `${at}.network.subnetCidr`, value: n.subnetCidr, message: `must lie inside network.vnetCidr ${n.vnetCidr}` });
      }
      const nodes = n.machineNetwork ?? (created ? n.vnetCidr : undefined);
      const nodesPath = n.machineNetwork ? "machineNetwork" : "vnetCidr";
      const pairs: Array<[string, string | undefined, string, string | undefined]> = [
        ["clusterNetwork", n.clusterNetwork, "serviceNetwork", n.serviceNetwork],
        ["clusterNetwork", n.clusterNetwork, nodesPath, nodes],
        ["serviceNetwork", n.serviceNetwork, nodesPath, nodes],
      ];
      for (const [aKey, a, bKey, b] of pairs) {
        if (a && b && overlaps(parseCidr(a), parseCidr(b))) {
          issues.push({ path: `${at}.network.${aKey}`, value: a, message: `overlaps network.${bKey} ${b}; pod, service and node networks must be disjoint` });
        }
      }
      if (n.machineNetwork && created && !contains(parseCidr(n.machineNetwork), parseCidr(n.subnetCidr))) {
        issues.push({ path: `${at}.network.machineNetwork`, value: n.machineNetwork, message: `must contain network.subnetCidr ${n.subnetCidr} (the nodes' addresses)` });
      }
      return issues;
    },
  },
  {
    rule: "existing network resources are complete and in the configured subscription",
    check: ({ config, spec, at }) => {
      const existing = spec.network.existing;
      if (!existing) return [];
      const issues: ConfigIssue[] = [];
      for (const key of ["vnetId", "subnetId", "nsgId"] as const) {
        const id = existing[key];
        if (id && parseArmId(id).subscription.toLowerCase() !== config.subscriptionId.toLowerCase()) {
          issues.push({ path: `${at}.network.existing.${key}`, value: id, message: `must be in subscriptionId ${config.subscriptionId} (HyperShift requires the network in the cluster's subscription)` });
        }
      }
      if (existing.vnetId && !existing.subnetId) issues.push({ path: `${at}.network.existing.subnetId`, message: "is required with network.existing.vnetId (the workers' subnet)" });
      if (existing.subnetId && !existing.vnetId) issues.push({ path: `${at}.network.existing.vnetId`, message: "is required with network.existing.subnetId (the subnet's VNet)" });
      if (existing.vnetId && existing.subnetId && !existing.subnetId.toLowerCase().startsWith(`${existing.vnetId.toLowerCase()}/subnets/`)) {
        issues.push({ path: `${at}.network.existing.subnetId`, value: existing.subnetId, message: `must be a subnet of network.existing.vnetId ${existing.vnetId}` });
      }
      const setNames = (["vnetName", "subnetName", "nsgName"] as const).filter((key) => spec.network[key] !== undefined);
      for (const key of ["vnet", "nsg"] as const) {
        const byo = key === "nsg" ? existing.nsgId : existing.vnetId;
        if (byo && spec.network.resourceGroups[key] !== undefined) {
          issues.push({ path: `${at}.network.resourceGroups.${key}`, value: spec.network.resourceGroups[key], message: `is not used with network.existing.${key}Id (the group comes from the ID)` });
        }
      }
      for (const key of setNames) {
        const byo = key === "nsgName" ? existing.nsgId : existing.vnetId;
        if (byo) issues.push({ path: `${at}.network.${key}`, value: spec.network[key], message: "is not used with an existing resource (its name comes from the ID)" });
      }
      return issues;
    },
  },
  {
    rule: "single resource group takes no VNet or NSG group names",
    check: ({ spec, at }) =>
      spec.network.singleResourceGroup
        ? (["vnet", "nsg"] as const)
            .filter((key) => spec.network.resourceGroups[key] !== undefined)
            .map((key) => ({
              path: `${at}.network.resourceGroups.${key}`,
              value: spec.network.resourceGroups[key],
              message: "is not used with network.singleResourceGroup: true (everything goes in the managed group)",
            }))
        : [],
  },
  {
    rule: "the base domain zone can be located",
    check: ({ hosted, at }) =>
      hosted.publicZone.resourceGroupName
        ? []
        : [
            {
              path: `${at}.publicZone`,
              message: `is required: say where the Azure DNS zone ${hosted.publicZone.name} is (resourceGroupName), or make baseDomain dns.parent.zoneName`,
            },
          ],
  },
  {
    rule: "ExternalDNS publishing needs ExternalDNS, outside the cluster's own domain",
    check: ({ config, cluster, hosted, spec, at }) => {
      if (spec.externalDns === true && !config.externalDns) {
        return [{ path: `${at}.externalDns`, value: true, message: "needs the top-level externalDns (and dns): the Routes are named in that zone" }];
      }
      const domain = hosted.externalDnsDomain;
      const own = `${cluster.name}.${spec.baseDomain}`;
      // HyperShift's CLI rule (the "two routers" problem): the domain must not be, or contain, the cluster's domain.
      return domain && (own === domain || own.endsWith(`.${domain}`))
        ? [{ path: `${at}.baseDomain`, value: spec.baseDomain, message: `makes the cluster domain ${own}, which lies in the ExternalDNS zone ${domain}; use the parent zone as baseDomain (seed 004: --base-domain example.com)` }]
        : [];
    },
  },
  {
    rule: "the cluster's resource groups are its own",
    check: ({ names, hosted, spec }) => {
      const issues: ConfigIssue[] = [];
      const created = Object.values(hosted.resourceGroups).filter((g) => g.create);
      for (const group of created) {
        if (group.name.toLowerCase() === names.resourceGroup.name.toLowerCase()) {
          issues.push({ path: group.origin, value: group.name, message: "is the persistent resource group; a cluster's groups are deleted with it" });
        }
      }
      // A VNet or NSG in the persistent group would give capz and cpo Contributor there, i.e.
      // over every identity and its federated credentials.
      for (const key of ["vnet", "nsg"] as const) {
        const group = hosted.resourceGroups[key];
        if (!group.create && group.name.toLowerCase() === names.resourceGroup.name.toLowerCase()) {
          issues.push({ path: group.origin, value: group.name, message: `puts the ${key === "vnet" ? "VNet" : "NSG"} in the persistent resource group, where the cluster's identities would get Contributor; move it` });
        }
      }
      if (!spec.network.singleResourceGroup) {
        const seen = new Map<string, string>();
        for (const group of created) {
          const other = seen.get(group.name.toLowerCase());
          if (other) issues.push({ path: group.origin, value: group.name, message: `is also the ${other} group; use network.singleResourceGroup: true for one group` });
          seen.set(group.name.toLowerCase(), group.origin);
        }
      }
      return issues;
    },
  },
  {
    rule: "derived Phase 3 names are valid",
    check: ({ hosted, at }) => [
      ...Object.values(hosted.resourceGroups)
        .filter((g) => g.create)
        .flatMap((g) => nameIssue(AZURE_NAME_RULES.resourceGroup, g.name, g.origin, "resource group name")),
      ...(hosted.vnet.create ? nameIssue(AZURE_NAME_RULES.virtualNetwork, hosted.vnet.name, hosted.vnet.origin, "VNet name") : []),
      ...[hosted.subnet, hosted.nsg].filter((r) => r.create).flatMap((r) => nameIssue(AZURE_NAME_RULES.networkName, r.name, r.origin, "network resource name")),
      ...nameIssue(AZURE_NAME_RULES.dnsZone, hosted.privateZone.name, `${at}.baseDomain`, "private DNS zone name"),
      ...nameIssue(AZURE_NAME_RULES.networkName, hosted.privateZone.linkName, hosted.infraIdOrigin, "private DNS zone link name (<name>-<infraID>)"),
      ...(hosted.controlPlaneNamespace.length > 63
        ? [{ path: `${at}.namespace`, value: hosted.controlPlaneNamespace, message: `gives the control-plane namespace ${hosted.controlPlaneNamespace}, longer than 63 characters` }]
        : []),
    ],
  },
];

/** Rules across hosted clusters: what two clusters must not share. */
export function hostedClusterCollisions(config: Config, names: DeploymentNames): ConfigIssue[] {
  const hosted = names.clusters.filter((c) => c.hosted);
  const at = (c: ClusterNames) => `clusters[${c.index}].hostedCluster`;
  return [
    ...duplicates(
      hosted.map((c) => ({ key: c.hosted!.infraId, path: c.hosted!.infraIdOrigin })),
      "gives an infrastructure ID that another cluster also uses (set hostedCluster.infraId)",
    ),
    ...duplicates(
      hosted.flatMap((c) => Object.values(c.hosted!.resourceGroups).filter((g) => g.create).map((g) => ({ key: g.name.toLowerCase(), path: g.origin, value: g.name }))).filter(
        (entry, index, all) => all.findIndex((e) => e.key === entry.key && e.path === entry.path) === index,
      ),
      "gives a resource group that another cluster also creates",
    ),
    ...duplicates(
      hosted.flatMap((c) =>
        (config.clusters[c.index].hostedCluster?.nodePools ?? []).map((pool, i) => ({ key: `${c.hosted!.namespace}/${pool.name}`, path: `${at(c)}.nodePools[${i}].name`, value: pool.name })),
      ),
      "names a NodePool that already exists in the same namespace (another cluster or the same)",
    ),
  ];
}
