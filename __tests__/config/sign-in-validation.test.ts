import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { ConfigErrors, LoadedConfig, validateConfig } from "../../config/load";
import { EXAMPLES, hostedClusterSpec, minimalConfig } from "../helpers";

/** hostedCluster.signIn (help/sign-in.md): each rule refuses its bad value with the field path, and good configs pass. */

type RawConfig = Record<string, any>;
const HC = "clusters[0].hostedCluster";

function base(): RawConfig {
  return minimalConfig({
    clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), nodePools: [{ name: "hc1" }] } }],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
  });
}
const hc = (c: RawConfig) => c.clusters[0].hostedCluster;
/** examples/external-dns.yaml's deployment zone and ExternalDNS, with clusters[0] named hc1: the OAuth server is published at oauth-hc1.<zone>. */
function withExternalDns(c: RawConfig): void {
  const example = parse(fs.readFileSync(path.join(EXAMPLES, "external-dns.yaml"), "utf8"));
  Object.assign(c, { prefix: example.prefix, dns: example.dns, externalDns: example.externalDns, managementCluster: example.managementCluster });
}
/** The ExternalDNS zone names derive for hc1 (<prefix>.<dns.parent>). */
function zone(): string {
  const loaded = validate(withExternalDns);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded.names.clusters[0].hosted?.externalDnsDomain as string;
}

function validate(mutate: (c: RawConfig) => void): LoadedConfig | ConfigErrors {
  const config = base();
  mutate(config);
  return validateConfig(config, EXAMPLES);
}

function issuesOf(result: LoadedConfig | ConfigErrors): Array<{ path: string; message: string; value?: unknown }> {
  return result.ok ? [] : result.issues.map((i) => ({ path: i.path, message: i.message, value: i.value }));
}

describe("hostedCluster.signIn rules", () => {
  it.each([
    {
      name: "signIn without a provider",
      mutate: (c: RawConfig) => (hc(c).signIn = { oauthHost: "oauth.example.com" }),
      path: `${HC}.signIn`,
      message: /neither entra nor breakGlass/,
    },
    {
      name: "the same name for both providers",
      mutate: (c: RawConfig) => (hc(c).signIn = { oauthHost: "oauth.example.com", entra: { name: "corp" }, breakGlass: { name: "corp" } }),
      path: `${HC}.signIn.breakGlass.name`,
      message: /also signIn.entra.name/,
    },
    {
      name: "Entra without externalDns and without oauthHost",
      mutate: (c: RawConfig) => (hc(c).signIn = { entra: {} }),
      path: `${HC}.signIn.oauthHost`,
      message: /required without externalDns.*oauth-clusters-hc1\.<apps domain>/,
    },
    {
      name: "Entra through an OAuth load balancer without externalDns and without oauthHost",
      mutate: (c: RawConfig) => Object.assign(hc(c), { oauthPublishing: "LoadBalancer", signIn: { entra: {} } }),
      path: `${HC}.signIn.oauthHost`,
      message: /load balancer's DNS name/,
    },
    {
      name: "oauthHost other than the published host",
      mutate: (c: RawConfig) => {
        withExternalDns(c);
        hc(c).signIn = { oauthHost: "oauth.example.com", entra: {} };
      },
      path: `${HC}.signIn.oauthHost`,
      message: /differs from oauth-hc1\.[a-z.]+example\.com, where the HostedCluster publishes/,
    },
    {
      name: "an identity provider name with a slash",
      mutate: (c: RawConfig) => (hc(c).signIn = { oauthHost: "oauth.example.com", entra: { name: "a/b" } }),
      path: `${HC}.signIn.entra.name`,
      message: /URL path segment/,
    },
    {
      name: "an unknown mode",
      mutate: (c: RawConfig) => (hc(c).signIn = { mode: "OIDC", breakGlass: {} }),
      path: `${HC}.signIn.mode`,
      message: /OAuth/,
    },
    {
      name: "an unknown mappingMethod",
      mutate: (c: RawConfig) => (hc(c).signIn = { oauthHost: "oauth.example.com", entra: { mappingMethod: "email" } }),
      path: `${HC}.signIn.entra.mappingMethod`,
      message: /claim/,
    },
  ])("refuses $name", ({ mutate, path, message }) => {
    const issues = issuesOf(validate(mutate));
    expect(issues).toContainEqual(expect.objectContaining({ path, message: expect.stringMatching(message) }));
  });

  it.each([
    { name: "break-glass only, without oauthHost", mutate: (c: RawConfig) => (hc(c).signIn = { breakGlass: {} }) },
    { name: "Entra with oauthHost", mutate: (c: RawConfig) => (hc(c).signIn = { oauthHost: "oauth-clusters-hc1.apps.mgmt.example.com", entra: {} }) },
    {
      name: "Entra with externalDns and no oauthHost",
      mutate: (c: RawConfig) => {
        withExternalDns(c);
        hc(c).signIn = { entra: {}, breakGlass: {} };
      },
    },
    {
      name: "Entra with externalDns and oauthHost repeating the published host",
      mutate: (c: RawConfig) => {
        withExternalDns(c);
        hc(c).signIn = { oauthHost: `oauth-hc1.${zone()}`, entra: {} };
      },
    },
  ])("accepts $name", ({ mutate }) => {
    expect(issuesOf(validate(mutate))).toEqual([]);
  });

  it("never echoes a value it was not given", () => {
    const issues = issuesOf(validate((c) => (hc(c).signIn = { entra: {} })));
    expect(issues).toHaveLength(1);
    expect(issues[0].value).toBeUndefined();
  });
});
