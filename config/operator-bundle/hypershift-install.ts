/**
 * Names and flags of `hypershift install` (render) this project relies on: what the operator
 * Deployment it renders carries, and the command quoted when a bundle is wrong.
 */

/** Where the operator mounts its Private Link credentials. */
export const AZURE_PRIVATE_CREDENTIALS_MOUNT = "/etc/azure-provider";
/** The Secret name `--azure-private-creds` gives; the one help/private-clusters.md asks for with --azure-private-secret. */
export const AZURE_PRIVATE_CREDENTIALS_SECRET = "hypershift-operator-azure-credentials";

/** Operator environment set by `hypershift install --managed-service ARO-HCP` (assets: MANAGED_SERVICE). */
export const MANAGED_SERVICE_ENV = "MANAGED_SERVICE";
export const ARO_HCP_MANAGED_SERVICE = "ARO-HCP";
/** Operator environment set by `--aro-hcp-key-vault-users-client-id` (config.AROHCPKeyVaultManagedIdentityClientID). */
export const AKS_KEY_VAULT_USER_ENV = "ARO_HCP_KEY_VAULT_USER_CLIENT_ID";

/** The Azure cloud the operator's Private Link controller talks to (default AzurePublicCloud; no install flag sets it, notes §1.4). */
export const OPERATOR_CLOUD_ENV = "AZURE_CLOUD_NAME";

/** HyperShift's pull secret in the operator namespace (`hypershift install --pull-secret`; assets.PullSecretName). */
export const PULL_SECRET_NAME = "pull-secret";

/** Marks the bundled example bundles: synth works, deploy is refused at plan time. */
export const EXAMPLE_ONLY_ANNOTATION = "hcp-azure.dev/example-only";

/** The render command, quoted in errors so the fix is one copy-paste away. */
export const RENDER_HINT =
  "render it with `hypershift install render --format yaml --outputs all --limit-crd-install Azure > <file>` (see help/management-cluster.md)";
