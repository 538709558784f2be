import { Config } from "./schema";

/**
 * Plan-time inputs: the secrets a stack needs when Terraform plans (pull secrets, the signing
 * private key, ExternalDNS credentials, a BYO SSH key, management-cluster credentials). With
 * `secrets.source: files` Terraform reads the configured files; with `variables` each is a
 * Terraform variable with the name, description and validation below. Variable names are a
 * contract with users' workspaces: help/terraform-cloud.md lists them (a test keeps it in step).
 */

export type SecretsSource = "files" | "variables";

/** files for local and azurerm backends, variables for Terraform Cloud (a remote run has no files). */
export function secretsSource(config: Config): SecretsSource {
  return config.secrets.source ?? (config.backend.type === "cloud" ? "variables" : "files");
}

/** A `validation` block of a Terraform variable: HCL template condition and a message without the value. */
export interface VariableValidation {
  readonly condition: string;
  readonly errorMessage: string;
}

export interface PlanTimeInputSpec {
  /** Terraform variable name: stable, lower snake case. */
  readonly variable: string;
  /** Sensitive values never appear in plan output or logs. */
  readonly sensitive: boolean;
  /** What the value is and where it comes from (the variable's description; plain text, may hold config strings). */
  readonly description: string;
  /** Rules Terraform checks at plan, before anything uses the value. */
  readonly validations: readonly VariableValidation[];
  /**
   * Whether the variable may stay unset (null). Only for one of several ways to authenticate.
   * @default false
   */
  readonly optional?: boolean;
}

/**
 * An RSA private key in PEM: PKCS#1 (what ccoctl and `npm run keygen` write) or unencrypted PKCS#8.
 * Spaces are written `[ ]` so that secret scanners looking for PEM headers do not flag the
 * synthesized rule itself.
 */
const PRIVATE_KEY_PEM = String.raw`(?s)^\\s*-----BEGIN[ ](RSA[ ])?PRIVATE[ ]KEY-----\\s.+\\s-----END[ ](RSA[ ])?PRIVATE[ ]KEY-----\\s*$`;
const CERTIFICATE_PEM = String.raw`(?s)^\\s*-----BEGIN CERTIFICATE-----\\s.+\\s-----END CERTIFICATE-----\\s*$`;

/** Pull secret of a HostedCluster or of the operator namespace. */
export function pullSecretInput(use: string, configKey: string, written: string): PlanTimeInputSpec {
  return {
    variable: "pull_secret",
    sensitive: true,
    description: `Pull secret JSON from console.redhat.com/openshift/install/pull-secret, for ${use} (the config names ${written} in ${configKey}).`,
    validations: [
      {
        condition: "${try(length(keys(jsondecode(var.pull_secret).auths)) > 0, false)}",
        errorMessage:
          'The pull_secret must be the pull secret JSON from console.redhat.com/openshift/install/pull-secret: an object with a non-empty "auths" map (set the file\'s whole content).',
      },
    ],
  };
}

/** Private half of a hosted cluster's service-account signing key. */
export function signingKeyInput(cluster: string, keyOrigin: string, privateKeyWritten: string): PlanTimeInputSpec {
  return {
    variable: "service_account_signing_key",
    sensitive: true,
    description: `PEM RSA private key that signs ${cluster}'s service-account tokens: the private half of ${keyOrigin}.publicKeyFile (the config names ${privateKeyWritten}; npm run keygen writes it).`,
    validations: [
      {
        condition: `\${can(regex("${PRIVATE_KEY_PEM}", var.service_account_signing_key))}`,
        errorMessage:
          "The service_account_signing_key must be an unencrypted RSA private key in PEM (PKCS#1 or PKCS#8): the whole .private file of npm run keygen or ccoctl, not the .public one.",
      },
    ],
  };
}

/** A bring-your-own SSH public key of the workers (not secret, but read from a file in files mode). */
export function sshPublicKeyInput(cluster: string, configKey: string, written: string): PlanTimeInputSpec {
  return {
    variable: "ssh_public_key",
    sensitive: false,
    description: `OpenSSH public key of ${cluster}'s workers (user core); the config names ${written} in ${configKey}.`,
    validations: [
      {
        condition: String.raw`${"$"}{can(regex("^(ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/]+={0,3}( [^\\n]*)?\\s*$", var.ssh_public_key))}`,
        errorMessage: "The ssh_public_key must be one OpenSSH public key line such as ssh-rsa AAAA... (the .pub file, not the private key).",
      },
    ],
  };
}

/** azure_mgmt.json handed over for ExternalDNS. */
export function externalDnsCredentialsInput(written: string): PlanTimeInputSpec {
  return {
    variable: "external_dns_credentials",
    sensitive: true,
    description: `azure_mgmt.json for ExternalDNS (tenantId, subscriptionId, resourceGroup, aadClientId, aadClientSecret), from the Azure administrator or terraform output -raw external_dns_credentials of the shared stack (the config names ${written} in managementCluster.externalDnsCredentialsFile).`,
    validations: [
      {
        condition:
          '${alltrue([for key in ["tenantId", "subscriptionId", "resourceGroup", "aadClientId", "aadClientSecret"] : try(jsondecode(var.external_dns_credentials)[key] != "", false)])}',
        errorMessage:
          "The external_dns_credentials must be the JSON of azure_mgmt.json with non-empty tenantId, subscriptionId, resourceGroup, aadClientId and aadClientSecret.",
      },
    ],
  };
}

/** The operator's Private Link credentials handed over (managementCluster.privateLink.credentialsFile). */
export function privateLinkCredentialsInput(written: string): PlanTimeInputSpec {
  return {
    variable: "private_link_credentials",
    sensitive: true,
    description: `Credentials JSON of the HyperShift operator's Private Link service principal (subscriptionId, tenantId, clientId, clientSecret), from the Azure administrator or terraform output -raw private_link_credentials of the shared stack (the config names ${written} in managementCluster.privateLink.credentialsFile).`,
    validations: [
      {
        condition:
          '${alltrue([for key in ["subscriptionId", "tenantId", "clientId", "clientSecret"] : try(jsondecode(var.private_link_credentials)[key] != "", false)])}',
        errorMessage: "The private_link_credentials must be JSON with non-empty subscriptionId, tenantId, clientId and clientSecret.",
      },
    ],
  };
}

/** The management cluster's API server and credentials (managementCluster.credentialsFromVariables). */
export function kubernetesInputs(): readonly PlanTimeInputSpec[] {
  return [
    {
      variable: "kube_host",
      sensitive: false,
      description:
        "API server URL of the management cluster, e.g. https://api.mgmt.example.com:6443 (kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}').",
      validations: [
        { condition: '${can(regex("^https://[^/\\\\s]+", var.kube_host))}', errorMessage: "The kube_host must be the API server URL, starting with https://." },
      ],
    },
    {
      variable: "kube_cluster_ca_certificate",
      sensitive: false,
      description: "PEM CA certificate of the management cluster's API server (the kubeconfig's certificate-authority-data, base64-decoded).",
      validations: [
        {
          condition: `\${can(regex("${CERTIFICATE_PEM}", var.kube_cluster_ca_certificate))}`,
          errorMessage:
            "The kube_cluster_ca_certificate must be a PEM certificate (-----BEGIN CERTIFICATE-----), base64-decoded from certificate-authority-data.",
        },
      ],
    },
    {
      variable: "kube_token",
      sensitive: true,
      optional: true,
      description:
        "Bearer token of an identity with cluster-admin on the management cluster (e.g. a service account token), or null with kube_client_certificate and kube_client_key.",
      validations: [
        {
          condition: "${var.kube_token != null || (var.kube_client_certificate != null && var.kube_client_key != null)}",
          errorMessage:
            "Set kube_token, or both kube_client_certificate and kube_client_key: Terraform needs one way to authenticate to the management cluster.",
        },
      ],
    },
    {
      variable: "kube_client_certificate",
      sensitive: false,
      optional: true,
      description: "PEM client certificate for the management cluster (client-certificate-data, base64-decoded), with kube_client_key; null with kube_token.",
      validations: [
        {
          condition: `\${var.kube_client_certificate == null || can(regex("${CERTIFICATE_PEM}", var.kube_client_certificate))}`,
          errorMessage: "The kube_client_certificate must be a PEM certificate (-----BEGIN CERTIFICATE-----), base64-decoded from client-certificate-data.",
        },
      ],
    },
    {
      variable: "kube_client_key",
      sensitive: true,
      optional: true,
      description: "PEM private key of kube_client_certificate (client-key-data, base64-decoded); null with kube_token.",
      validations: [
        {
          condition: String.raw`${"$"}{var.kube_client_key == null || can(regex("(?s)^\\s*-----BEGIN[ ]((RSA|EC)[ ])?PRIVATE[ ]KEY-----\\s.+\\s-----END[ ]((RSA|EC)[ ])?PRIVATE[ ]KEY-----\\s*$", var.kube_client_key))}`,
          errorMessage: "The kube_client_key must be an unencrypted private key in PEM (RSA, EC or PKCS#8), base64-decoded from client-key-data.",
        },
      ],
    },
  ];
}
