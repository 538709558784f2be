import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { LoadedConfig } from "../../config/load";
import { consoleCallbackUrl, ingressDomain } from "../../config/names/sign-in";
import { externalOidcConfiguration } from "../../constructs/hosted-cluster/sign-in-oidc";
import { synthesize } from "../../stacks/app";
import { checkManifests, EXAMPLES, HAVE_CRDS, loadInline, resources, synthStacks, tempDir } from "../helpers";

/**
 * signIn.mode ExternalOIDC (help/sign-in.md#external-oidc): the HostedCluster's
 * spec.configuration.authentication as the CRD has it, the console's Entra application whose
 * redirect URI is the console's callback on the ingress domain the HostedCluster gets, and the
 * console's client secret only in a write-only Secret.
 */

const CLI_CLIENT = "22222222-2222-2222-2222-222222222222";

/** examples/production.yaml with external OIDC in place of its OAuth sign-in; `ingress` optional. */
function productionWithExternalOidc(ingress?: Record<string, string>): LoadedConfig {
  const raw = parse(fs.readFileSync(path.join(EXAMPLES, "production.yaml"), "utf8"));
  const hosted = raw.clusters[0].hostedCluster;
  hosted.signIn = {
    mode: "ExternalOIDC",
    externalOIDC: {
      audiences: [CLI_CLIENT],
      claimMappings: { username: { claim: "email", prefix: "entra:" }, groups: { claim: "groups", prefix: "entra:" } },
      console: { groupMembershipClaims: "SecurityGroup", appRoleAssignmentRequired: true },
    },
  };
  if (ingress) hosted.ingress = ingress;
  return loadInline(raw);
}

const manifestOf = (stack: any, kind: string): any =>
  resources(stack, "kubernetes_manifest")
    .map((r) => r.manifest)
    .find((m) => m.kind === kind);

describe("externalOidcConfiguration", () => {
  it("writes type OIDC, one provider with the console's client first in audiences, and NoPrefix without a prefix", () => {
    const configuration = externalOidcConfiguration({
      name: "entra",
      issuerURL: "https://login.microsoftonline.com/t/v2.0",
      consoleClientId: "c",
      extraAudiences: ["cli"],
      consoleClientSecretName: "s",
      username: { claim: "preferred_username" },
    });
    expect(configuration).toEqual({
      authentication: {
        type: "OIDC",
        oidcProviders: [
          {
            name: "entra",
            issuer: { issuerURL: "https://login.microsoftonline.com/t/v2.0", audiences: ["c", "cli"] },
            claimMappings: { username: { claim: "preferred_username", prefixPolicy: "NoPrefix" } },
            oidcClients: [
              {
                componentName: "console",
                componentNamespace: "openshift-console",
                clientID: "c",
                clientSecret: { name: "s" },
                extraScopes: ["email", "profile"],
              },
            ],
          },
        ],
      },
    });
  });
});

describe.each([
  { label: "default ingress domain", ingress: undefined },
  { label: "ingress.domain", ingress: { domain: "apps.prod.example.net" } },
])("signIn.mode ExternalOIDC ($label)", ({ ingress }) => {
  const loaded = productionWithExternalOidc(ingress);
  const cluster = loaded.names.clusters[0];
  const stack = synthStacks(loaded)[cluster.hosted?.clusterStack as string];
  const hostedCluster = manifestOf(stack, "HostedCluster");

  it("renders authentication (type OIDC) and no OAuth identity providers", () => {
    const configuration = hostedCluster.spec.configuration;
    expect(configuration.oauth).toBeUndefined();
    expect(configuration.authentication.type).toBe("OIDC");
    const [provider] = configuration.authentication.oidcProviders;
    expect(provider.issuer).toEqual({
      issuerURL: `https://login.microsoftonline.com/${loaded.config.tenantId}/v2.0`,
      audiences: [expect.stringMatching(/^\$\{azuread_application\.\w+\.client_id\}$/), CLI_CLIENT],
    });
    expect(provider.claimMappings).toEqual({
      username: { claim: "email", prefixPolicy: "Prefix", prefix: { prefixString: "entra:" } },
      groups: { claim: "groups", prefix: "entra:" },
    });
    expect(provider.oidcClients).toEqual([
      expect.objectContaining({
        componentName: "console",
        componentNamespace: "openshift-console",
        clientID: provider.issuer.audiences[0],
        clientSecret: { name: "prod-hc1-console-oidc-client-secret" },
      }),
    ]);
  });

  it("registers the console's callback on the HostedCluster's ingress domain as the application's only redirect URI", () => {
    const spec = hostedCluster.spec;
    // Derived here from the synthesized HostedCluster, as HyperShift's IngressDomain does.
    const domain = spec.configuration.ingress?.appsDomain || spec.configuration.ingress?.domain || `apps.${hostedCluster.metadata.name}.${spec.dns.baseDomain}`;
    expect(domain).toBe(ingressDomain(cluster.name, cluster.hosted?.config.baseDomain as string, cluster.hosted?.config.ingress));
    const [application] = resources(stack, "azuread_application");
    expect(application.web.redirect_uris).toEqual([`https://console-openshift-console.${domain}/auth/callback`]);
    expect(application.web.redirect_uris).toEqual([consoleCallbackUrl(domain)]);
    expect(application.group_membership_claims).toEqual(["SecurityGroup"]);
    expect(stack.output.sign_in_redirect_uri.value).toBe(application.web.redirect_uris[0]);
    expect(resources(stack, "azuread_service_principal")[0].app_role_assignment_required).toBe(true);
  });

  it("writes the console's client secret only through a write-only Secret in the HostedCluster's namespace", () => {
    const secrets = resources(stack, "kubernetes_secret_v1").filter((s) => s.metadata.name === "prod-hc1-console-oidc-client-secret");
    expect(secrets).toHaveLength(1);
    expect(secrets[0].metadata.namespace).toBe(hostedCluster.metadata.namespace);
    expect(secrets[0].data).toBeUndefined();
    expect(secrets[0].data_wo).toEqual({ clientSecret: expect.stringMatching(/^\$\{azuread_application_password\.\w+\.value\}$/) });
    const text = JSON.stringify(stack);
    const references = text.match(/azuread_application_password\.\w+\.value/g) ?? [];
    // Once in data_wo, once in the revision that fingerprints it; nowhere else (no output, no manifest).
    expect(references.length).toBeGreaterThan(0);
    const elsewhere = JSON.stringify({ ...stack, resource: { ...stack.resource, kubernetes_secret_v1: undefined } });
    expect(elsewhere).not.toMatch(/azuread_application_password\.\w+\.value/);
    expect(stack.resource.random_password).toBeUndefined();
  });
});

(HAVE_CRDS ? describe : describe.skip)("signIn.mode ExternalOIDC against the HyperShift CRDs", () => {
  const out = tempDir("hcp-azure-external-oidc-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it("passes the HostedCluster's schema and CEL rules (authentication included)", async () => {
    synthesize(productionWithExternalOidc(), out);
    const run = await checkManifests(out);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^checked \d+ manifests \(HostedCluster: 1, NodePool: 2\), 0 errors, /m);
    expect(run.stdout).not.toMatch(/\(\d*[1-9]\d* failed\)/);
    expect(run.status).toBe(0);
  });
});
