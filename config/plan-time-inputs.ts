import { Config } from "./schema";

/**
 * Plan-time inputs: the secrets a stack needs when Terraform plans (pull secrets, the signing
 * private key, ExternalDNS credentials, a BYO SSH key, management-cluster credentials). With
 * `secrets.source: files` Terraform reads the configured files; with `variables` each is a
 * sensitive Terraform variable with the name, description and rules below, checked at plan
 * without printing the value (constructs/plan-time-input). Variable names are a contract with
 * users' workspaces: help/terraform-cloud.md lists them (a test keeps it in step).
 */

export type SecretsSource = "files" | "variables";

/** files for local and azurerm backends, variables for Terraform Cloud (a remote run has no files). */
export function secretsSource(config: Config): SecretsSource {
  return config.secrets.source ?? (config.backend.type === "cloud" ? "variables" : "files");
}

/** A rule Terraform checks at plan, on the variable's value. */
export interface VariableValidation {
  /** An HCL boolean expression over `var.<name>` (no `${ }` around it), true for a good value; never an error itself. */
  readonly condition: string;
  /** What is wrong and how to fix it, never the value. Terraform reads it as a template: constant text, no config string. */
  readonly errorMessage: string;
}

/** The public half a private key must have, known at synth (the signing key the issuer publishes). */
export interface PublicHalf {
  /** The public key in PEM, SPKI (`-----BEGIN PUBLIC KEY-----`), as config/load.ts read it. */
  readonly pem: string;
  /** The refusal of another key (constant text, never the value). */
  readonly errorMessage: string;
}

export interface PlanTimeInputSpec {
  /** Terraform variable name: stable, lower snake case. */
  readonly variable: string;
  /**
   * Terraform never prints a sensitive value (plan, logs, the errors of its checks). An input with
   * rules must be sensitive (PlanTimeInput refuses one that is not): Terraform prints the value a
   * failed validation block or precondition tested unless it is sensitive, and any variable can
   * receive a secret pasted into the wrong field.
   */
  readonly sensitive: boolean;
  /** What the value is and where it comes from (the variable's description; plain text, may hold config strings). */
  readonly description: string;
  /** Rules Terraform checks at plan; a value that breaks one reaches no resource and no provider. */
  readonly validations: readonly VariableValidation[];
  /**
   * The value is a private key whose public half must be this one: checked at plan in variables
   * mode, where the tls provider derives the public key inside Terraform.
   * @default - no key-pair check
   */
  readonly publicHalf?: PublicHalf;
  /**
   * Whether the variable may stay unset (null). Only for one of several ways to authenticate.
   * @default false
   */
  readonly optional?: boolean;
}

/**
 * An RSA private key in PEM: PKCS#1 (what ccoctl and `npm run keygen` write) or unencrypted PKCS#8.
 * Spaces are written `[ ]` so that secret scanners looking for PEM headers do not flag the
 * synthesized rule itself. Backslashes are doubled: the patterns go into HCL string literals.
 */
const PRIVATE_KEY_PEM = String.raw`(?s)^\\s*-----BEGIN[ ](RSA[ ])?PRIVATE[ ]KEY-----\\s.+\\s-----END[ ](RSA[ ])?PRIVATE[ ]KEY-----\\s*$`;
const CERTIFICATE_PEM = String.raw`(?s)^\\s*-----BEGIN CERTIFICATE-----\\s.+\\s-----END CERTIFICATE-----\\s*$`;
/** Private key material of any kind (PEM of any algorithm, OpenSSH, PuTTY), pasted where a public value belongs. */
const ANY_PRIVATE_KEY = "PRIVATE[ ]KEY|PuTTY-User-Key-File";

/** The OpenSSH public key types of the workers' authorized_keys (`hypershift create cluster` makes ssh-rsa). */
const SSH_KEY_TYPES = ["ssh-rsa", "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521"];

/**
 * One OpenSSH public key line whose key blob is of the type the line names. The blob starts with
 * a uint32 length, the type's name and another uint32 whose first byte is 0 (RFC 4253 §6.6,
 * RFC 5656 §3.1, RFC 8709 §4), so its base64 starts with a fixed prefix per type (whole 3-byte
 * groups only): a truncated line, a pasted fingerprint or a key of another type is refused.
 */
const SSH_PUBLIC_KEY_LINE = (() => {
  const alternatives = SSH_KEY_TYPES.map((type) => {
    const header = Buffer.alloc(4 + type.length + 1);
    header.writeUInt32BE(type.length, 0);
    header.write(type, 4, "latin1");
    return `${type}[ ]${header.subarray(0, Math.floor(header.length / 3) * 3).toString("base64")}`;
  });
  return String.raw`^(${alternatives.join("|")})[A-Za-z0-9+/]*={0,3}([ ][^\\n]*)?\\s*$`;
})();

/** Pull secret of a HostedCluster or of the operator namespace. */
export function pullSecretInput(use: string, configKey: string, written: string): PlanTimeInputSpec {
  return {
    variable: "pull_secret",
    sensitive: true,
    description: `Pull secret JSON from console.redhat.com/openshift/install/pull-secret, for ${use} (the config names ${written} in ${configKey}).`,
    validations: [
      {
        condition: "try(length(keys(jsondecode(var.pull_secret).auths)) > 0, false)",
        errorMessage:
          'The pull_secret must be the pull secret JSON from console.redhat.com/openshift/install/pull-secret: an object with a non-empty "auths" map (set the file\'s whole content).',
      },
    ],
  };
}

/**
 * Private half of a hosted cluster's service-account signing key. `publicKeyPem`: the public key
 * the issuer publishes (`<keyOrigin>.publicKeyFile`, LoadedConfig.publicKeys); with it, variables
 * mode checks at plan that the key is its private half.
 */
export function signingKeyInput(cluster: string, keyOrigin: string, privateKeyWritten: string, publicKeyPem?: string): PlanTimeInputSpec {
  return {
    variable: "service_account_signing_key",
    sensitive: true,
    description: `PEM RSA private key that signs ${cluster}'s service-account tokens: the private half of ${keyOrigin}.publicKeyFile (the config names ${privateKeyWritten}; npm run keygen writes it).`,
    validations: [
      {
        condition: `can(regex("${PRIVATE_KEY_PEM}", var.service_account_signing_key))`,
        errorMessage:
          "The service_account_signing_key must be an unencrypted RSA private key in PEM (PKCS#1 or PKCS#8): the whole .private file of npm run keygen or ccoctl, not the .public one.",
      },
    ],
    publicHalf:
      publicKeyPem === undefined
        ? undefined
        : {
            pem: publicKeyPem,
            errorMessage: `The service_account_signing_key is not the private half of ${keyOrigin}.publicKeyFile, the public key the OIDC issuer publishes: the cluster's service-account tokens would fail verification. Set the .private file of that key pair (npm run keygen writes both halves), or set ${keyOrigin}.publicKeyFile to this key's public half and deploy the stacks that publish it first.`,
          },
  };
}

/**
 * A bring-your-own SSH public key of the workers: not secret, but sensitive, so that a private key
 * pasted here by mistake is refused without being printed.
 */
export function sshPublicKeyInput(cluster: string, configKey: string, written: string): PlanTimeInputSpec {
  return {
    variable: "ssh_public_key",
    sensitive: true,
    description: `OpenSSH public key of ${cluster}'s workers (user core); the config names ${written} in ${configKey}.`,
    validations: [
      {
        condition: `!can(regex("${ANY_PRIVATE_KEY}", var.ssh_public_key))`,
        errorMessage:
          "The ssh_public_key holds a private key: set the public key, the one line of the .pub file. Replace the key pair if the private key was kept where others can read it (such as a workspace variable not marked sensitive).",
      },
      {
        // A private key is refused by the rule above alone.
        condition: `can(regex("${ANY_PRIVATE_KEY}", var.ssh_public_key)) || can(regex("${SSH_PUBLIC_KEY_LINE}", var.ssh_public_key))`,
        errorMessage: `The ssh_public_key must be one OpenSSH public key line: the type (${SSH_KEY_TYPES.join(", ")}), the key of that type and an optional comment, as in the .pub file.`,
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
          'alltrue([for key in ["tenantId", "subscriptionId", "resourceGroup", "aadClientId", "aadClientSecret"] : try(jsondecode(var.external_dns_credentials)[key] != "", false)])',
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
          'alltrue([for key in ["subscriptionId", "tenantId", "clientId", "clientSecret"] : try(jsondecode(var.private_link_credentials)[key] != "", false)])',
        errorMessage: "The private_link_credentials must be JSON with non-empty subscriptionId, tenantId, clientId and clientSecret.",
      },
    ],
  };
}

/**
 * The management cluster's API server and credentials (managementCluster.credentialsFromVariables).
 * All sensitive, the URL and the certificates too: a key pasted into one of them is refused without
 * being printed, and reaches no provider (the kubernetes provider prints a host it cannot parse).
 * Long because it is the table of the five variables, one entry each.
 */
export function kubernetesInputs(): readonly PlanTimeInputSpec[] {
  return [
    {
      variable: "kube_host",
      sensitive: true,
      description:
        "API server URL of the management cluster, e.g. https://api.mgmt.example.com:6443 (kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}').",
      validations: [
        {
          condition: 'can(regex("^https://[^/\\\\s]+", var.kube_host)) && !can(regex("\\\\s", trimspace(var.kube_host)))',
          errorMessage: "The kube_host must be the API server URL, starting with https:// (one line, no spaces).",
        },
      ],
    },
    {
      variable: "kube_cluster_ca_certificate",
      sensitive: true,
      description: "PEM CA certificate of the management cluster's API server (the kubeconfig's certificate-authority-data, base64-decoded).",
      validations: [
        {
          condition: `can(regex("${CERTIFICATE_PEM}", var.kube_cluster_ca_certificate))`,
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
          condition: "var.kube_token != null || (var.kube_client_certificate != null && var.kube_client_key != null)",
          errorMessage:
            "Set kube_token, or both kube_client_certificate and kube_client_key: Terraform needs one way to authenticate to the management cluster.",
        },
        {
          // It goes into an HTTP header: one line of visible characters (a JWT, OpenShift's sha256~...).
          condition: 'var.kube_token == null || can(regex("^[!-~]+$", var.kube_token))',
          errorMessage: "The kube_token must be one bearer token: visible characters without spaces or line breaks (e.g. the output of kubectl create token).",
        },
      ],
    },
    {
      variable: "kube_client_certificate",
      sensitive: true,
      optional: true,
      description: "PEM client certificate for the management cluster (client-certificate-data, base64-decoded), with kube_client_key; null with kube_token.",
      validations: [
        {
          condition: `var.kube_client_certificate == null || can(regex("${CERTIFICATE_PEM}", var.kube_client_certificate))`,
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
          condition: String.raw`var.kube_client_key == null || can(regex("(?s)^\\s*-----BEGIN[ ]((RSA|EC)[ ])?PRIVATE[ ]KEY-----\\s.+\\s-----END[ ]((RSA|EC)[ ])?PRIVATE[ ]KEY-----\\s*$", var.kube_client_key))`,
          errorMessage: "The kube_client_key must be an unencrypted private key in PEM (RSA, EC or PKCS#8), base64-decoded from client-key-data.",
        },
      ],
    },
  ];
}
