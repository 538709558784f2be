import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { EXAMPLES, loadExample, loadInline, resources, synthStacks } from "../helpers";

/**
 * The `create cluster azure` options as rendered: each field equal to what the CLI writes for the
 * same flag (openshift/hypershift@3ee9615; the fixture or function is named in each row), one
 * synthesis per table. CRD validity of the examples is checked in __tests__/e2e/examples-crds.test.ts.
 */

const manifestOf = (stack: any, kind: string) =>
  Object.values(stack.resource.kubernetes_manifest as Record<string, any>)
    .map((r) => r.manifest)
    .find((m) => m.kind === kind);
const at = (object: any, dotted: string) => dotted.split(".").reduce((value, key) => value?.[key], object);
const FIXTURES = "cmd/cluster/azure/testdata/zz_fixture_TestCreateCluster_When_";

describe("examples/all-options.yaml: every HostedCluster option as the CLI renders its flag", () => {
  const stacks = synthStacks(loadExample("all-options.yaml"));
  const hc = manifestOf(stacks["cluster-allopts-hc"], "HostedCluster");

  it.each([
    [
      "--kas-dns-name",
      `${FIXTURES}KubeAPIServerDNSName_is_provided__it_should_configure_custom_DNS_name.yaml`,
      "spec.kubeAPIServerDNSName",
      "api.allopts.example.com",
    ],
    [
      "--additional-trust-bundle",
      "cmd/cluster/core/create.go applyTrustBundleAndImageSources",
      "spec.additionalTrustBundle",
      { name: "allopts-hc-user-ca-bundle" },
    ],
    [
      "--image-content-sources",
      "cmd/cluster/core/create.go applyTrustBundleAndImageSources (the file's YAML list)",
      "spec.imageContentSources",
      [
        { source: "quay.io/openshift-release-dev/ocp-release", mirrors: ["mirror.example.com/openshift/release-images"] },
        { source: "quay.io/openshift-release-dev/ocp-v4.0-art-dev", mirrors: ["mirror.example.com/openshift/release"] },
      ],
    ],
    ["--fips", "cmd/cluster/core/create.go prototypeResources", "spec.fips", true],
    ["--infra-availability-policy", "cmd/cluster/core/create.go prototypeResources", "spec.infrastructureAvailabilityPolicy", "HighlyAvailable"],
    [
      "--enable/--disable-cluster-capabilities",
      `${FIXTURES}disabled_capabilities_are_provided__it_should_configure_disabled_capabilities.yaml`,
      "spec.capabilities",
      { enabled: ["baremetal"], disabled: ["ImageRegistry", "openshift-samples"] },
    ],
    ["--feature-set", "cmd/cluster/core/create.go applyFeatureSet", "spec.configuration.featureGate", { featureSet: "TechPreviewNoUpgrade" }],
    ["--olm-disable-default-sources", "cmd/cluster/core/create.go applyOLMConfig", "spec.configuration.operatorhub", { disableAllDefaultSources: true }],
    ["--olm-catalog-placement", "cmd/cluster/core/create.go applyOLMConfig", "spec.olmCatalogPlacement", "guest"],
    ["--network-type", "cmd/cluster/core/create.go prototypeResources", "spec.networking.networkType", "OVNKubernetes"],
    [
      "--annotations",
      "cmd/cluster/core/create.go prototypeResources (parseKeyValuePairs)",
      "metadata.annotations",
      { "hypershift.openshift.io/pod-security-admission-label-override": "baseline" },
    ],
    ["--labels", "cmd/cluster/core/create.go prototypeResources", "metadata.labels", { team: "platform" }],
    ["--node-selector", "cmd/cluster/core/create.go applySchedulingConfig", "spec.nodeSelector", { "node-role.kubernetes.io/infra": "" }],
    [
      "--toleration key=node-role.kubernetes.io/infra,operator=exists,effect=noschedule",
      "cmd/cluster/core/create.go parseTolerationString",
      "spec.tolerations",
      [{ key: "node-role.kubernetes.io/infra", operator: "Exists", effect: "NoSchedule" }],
    ],
    ["--control-plane-availability-policy", "cmd/cluster/core/create.go prototypeResources", "spec.controllerAvailabilityPolicy", "HighlyAvailable"],
  ])("%s (%s) → %s", (_flag, _source, field, expected) => {
    expect(at(hc, field)).toEqual(expected);
  });

  it(`--oauth-publishing-strategy LoadBalancer (${FIXTURES}oauth_publishing_strategy_is_LoadBalancer__it_should_configure_OAuth_LoadBalancer.yaml): only OAuthServer changes`, () => {
    expect(hc.spec.services).toEqual([
      { service: "APIServer", servicePublishingStrategy: { type: "LoadBalancer" } },
      { service: "Ignition", servicePublishingStrategy: { type: "Route" } },
      { service: "Konnectivity", servicePublishingStrategy: { type: "Route" } },
      { service: "OAuthServer", servicePublishingStrategy: { type: "LoadBalancer" } },
    ]);
  });

  it("--additional-trust-bundle: the ConfigMap the HostedCluster names, key ca-bundle.crt, with the file's certificates; the HostedCluster waits for it", () => {
    const configMap = resources(stacks["cluster-allopts-hc"], "kubernetes_config_map_v1")[0];
    expect(configMap.metadata).toEqual({ name: "allopts-hc-user-ca-bundle", namespace: "clusters", labels: { "app.kubernetes.io/managed-by": "hcp-azure" } });
    expect(configMap.data).toEqual({ "ca-bundle.crt": fs.readFileSync(path.join(EXAMPLES, "ca", "example-ca-bundle.pem"), "utf8") });
    const hostedCluster = Object.values(stacks["cluster-allopts-hc"].resource.kubernetes_manifest as Record<string, any>).find(
      (r) => r.manifest.kind === "HostedCluster",
    );
    expect(hostedCluster.depends_on).toContain("kubernetes_config_map_v1.TrustBundle_FE4C4E97");
  });

  it("ImageRegistry disabled: no Image Registry role assignment (cmd/infra/azure/rbac.go), but the identity and its client ID stay (the CRD requires them)", () => {
    const roles = resources(stacks["infra-allopts-hc"], "azurerm_role_assignment").map((r) => r.role_definition_id);
    expect(roles.some((id: string) => id.endsWith("8b32b316-c2f5-4ddf-b05b-83dacd2d08b5"))).toBe(false);
    expect(roles.some((id: string) => id.endsWith("0336e1d3-7a87-462b-b6db-342b63f7802c"))).toBe(true); // ingress still
    expect(resources(stacks["identities-allopts-hc"], "azurerm_user_assigned_identity").map((i) => i.name)).toContain("allopts-hc-image-registry");
    expect(hc.spec.platform.azure.azureAuthenticationConfig.workloadIdentities.imageRegistry).toEqual({
      clientID: expect.stringMatching(/^\$\{data\.azurerm_user_assigned_identity\.[^.}]*imageRegistry[^.}]*\.client_id\}$/),
    });
  });

  it("cloud AzurePublicCloud: spec.platform.azure.cloud is left to the CRD default, and no provider sets an environment", () => {
    expect(hc.spec.platform.azure.cloud).toBeUndefined();
    const environments = Object.values(stacks).flatMap((stack: any) =>
      [...(stack.provider?.azurerm ?? []), ...(stack.provider?.azuread ?? [])].map((p: any) => p.environment),
    );
    expect(environments.length).toBeGreaterThan(0);
    expect(environments.filter((e) => e !== undefined)).toEqual([]);
  });

  it("every Secret carries hypershift.openshift.io/safe-to-delete-with-cluster, as the CLI labels each Secret it writes (cmd/cluster/core/create.go, cmd/cluster/azure/manifests.go)", () => {
    const secrets = resources(stacks["cluster-allopts-hc"], "kubernetes_secret_v1");
    expect(secrets.map((secret) => secret.metadata.name).sort()).toEqual(
      [
        "allopts-hc-cloud-credentials",
        "allopts-hc-etcd-encryption-key",
        "allopts-hc-pull-secret",
        "allopts-hc-ssh-key",
        "allopts-hcsa-token-issuer-key",
      ].sort(),
    );
    for (const secret of secrets) {
      expect([secret.metadata.name, secret.metadata.labels["hypershift.openshift.io/safe-to-delete-with-cluster"]]).toEqual([secret.metadata.name, "true"]);
    }
  });

  it("snapshot of the cluster stack", () => {
    expect(stacks["cluster-allopts-hc"]).toMatchSnapshot();
  });
});

describe("a US Government cloud cluster with ExternalDNS, OAuth LoadBalancer, a CPO image and networkType Other", () => {
  const config = parse(fs.readFileSync(path.join(EXAMPLES, "external-dns.yaml"), "utf8"));
  Object.assign(config, { cloud: "AzureUSGovernmentCloud", location: "usgovvirginia", allowUnlistedLocation: true });
  config.clusters = [config.clusters[0]];
  Object.assign(config.clusters[0].hostedCluster, { oauthPublishing: "LoadBalancer", controlPlaneOperatorImage: "quay.io/me/cpo:dev", networkType: "Other" });
  const stacks = synthStacks(loadInline(config));
  const hc = manifestOf(stacks["cluster-myprefix-hc"], "HostedCluster");

  it("--oauth-publishing-strategy LoadBalancer with --external-dns-domain: the hostname goes under loadBalancer (cmd/cluster/azure/create.go)", () => {
    expect(hc.spec.services.find((s: any) => s.service === "OAuthServer").servicePublishingStrategy).toEqual({
      type: "LoadBalancer",
      loadBalancer: { hostname: "oauth-myprefix-hc.myprefix.example.com" },
    });
    expect(hc.spec.services.find((s: any) => s.service === "APIServer").servicePublishingStrategy.type).toBe("Route");
  });

  it("--control-plane-operator-image: the annotation hypershift.openshift.io/control-plane-operator-image (cmd/cluster/core/create.go prototypeResources)", () => {
    expect(hc.metadata.annotations).toEqual({ "hypershift.openshift.io/control-plane-operator-image": "quay.io/me/cpo:dev" });
  });

  it("--network-type Other", () => {
    expect(hc.spec.networking.networkType).toBe("Other");
  });

  it("cloud: the HostedCluster's spec.platform.azure.cloud (the CLI never writes it: notes §4)", () => {
    expect(hc.spec.platform.azure.cloud).toBe("AzureUSGovernmentCloud");
  });

  it("cloud: every azurerm and azuread provider of every stack has the cloud's environment", () => {
    const providers = Object.values(stacks).flatMap((stack: any) => [
      ...(stack.provider?.azurerm ?? []).map((p: any) => ["azurerm", p.environment]),
      ...(stack.provider?.azuread ?? []).map((p: any) => ["azuread", p.environment]),
    ]);
    expect(providers.filter(([kind]) => kind === "azurerm").length).toBeGreaterThanOrEqual(4);
    expect(providers.filter(([kind]) => kind === "azuread").length).toBeGreaterThanOrEqual(1);
    for (const [kind, environment] of providers) expect([kind, environment]).toEqual([kind, kind === "azurerm" ? "usgovernment" : "usgovernmentl4"]);
  });

  it("cloud: the OIDC issuer is on the cloud's Blob host, in the HostedCluster and every federated credential", () => {
    expect(hc.spec.issuerURL).toMatch(/^https:\/\/\w+\.blob\.core\.usgovcloudapi\.net\/\w+$/);
    const credentials = resources(stacks["identities-myprefix-hc"], "azurerm_federated_identity_credential");
    expect(credentials.length).toBeGreaterThan(0);
    for (const credential of credentials) expect(credential.issuer).toBe(hc.spec.issuerURL);
    expect(JSON.stringify(stacks)).not.toContain("blob.core.windows.net");
  });

  it("cloud: ExternalDNS's azure_mgmt.json names the cloud (its authority host)", () => {
    expect(stacks.shared.output.external_dns_credentials.value).toContain('"cloud": "AzureUSGovernmentCloud",');
  });
});

describe("an aroHcp deployment in the China cloud", () => {
  const config = parse(fs.readFileSync(path.join(EXAMPLES, "aro-hcp.yaml"), "utf8"));
  Object.assign(config, { cloud: "AzureChinaCloud", location: "chinanorth3", allowUnlistedLocation: true });
  const stacks = synthStacks(loadInline(config));

  it("every control-plane credential in Key Vault carries the China authority host", () => {
    const secrets = resources(stacks.shared, "azurerm_key_vault_secret");
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(secret.value_wo).toContain('"authentication_endpoint" = "https://login.chinacloudapi.cn/"');
    expect(JSON.stringify(stacks)).not.toContain("login.microsoftonline.com");
  });
});
