import { AZURE_NAME_RULES, MAX_FEDERATED_CREDENTIALS_PER_IDENTITY } from "../azure-rules";
import { delegationRecordName, DeploymentNames, managedIdentitiesOf } from "../names";
import { ARO_HCP_NAME_RULES } from "./aro-hcp";
import { CAPACITY_RULES } from "./capacity";
import { ConfigIssue, duplicates, nameIssue, Rule } from "./rule";

/** Rules on derived names: what Azure enforces and the provider does not. */
export const NAME_RULES: ReadonlyArray<Rule<DeploymentNames>> = [
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
        managedIdentitiesOf(cluster.identities).flatMap((identity) => [
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
          managedIdentitiesOf(cluster.identities).map((identity) => ({
            key: identity.name.toLowerCase(),
            path: cluster.identityPrefixOrigin,
            value: identity.name,
          })),
        ),
        "gives an identity name that another cluster also uses (identities live in one resource group; set clusters[].identities.namePrefix)",
      ),
  },
  {
    rule: "at most 20 federated credentials per identity, unique (issuer, subject)",
    check: (n) =>
      n.clusters.flatMap((cluster) =>
        managedIdentitiesOf(cluster.identities).flatMap((identity) => federatedCredentialIssues(identity, cluster.issuer.url, cluster.identityPrefixOrigin)),
      ),
  },
  {
    rule: "the DNS zone name is valid and below its parent",
    check: (n) => {
      if (!n.dns) return [];
      const issues = nameIssue(AZURE_NAME_RULES.dnsZone, n.dns.zoneName, n.dns.zoneOrigin, "DNS zone name");
      const parent = n.dns.parent;
      if (issues.length === 0 && parent && delegationRecordName(n.dns.zoneName, parent.zoneName) === undefined) {
        issues.push({
          path: "dns.parent.zoneName",
          value: parent.zoneName,
          message: `must be a proper suffix of the zone "${n.dns.zoneName}" (the zone must be <label>.${parent.zoneName})`,
        });
      }
      return issues;
    },
  },
  {
    rule: "per-cluster issuers have distinct containers",
    check: (n) =>
      duplicates(
        n.clusters.filter((c) => c.ownsIssuer).map((c) => ({ key: c.issuer.containerName, path: c.issuer.containerOrigin })),
        "gives an issuer container that another cluster also uses",
      ),
  },
  ...ARO_HCP_NAME_RULES,
  ...CAPACITY_RULES,
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
      issues.push({
        path,
        value: credential.subject,
        message: `gives identity ${identity.name} the issuer ${issuer} with this subject twice (Azure requires unique issuer and subject)`,
      });
    }
    seenNames.add(credential.name);
    seenSubjects.add(credential.subject);
  }
  return issues;
}

function uniqueIssuers(n: DeploymentNames) {
  return [...new Map(n.clusters.map((c) => [c.issuer.url, c.issuer])).values()];
}
