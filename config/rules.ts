import {
  AZURE_NAME_RULES,
  MAX_FEDERATED_CREDENTIALS_PER_IDENTITY,
  NameRule,
  REGIONS_WITHOUT_FEDERATED_CREDENTIALS,
} from "./azure-rules";
import { DeploymentNames } from "./names";
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
    rule: "per-cluster issuers have distinct containers",
    check: (n) =>
      duplicates(
        n.clusters.filter((c) => c.ownsIssuer).map((c) => ({ key: c.issuer.containerName, path: c.issuer.containerOrigin })),
        "gives an issuer container that another cluster also uses",
      ),
  },
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
