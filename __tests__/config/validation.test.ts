import { generateKeyPairSync } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { ConfigErrors, formatIssues, loadConfigFile, validateConfig } from "../../config/load";
import { environmentWarnings } from "../../config/rules";
import { EXAMPLES, rsaKeyPair, tempDir } from "../helpers";

/**
 * Bad-input suite for the config validation (schema.ts, rules.ts, signing-key.ts via load.ts):
 * every invalid config must fail, and the issue must name the offending field path (and show the
 * value when one was given), so a user can find the mistake in the YAML file.
 */

// The config is mutated into invalid shapes on purpose: a loose type is the honest one here.
type RawConfig = Record<string, any>;

/** A fresh valid config, the same as examples/basic.yaml parsed (a test checks that). */
function base(): RawConfig {
  return {
    prefix: "myprefix",
    subscriptionId: "00000000-0000-0000-0000-000000000000",
    tenantId: "11111111-1111-1111-1111-111111111111",
    location: "eastus",
    tags: { environment: "dev", owner: "platform-team" },
    resourceGroup: { name: "os4-common", create: false },
    oidc: { issuer: "shared" },
    serviceAccountSigningKey: { publicKeyFile: "keys/example-signer.public" },
    clusters: [
      {
        name: "myprefix-hc",
        hostedCluster: {
          releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64",
          baseDomain: "example.com",
          publicZone: { resourceGroupName: "myparent-dns-rg" },
          pullSecretFile: "pull-secret.json",
          nodePools: [{ name: "myprefix-hc", replicas: 2 }],
        },
      },
    ],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
    secrets: { source: "variables" },
  };
}

/** The first cluster's hostedCluster section (mutable). */
const hc = (c: RawConfig) => c.clusters[0].hostedCluster;
const HC = "clusters[0].hostedCluster";
const SUB = "00000000-0000-0000-0000-000000000000";

/** Adds the public zone, ExternalDNS and the external-dns bundle (valid), with externalDns overrides. */
function withExternalDns(c: RawConfig, externalDns: RawConfig = {}): RawConfig {
  c.dns = { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } };
  c.externalDns = externalDns;
  c.managementCluster.operator.bundleFile = "operator/hypershift-operator-external-dns.yaml";
  return c;
}

/** Turns a config into oidc.issuer: perCluster with two clusters and distinct keys (valid). */
function perCluster(c: RawConfig): RawConfig {
  c.oidc = { issuer: "perCluster" };
  delete c.serviceAccountSigningKey;
  c.clusters = [
    { name: "team-a", serviceAccountSigningKey: { publicKeyFile: "keys/cluster-a-signer.public" } },
    { name: "team-b", serviceAccountSigningKey: { publicKeyFile: "keys/cluster-b-signer.public" } },
  ];
  return c;
}

/** How load.ts shows a key file path in an issue value. */
const shown = (absoluteFile: string) => path.relative(process.cwd(), absoluteFile) || absoluteFile;

// Key files written once per test file into a temp folder (2048-bit except the too-small one).
const tmp = tempDir("hcp-azure-validation-");
const keys = (() => {
  const rsa = rsaKeyPair(2048);
  const small = rsaKeyPair(1024);
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const privatePem = rsa.privateKey;
  const files = {
    privateKey: path.join(tmp, "signer-private-by-mistake.public"),
    ecKey: path.join(tmp, "ec-signer.public"),
    smallRsa: path.join(tmp, "rsa1024-signer.public"),
    notPem: path.join(tmp, "garbage.public"),
    missing: path.join(tmp, "does-not-exist.public"),
    goodRsa: path.join(tmp, "good-signer.public"),
  };
  fs.writeFileSync(files.privateKey, privatePem);
  fs.writeFileSync(files.goodRsa, rsa.publicKey);
  fs.writeFileSync(files.ecKey, ec.publicKey.export({ type: "spki", format: "pem" }));
  fs.writeFileSync(files.smallRsa, small.publicKey);
  fs.writeFileSync(files.notPem, "ssh-rsa AAAAB3NzaC1yc2E this is not a PEM key\n");
  return { ...files, privatePem };
})();

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function expectInvalid(input: unknown): ConfigErrors {
  const result = validateConfig(input, EXAMPLES);
  if (result.ok) throw new Error("expected the config to be invalid, but it validated");
  return result;
}

interface BadCase {
  name: string;
  mutate: (c: RawConfig) => void;
  path: string;
  value?: unknown;
  message?: RegExp;
}

const longName = (n: number, ch = "a") => ch.repeat(n);
const prefix110 = `p${"x".repeat(109)}`;

const cases: BadCase[] = [
  // prefix
  { name: "prefix with uppercase", mutate: (c) => (c.prefix = "MyPrefix"), path: "prefix", value: "MyPrefix", message: /lowercase/ },
  { name: "prefix longer than 20", mutate: (c) => (c.prefix = longName(21)), path: "prefix", value: longName(21), message: /1-20/ },
  { name: "prefix ending with '-'", mutate: (c) => (c.prefix = "myprefix-"), path: "prefix", value: "myprefix-", message: /not ending with '-'/ },
  { name: "prefix empty", mutate: (c) => (c.prefix = ""), path: "prefix", value: "" },
  { name: "prefix starting with a digit", mutate: (c) => (c.prefix = "1prefix"), path: "prefix", value: "1prefix", message: /starting with a letter/ },
  { name: "prefix missing", mutate: (c) => delete c.prefix, path: "prefix", message: /is required/ },

  // IDs and location
  {
    name: "subscriptionId not a UUID",
    mutate: (c) => (c.subscriptionId = "my-subscription"),
    path: "subscriptionId",
    value: "my-subscription",
    message: /UUID/,
  },
  {
    name: "tenantId one digit short",
    mutate: (c) => (c.tenantId = "11111111-1111-1111-1111-11111111111"),
    path: "tenantId",
    value: "11111111-1111-1111-1111-11111111111",
    message: /UUID.*tenant/,
  },
  { name: "location with spaces (display name)", mutate: (c) => (c.location = "East US"), path: "location", value: "East US", message: /without spaces/ },
  { name: "location with uppercase", mutate: (c) => (c.location = "EastUS"), path: "location", value: "EastUS", message: /lowercase/ },
  {
    name: "location without federated identity credentials (malaysiasouth)",
    mutate: (c) => (c.location = "malaysiasouth"),
    path: "location",
    value: "malaysiasouth",
    message: /federated identity credentials/,
  },
  {
    name: "location without federated identity credentials (newzealandnorth)",
    mutate: (c) => (c.location = "newzealandnorth"),
    path: "location",
    value: "newzealandnorth",
    message: /405/,
  },

  // tags
  { name: "tag name with '/'", mutate: (c) => (c.tags["team/owner"] = "x"), path: 'tags["team/owner"]', value: "team/owner", message: /tag name/ },
  {
    name: "tag value longer than 256",
    mutate: (c) => (c.tags.owner = longName(257, "v")),
    path: "tags.owner",
    value: longName(257, "v"),
    message: /at most 256/,
  },
  {
    name: "more than 50 tags",
    mutate: (c) => (c.tags = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`tag${i}`, "x"]))),
    path: "tags",
    message: /51 tags.*at most 50/,
  },
  {
    name: "tag value that YAML reads as a number",
    mutate: (c) => (c.tags["cost-center"] = 4711),
    path: 'tags["cost-center"]',
    value: 4711,
    message: /must be a string, got number/,
  },

  // resourceGroup
  {
    name: "resourceGroup.name ending with '.'",
    mutate: (c) => (c.resourceGroup.name = "os4-common."),
    path: "resourceGroup.name",
    value: "os4-common.",
    message: /must not end with '.'/,
  },
  {
    name: "resourceGroup.name longer than 90",
    mutate: (c) => (c.resourceGroup.name = longName(91, "r")),
    path: "resourceGroup.name",
    value: longName(91, "r"),
    message: /1-90/,
  },
  {
    name: "resourceGroup.name with an invalid character",
    mutate: (c) => (c.resourceGroup.name = "os4/common"),
    path: "resourceGroup.name",
    value: "os4/common",
  },
  {
    name: "resourceGroup.create false without a name",
    mutate: (c) => delete c.resourceGroup.name,
    path: "resourceGroup.name",
    message: /required with resourceGroup.create: false/,
  },
  {
    name: "resourceGroup.create as a string",
    mutate: (c) => (c.resourceGroup.create = "false"),
    path: "resourceGroup.create",
    value: "false",
    message: /must be a boolean, got string/,
  },

  // unknown keys
  {
    name: "unknown top-level key (typo clustres)",
    mutate: (c) => {
      c.clustres = c.clusters;
      delete c.clusters;
    },
    path: "clustres",
    message: /unknown key/,
  },
  { name: "unknown key in oidc", mutate: (c) => (c.oidc.isuer = "shared"), path: "oidc.isuer", message: /unknown key/ },
  {
    name: "unknown key in clusters[].identities",
    mutate: (c) => (c.clusters[0].identities = { kmss: true }),
    path: "clusters[0].identities.kmss",
    message: /unknown key/,
  },

  // clusters
  { name: "clusters empty", mutate: (c) => (c.clusters = []), path: "clusters", value: [], message: /at least one/ },
  {
    name: "cluster name with uppercase and '_'",
    mutate: (c) => (c.clusters[0].name = "My_Cluster"),
    path: "clusters[0].name",
    value: "My_Cluster",
    message: /1-40 lowercase/,
  },
  {
    name: "cluster name longer than 40",
    mutate: (c) => (c.clusters[0].name = longName(41, "c")),
    path: "clusters[0].name",
    value: longName(41, "c"),
    message: /1-40/,
  },
  { name: "cluster name starting with '-'", mutate: (c) => (c.clusters[0].name = "-hc"), path: "clusters[0].name", value: "-hc" },
  { name: "cluster without a name", mutate: (c) => (c.clusters[0] = {}), path: "clusters[0].name", message: /is required/ },
  {
    name: "duplicate cluster names",
    mutate: (c) => c.clusters.push({ name: "myprefix-hc" }),
    path: "clusters[1].name",
    value: "myprefix-hc",
    message: /another cluster has this name/,
  },

  // identities
  {
    name: "identities.namePrefix starting with '-'",
    mutate: (c) => (c.clusters[0].identities = { namePrefix: "-hc" }),
    path: "clusters[0].identities.namePrefix",
    value: "-hc",
  },
  {
    name: "identities.namePrefix with '.'",
    mutate: (c) => (c.clusters[0].identities = { namePrefix: "my.hc" }),
    path: "clusters[0].identities.namePrefix",
    value: "my.hc",
    message: /managed identity/,
  },
  {
    name: "identities.namePrefix so long that a federated credential name exceeds 120",
    mutate: (c) => (c.clusters[0].identities = { namePrefix: prefix110 }),
    path: "clusters[0].identities.namePrefix",
    value: `${prefix110}-image-registry-fed-id-registry`,
    message: /federated credential name.*3-120/,
  },
  {
    name: "two clusters whose identity names collide via namePrefix",
    mutate: (c) =>
      (c.clusters = [
        { name: "hc-one", identities: { namePrefix: "shared-ids" } },
        { name: "hc-two", identities: { namePrefix: "shared-ids" } },
      ]),
    path: "clusters[1].identities.namePrefix",
    value: "shared-ids-image-registry",
    message: /another cluster also uses/,
  },
  {
    name: "namePrefix equal to another cluster's name (identity names collide)",
    mutate: (c) => c.clusters.push({ name: "other-hc", identities: { namePrefix: "MYPREFIX-HC" } }),
    path: "clusters[1].identities.namePrefix",
    value: "MYPREFIX-HC-image-registry",
    message: /another cluster also uses/,
  },
  {
    name: "identities.kms as a string",
    mutate: (c) => (c.clusters[0].identities = { kms: "yes" }),
    path: "clusters[0].identities.kms",
    value: "yes",
    message: /must be a boolean, got string/,
  },

  // oidc
  {
    name: "oidc.issuer not in the enum",
    mutate: (c) => (c.oidc.issuer = "dedicated"),
    path: "oidc.issuer",
    value: "dedicated",
    message: /one of shared, perCluster/,
  },
  {
    name: "oidc.storageAccountName with uppercase",
    mutate: (c) => (c.oidc.storageAccountName = "MyOidcAccount"),
    path: "oidc.storageAccountName",
    value: "MyOidcAccount",
    message: /a-z0-9/,
  },
  {
    name: "oidc.storageAccountName too short",
    mutate: (c) => (c.oidc.storageAccountName = "ab"),
    path: "oidc.storageAccountName",
    value: "ab",
    message: /3,24/,
  },
  {
    name: "oidc.storageAccountName longer than 24",
    mutate: (c) => (c.oidc.storageAccountName = longName(25, "s")),
    path: "oidc.storageAccountName",
    value: longName(25, "s"),
  },
  {
    name: "oidc.containerName with '--'",
    mutate: (c) => (c.oidc.containerName = "my--issuer"),
    path: "oidc.containerName",
    value: "my--issuer",
    message: /single '-'/,
  },
  {
    name: "oidc.containerName with uppercase",
    mutate: (c) => (c.oidc.containerName = "MyIssuer"),
    path: "oidc.containerName",
    value: "MyIssuer",
    message: /blob container/,
  },
  {
    name: "oidc.containerName with a perCluster issuer",
    mutate: (c) => {
      perCluster(c);
      c.oidc.containerName = "issuer";
    },
    path: "oidc.containerName",
    value: "issuer",
    message: /only allowed with oidc.issuer: shared/,
  },

  // signing keys vs. issuer mode
  {
    name: "perCluster issuer, a cluster without its own key",
    mutate: (c) => {
      perCluster(c);
      delete c.clusters[1].serviceAccountSigningKey;
    },
    path: "clusters[1].serviceAccountSigningKey",
    message: /required with oidc.issuer: perCluster/,
  },
  {
    name: "perCluster issuer with a top-level key",
    mutate: (c) => {
      perCluster(c);
      c.serviceAccountSigningKey = { publicKeyFile: "keys/example-signer.public" };
    },
    path: "serviceAccountSigningKey",
    message: /not allowed with oidc.issuer: perCluster/,
  },
  {
    name: "shared issuer with a per-cluster key",
    mutate: (c) => (c.clusters[0].serviceAccountSigningKey = { publicKeyFile: "keys/cluster-a-signer.public" }),
    path: "clusters[0].serviceAccountSigningKey",
    message: /only allowed with oidc.issuer: perCluster/,
  },
  {
    name: "shared issuer without serviceAccountSigningKey",
    mutate: (c) => delete c.serviceAccountSigningKey,
    path: "serviceAccountSigningKey",
    message: /required with oidc.issuer: shared/,
  },
  {
    name: "perCluster cluster name of 2 characters (container must be 3-63)",
    mutate: (c) => {
      perCluster(c);
      c.clusters[0].name = "ab";
    },
    path: "clusters[0].name",
    value: "ab",
    message: /OIDC issuer container name.*3-63/,
  },
  {
    name: "perCluster cluster name with '--' (valid cluster name, invalid container)",
    mutate: (c) => {
      perCluster(c);
      c.clusters[1].name = "team--b";
    },
    path: "clusters[1].name",
    value: "team--b",
    message: /blob container/,
  },
  {
    name: "two perCluster clusters with the same public key file",
    mutate: (c) => {
      perCluster(c);
      c.clusters[1].serviceAccountSigningKey.publicKeyFile = "keys/cluster-a-signer.public";
    },
    path: "clusters[1].serviceAccountSigningKey.publicKeyFile",
    value: shown(path.join(EXAMPLES, "keys/cluster-a-signer.public")),
    message: /same key as clusters\[0\]\.serviceAccountSigningKey\.publicKeyFile/,
  },

  // key files
  {
    name: "publicKeyFile does not exist",
    mutate: (c) => (c.serviceAccountSigningKey.publicKeyFile = keys.missing),
    path: "serviceAccountSigningKey.publicKeyFile",
    value: shown(keys.missing),
    message: /file not found/,
  },
  {
    name: "publicKeyFile relative path that does not exist",
    mutate: (c) => (c.serviceAccountSigningKey.publicKeyFile = "keys/nope.public"),
    path: "serviceAccountSigningKey.publicKeyFile",
    value: shown(path.join(EXAMPLES, "keys/nope.public")),
    message: /file not found/,
  },
  {
    name: "publicKeyFile empty",
    mutate: (c) => (c.serviceAccountSigningKey.publicKeyFile = ""),
    path: "serviceAccountSigningKey.publicKeyFile",
    value: "",
    message: /must be a path/,
  },
  {
    name: "publicKeyFile holding a PRIVATE key",
    mutate: (c) => (c.serviceAccountSigningKey.publicKeyFile = keys.privateKey),
    path: "serviceAccountSigningKey.publicKeyFile",
    value: shown(keys.privateKey),
    message: /PRIVATE/,
  },
  {
    name: "publicKeyFile holding an EC key",
    mutate: (c) => (c.serviceAccountSigningKey.publicKeyFile = keys.ecKey),
    path: "serviceAccountSigningKey.publicKeyFile",
    value: shown(keys.ecKey),
    message: /not a PEM RSA public key.*\bec\b/,
  },
  {
    name: "publicKeyFile holding a 1024-bit RSA key",
    mutate: (c) => (c.serviceAccountSigningKey.publicKeyFile = keys.smallRsa),
    path: "serviceAccountSigningKey.publicKeyFile",
    value: shown(keys.smallRsa),
    message: /1024-bit.*at least 2048/,
  },
  {
    name: "publicKeyFile that is not PEM",
    mutate: (c) => (c.serviceAccountSigningKey.publicKeyFile = keys.notPem),
    path: "serviceAccountSigningKey.publicKeyFile",
    value: shown(keys.notPem),
    message: /not a PEM RSA public key/,
  },
  {
    name: "perCluster key file missing (path names the cluster)",
    mutate: (c) => {
      perCluster(c);
      c.clusters[1].serviceAccountSigningKey.publicKeyFile = keys.missing;
    },
    path: "clusters[1].serviceAccountSigningKey.publicKeyFile",
    value: shown(keys.missing),
    message: /file not found/,
  },

  // backend
  {
    name: "backend type unknown",
    mutate: (c) => (c.backend = { type: "s3", bucket: "state" }),
    path: "backend.type",
    value: "s3",
    message: /one of local, azurerm, cloud/,
  },
  {
    name: "backend azurerm without storageAccountName",
    mutate: (c) => (c.backend = { type: "azurerm", resourceGroupName: "tfstate-rg", containerName: "tfstate" }),
    path: "backend.storageAccountName",
    message: /is required/,
  },
  {
    name: "backend azurerm with an invalid containerName",
    mutate: (c) => (c.backend = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "TFState" }),
    path: "backend.containerName",
    value: "TFState",
    message: /blob container/,
  },
  { name: "backend cloud without organization", mutate: (c) => (c.backend = { type: "cloud" }), path: "backend.organization", message: /is required/ },
  {
    name: "backend cloud with an invalid workspacePrefix",
    mutate: (c) => (c.backend = { type: "cloud", organization: "acme", workspacePrefix: "my prefix" }),
    path: "backend.workspacePrefix",
    value: "my prefix",
  },
  { name: "backend local with an unknown key", mutate: (c) => (c.backend = { type: "local", dir: "state" }), path: "backend.dir", message: /unknown key/ },

  // dns (Phase 1 step 5)
  { name: "dns without zoneName or parent", mutate: (c) => (c.dns = {}), path: "dns.zoneName", message: /required without dns.parent/ },
  {
    name: "dns zone name with uppercase",
    mutate: (c) => (c.dns = { zoneName: "HCP.example.com" }),
    path: "dns.zoneName",
    value: "HCP.example.com",
    message: /lowercase/,
  },
  {
    name: "dns zone name with a trailing dot",
    mutate: (c) => (c.dns = { zoneName: "hcp.example.com." }),
    path: "dns.zoneName",
    value: "hcp.example.com.",
    message: /without a trailing dot/,
  },
  {
    name: "dns zone name with one label",
    mutate: (c) => (c.dns = { zoneName: "internal" }),
    path: "dns.zoneName",
    value: "internal",
    message: /2-34 dot-separated labels/,
  },
  { name: "dns zone name with 35 labels", mutate: (c) => (c.dns = { zoneName: Array(35).fill("a").join(".") }), path: "dns.zoneName", message: /2-34/ },
  { name: "dns zone label longer than 63", mutate: (c) => (c.dns = { zoneName: `${longName(64)}.example.com` }), path: "dns.zoneName", message: /1-63/ },
  {
    name: "dns parent that is not a suffix of the zone",
    mutate: (c) => (c.dns = { zoneName: "hcp.example.org", parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } }),
    path: "dns.parent.zoneName",
    value: "example.com",
    message: /proper suffix of the zone "hcp.example.org"/,
  },
  {
    name: "dns parent equal to the zone",
    mutate: (c) => (c.dns = { zoneName: "example.com", parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } }),
    path: "dns.parent.zoneName",
    message: /proper suffix/,
  },
  {
    name: "dns parent that only ends like the zone (notexample.com)",
    mutate: (c) => (c.dns = { zoneName: "hcp.notexample.com", parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } }),
    path: "dns.parent.zoneName",
    message: /proper suffix/,
  },
  {
    name: "derived zone <prefix>.<parent> longer than 253 characters",
    mutate: (c) => (c.dns = { parent: { zoneName: Array(4).fill(longName(61)).join("."), resourceGroupName: "dns-rg" } }),
    path: "prefix",
    message: /gives the DNS zone name "myprefix\.a+.*at most 253 characters/,
  },
  {
    name: "dns parent ttl 0",
    mutate: (c) => (c.dns = { parent: { zoneName: "example.com", resourceGroupName: "dns-rg", ttl: 0 } }),
    path: "dns.parent.ttl",
    value: 0,
    message: /at least 1 second/,
  },
  {
    name: "dns parent ttl fractional",
    mutate: (c) => (c.dns = { parent: { zoneName: "example.com", resourceGroupName: "dns-rg", ttl: 1.5 } }),
    path: "dns.parent.ttl",
    value: 1.5,
    message: /whole number/,
  },
  {
    name: "dns parent ttl as a string",
    mutate: (c) => (c.dns = { parent: { zoneName: "example.com", resourceGroupName: "dns-rg", ttl: "1h" } }),
    path: "dns.parent.ttl",
    value: "1h",
    message: /must be a number, got string/,
  },
  {
    name: "dns parent without resource group",
    mutate: (c) => (c.dns = { parent: { zoneName: "example.com" } }),
    path: "dns.parent.resourceGroupName",
    message: /is required/,
  },
  {
    name: "dns parent subscription not a UUID",
    mutate: (c) => (c.dns = { parent: { zoneName: "example.com", resourceGroupName: "dns-rg", subscriptionId: "dns-sub" } }),
    path: "dns.parent.subscriptionId",
    value: "dns-sub",
    message: /UUID/,
  },
  { name: "dns with an unknown key", mutate: (c) => (c.dns = { zone: "hcp.example.com" }), path: "dns.zone", message: /unknown key/ },

  // externalDns (Phase 1 step 6)
  { name: "externalDns without dns", mutate: (c) => (c.externalDns = {}), path: "externalDns", message: /needs dns/ },
  {
    name: "externalDns roles unknown",
    mutate: (c) => withExternalDns(c, { roles: "owner" }),
    path: "externalDns.roles",
    value: "owner",
    message: /one of leastPrivilege, seed/,
  },
  {
    name: "externalDns password with endDate and validFor",
    mutate: (c) => withExternalDns(c, { password: { endDate: "2099-01-01T00:00:00Z", validFor: "24h" } }),
    path: "externalDns.password.validFor",
    message: /not allowed together with externalDns.password.endDate/,
  },
  {
    name: "externalDns password endDate without a time zone",
    mutate: (c) => withExternalDns(c, { password: { endDate: "2099-01-01" } }),
    path: "externalDns.password.endDate",
    value: "2099-01-01",
    message: /RFC 3339/,
  },
  {
    name: "externalDns password validFor in years",
    mutate: (c) => withExternalDns(c, { password: { validFor: "1y" } }),
    path: "externalDns.password.validFor",
    value: "1y",
    message: /hours/,
  },
  {
    name: "externalDns application name over 120",
    mutate: (c) => withExternalDns(c, { applicationName: longName(121) }),
    path: "externalDns.applicationName",
    message: /at most 120/,
  },

  // managementCluster (Phase 2)
  { name: "managementCluster without operator", mutate: (c) => (c.managementCluster = {}), path: "managementCluster.operator", message: /is required/ },
  // rolloutTimeout: HypershiftOperator no longer repeats this rule
  ...["10", "10 minutes", "0m", "1d", "-5m", ""].map((timeout) => ({
    name: `operator rolloutTimeout ${JSON.stringify(timeout)}`,
    mutate: (c: RawConfig) => (c.managementCluster.operator.rolloutTimeout = timeout),
    path: "managementCluster.operator.rolloutTimeout",
    value: timeout,
    message: /duration such as 10m/,
  })),
  {
    name: "operator bundle that does not exist",
    mutate: (c) => (c.managementCluster.operator.bundleFile = "operator/missing.yaml"),
    path: "managementCluster.operator.bundleFile",
    message: /cannot read the operator bundle: file not found; render it with `hypershift install render/,
  },
  {
    name: "operator bundle that is not a bundle (the config itself)",
    mutate: (c) => (c.managementCluster.operator.bundleFile = "basic.yaml"),
    path: "managementCluster.operator.bundleFile",
    message: /not a Kubernetes object: missing apiVersion, kind, metadata.name/,
  },
  {
    name: "omitKinds with a lowercase kind",
    mutate: (c) => (c.managementCluster.operator.omitKinds = ["servicemonitor"]),
    path: "managementCluster.operator.omitKinds[0]",
    value: "servicemonitor",
    message: /Kubernetes kind/,
  },
  {
    name: "rolloutTimeout in words",
    mutate: (c) => (c.managementCluster.operator.rolloutTimeout = "ten minutes"),
    path: "managementCluster.operator.rolloutTimeout",
    value: "ten minutes",
    message: /duration/,
  },
  {
    name: "kubeconfig without path",
    mutate: (c) => (c.managementCluster.kubeconfig = { context: "admin" }),
    path: "managementCluster.kubeconfig.path",
    message: /is required/,
  },
  {
    name: "bundle with external-dns but no externalDns configured",
    mutate: (c) => (c.managementCluster.operator.bundleFile = "operator/hypershift-operator-external-dns.yaml"),
    path: "managementCluster.operator.bundleFile",
    message: /renders external-dns, but nothing provides its Azure credentials/,
  },
  {
    name: "externalDns configured but the bundle has no external-dns",
    mutate: (c) => {
      withExternalDns(c);
      c.managementCluster.operator.bundleFile = "operator/hypershift-operator.yaml";
    },
    path: "managementCluster.operator.bundleFile",
    message: /has no external-dns Deployment.*--external-dns-domain-filter myprefix\.example\.com/,
  },
  {
    name: "bundle domain filter differs from the delegated zone",
    mutate: (c) => {
      withExternalDns(c);
      c.dns.zoneName = "hcp.example.com";
    },
    path: "managementCluster.operator.bundleFile",
    value: "myprefix.example.com",
    message: /^is the domain filter the bundle gives external-dns; it must be exactly the delegated zone hcp\.example\.com \(dns\.zoneName\)/,
  },

  // hostedCluster (Phase 3)
  { name: "hostedCluster without releaseImage", mutate: (c) => delete hc(c).releaseImage, path: `${HC}.releaseImage`, message: /is required/ },
  {
    name: "releaseImage without tag or digest",
    mutate: (c) => (hc(c).releaseImage = "quay.io/openshift-release-dev/ocp-release"),
    path: `${HC}.releaseImage`,
    message: /tag or an @sha256 digest/,
  },
  {
    name: "releaseImage with uppercase registry",
    mutate: (c) => (hc(c).releaseImage = "Quay.io/ocp-release:4.21.0"),
    path: `${HC}.releaseImage`,
    message: /image reference/,
  },
  { name: "releaseImage with a short digest", mutate: (c) => (hc(c).releaseImage = "quay.io/ocp/release@sha256:abc"), path: `${HC}.releaseImage` },
  { name: "hostedCluster without pullSecretFile", mutate: (c) => delete hc(c).pullSecretFile, path: `${HC}.pullSecretFile`, message: /is required/ },
  { name: "hostedCluster without managementCluster", mutate: (c) => delete c.managementCluster, path: HC, message: /needs managementCluster/ },
  { name: "baseDomain zone that cannot be located", mutate: (c) => delete hc(c).publicZone, path: `${HC}.publicZone`, message: /Azure DNS zone example.com/ },
  {
    name: "nodePool replicas negative",
    mutate: (c) => (hc(c).nodePools[0].replicas = -1),
    path: `${HC}.nodePools[0].replicas`,
    value: -1,
    message: /0 or more/,
  },
  {
    name: "nodePool vmSize lowercase",
    mutate: (c) => (hc(c).nodePools[0].vmSize = "standard_d4s_v5"),
    path: `${HC}.nodePools[0].vmSize`,
    value: "standard_d4s_v5",
    message: /VM size/,
  },
  {
    name: "nodePool imageGeneration gen2 (case-sensitive)",
    mutate: (c) => (hc(c).nodePools[0].imageGeneration = "gen2"),
    path: `${HC}.nodePools[0].imageGeneration`,
    value: "gen2",
    message: /one of Gen1, Gen2/,
  },
  {
    name: "nodePool marketplace with three of four fields",
    mutate: (c) => (hc(c).nodePools[0].marketplace = { publisher: "azureopenshift", offer: "aro4", sku: "aro_419" }),
    path: `${HC}.nodePools[0].marketplace.version`,
    message: /is required/,
  },
  { name: "nodePool OS disk below 16 GiB", mutate: (c) => (hc(c).nodePools[0].osDisk = { sizeGiB: 8 }), path: `${HC}.nodePools[0].osDisk.sizeGiB`, value: 8 },
  { name: "nodePool availability zone 4", mutate: (c) => (hc(c).nodePools[0].availabilityZone = "4"), path: `${HC}.nodePools[0].availabilityZone`, value: "4" },
  {
    name: "two NodePools with one name",
    mutate: (c) => hc(c).nodePools.push({ name: "myprefix-hc" }),
    path: `${HC}.nodePools[1].name`,
    message: /already exists in the same namespace/,
  },
  {
    name: "vnetCidr not a CIDR",
    mutate: (c) => (hc(c).network = { vnetCidr: "10.0.0.0" }),
    path: `${HC}.network.vnetCidr`,
    value: "10.0.0.0",
    message: /IPv4 CIDR/,
  },
  {
    name: "vnetCidr with host bits",
    mutate: (c) => (hc(c).network = { vnetCidr: "10.0.1.0/16" }),
    path: `${HC}.network.vnetCidr`,
    value: "10.0.1.0/16",
    message: /host bits set; the network is 10\.0\.0\.0\/16/,
  },
  // Names ClusterNetwork and ClusterResourceGroups no longer check (the config rules alone do)
  {
    name: "VNet name over 64 characters",
    mutate: (c) => (hc(c).network = { vnetName: "v".repeat(65) }),
    path: `${HC}.network.vnetName`,
    value: "v".repeat(65),
    message: /2-64/,
  },
  {
    name: "subnet name with a space",
    mutate: (c) => (hc(c).network = { subnetName: "my subnet" }),
    path: `${HC}.network.subnetName`,
    value: "my subnet",
    message: /1-80/,
  },
  {
    name: "managed resource group name ending with '.'",
    mutate: (c) => (hc(c).network = { resourceGroups: { managed: "bad." } }),
    path: `${HC}.network.resourceGroups.managed`,
    value: "bad.",
    message: /1-90/,
  },
  {
    name: "VNet CIDR with a /33 prefix",
    mutate: (c) => (hc(c).network = { vnetCidr: "10.0.0.0/33" }),
    path: `${HC}.network.vnetCidr`,
    value: "10.0.0.0/33",
  },
  {
    name: "subnet outside the VNet",
    mutate: (c) => (hc(c).network = { subnetCidr: "10.1.0.0/24" }),
    path: `${HC}.network.subnetCidr`,
    value: "10.1.0.0/24",
    message: /inside network.vnetCidr 10.0.0.0\/16/,
  },
  {
    name: "service network overlapping the VNet",
    mutate: (c) => (hc(c).network = { serviceNetwork: "10.0.128.0/17" }),
    path: `${HC}.network.serviceNetwork`,
    message: /overlaps network.vnetCidr 10.0.0.0\/16/,
  },
  {
    name: "cluster network overlapping the service network",
    mutate: (c) => (hc(c).network = { clusterNetwork: "172.16.0.0/12" }),
    path: `${HC}.network.clusterNetwork`,
    message: /overlaps network.serviceNetwork 172.31.0.0\/16/,
  },
  {
    name: "machineNetwork not containing the subnet",
    mutate: (c) => (hc(c).network = { machineNetwork: "10.0.1.0/24" }),
    path: `${HC}.network.machineNetwork`,
    message: /must contain network.subnetCidr/,
  },
  {
    name: "existing VNet in another subscription",
    mutate: (c) =>
      (hc(c).network = {
        existing: {
          vnetId: "/subscriptions/99999999-9999-9999-9999-999999999999/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v",
          subnetId: "/subscriptions/99999999-9999-9999-9999-999999999999/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/s",
        },
      }),
    path: `${HC}.network.existing.vnetId`,
    message: /must be in subscriptionId/,
  },
  {
    name: "existing VNet without its subnet",
    mutate: (c) => (hc(c).network = { existing: { vnetId: `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v` } }),
    path: `${HC}.network.existing.subnetId`,
    message: /is required with network.existing.vnetId/,
  },
  {
    name: "existing subnet of another VNet",
    mutate: (c) =>
      (hc(c).network = {
        existing: {
          vnetId: `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v`,
          subnetId: `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/other/subnets/s`,
        },
      }),
    path: `${HC}.network.existing.subnetId`,
    message: /must be a subnet of network.existing.vnetId/,
  },
  {
    name: "existing NSG given as a name, not an ARM ID",
    mutate: (c) => (hc(c).network = { existing: { nsgId: "my-nsg" } }),
    path: `${HC}.network.existing.nsgId`,
    value: "my-nsg",
    message: /full ARM ID/,
  },
  {
    name: "managed resource group equal to the persistent group",
    mutate: (c) => (hc(c).network = { resourceGroups: { managed: "os4-common" } }),
    path: `${HC}.network.resourceGroups.managed`,
    value: "os4-common",
    message: /is the persistent resource group/,
  },
  {
    name: "VNet and NSG groups with one name without singleResourceGroup",
    mutate: (c) => (hc(c).network = { resourceGroups: { vnet: "net-rg", nsg: "net-rg" } }),
    path: `${HC}.network.resourceGroups.nsg`,
    message: /is also the .* group; use network.singleResourceGroup/,
  },
  {
    name: "externalDns publishing without externalDns",
    mutate: (c) => (hc(c).externalDns = true),
    path: `${HC}.externalDns`,
    message: /needs the top-level externalDns/,
  },
  {
    name: "baseDomain inside the ExternalDNS zone (two routers)",
    mutate: (c) => {
      withExternalDns(c);
      hc(c).baseDomain = "myprefix.example.com";
      hc(c).publicZone = { resourceGroupName: "os4-common" };
    },
    path: `${HC}.baseDomain`,
    message: /lies in the ExternalDNS zone myprefix.example.com/,
  },
  {
    name: "service network in OVN's join range",
    mutate: (c) => (hc(c).network = { serviceNetwork: "100.64.0.0/16" }),
    path: `${HC}.network.serviceNetwork`,
    message: /overlaps 100.64.0.0\/16, which OVN-Kubernetes reserves/,
  },
  {
    name: "pod network smaller than a /22",
    mutate: (c) => (hc(c).network = { clusterNetwork: "10.200.0.0/23" }),
    path: `${HC}.network.clusterNetwork`,
    message: /\/22 or larger/,
  },
  {
    name: "existing VNet in the persistent resource group",
    mutate: (c) =>
      (hc(c).network = {
        existing: {
          vnetId: `/subscriptions/${SUB}/resourceGroups/os4-common/providers/Microsoft.Network/virtualNetworks/v`,
          subnetId: `/subscriptions/${SUB}/resourceGroups/os4-common/providers/Microsoft.Network/virtualNetworks/v/subnets/s`,
        },
      }),
    path: `${HC}.network.existing.vnetId`,
    message: /persistent resource group, where the cluster's identities would get Contributor/,
  },
  {
    name: "VNet group name with singleResourceGroup",
    mutate: (c) => (hc(c).network = { singleResourceGroup: true, resourceGroups: { vnet: "net-rg" } }),
    path: `${HC}.network.resourceGroups.vnet`,
    message: /not used with network.singleResourceGroup/,
  },
  {
    name: "NSG group name with an existing NSG",
    mutate: (c) =>
      (hc(c).network = {
        resourceGroups: { nsg: "nsg-rg" },
        existing: { nsgId: `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/networkSecurityGroups/n` },
      }),
    path: `${HC}.network.resourceGroups.nsg`,
    message: /not used with network.existing.nsgId/,
  },
  {
    name: "hosted cluster in the operator namespace",
    mutate: (c) => (hc(c).namespace = "hypershift"),
    path: `${HC}.namespace`,
    value: "hypershift",
    message: /operator's namespace/,
  },
  { name: "infraId with uppercase", mutate: (c) => (hc(c).infraId = "MyInfra"), path: `${HC}.infraId`, value: "MyInfra" },
  { name: "namespace with a dot", mutate: (c) => (hc(c).namespace = "my.clusters"), path: `${HC}.namespace`, value: "my.clusters" },
  { name: "etcd size without unit", mutate: (c) => (hc(c).etcd = { storageSize: "8" }), path: `${HC}.etcd.storageSize`, value: "8", message: /8Gi/ },
  { name: "availableTimeout in words", mutate: (c) => (hc(c).availableTimeout = "an hour"), path: `${HC}.availableTimeout`, value: "an hour" },
  {
    name: "two clusters with one infraId",
    mutate: (c) => {
      c.clusters.push({ name: "second", hostedCluster: { ...hc(c), nodePools: [], infraId: "shared-infra" } });
      hc(c).infraId = "shared-infra";
    },
    path: "clusters[1].hostedCluster.infraId",
    message: /another cluster also uses/,
  },
  {
    name: "two clusters creating one resource group",
    mutate: (c) => {
      c.clusters.push({ name: "second", hostedCluster: { ...hc(c), nodePools: [], network: { resourceGroups: { managed: "myprefix-hc-managed-rg" } } } });
    },
    path: "clusters[1].hostedCluster.network.resourceGroups.managed",
    message: /another cluster also creates/,
  },

  // wrong types
  {
    name: "clusters as a map",
    mutate: (c) => (c.clusters = { "myprefix-hc": {} }),
    path: "clusters",
    // A map or list where text or a list is expected is named, not shown (it may be a pasted secret).
    value: undefined,
    message: /must be a list, got a map/,
  },
  { name: "tags as a list", mutate: (c) => (c.tags = ["env=dev"]), path: "tags", value: undefined, message: /got a list/ },
];

describe("config validation: bad input", () => {
  it("has a broad bad-input table", () => {
    expect(cases.length).toBeGreaterThanOrEqual(35);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  function checkCase({ mutate, path: issuePath, value, message }: BadCase): void {
    const config = base();
    mutate(config);
    const result = expectInvalid(config);
    const wanted: Record<string, unknown> = { path: issuePath };
    if (value !== undefined) wanted.value = value;
    if (message !== undefined) wanted.message = expect.stringMatching(message);
    expect(result.issues).toEqual(expect.arrayContaining([expect.objectContaining(wanted)]));
    // Every issue renders as one line that starts with its path.
    const lines = formatIssues(result).split("\n");
    expect(lines).toHaveLength(result.issues.length + 1);
    expect(lines.slice(1).some((line) => line.startsWith(`  ${issuePath}: `))).toBe(true);
  }

  it.each(cases)("rejects $name at $path", checkCase);

  it("rejects an unknown backend type with exactly one issue at backend.type", () => {
    const config = base();
    config.backend = { type: "s3", bucket: "state" };
    const result = expectInvalid(config);
    expect(result.issues).toEqual([expect.objectContaining({ path: "backend.type", value: "s3", message: "must be one of local, azurerm, cloud" })]);
  });

  it("never echoes a private key given as publicKeyFile", () => {
    const config = base();
    config.serviceAccountSigningKey.publicKeyFile = keys.privateKey;
    const result = expectInvalid(config);
    const output = formatIssues(result);
    expect(output).toMatch(/PRIVATE/);
    expect(output).not.toContain("BEGIN");
    const body = keys.privatePem.split("\n").filter((line) => line.length > 0 && !line.startsWith("-----"));
    expect(body.length).toBeGreaterThan(10);
    for (const line of body) {
      expect(output).not.toContain(line);
      // not even a shorter fragment of it
      expect(output).not.toContain(line.slice(8, 40));
    }
    expect(JSON.stringify(result.issues)).not.toContain("BEGIN");
  });

  it("reports every independent mistake at once", () => {
    const config = base();
    config.prefix = "My_Prefix";
    config.subscriptionId = "sub";
    config.location = "West Europe";
    config.tags["a/b"] = "x";
    config.oidc.issuer = "dedicated";
    config.clusters = [{ name: "Bad_Name", identities: { kms: "yes" } }];
    config.backend = { type: "cloud" };
    config.extra = true;
    const result = expectInvalid(config);
    const paths = new Set(result.issues.map((i) => i.path));
    expect(paths).toEqual(
      new Set([
        "prefix",
        "subscriptionId",
        "location",
        'tags["a/b"]',
        "oidc.issuer",
        "clusters[0].name",
        "clusters[0].identities.kms",
        "backend.organization",
        "extra",
      ]),
    );
    expect(result.issues.length).toBeGreaterThanOrEqual(5);
  });

  it("reports every derived-name and key-file mistake at once", () => {
    const config = perCluster(base());
    config.clusters[0].name = "ab";
    config.clusters[1].identities = { namePrefix: prefix110 };
    config.clusters.push({ name: "team-c", serviceAccountSigningKey: { publicKeyFile: keys.ecKey } });
    config.clusters.push({ name: "team-d", serviceAccountSigningKey: { publicKeyFile: keys.missing } });
    const result = expectInvalid(config);
    const paths = new Set(result.issues.map((i) => i.path));
    expect(paths).toEqual(
      new Set([
        "clusters[0].name",
        "clusters[1].identities.namePrefix",
        "clusters[2].serviceAccountSigningKey.publicKeyFile",
        "clusters[3].serviceAccountSigningKey.publicKeyFile",
      ]),
    );
  });
});

describe("config validation: YAML files", () => {
  const basicText = fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8");

  function writeConfig(name: string, text: string): string {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, text);
    return file;
  }

  const basicLines = basicText.trimEnd().split("\n").length;
  const yamlCases = [
    {
      name: "a syntax error (nested mapping on one line)",
      text: ["prefix: myprefix", "location: eastus: westus", "tags:", "  environment: dev", ""].join("\n"),
      line: 2,
      column: 11,
      message: /Nested mappings are not allowed/,
    },
    {
      name: "a bad indentation",
      text: ["prefix: myprefix", "tags:", "  environment: dev", " owner: platform", "clusters:", "  - name: hc", ""].join("\n"),
      line: 4,
      column: 1,
      message: /same column/,
    },
    {
      name: "a duplicate key",
      text: `${basicText.trimEnd()}\nprefix: other\n`,
      line: basicLines + 1,
      column: 1,
      message: /^the key "prefix" appears twice in the same map; keep one$/,
    },
  ];

  it.each(yamlCases)("reports $name as a YAML error, not as a schema error", ({ name, text, message }) => {
    const file = writeConfig(`${name.replace(/\W+/g, "-")}.yaml`, text);
    const result = loadConfigFile(file);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([expect.objectContaining({ path: expect.stringMatching(/^\(yaml line /), message: expect.stringMatching(message) })]);
    expect(result.issues[0].value).toBeUndefined();
    const output = formatIssues(result);
    expect(output.split("\n")[0]).toBe(`config error(s) in ${file}:`);
    expect(output.split("\n")).toHaveLength(2);
  });

  it.each(yamlCases)("reports the line and column of $name", ({ name, text, line, column }) => {
    const result = loadConfigFile(writeConfig(`${name.replace(/\W+/g, "-")}-line.yaml`, text));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0].path).toBe(`(yaml line ${line}, column ${column})`);
  });

  it("reports an unreadable file instead of throwing", () => {
    const result = loadConfigFile(path.join(tmp, "nope.yaml"));
    expect(result).toEqual(expect.objectContaining({ ok: false, issues: [expect.objectContaining({ path: "(file)", message: "file not found" })] }));
  });

  it("resolves key and bundle files relative to the config file's folder", () => {
    // The same valid config elsewhere: the relative paths no longer resolve.
    const result = loadConfigFile(writeConfig("basic-moved.yaml", basicText));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      expect.objectContaining({ path: "serviceAccountSigningKey.publicKeyFile", value: shown(path.join(tmp, "keys/example-signer.public")) }),
      expect.objectContaining({
        path: "managementCluster.operator.bundleFile",
        value: shown(path.join(tmp, "operator/hypershift-operator.yaml")),
        message: expect.stringMatching(/^cannot read the operator bundle: file not found/),
      }),
    ]);
  });
});

describe("formatIssues", () => {
  it("starts with the file and has one line per issue: path, JSON value, message", () => {
    const config = base();
    config.prefix = "Bad";
    config.tags.owner = 5;
    config.clusters = [];
    config.resourceGroup.extra = 1;
    const result = validateConfig(config, EXAMPLES, "my-config.yaml");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const output = formatIssues(result);
    const lines = output.split("\n");
    expect(lines[0]).toBe("config error(s) in my-config.yaml:");
    expect(output.startsWith("config error(s) in")).toBe(true);
    expect(lines).toHaveLength(result.issues.length + 1);
    expect(result.issues.length).toBe(4);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}prefix: "Bad" must be/),
        expect.stringMatching(/^ {2}tags\.owner: 5 must be a string, got number \(YAML reads unquoted 5 as a number: quote it, "5"\)$/),
        expect.stringMatching(/^ {2}clusters: \[\] must list at least one hosted cluster$/),
        expect.stringMatching(/^ {2}resourceGroup\.extra: unknown key/),
      ]),
    );
  });

  it("shortens long values", () => {
    const config = base();
    config.resourceGroup.name = longName(300, "r");
    const result = expectInvalid(config);
    const line = formatIssues(result).split("\n")[1];
    expect(line).toContain("...");
    expect(line.length).toBeLessThan(300);
  });
});

describe("config validation: valid input", () => {
  it("base() is examples/basic.yaml", () => {
    expect(base()).toEqual(parse(fs.readFileSync(path.join(EXAMPLES, "basic.yaml"), "utf8")));
  });

  it.each(["basic.yaml", "isolated-clusters.yaml", "external-dns.yaml"])("examples/%s validates", (file) => {
    const result = loadConfigFile(path.join(EXAMPLES, file));
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.ok).toBe(true);
  });

  it("validates base() and its perCluster and ExternalDNS variants inline", () => {
    expect(validateConfig(base(), EXAMPLES).ok).toBe(true);
    expect(validateConfig(withExternalDns(base()), EXAMPLES).ok).toBe(true);
    expect(validateConfig(perCluster(base()), EXAMPLES).ok).toBe(true);
  });

  it("accepts an external-dns bundle with handed-over credentials and no dns of its own (persona split)", () => {
    const config = base();
    config.managementCluster = {
      operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" },
      externalDnsCredentialsFile: "azure_mgmt.json",
    };
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(formatIssues(result));
  });

  it("an ExternalDNS secret end date in the past is a warning, not an error (the secret may exist already)", () => {
    const result = validateConfig(withExternalDns(base(), { password: { endDate: "2020-01-01T00:00:00Z" } }), EXAMPLES);
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^externalDns.password.endDate 2020-01-01T00:00:00Z has passed/)]));
    const future = validateConfig(withExternalDns(base(), { password: { endDate: "2999-01-01T00:00:00Z" } }), EXAMPLES);
    expect(future.ok && future.warnings.some((w) => w.includes("endDate"))).toBe(false);
  });

  it("accepts an unquoted availability zone (YAML reads 1 as a number) and writes the string", () => {
    const config = base();
    hc(config).nodePools[0].availabilityZone = 1;
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.config.clusters[0].hostedCluster?.nodePools[0].availabilityZone).toBe("1");
  });

  it("locates a baseDomain that is this deployment's own zone in the persistent group, without publicZone", () => {
    const config = base();
    config.dns = { zoneName: "hcp.example.com" };
    hc(config).baseDomain = "hcp.example.com";
    delete hc(config).publicZone;
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.names.clusters[0].hosted?.publicZone).toEqual({
      name: "hcp.example.com",
      resourceGroupName: "os4-common",
      resourceGroupId: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/os4-common",
      id: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/os4-common/providers/Microsoft.Network/dnszones/hcp.example.com",
    });
  });

  it("accepts names at their limits", () => {
    const config = base();
    config.prefix = `a${"b".repeat(18)}9`; // 20 characters
    config.resourceGroup.name = `(${"r".repeat(88)})`; // 90 characters
    config.tags = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`tag${i}`, "v".repeat(256)]));
    config.clusters = [
      { name: longName(40, "c") },
      // 89 + "-image-registry-fed-id-registry" (31) = 120, the federated credential maximum
      { name: "c2", identities: { namePrefix: "x".repeat(89), controlPlaneOperator: true, kms: true } },
    ];
    config.oidc.storageAccountName = "s".repeat(24);
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.ok).toBe(true);
  });

  it("accepts absolute key file paths and a generated 2048-bit key", () => {
    const config = base();
    config.serviceAccountSigningKey.publicKeyFile = keys.goodRsa;
    expect(validateConfig(config, EXAMPLES).ok).toBe(true);
  });
});

describe("environment warnings", () => {
  it("warns when KUBE_* variables would override the configured kubeconfig for some resources only", () => {
    const result = validateConfig(
      { ...base(), secrets: { source: "files" }, managementCluster: { ...base().managementCluster, kubeconfig: { path: "~/.kube/config" } } },
      EXAMPLES,
    );
    if (!result.ok) throw new Error(formatIssues(result));
    expect(environmentWarnings(result.config, { KUBE_CONFIG_PATH: "/x", KUBE_CTX: "y" })).toEqual([
      expect.stringMatching(/^management: KUBE_CONFIG_PATH, KUBE_CTX are set and managementCluster.kubeconfig too/),
    ]);
    expect(environmentWarnings(result.config, { KUBECONFIG: "/x" })).toEqual([]);
  });

  it("is silent without a kubeconfig in the config (KUBE_* is then the intended way)", () => {
    const result = validateConfig(base(), EXAMPLES);
    if (!result.ok) throw new Error(formatIssues(result));
    expect(environmentWarnings(result.config, { KUBE_HOST: "https://x" })).toEqual([]);
  });
});

describe("bundle warnings", () => {
  const warningsOf = (config: RawConfig) => {
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(formatIssues(result));
    return result.warnings;
  };

  it("names Secrets the workloads need that nothing creates: the serving cert (OpenShift only) and pull-secret without pullSecretFile", () => {
    const warnings = warningsOf(withExternalDns(base()));
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^management: nothing creates the Secrets hypershift\/pull-secret \(image pull by Deployment hypershift\/external-dns\).*set managementCluster.pullSecretFile/,
        ),
        expect.stringMatching(
          /^management: on OpenShift the service CA creates hypershift\/manager-serving-cert \(mounted by Deployment hypershift\/operator\)/,
        ),
      ]),
    );
    // external-dns-credentials is created by the stack: never reported.
    expect(warnings.join("\n")).not.toContain("external-dns-credentials");
    const withPullSecret = withExternalDns(base());
    withPullSecret.managementCluster.pullSecretFile = "operator/hypershift-operator.yaml"; // any existing file
    expect(warningsOf(withPullSecret).join("\n")).not.toMatch(/nothing creates the Secrets/);
  });

  it("warns when the external-dns TXT owner ID looks like render's random UUID", () => {
    const dir = tempDir("hcp-azure-bundle-");
    const bundle = path.join(dir, "bundle.yaml");
    fs.writeFileSync(
      bundle,
      fs
        .readFileSync(path.join(EXAMPLES, "operator", "hypershift-operator-external-dns.yaml"), "utf8")
        .replace("--txt-owner-id=myprefix", "--txt-owner-id=0b7c9a52-35c1-4f54-9a3c-3f5b1a1f0c11"),
    );
    const config = withExternalDns(base());
    config.managementCluster.operator.bundleFile = bundle;
    expect(warningsOf(config)).toEqual(expect.arrayContaining([expect.stringMatching(/TXT owner ID 0b7c9a52-.* looks like the random UUID/)]));
    expect(warningsOf(withExternalDns(base())).join("\n")).not.toMatch(/TXT owner/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("hosted cluster warnings", () => {
  it("warns that an existing VNet without an existing NSG gets an NSG nothing attaches", () => {
    const config = base();
    hc(config).network = {
      existing: {
        vnetId: `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v`,
        subnetId: `/subscriptions/${SUB}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/s`,
      },
    };
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(formatIssues(result));
    expect(result.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^infra-myprefix-hc: with an existing VNet and no network.existing.nsgId/)]));
    expect(validateConfig(base(), EXAMPLES)).toEqual(
      expect.objectContaining({ warnings: expect.not.arrayContaining([expect.stringMatching(/existing VNet/)]) }),
    );
  });

  it("warns that the default encryptionAtHost needs a subscription feature, until the NodePool says", () => {
    const config = base();
    const warn = (c: RawConfig) => {
      const result = validateConfig(c, EXAMPLES);
      if (!result.ok) throw new Error(formatIssues(result));
      return result.warnings.filter((w) => w.includes("encryptionAtHost"));
    };
    expect(warn(config)).toEqual([expect.stringMatching(/^cluster-myprefix-hc: NodePools myprefix-hc get the CRD default encryptionAtHost: Enabled/)]);
    hc(config).nodePools[0].encryptionAtHost = "Disabled";
    expect(warn(config)).toEqual([]);
  });
});
