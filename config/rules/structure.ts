import { REGIONS_WITHOUT_FEDERATED_CREDENTIALS } from "../azure-rules";
import { unlistedLocationMessage } from "../azure-regions";
import { Config } from "../schema";
import { ADOPT_STRUCTURE_RULES } from "./adopt";
import { ARO_HCP_STRUCTURE_RULES } from "./aro-hcp";
import { duplicates, Rule } from "./rule";
import { PRIVATE_LINK_STRUCTURE_RULES } from "./private-link";
import { SECRETS_STRUCTURE_RULES } from "./secrets";

/**
 * Rules that span fields: checked on a schema-valid config before names are derived (names need
 * them to hold, e.g. every issuer has a signing key).
 */
export const STRUCTURE_RULES: ReadonlyArray<Rule<Config>> = [
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
          return [
            { path: `clusters[${i}].serviceAccountSigningKey`, message: "is required with oidc.issuer: perCluster (each cluster signs with its own key)" },
          ];
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
        ? [
            {
              path: "oidc.containerName",
              value: c.oidc.containerName,
              message: "is only allowed with oidc.issuer: shared (per-cluster containers are named after the cluster)",
            },
          ]
        : [],
  },
  {
    rule: "an adopted group is named",
    check: (c) =>
      // With adopt the guide's name applies (adopt.resourceGroupName, default os4-common).
      !c.resourceGroup.create && c.resourceGroup.name === undefined && !c.adopt
        ? [{ path: "resourceGroup.name", message: "is required with resourceGroup.create: false (the name of the existing group to adopt)" }]
        : [],
  },
  {
    rule: "cluster names are unique",
    check: (c) =>
      duplicates(
        c.clusters.map((cluster, i) => ({ key: cluster.name, path: `clusters[${i}].name` })),
        "another cluster has this name",
      ),
  },
  {
    rule: "a DNS zone has a name or a parent to derive it from",
    check: (c) =>
      c.dns && c.dns.zoneName === undefined && c.dns.parent === undefined
        ? [{ path: "dns.zoneName", message: "is required without dns.parent (the default <prefix>.<parent> needs a parent zone)" }]
        : [],
  },
  {
    rule: "ExternalDNS needs the DNS zone",
    check: (c) =>
      c.externalDns && !c.dns ? [{ path: "externalDns", message: "needs dns: ExternalDNS writes the hosted clusters' records into that public zone" }] : [],
  },
  {
    // An end date in the past is only a warning (configWarnings): the secret may already exist,
    // and an error would block every stack's synth until it is rotated.
    rule: "the ExternalDNS secret has one expiry",
    check: (c) => {
      const password = c.externalDns?.password;
      if (!password?.endDate) return [];
      if (password.validFor !== undefined) {
        return [
          {
            path: "externalDns.password.validFor",
            value: password.validFor,
            message: "is not allowed together with externalDns.password.endDate (choose one expiry)",
          },
        ];
      }
      return Number.isNaN(Date.parse(password.endDate))
        ? [{ path: "externalDns.password.endDate", value: password.endDate, message: "is not a valid date" }]
        : [];
    },
  },
  {
    rule: "location is an Azure region",
    check: (c) => {
      const message = c.allowUnlistedLocation ? undefined : unlistedLocationMessage(c.location);
      return message ? [{ path: "location", value: c.location, message }] : [];
    },
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
  ...ARO_HCP_STRUCTURE_RULES,
  ...SECRETS_STRUCTURE_RULES,
  ...PRIVATE_LINK_STRUCTURE_RULES,
  ...ADOPT_STRUCTURE_RULES,
];
