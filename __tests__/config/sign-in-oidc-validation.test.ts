import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { ConfigErrors, LoadedConfig, validateConfig } from "../../config/load";
import { OperatorBundle } from "../../config/operator-bundle";
import { externalOidcBundleIssues } from "../../config/rules/sign-in-oidc";
import { EXAMPLES, hostedClusterSpec, loadInline, minimalConfig, SHARED } from "../helpers";

/** signIn.mode ExternalOIDC (help/sign-in.md#external-oidc): each rule refuses its bad value with the field path; a good config passes. */

type RawConfig = Record<string, any>;
const HC = "clusters[0].hostedCluster";

function base(): RawConfig {
  return minimalConfig({
    clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), nodePools: [{ name: "hc1" }], signIn: { mode: "ExternalOIDC", externalOIDC: {} } } }],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
  });
}
const hc = (c: RawConfig) => c.clusters[0].hostedCluster;
const oidc = (c: RawConfig) => hc(c).signIn.externalOIDC;

function validate(mutate: (c: RawConfig) => void): LoadedConfig | ConfigErrors {
  const config = base();
  mutate(config);
  return validateConfig(config, EXAMPLES);
}

function issuesOf(result: LoadedConfig | ConfigErrors): Array<{ path: string; message: string; value?: unknown }> {
  return result.ok ? [] : result.issues.map((i) => ({ path: i.path, message: i.message, value: i.value }));
}

describe("signIn.mode ExternalOIDC rules", () => {
  it("accepts external OIDC with the defaults and with every key", () => {
    expect(issuesOf(validate(() => undefined))).toEqual([]);
    const full = validate((c) =>
      Object.assign(oidc(c), {
        name: "corp",
        issuerURL: "https://login.microsoftonline.com/11111111-1111-1111-1111-111111111111/v2.0",
        audiences: ["22222222-2222-2222-2222-222222222222"],
        claimMappings: { username: { claim: "email", prefix: "entra:" }, groups: { prefix: "entra:" } },
        console: { displayName: "hc1 console", groupMembershipClaims: "ApplicationGroup", appRoleAssignmentRequired: true, clientSecretValidFor: "4380h" },
      }),
    );
    expect(issuesOf(full)).toEqual([]);
  });

  it.each([
    {
      name: "entra with ExternalOIDC",
      mutate: (c: RawConfig) => (hc(c).signIn.entra = {}),
      path: `${HC}.signIn.entra`,
      message: /belongs to signIn.mode OAuth/,
    },
    {
      name: "breakGlass with ExternalOIDC",
      mutate: (c: RawConfig) => (hc(c).signIn.breakGlass = {}),
      path: `${HC}.signIn.breakGlass`,
      message: /no OAuth server/,
    },
    {
      name: "oauthHost with ExternalOIDC",
      mutate: (c: RawConfig) => (hc(c).signIn.oauthHost = "oauth.example.com"),
      path: `${HC}.signIn.oauthHost`,
      message: /belongs to signIn.mode OAuth/,
    },
    {
      name: "ExternalOIDC without externalOIDC",
      mutate: (c: RawConfig) => delete hc(c).signIn.externalOIDC,
      path: `${HC}.signIn.externalOIDC`,
      message: /is required/,
    },
    {
      name: "externalOIDC in OAuth mode",
      mutate: (c: RawConfig) => (hc(c).signIn = { entra: {}, oauthHost: "oauth.example.com", externalOIDC: {} }),
      path: `${HC}.signIn.externalOIDC`,
      message: /only with signIn.mode ExternalOIDC/,
    },
    {
      name: "a release before 4.16",
      mutate: (c: RawConfig) => (hc(c).releaseImage = "quay.io/openshift-release-dev/ocp-release:4.15.30-x86_64"),
      path: `${HC}.signIn.mode`,
      message: /needs OpenShift 4.16 or later \(releaseImage is 4.15\)/,
    },
    {
      name: "the console disabled",
      mutate: (c: RawConfig) => (hc(c).capabilities = { disabled: ["Console", "Ingress"] }),
      path: `${HC}.signIn.mode`,
      message: /capabilities.disabled has Console/,
    },
    {
      name: "the groups claim without group claims from Entra",
      mutate: (c: RawConfig) => (oidc(c).claimMappings = { groups: {} }),
      path: `${HC}.signIn.externalOIDC.claimMappings.groups`,
      message: /groupMembershipClaims is None/,
    },
    {
      name: "an audience twice",
      mutate: (c: RawConfig) => (oidc(c).audiences = ["a", "a"]),
      path: `${HC}.signIn.externalOIDC.audiences[1]`,
      message: /listed twice/,
    },
    {
      name: "ten extra audiences",
      mutate: (c: RawConfig) => (oidc(c).audiences = [..."abcdefghij"]),
      path: `${HC}.signIn.externalOIDC.audiences`,
      message: /9/,
    },
    {
      name: "an http issuer",
      mutate: (c: RawConfig) => (oidc(c).issuerURL = "http://login.microsoftonline.com/t/v2.0"),
      path: `${HC}.signIn.externalOIDC.issuerURL`,
      message: /https URL/,
    },
    {
      name: "an issuer with a query",
      mutate: (c: RawConfig) => (oidc(c).issuerURL = "https://login.microsoftonline.com/t/v2.0?x=1"),
      path: `${HC}.signIn.externalOIDC.issuerURL`,
      message: /without query/,
    },
    {
      name: "an unknown mode",
      mutate: (c: RawConfig) => (hc(c).signIn.mode = "OIDC"),
      path: `${HC}.signIn.mode`,
      message: /ExternalOIDC/,
    },
  ])("refuses $name", ({ mutate, path: at, message }) => {
    const issues = issuesOf(validate(mutate));
    expect(issues).toContainEqual(expect.objectContaining({ path: at, message: expect.stringMatching(message) }));
  });

  it("refuses the cluster's own service-account issuer as the OIDC issuer", () => {
    const loaded = validate(() => undefined) as LoadedConfig;
    const own = loaded.names.clusters[0].issuer.url;
    const issues = issuesOf(validate((c) => (oidc(c).issuerURL = own)));
    expect(issues).toContainEqual(
      expect.objectContaining({ path: `${HC}.signIn.externalOIDC.issuerURL`, message: expect.stringMatching(/service-account issuer/) }),
    );
  });
});

describe("the operator bundle's HostedCluster CRD", () => {
  const loaded = loadInline(base());
  const crd = (configuration: unknown): OperatorBundle =>
    ({
      objects: [
        {
          manifest: {
            apiVersion: "apiextensions.k8s.io/v1",
            kind: "CustomResourceDefinition",
            metadata: { name: "hostedclusters.hypershift.openshift.io" },
            spec: { versions: [{ name: "v1beta1", schema: { openAPIV3Schema: { properties: { spec: { properties: { configuration } } } } } }] },
          },
        },
      ],
    }) as unknown as OperatorBundle;

  it("refuses a full CRD without oidcProviders (an operator before release-4.18)", () => {
    const issues = externalOidcBundleIssues(loaded.names, crd({ properties: { oauth: {}, authentication: { properties: { type: {} } } } }));
    expect(issues).toEqual([expect.objectContaining({ path: `${HC}.signIn.mode`, message: expect.stringMatching(/release-4.18 or later/) })]);
  });

  it("accepts the reference CRD (which has oidcProviders) and an abridged CRD that says nothing", () => {
    const reference = path.join(SHARED, "reference", "hypershift-crds", "hostedclusters-Hypershift-Default.crd.yaml");
    if (fs.existsSync(reference)) {
      const manifest = parse(fs.readFileSync(reference, "utf8"));
      expect(externalOidcBundleIssues(loaded.names, { objects: [{ manifest }] } as unknown as OperatorBundle)).toEqual([]);
    }
    expect(externalOidcBundleIssues(loaded.names, crd(undefined))).toEqual([]);
  });
});
