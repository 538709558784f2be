import { Application } from "@cdktf/provider-azuread/lib/application";
import { ApplicationCertificate } from "@cdktf/provider-azuread/lib/application-certificate";
import { ServicePrincipal } from "@cdktf/provider-azuread/lib/service-principal";
import { KeyVaultSecret } from "@cdktf/provider-azurerm/lib/key-vault-secret";
import { PrivateKey } from "@cdktf/provider-tls/lib/private-key";
import { SelfSignedCert } from "@cdktf/provider-tls/lib/self-signed-cert";
import { Fn, ITerraformDependable, Token } from "cdktf";
import { Construct } from "constructs";
import { protectedLifecycle } from "../../config/protection";
import { CERTIFICATE_VALIDITY_HOURS } from "../../config/rules/aro-hcp";
import { literalTags } from "../terraform-literal";
import { requireWriteOnlyArguments, writeOnlyRevision } from "../write-only/write-only";

/**
 * Authority host written into the credentials JSON: msi-dataplane's GetCredential uses
 * `authentication_endpoint` as azidentity's ActiveDirectoryAuthorityHost (public cloud; the value
 * HyperShift's contrib/managed-azure/setup_MIv3_kv.sh writes).
 */
export const AUTHENTICATION_ENDPOINT = "https://login.microsoftonline.com/";

export interface ControlPlaneIdentityProps {
  /** Display name of the Entra application and its service principal (1-120 characters). */
  readonly applicationName: string;
  /** Key Vault secret holding the credentials JSON (HyperShift's credentialsSecretName): 1-127 letters, digits or '-'. */
  readonly secretName: string;
  /** ARM ID of the RBAC-mode Key Vault (or a reference to it, so the secret waits for the vault). */
  readonly keyVaultId: string;
  /** Microsoft Entra tenant the service principal signs in to. */
  readonly tenantId: string;
  /** Object IDs of the application and service principal owners (the deployer, so it can renew later without a directory role). */
  readonly owners: readonly string[];
  /** Lifetime of the certificate in hours (24-17520). */
  readonly validityHours: number;
  /** Hours before expiry from which an apply replaces the certificate (less than validityHours). */
  readonly renewBeforeHours: number;
  /**
   * What the secret write must wait for: the deployer's data-plane role on the vault.
   * @default - nothing
   */
  readonly secretDependsOn?: ITerraformDependable[];
  /**
   * Make Terraform refuse to destroy the application, the service principal and the secret
   * (lifecycle prevent_destroy): HostedClusters find them by client ID and secret name. The key,
   * certificate and application certificate stay unprotected: renewal replaces them (a
   * renewed secret is an in-place update, a new version).
   * @default true
   */
  readonly preventDestroy?: boolean;
  /** Tags of the Key Vault secret. @default {} */
  readonly tags?: Record<string, string>;
  /**
   * Microsoft Entra authority host of the cloud, written as `authentication_endpoint`.
   * @default AUTHENTICATION_ENDPOINT - the public cloud's
   */
  readonly authorityHost?: string;
}

/**
 * One ARO HCP-style control-plane identity (seed 003): an Entra application and service
 * principal that authenticate with a certificate, and the Key Vault secret HyperShift mounts
 * (Secrets Store CSI, objectType secret) and reads with msi-dataplane. The key pair and
 * certificate are generated in Terraform state (tls provider); the synthesized JSON holds only
 * references to them.
 *
 * The secret is msi-dataplane's UserAssignedIdentityCredentials JSON (snake_case keys, see
 * help/aro-hcp.md): `client_secret` is standard base64 of the PEM certificate followed by the
 * PEM RSA private key, which azidentity.ParseCertificates accepts; `not_before` (RFC 3339) must
 * grow with each renewal, because a reload only replaces a credential with a newer not_before.
 */
export class ControlPlaneIdentity extends Construct {
  public readonly application: Application;
  public readonly servicePrincipal: ServicePrincipal;
  public readonly certificate: SelfSignedCert;
  public readonly secret: KeyVaultSecret;
  /** Client (application) ID, a reference resolved at apply time. */
  public readonly clientId: string;

  constructor(scope: Construct, id: string, props: ControlPlaneIdentityProps) {
    super(scope, id);
    validate(props);
    const owners = [...props.owners];
    this.application = new Application(this, "Application", {
      displayName: props.applicationName,
      owners,
      signInAudience: "AzureADMyOrg",
      preventDuplicateNames: true,
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
    this.servicePrincipal = new ServicePrincipal(this, "ServicePrincipal", {
      clientId: this.application.clientId,
      owners,
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
    this.clientId = this.application.clientId;

    // RSA: MSAL accepts only RSA keys for certificate credentials. 2048 bits, as `az ad sp
    // create-for-rbac --create-cert` (HyperShift's dev script) makes.
    const key = new PrivateKey(this, "Key", { algorithm: "RSA", rsaBits: 2048 });
    this.certificate = new SelfSignedCert(this, "Certificate", {
      privateKeyPem: key.privateKeyPem,
      subject: [{ commonName: props.applicationName }],
      validityPeriodHours: props.validityHours,
      // Inside this window, plan shows the certificate (and what uses it) as replaced.
      earlyRenewalHours: props.renewBeforeHours,
      allowedUses: ["digital_signature", "key_encipherment", "client_auth"],
    });
    const credential = new ApplicationCertificate(this, "Credential", {
      applicationId: this.application.id,
      type: "AsymmetricX509Cert",
      encoding: "pem",
      value: this.certificate.certPem,
      startDate: this.certificate.validityStartTime,
      endDate: this.certificate.validityEndTime,
      // Renewal registers the new certificate before the old one is removed.
      lifecycle: { createBeforeDestroy: true },
    });

    this.secret = this.writeSecret(props, key, credential);
    requireWriteOnlyArguments(this);
  }

  /** The Key Vault secret the control plane reads: the credential JSON, written only once Entra trusts the certificate. */
  private writeSecret(props: ControlPlaneIdentityProps, key: PrivateKey, credential: ApplicationCertificate): KeyVaultSecret {
    const authorityHost = props.authorityHost ?? AUTHENTICATION_ENDPOINT;
    return new KeyVaultSecret(this, "Secret", {
      name: props.secretName,
      keyVaultId: props.keyVaultId,
      contentType: "application/json",
      // Write-only (azurerm 4.55, Terraform 1.11+): the credential reaches the vault, not plan or
      // state (the key itself stays in tls_private_key's state; help/terraform-cloud.md).
      // Terraform sorts the keys; msi-dataplane reads them by name.
      valueWo: Fn.jsonencode({
        authentication_endpoint: authorityHost,
        client_id: this.application.clientId,
        client_secret: Fn.base64encode(Fn.join("", [this.certificate.certPem, key.privateKeyPem])),
        tenant_id: props.tenantId,
        not_before: this.certificate.validityStartTime,
        not_after: this.certificate.validityEndTime,
      }),
      // A new version is written whenever the value changes. The value is a function of these
      // public parts alone (a new key always comes with a new certificate, whose private_key_pem
      // forces replacement), so the version fingerprints no secret.
      valueWoVersion: writeOnlyRevision(props.secretName, {
        authentication_endpoint: authorityHost,
        client_id: this.application.clientId,
        certificate: this.certificate.certPem,
        public_key: key.publicKeyPem,
        tenant_id: props.tenantId,
        not_before: this.certificate.validityStartTime,
        not_after: this.certificate.validityEndTime,
      }),
      expirationDate: this.certificate.validityEndTime,
      tags: literalTags(props.tags),
      // Written only once Entra trusts the certificate, so a mounted secret always works.
      dependsOn: [credential, this.servicePrincipal, ...(props.secretDependsOn ?? [])],
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
  }
}

function validate(props: ControlPlaneIdentityProps): void {
  const problems: string[] = [];
  if (props.applicationName.length === 0 || props.applicationName.length > 120) {
    problems.push(`applicationName "${props.applicationName}" must be 1-120 characters`);
  }
  if (!/^[a-zA-Z0-9-]{1,127}$/.test(props.secretName)) {
    problems.push(`secretName "${props.secretName}" must be 1-127 letters, digits or '-' (Key Vault secret name, HyperShift credentialsSecretName)`);
  }
  if (
    !Token.isUnresolved(props.keyVaultId) &&
    !/^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.KeyVault\/vaults\/[^/]+$/i.test(props.keyVaultId)
  ) {
    problems.push(
      `keyVaultId "${props.keyVaultId}" must be a Key Vault ARM ID (/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.KeyVault/vaults/<name>)`,
    );
  }
  const { min, max } = CERTIFICATE_VALIDITY_HOURS;
  if (!Number.isInteger(props.validityHours) || props.validityHours < min || props.validityHours > max) {
    problems.push(`validityHours ${props.validityHours} must be a whole number between ${min} and ${max}`);
  }
  if (!Number.isInteger(props.renewBeforeHours) || props.renewBeforeHours < 1 || props.renewBeforeHours >= props.validityHours) {
    problems.push(`renewBeforeHours ${props.renewBeforeHours} must be a whole number from 1 to less than validityHours (${props.validityHours})`);
  }
  if (props.owners.length === 0) problems.push("owners must name at least one principal (the deployer), or nobody could renew the certificate");
  if (problems.length > 0) throw new Error(`ControlPlaneIdentity ${props.applicationName}: ${problems.join("; ")}`);
}
