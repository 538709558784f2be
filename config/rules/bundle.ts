import { DeploymentNames } from "../names";
import { ARO_HCP_MANAGED_SERVICE, AZURE_PRIVATE_CREDENTIALS_SECRET, MANAGED_SERVICE_ENV, OperatorBundle, PULL_SECRET_NAME } from "../operator-bundle";
import { Config, GUID } from "../schema";
import { etcdBackupIssues } from "./etcd-backup";
import { hypershiftReleaseIssues } from "./hypershift-release";
import { monitoringBundleWarnings } from "./monitoring";
import { externalOidcBundleIssues } from "./sign-in-oidc";
import { ConfigIssue } from "./rule";

const BUNDLE_PATH = "managementCluster.operator.bundleFile";

/** The render flags that add external-dns to the bundle, for error messages. */
export function externalDnsRenderFlags(zone: string): string {
  return `--external-dns-provider=azure --external-dns-secret external-dns-credentials --external-dns-domain-filter ${zone} --external-dns-txt-owner-id <stable id>`;
}

/** The render flags that add Private Link Service management to the bundle, for error messages. */
export function privateLinkRenderFlags(resourceGroup: string): string {
  return `--private-platform Azure --azure-private-secret ${AZURE_PRIVATE_CREDENTIALS_SECRET} --azure-pls-resource-group ${resourceGroup}`;
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
  return [
    ...namespaceClashes,
    ...aroHcp,
    ...externalDnsBundleIssues(config, names, bundle),
    ...privateLinkBundleIssues(config, names, bundle),
    ...etcdBackupIssues(config, bundle),
    ...externalOidcBundleIssues(names, bundle),
    ...hypershiftReleaseIssues(config, names, bundle),
  ];
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
    issues.push({
      path: BUNDLE_PATH,
      value: externalDns.provider,
      message: "configures external-dns with a provider other than azure (--external-dns-provider=azure)",
    });
  }
  // Without dns in this config (credentials handed over by another team) the zone is unknown here.
  if (zone && (externalDns.domainFilters.length !== 1 || externalDns.domainFilters[0] !== zone)) {
    issues.push({
      path: BUNDLE_PATH,
      value: externalDns.domainFilters.join(","),
      message: `is the domain filter the bundle gives external-dns; it must be exactly the delegated zone ${zone} (${names.dns?.zoneOrigin === "dns.zoneName" ? "dns.zoneName" : "<prefix>.<dns.parent.zoneName>"}); render with --external-dns-domain-filter ${zone}`,
    });
  }
  if (!externalDns.credentialsSecret) {
    issues.push({
      path: BUNDLE_PATH,
      message: "has an external-dns Deployment that mounts no Secret at /etc/provider; render it with --external-dns-secret external-dns-credentials",
    });
  }
  return issues;
}

/**
 * Private clusters need the operator rendered with Private Link Service management, reading a
 * client-secret credential from the Secret the management stack creates (notes §1.4).
 */
function privateLinkBundleIssues(config: Config, names: DeploymentNames, bundle: OperatorBundle): ConfigIssue[] {
  const rendered = bundle.privateLink;
  const settings = names.privateLink;
  const privateCluster = names.clusters.find((c) => c.hosted && c.hosted.endpointAccess.kind !== "Public");
  const renderedAzure = rendered.platform === "Azure";
  if (!settings) {
    // Without managementCluster.privateLink nothing creates the credentials the operator would mount.
    return renderedAzure && config.topology !== "aroHcp"
      ? [
          {
            path: BUNDLE_PATH,
            value: `--private-platform=${rendered.platform}`,
            message:
              "renders the operator with Private Link Service management, but nothing provides its Azure credentials: configure managementCluster.privateLink, or render with --private-platform None",
          },
        ]
      : [];
  }
  const flags = privateLinkRenderFlags(settings.resourceGroupName);
  const why = privateCluster
    ? `clusters[${privateCluster.index}].hostedCluster.endpointAccess is ${privateCluster.hosted?.endpointAccess.kind}`
    : "managementCluster.privateLink is configured";
  if (!renderedAzure) {
    return [
      {
        path: BUNDLE_PATH,
        value: `--private-platform=${rendered.platform ?? "(none)"}`,
        message: `has no Private Link Service management on the operator, but ${why}: render it again adding ${flags} (with your other install flags)`,
      },
    ];
  }
  const issues: ConfigIssue[] = [];
  if (rendered.resourceGroup !== settings.resourceGroupName) {
    issues.push({
      path: BUNDLE_PATH,
      value: rendered.resourceGroup,
      message: `is the operator's AZURE_RESOURCE_GROUP (--azure-pls-resource-group) in the bundle; it must be managementCluster.privateLink.resourceGroupName ${settings.resourceGroupName}; render with ${flags}`,
    });
  }
  if (rendered.managedIdentityClientId !== undefined) {
    issues.push({
      path: BUNDLE_PATH,
      value: rendered.managedIdentityClientId,
      message: `renders the operator with --azure-pls-managed-identity-client-id, but this project gives it a client-secret credential in a Secret; render with ${flags} instead`,
    });
  } else if (!rendered.credentialsSecret || !rendered.credentialsKey) {
    issues.push({
      path: BUNDLE_PATH,
      message: `has an operator that mounts no Private Link credentials Secret at /etc/azure-provider (or sets no AZURE_CREDENTIALS_FILE there); render with ${flags}`,
    });
  }
  return issues;
}

/** Things that are valid but will fail or surprise at plan time unless the user acts. */
export function bundleWarnings(bundle: OperatorBundle, config: Config): string[] {
  const warnings: string[] = [...monitoringBundleWarnings(bundle, config)];
  if (bundle.exampleOnly) {
    warnings.push(
      "management: the operator bundle is an abridged example (hcp-azure.dev/example-only); deploy refuses it. Render your own (help/management-cluster.md).",
    );
  }
  const external = [...new Set(bundle.objects.filter((o) => o.needsExistingCrd).map((o) => `${o.manifest.kind} (${o.manifest.apiVersion})`))];
  if (external.length > 0) {
    warnings.push(
      `management: the bundle has objects whose CRDs must be on the cluster before Terraform plans (OpenShift has them; AKS does not): ${external.join(", ")}. Install those CRDs first, or list the kinds in managementCluster.operator.omitKinds (help/troubleshooting.md#a-crd-is-missing-at-plan).`,
    );
  }
  // Secrets the workloads need and nothing here creates: apply waits for a rollout that cannot finish.
  const created = new Set<string>();
  if (bundle.externalDns?.credentialsSecret && (config.externalDns || config.managementCluster?.externalDnsCredentialsFile)) {
    created.add(`${bundle.externalDns.namespace}/${bundle.externalDns.credentialsSecret}`);
  }
  if (config.managementCluster?.pullSecretFile) created.add(`${bundle.operatorNamespace}/${PULL_SECRET_NAME}`);
  if (config.managementCluster?.privateLink && bundle.privateLink.credentialsSecret) {
    created.add(`${bundle.operatorNamespace}/${bundle.privateLink.credentialsSecret}`);
  }
  const missing = bundle.secretReferences.filter((r) => !created.has(`${r.namespace}/${r.secret}`));
  const describe = (refs: typeof missing) =>
    refs.map((r) => `${r.namespace}/${r.secret} (${r.use === "volume" ? "mounted" : "image pull"} by ${r.workload})`).join(", ");
  const absent = missing.filter((r) => !r.servingCert);
  if (absent.length > 0) {
    const pullHint = absent.some((r) => r.secret === PULL_SECRET_NAME)
      ? ": set managementCluster.pullSecretFile for pull-secret (OpenShift nodes can fall back to the cluster pull secret; AKS nodes cannot)"
      : "";
    warnings.push(
      `management: nothing creates the Secrets ${describe(absent)}; those workloads cannot start and apply waits until rolloutTimeout${pullHint} (help/troubleshooting.md#a-deployment-does-not-roll-out).`,
    );
  }
  const servingCerts = missing.filter((r) => r.servingCert);
  if (servingCerts.length > 0) {
    warnings.push(
      `management: on OpenShift the service CA creates ${describe(servingCerts)}; on other clusters (AKS) nothing does: render with --enable-conversion-webhook=false and no other webhooks, or create it first (help/troubleshooting.md#a-deployment-does-not-roll-out).`,
    );
  }
  const owner = bundle.externalDns?.txtOwnerId;
  if (bundle.externalDns && (!owner || GUID.test(owner))) {
    warnings.push(
      `management: external-dns has ${owner ? `the TXT owner ID ${owner}, which looks like the random UUID render makes when --external-dns-txt-owner-id is not given` : "no --txt-owner-id"}; every render would change it (a perpetual diff, and records of the old owner left behind). Render with --external-dns-txt-owner-id <stable id>.`,
    );
  }
  return warnings;
}
