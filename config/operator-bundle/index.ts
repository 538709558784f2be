export {
  AKS_KEY_VAULT_USER_ENV,
  ARO_HCP_MANAGED_SERVICE,
  AZURE_PRIVATE_CREDENTIALS_MOUNT,
  AZURE_PRIVATE_CREDENTIALS_SECRET,
  EXAMPLE_ONLY_ANNOTATION,
  MANAGED_SERVICE_ENV,
  OPERATOR_CLOUD_ENV,
  PULL_SECRET_NAME,
  RENDER_HINT,
} from "./hypershift-install";
export { tierOf } from "./kinds";
export { withOperatorEnv } from "./mutate";
export { parseOperatorBundle, readOperatorBundle } from "./read";
export { BUNDLE_TIERS } from "./types";
export type {
  BundleExternalDns,
  BundleObject,
  BundleOptions,
  BundlePrivateLink,
  BundleResult,
  BundleTier,
  KubernetesObject,
  OperatorBundle,
  SecretReference,
} from "./types";
