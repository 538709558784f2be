import { AZURE_NAME_RULES } from "../azure-rules";
import { ControlPlaneIdentityNames, controlPlanePrincipalsOf, DeploymentNames } from "../names";
import { aroHcpSettings, Config } from "../schema";
import { keyVaultNetworkIssues } from "./key-vault-network";
import type { ConfigIssue, Rule } from "./rule";

/**
 * Rules of the control-plane credentials (topology: aroHcp): the service principals' certificates,
 * the Key Vault that holds them and the names of their secrets and applications. `aro-hcp.ts`
 * lists them among the topology's rules, in the order their issues are reported.
 */

/** Certificate lifetimes we accept: a day (shorter needs an apply every few hours) to two years (Entra's recommended maximum). */
export const CERTIFICATE_VALIDITY_HOURS = { min: 24, max: 17520 } as const;

/** Whole hours of a validated `<n>h` setting. */
export const hoursOf = (value: string) => Number(value.slice(0, -1));

/** Key Vault secret names (HyperShift's credentialsSecretName): 1-127 letters, digits or '-'. */
const SECRET_NAME = /^[a-zA-Z0-9-]{1,127}$/;

/** Structure rules on `aroHcp`. */
export const CONTROL_PLANE_CREDENTIALS_RULES = {
  vaultNetwork: {
    rule: "the control-plane credentials vault lets Terraform and the management cluster in",
    check: (c) =>
      c.topology !== "aroHcp"
        ? []
        : keyVaultNetworkIssues(
            aroHcpSettings(c).keyVault.network,
            "aroHcp.keyVault.network",
            "the management cluster's Key Vault secrets provider (it mounts the control-plane credentials)",
          ),
  },
  certificateLifetime: {
    rule: "certificate validity within bounds, renewal inside it",
    check: (c) => {
      const certificates = c.aroHcp?.certificates;
      if (c.topology !== "aroHcp" || !certificates) return [];
      const validity = hoursOf(certificates.validity);
      const renewBefore = hoursOf(certificates.renewBefore);
      const { min, max } = CERTIFICATE_VALIDITY_HOURS;
      if (validity < min || validity > max) {
        return [{ path: "aroHcp.certificates.validity", value: certificates.validity, message: `must be between ${min}h and ${max}h (one day to two years)` }];
      }
      return renewBefore >= validity
        ? [
            {
              path: "aroHcp.certificates.renewBefore",
              value: certificates.renewBefore,
              message: `must be shorter than aroHcp.certificates.validity ${certificates.validity} (otherwise every apply replaces the certificates)`,
            },
          ]
        : [];
    },
  },
} satisfies Record<string, Rule<Config>>;

/** Name rules on the derived vault, secret and application names. */
export const CONTROL_PLANE_CREDENTIALS_NAME_RULES: ReadonlyArray<Rule<DeploymentNames>> = [
  {
    rule: "the derived Key Vault name is valid",
    check: ({ topology }) =>
      topology.kind === "aroHcp" && !AZURE_NAME_RULES.keyVault.test(topology.keyVault.name)
        ? [
            {
              path: topology.keyVault.origin,
              value: topology.keyVault.name,
              message: `gives the Key Vault name "${topology.keyVault.name}", which ${AZURE_NAME_RULES.keyVault.rule}`,
            },
          ]
        : [],
  },
  {
    rule: "control-plane secrets are valid and unique in the vault",
    check: (n) => [
      ...n.clusters.flatMap((cluster) =>
        controlPlanePrincipalsOf(cluster.identities)
          .filter((identity) => !SECRET_NAME.test(identity.secretName))
          .map((identity) => ({
            path: cluster.identityPrefixOrigin,
            value: identity.secretName,
            message: "gives a Key Vault secret name that must be 1-127 letters, digits or '-' (HyperShift's credentialsSecretName)",
          })),
      ),
      ...repeatedControlPlaneNames(
        n,
        (identity) => identity.secretName,
        [],
        "gives a control-plane secret name another cluster also uses (one vault for all clusters; set clusters[].identities.namePrefix)",
      ),
    ],
  },
  {
    rule: "control-plane display names are unique (lookups by display name must find one)",
    check: (n) =>
      repeatedControlPlaneNames(
        n,
        (identity) => identity.applicationName,
        n.externalDnsApplication ? [n.externalDnsApplication] : [],
        "gives an Entra display name another identity of this deployment also has (set clusters[].identities.namePrefix)",
      ),
  },
];

/** Control-plane names (case-insensitive) that repeat one another or one of `taken`. */
function repeatedControlPlaneNames(
  n: DeploymentNames,
  nameOf: (identity: ControlPlaneIdentityNames) => string,
  taken: readonly string[],
  message: string,
): ConfigIssue[] {
  const seen = new Set(taken.map((name) => name.toLowerCase()));
  return n.clusters.flatMap((cluster) =>
    controlPlanePrincipalsOf(cluster.identities).flatMap((identity) => {
      const name = nameOf(identity);
      const repeated = seen.has(name.toLowerCase());
      seen.add(name.toLowerCase());
      return repeated ? [{ path: cluster.identityPrefixOrigin, value: name, message }] : [];
    }),
  );
}
