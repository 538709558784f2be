import * as fs from "node:fs";
import * as path from "node:path";
import { App } from "cdktf";
import { parse } from "yaml";
import { LoadedConfig } from "../../config/load";
import { publishedHost } from "../../config/names/sign-in";
import { entraIssuer, oauthCallbackUrl, signInConfiguration } from "../../constructs/hosted-cluster/sign-in";
import { addStacks } from "../../stacks/app";
import { checkManifests, EXAMPLES, HAVE_CRDS, loadExample, loadInline, resources, synthStacks, tempDir } from "../helpers";

/**
 * hostedCluster.signIn (help/sign-in.md): the HostedCluster's identity providers, the Entra
 * application whose redirect URI is the OAuth callback the HostedCluster publishes, and Secrets
 * that keep the client secret and the break-glass password out of cdktf.out.
 */

/** examples/external-dns.yaml with signIn on its first cluster (externalDns on: the OAuth host is named). */
function externalDnsWithSignIn(oauthPublishing: "Route" | "LoadBalancer"): LoadedConfig {
  const raw = parse(fs.readFileSync(path.join(EXAMPLES, "external-dns.yaml"), "utf8"));
  Object.assign(raw.clusters[0].hostedCluster, { oauthPublishing, signIn: { entra: { name: "corp-entra", groupMembershipClaims: "SecurityGroup" } } });
  return loadInline(raw);
}

function hostedCluster(stack: any): any {
  return resources(stack, "kubernetes_manifest")
    .map((r) => r.manifest)
    .find((m) => m.kind === "HostedCluster");
}

/** The host the HostedCluster publishes its OAuth server at (Route or LoadBalancer hostname). */
function publishedOAuthHost(manifest: any): string | undefined {
  const oauth = manifest.spec.services.find((s: any) => s.service === "OAuthServer").servicePublishingStrategy;
  return oauth.route?.hostname ?? oauth.loadBalancer?.hostname;
}

/** Every file under `dir` with its text, by relative path. */
function textFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[path.relative(dir, path.join(entry.parentPath, entry.name))] = fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8");
  }
  return files;
}

describe("signInConfiguration", () => {
  it("writes nothing without providers (as the CLI)", () => {
    expect(signInConfiguration(undefined)).toEqual({});
    expect(signInConfiguration({})).toEqual({});
  });

  it("writes an OpenID provider for Entra and an htpasswd one for break-glass, in that order", () => {
    const configuration = signInConfiguration({
      entra: {
        name: "entra",
        issuer: entraIssuer("https://login.microsoftonline.us/", "t"),
        clientId: "c",
        clientSecretName: "s",
        mappingMethod: "lookup",
        claims: { preferredUsername: ["upn"], email: ["email"], name: ["name"] },
      },
      breakGlass: { name: "bg", secretName: "h" },
    });
    expect(configuration).toEqual({
      oauth: {
        identityProviders: [
          {
            name: "entra",
            type: "OpenID",
            mappingMethod: "lookup",
            openID: {
              issuer: "https://login.microsoftonline.us/t/v2.0",
              clientID: "c",
              clientSecret: { name: "s" },
              extraScopes: ["email", "profile"],
              claims: { preferredUsername: ["upn"], email: ["email"], name: ["name"] },
            },
          },
          { name: "bg", type: "HTPasswd", mappingMethod: "claim", htpasswd: { fileData: { name: "h" } } },
        ],
      },
    });
  });
});

describe.each(["Route", "LoadBalancer"] as const)("Entra sign-in with externalDns, OAuth published as %s", (oauthPublishing) => {
  const loaded = externalDnsWithSignIn(oauthPublishing);
  const cluster = loaded.names.clusters[0];
  const stack = synthStacks(loaded)[cluster.hosted?.clusterStack as string];
  const manifest = hostedCluster(stack);

  it("registers the OAuth callback the HostedCluster publishes as the application's only redirect URI", () => {
    const host = publishedOAuthHost(manifest);
    expect(host).toBe(publishedHost("oauth", cluster.name, cluster.hosted?.externalDnsDomain as string));
    const [application] = resources(stack, "azuread_application");
    expect(application.web.redirect_uris).toEqual([`https://${host}/oauth2callback/corp-entra`]);
    expect(application.web.redirect_uris).toEqual([oauthCallbackUrl(host as string, manifest.spec.configuration.oauth.identityProviders[0].name)]);
    expect(stack.output.sign_in_redirect_uri.value).toBe(application.web.redirect_uris[0]);
  });

  it("points the identity provider at the tenant's v2.0 issuer, the application and its Secret, with the groups claim", () => {
    const [provider] = manifest.spec.configuration.oauth.identityProviders;
    expect(provider.openID).toMatchObject({
      issuer: `https://login.microsoftonline.com/${loaded.config.tenantId}/v2.0`,
      clientID: expect.stringMatching(/^\$\{azuread_application\.\w+\.client_id\}$/),
      clientSecret: { name: `${cluster.name}-entra-client-secret` },
      claims: { groups: ["groups"] },
    });
    const secret = resources(stack, "kubernetes_secret_v1").find((s) => s.metadata.name === `${cluster.name}-entra-client-secret`);
    expect(secret.metadata.namespace).toBe(manifest.metadata.namespace);
    expect(Object.keys(secret.data_wo)).toEqual(["clientSecret"]);
    expect(resources(stack, "azuread_application")[0].group_membership_claims).toEqual(["SecurityGroup"]);
  });
});

describe("examples/production.yaml (oauthHost given, Entra and break-glass)", () => {
  const loaded = loadExample("production.yaml");
  const cluster = loaded.names.clusters[0];
  const name = cluster.hosted?.clusterStack as string;
  const out = tempDir("hcp-azure-sign-in-");
  const app = new App({ outdir: out, skipValidation: true });
  addStacks(app, loaded, out);
  app.synth();
  const files = textFiles(out);
  const stack = JSON.parse(files[`stacks/${name}/cdk.tf.json`]);

  it("uses signIn.oauthHost for the redirect URI", () => {
    expect(resources(stack, "azuread_application")[0].web.redirect_uris).toEqual([`https://${cluster.hosted?.config.signIn?.oauthHost}/oauth2callback/entra`]);
  });

  it("keeps the client secret and the break-glass password out of cdktf.out: write-only Secrets and a sensitive output", () => {
    const secretReference = /\bazuread_application_password\.\w+\.value\b|\brandom_password\.\w+\.(result|bcrypt_hash)\b/;
    const secrets = resources(stack, "kubernetes_secret_v1").filter((s) => /entra-client-secret|break-glass-htpasswd/.test(s.metadata.name));
    expect(secrets).toHaveLength(2);
    for (const secret of secrets) {
      expect(secret.data).toBeUndefined();
      for (const value of Object.values<string>(secret.data_wo)) expect(value).toMatch(/^\$\{.*\}$/s);
      expect(JSON.stringify(secret.data_wo)).toMatch(secretReference);
    }
    // Anywhere else in cdktf.out the values may only reach a sensitive output.
    const places: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (typeof value === "string" && secretReference.test(value)) places.push(at);
      else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, `${at}.${k}`);
    };
    for (const [file, text] of Object.entries(files)) if (file.endsWith(".json")) walk(JSON.parse(text), file);
    const allowed = places.filter((p) => /\.data_wo(_revision)?(\.|$)/.test(p) || /\.output\.break_glass_password\.value$/.test(p));
    expect(places.filter((p) => !allowed.includes(p))).toEqual([]);
    expect(stack.output.break_glass_password.sensitive).toBe(true);
    expect(stack.terraform.required_version).toBe(">= 1.11");
  });

  (HAVE_CRDS ? it : it.skip)("passes the real CRDs (schema and CEL)", async () => {
    const result = await checkManifests(out);
    expect(result.stdout).toMatch(/HostedCluster: 1, .* 0 errors, /);
    expect(result.status).toBe(0);
  });
});
