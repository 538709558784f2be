import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { validateConfig } from "../../config/load";
import { kmsKeyProtection, protectionWarnings } from "../../config/protection";
import { defaultKmsVaultName } from "../../config/names";
import { EXAMPLES } from "../helpers";

/**
 * `hostedCluster.kms` and `nodePools[].availabilityZones` (issue 12 items 2-3): every rule with a
 * good and a bad value; each bad config fails with an issue naming the field. Configs start from
 * examples/kms.yaml (clusters[0] creates its key, clusters[1] brings one).
 */

// The config is mutated into invalid shapes on purpose: a loose type is the honest one here.
type RawConfig = Record<string, any>;
const EXAMPLE_TEXT = fs.readFileSync(path.join(EXAMPLES, "kms.yaml"), "utf8");
const base = (): RawConfig => parse(EXAMPLE_TEXT);
const prod = (c: RawConfig) => c.clusters[0].hostedCluster;
const byok = (c: RawConfig) => c.clusters[1].hostedCluster;

const VAULT_ID = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/security-rg/providers/Microsoft.KeyVault/vaults/mykeys";
const KEY = (vault: string, name: string, version = "0123456789abcdef0123456789abcdef") => `https://${vault}.vault.azure.net/keys/${name}/${version}`;
const AT0 = "clusters[0].hostedCluster";
const AT1 = "clusters[1].hostedCluster";

function issuesOf(mutate: (c: RawConfig) => void) {
  const config = base();
  mutate(config);
  const result = validateConfig(config, EXAMPLES);
  return result.ok ? [] : result.issues;
}

interface BadCase {
  name: string;
  mutate: (c: RawConfig) => void;
  path: string;
  message: RegExp;
}

const BAD: BadCase[] = [
  // kms: one of keyId and keyVault
  {
    name: "keyId and keyVault together",
    mutate: (c) => Object.assign(prod(c).kms, { keyId: KEY("mykeys", "etcd"), keyVaultId: VAULT_ID }),
    path: `${AT0}.kms.keyVault`,
    message: /bring a key \(keyId\) or create one \(keyVault\), not both/,
  },
  { name: "an empty kms", mutate: (c) => (prod(c).kms = {}), path: `${AT0}.kms`, message: /needs keyId .* or keyVault/ },
  { name: "keyId without keyVaultId", mutate: (c) => delete byok(c).kms.keyVaultId, path: `${AT1}.kms.keyVaultId`, message: /is required with kms.keyId/ },
  {
    name: "keyVaultId without keyId",
    mutate: (c) => (prod(c).kms.keyVaultId = VAULT_ID),
    path: `${AT0}.kms.keyVaultId`,
    message: /is only used with kms.keyId/,
  },
  {
    name: "keyVaultId of another vault",
    mutate: (c) => (byok(c).kms.keyVaultId = VAULT_ID.replace("mykeys", "otherkeys")),
    path: `${AT1}.kms.keyVaultId`,
    message: /must be the vault of kms.keyId \(mykeys\), not otherkeys/,
  },
  // the key URL, as --encryption-key-id (support/azureutil GetAzureEncryptionKeyInfo)
  {
    name: "a key URL without version",
    mutate: (c) => (byok(c).kms.keyId = "https://mykeys.vault.azure.net/keys/etcd"),
    path: `${AT1}.kms.keyId`,
    message: /must be a Key Vault key URL with its version/,
  },
  {
    name: "a key URL on another host",
    mutate: (c) => (byok(c).kms.keyId = KEY("mykeys", "etcd").replace("vault.azure.net", "example.com")),
    path: `${AT1}.kms.keyId`,
    message: /must be a Key Vault key URL/,
  },
  {
    name: "a Managed HSM key",
    mutate: (c) => (byok(c).kms.keyId = KEY("myhsm", "etcd").replace("vault.azure.net", "managedhsm.azure.net")),
    path: `${AT1}.kms.keyId`,
    message: /is a Managed HSM key: only Key Vault keys are supported/,
  },
  // backup key (CRD: backupKey.keyVaultName must match activeKey.keyVaultName)
  {
    name: "a backup key in another vault",
    mutate: (c) => (byok(c).kms.backupKeyId = KEY("otherkeys", "etcd")),
    path: `${AT1}.kms.backupKeyId`,
    message: /must be in the vault of the active key \(mykeys\)/,
  },
  {
    name: "a backup key outside the created vault",
    mutate: (c) => (prod(c).kms.backupKeyId = KEY("mykeys", "etcd-encryption")),
    path: `${AT0}.kms.backupKeyId`,
    message: /must be in the vault of the active key \(kms-myprefix-prod-/,
  },
  {
    name: "the active key as backup key",
    mutate: (c) => (byok(c).kms.backupKeyId = byok(c).kms.keyId),
    path: `${AT1}.kms.backupKeyId`,
    message: /is the active key/,
  },
  // created vault
  {
    name: "an invalid vault name",
    mutate: (c) => (prod(c).kms.keyVault.name = "kv--x"),
    path: `${AT0}.kms.keyVault.name`,
    message: /contain no '--'/,
  },
  {
    name: "two clusters creating one vault name",
    mutate: (c) => {
      prod(c).kms.keyVault.name = "shared-kms";
      byok(c).kms = { keyVault: { name: "shared-kms" } };
    },
    path: `${AT1}.kms.keyVault.name`,
    message: /another vault of this deployment also uses/,
  },
  { name: "a bad rotation period", mutate: (c) => (prod(c).kms.keyVault.rotateAfter = "1 year"), path: `${AT0}.kms.keyVault.rotateAfter`, message: /ISO 8601/ },
  { name: "a key size HyperShift's docs do not use", mutate: (c) => (prod(c).kms.keyVault.keySize = 1024), path: `${AT0}.kms.keyVault.keySize`, message: /./ },
  {
    name: "a pinned version that is not one",
    mutate: (c) => (prod(c).kms.keyVault.keyVersion = "latest"),
    path: `${AT0}.kms.keyVault.keyVersion`,
    message: /32 hex characters/,
  },
  // availability zones
  {
    name: "a key of another cloud (HyperShift looks the vault up in the cluster's cloud)",
    mutate: (c) => (byok(c).kms.keyId = KEY("mykeys", "etcd").replace("vault.azure.net", "vault.usgovcloudapi.net")),
    path: `${AT1}.kms.keyId`,
    message: /must be a key of AzurePublicCloud \(https:\/\/<vault>\.vault\.azure\.net\/keys\/\.\.\.\)/,
  },
  {
    name: "a rotation sooner than Key Vault allows",
    mutate: (c) => (prod(c).kms.keyVault.rotateAfter = "P3D"),
    path: `${AT0}.kms.keyVault.rotateAfter`,
    message: /at least P7D/,
  },
  {
    name: "a rotation of zero years (Key Vault refuses a period under 7 days in any form)",
    mutate: (c) => (prod(c).kms.keyVault.rotateAfter = "P0Y"),
    path: `${AT0}.kms.keyVault.rotateAfter`,
    message: /at least P7D/,
  },
  {
    name: "a rotation of zero months and 3 days",
    mutate: (c) => (prod(c).kms.keyVault.rotateAfter = "P0M3D"),
    path: `${AT0}.kms.keyVault.rotateAfter`,
    message: /at least P7D/,
  },

  {
    name: "availabilityZones with availabilityZone",
    mutate: (c) => (prod(c).nodePools[0].availabilityZone = "1"),
    path: `${AT0}.nodePools[0].availabilityZones`,
    message: /is not allowed with availabilityZone "1"/,
  },
  {
    name: "a zone listed twice",
    mutate: (c) => (prod(c).nodePools[0].availabilityZones = ["1", "2", "1"]),
    path: `${AT0}.nodePools[0].availabilityZones`,
    message: /lists zone 1 twice/,
  },
  {
    name: "a zone that does not exist",
    mutate: (c) => (prod(c).nodePools[0].availabilityZones = ["4"]),
    path: `${AT0}.nodePools[0].availabilityZones[0]`,
    message: /must be one of 1, 2, 3/,
  },
  {
    name: "an empty zone list",
    mutate: (c) => (prod(c).nodePools[0].availabilityZones = []),
    path: `${AT0}.nodePools[0].availabilityZones`,
    message: /at least one zone/,
  },
  {
    name: "a fanned-out name longer than 63 characters",
    mutate: (c) => (prod(c).nodePools[0].name = "w".repeat(62)),
    path: `${AT0}.nodePools[0].name`,
    message: /gives the NodePool w{62}-1 for zone 1, longer than 63 characters/,
  },
  {
    name: "a fanned-out name that another pool has",
    mutate: (c) => prod(c).nodePools.push({ name: "workers-2" }),
    path: `${AT0}.nodePools[1].name`,
    message: /names a NodePool that already exists in the same namespace/,
  },
];

describe("kms and availabilityZones: bad input names the field", () => {
  it.each(BAD.map((c) => [c.name, c] as const))("%s", (_name, { mutate, path: field, message }) => {
    const issues = issuesOf(mutate);
    const matching = issues.filter((issue) => issue.path === field);
    expect([field, matching.map((i) => i.message)]).toEqual([field, expect.arrayContaining([expect.stringMatching(message)])]);
  });
});

it("a zone listed twice is one issue, at availabilityZones (not also a NodePool name collision)", () => {
  expect(issuesOf((c) => (prod(c).nodePools[0].availabilityZones = ["1", "1"])).map((i) => i.path)).toEqual([`${AT0}.nodePools[0].availabilityZones`]);
});

describe("kms and availabilityZones: good input", () => {
  it.each([
    ["the example (created key, brought key, zones)", () => undefined],
    ["a backup key during a rotation (same vault, another version)", (c: RawConfig) => (byok(c).kms.backupKeyId = KEY("mykeys", "etcd", "f".repeat(32)))],
    ["a backup key with another name in the same vault", (c: RawConfig) => (byok(c).kms.backupKeyId = KEY("MyKeys", "etcd-old"))],
    [
      "a sovereign-cloud key URL in that cloud",
      (c: RawConfig) => {
        c.cloud = "AzureUSGovernmentCloud";
        byok(c).kms.keyId = KEY("mykeys", "etcd").replace("vault.azure.net", "vault.usgovcloudapi.net");
      },
    ],
    ["a pinned version, no rotation period change", (c: RawConfig) => (prod(c).kms.keyVault.keyVersion = "a".repeat(32))],
    ["zones given as numbers (YAML 1)", (c: RawConfig) => (prod(c).nodePools[0].availabilityZones = [1, 3])],
    ["one zone in a list", (c: RawConfig) => (prod(c).nodePools[0].availabilityZones = ["2"])],
    ["identities.kms false with kms (implied)", (c: RawConfig) => (c.clusters[0].identities = { kms: false })],
  ] as const)("%s", (_name, mutate) => {
    expect(issuesOf(mutate)).toEqual([]);
  });

  it("vault names are compared and rendered in lowercase (Key Vault names are case-insensitive; the CRD compares exactly)", () => {
    const config = base();
    prod(config).kms.keyVault.name = "ProdKms";
    prod(config).kms.backupKeyId = KEY("prodkms", "etcd-encryption");
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const kms = result.names.clusters[0].hosted!.kms!;
    expect([kms.vault.name, kms.activeKey.keyVaultName, kms.backupKey?.keyVaultName]).toEqual(["ProdKms", "prodkms", "prodkms"]);
  });

  it("hostedCluster.kms creates the KMS identity even with identities.kms: false", () => {
    const config = base();
    config.clusters[0].identities = { kms: false };
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const cluster = result.names.clusters[0];
    expect(cluster.identities.kind === "selfManaged" && cluster.identities.workloadIdentities.find((i) => i.key === "kms")).toMatchObject({
      name: "myprefix-prod-kms",
      credentials: [{ name: "myprefix-prod-kms-fed-id", subject: "system:serviceaccount:kube-system:kms-provider" }],
    });
  });
});

describe("derived KMS vault names", () => {
  it.each([
    ["myprefix-prod", "kms-myprefix-prod-abcdef"],
    ["a-very-long-cluster-name-x", "kms-a-very-long-c-abcdef"],
    ["abcdefghijkl-mn", "kms-abcdefghijkl-abcdef"],
    ["1st", "kms-1st-abcdef"],
    ["x--y", "kms-x-y-abcdef"],
  ])("%s gives %s: a valid, global Key Vault name", (cluster, expected) => {
    const name = defaultKmsVaultName(cluster, "abcdef0123");
    expect(name).toBe(expected);
    expect(name).toMatch(/^(?=.{3,24}$)[A-Za-z](?!.*--)[A-Za-z0-9-]*[A-Za-z0-9]$/);
  });
});

describe("protection of a created KMS vault and key", () => {
  const loadedWith = (mutate: (c: RawConfig) => void) => {
    const config = base();
    mutate(config);
    const result = validateConfig(config, EXAMPLES);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.config;
  };
  const cases: Array<[string, (c: RawConfig) => void, boolean]> = [
    ["default: protection.preventDestroy (true)", () => undefined, true],
    ["protection.preventDestroy: false", (c) => void (c.protection = { preventDestroy: false }), false],
    ["kms.keyVault.preventDestroy: false overrides", (c) => void (prod(c).kms.keyVault.preventDestroy = false), false],
    [
      "kms.keyVault.preventDestroy: true over protection false",
      (c) => {
        c.protection = { preventDestroy: false };
        prod(c).kms.keyVault.preventDestroy = true;
      },
      true,
    ],
    ["a retired cluster's is lifted", (c) => void (c.clusters[0].retired = true), false],
  ];
  it.each(cases)("%s", (_name, mutate, expected) => {
    const config = loadedWith(mutate);
    expect(kmsKeyProtection(config, config.clusters[0])).toBe(expected);
  });

  it("an unprotected vault of a live cluster is said at every synth", () => {
    const config = loadedWith((c) => void (prod(c).kms.keyVault.preventDestroy = false));
    expect(protectionWarnings(config).join("\n")).toMatch(/prevent_destroy is off for a KMS Key Vault and key/);
    expect(protectionWarnings(loadedWith(() => undefined))).toEqual([]);
  });
});
