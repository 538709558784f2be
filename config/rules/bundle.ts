import { DeploymentNames } from "../names";
import { ARO_HCP_MANAGED_SERVICE, MANAGED_SERVICE_ENV, OperatorBundle, PULL_SECRET_NAME } from "../operator-bundle";
import { Config } from "../schema";
import { ConfigIssue } from "./rule";

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
      message: `gives external-dns the domain filter shown, which must be exactly the delegated zone ${zone} (${names.dns?.zoneOrigin === "dns.zoneName" ? "dns.zoneName" : "<prefix>.<dns.parent.zoneName>"}); render with --external-dns-domain-filter ${zone}`,
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

/** Things that are valid but will fail or surprise at plan time unless the user acts. */
export function bundleWarnings(bundle: OperatorBundle, config: Config): string[] {
  const warnings: string[] = [];
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
  if (bundle.externalDns && (!owner || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(owner))) {
    warnings.push(
      `management: external-dns has ${owner ? `the TXT owner ID ${owner}, which looks like the random UUID render makes when --external-dns-txt-owner-id is not given` : "no --txt-owner-id"}; every render would change it (a perpetual diff, and records of the old owner left behind). Render with --external-dns-txt-owner-id <stable id>.`,
    );
  }
  return warnings;
}
