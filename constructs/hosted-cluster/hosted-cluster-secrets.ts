import { SecretV1, SecretV1Config } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { Bytes } from "@cdktf/provider-random/lib/bytes";
import { PrivateKey } from "@cdktf/provider-tls/lib/private-key";
import { ITerraformDependable, Token } from "cdktf";
import { Construct } from "constructs";
import { HostedClusterNames } from "../../config/names";

export interface HostedClusterSecretsProps {
  /** Namespace of the HostedCluster (must exist). */
  readonly namespace: string;
  /** Secret names, as `hypershift create cluster azure` writes them. */
  readonly names: HostedClusterNames["secrets"];
  /** Pull secret JSON: a Terraform expression resolved at plan time (`file()` or a variable), never the value. */
  readonly pullSecret: string;
  /** PEM private key signing the cluster's service-account tokens: a plan-time Terraform expression. */
  readonly signingKey: string;
  /**
   * SSH public key of the workers: a plan-time Terraform expression.
   * @default - an RSA 4096 key pair generated in Terraform state
   */
  readonly sshPublicKey?: string;
  /** Azure subscription of the cluster (not secret). */
  readonly subscriptionId: string;
  /** Microsoft Entra tenant (not secret). */
  readonly tenantId: string;
}

/**
 * Label with which `hypershift destroy cluster` may delete the secret along with the cluster: the
 * CLI puts it on every Secret it writes (pull secret, SSH key, etcd encryption key in
 * `cmd/cluster/core/create.go`; cloud credentials and service-account signing key in
 * `cmd/cluster/azure/manifests.go`, openshift/hypershift@3ee9615).
 */
const SAFE_TO_DELETE = { "hypershift.openshift.io/safe-to-delete-with-cluster": "true" };
const MANAGED_BY = { "app.kubernetes.io/managed-by": "hcp-azure" };

/**
 * The Secrets a HostedCluster refers to (notes §6), which `--render` leaves out. Every secret value
 * is resolved by Terraform at plan time (`file()` or a sensitive variable: PlanTimeInput) or
 * generated in state, so it reaches the cluster and the state but never the synthesized JSON. Only
 * the subscription and tenant IDs are literals.
 */
export class HostedClusterSecrets extends Construct {
  public readonly pullSecret: SecretV1;
  public readonly sshKey: SecretV1;
  public readonly signingKey: SecretV1;
  public readonly etcdEncryptionKey: SecretV1;
  public readonly cloudCredentials: SecretV1;
  /**
   * OpenSSH private key of the generated SSH key (sensitive Terraform reference), when no
   * sshPublicKeyFile was given.
   */
  public readonly generatedSshPrivateKey?: string;

  constructor(scope: Construct, id: string, props: HostedClusterSecretsProps) {
    super(scope, id);
    validate(id, props);
    const secret = (secretId: string, name: string, config: Omit<SecretV1Config, "metadata">, labels: Record<string, string> = {}) =>
      new SecretV1(this, secretId, {
        metadata: { name, namespace: props.namespace, labels: { ...MANAGED_BY, ...labels } },
        type: "Opaque",
        ...config,
      });

    // No type, as the CLI writes it (so Opaque, not kubernetes.io/dockerconfigjson); HyperShift
    // reads the key .dockerconfigjson either way.
    this.pullSecret = secret("PullSecret", props.names.pullSecret, { data: { ".dockerconfigjson": props.pullSecret } }, SAFE_TO_DELETE);

    let sshPublicKey: string;
    if (props.sshPublicKey !== undefined) {
      sshPublicKey = props.sshPublicKey;
    } else {
      // RSA 4096, as `hypershift create cluster --generate-ssh`: HyperShift gives Azure a dummy
      // key (nodepool/azure.go) and puts this one only in the core user's authorized_keys, so
      // Azure's key-type rules do not apply. RSA rather than Ed25519: it is what the CLI makes, and
      // FIPS-mode RHEL/RHCOS OpenSSH may refuse Ed25519 keys.
      const key = new PrivateKey(this, "SshKeyPair", { algorithm: "RSA", rsaBits: 4096 });
      sshPublicKey = key.publicKeyOpenssh;
      this.generatedSshPrivateKey = key.privateKeyOpenssh;
    }
    this.sshKey = secret("SshKey", props.names.sshKey, { data: { "id_rsa.pub": sshPublicKey } }, SAFE_TO_DELETE);

    this.signingKey = secret("SigningKey", props.names.signingKey, { data: { key: props.signingKey } }, SAFE_TO_DELETE);

    // 32 random bytes (AES-256), generated once in state; `binary_data` takes base64, so the
    // secret holds the raw bytes as the CLI's. Nothing changes the resource's inputs: replacing
    // the key would leave etcd's existing data unreadable.
    const etcdKey = new Bytes(this, "EtcdEncryptionKeyBytes", { length: 32 });
    this.etcdEncryptionKey = secret("EtcdEncryptionKey", props.names.etcdEncryptionKey, { binaryData: { key: etcdKey.base64 } }, SAFE_TO_DELETE);

    this.cloudCredentials = secret(
      "CloudCredentials",
      props.names.cloudCredentials,
      { data: { AZURE_SUBSCRIPTION_ID: props.subscriptionId, AZURE_TENANT_ID: props.tenantId } },
      SAFE_TO_DELETE,
    );
  }

  /** Every secret: what the HostedCluster must wait for (and outlive on destroy). */
  public get all(): ITerraformDependable[] {
    return [this.pullSecret, this.sshKey, this.signingKey, this.etcdEncryptionKey, this.cloudCredentials];
  }
}

function validate(id: string, props: HostedClusterSecretsProps): void {
  const problems: string[] = [];
  for (const key of ["pullSecret", "signingKey", "sshPublicKey"] as const) {
    const value = props[key];
    // A literal here would put a secret into the synthesized JSON.
    if (value !== undefined && !Token.isUnresolved(value))
      problems.push(`${key} must be a Terraform expression resolved at plan time (file() or a variable), not a literal`);
  }
  if (problems.length > 0) throw new Error(`HostedClusterSecrets ${id}: ${problems.join("; ")}`);
}
