import { StorageBlob } from "@cdktf/provider-azurerm/lib/storage-blob";
import { StorageContainer } from "@cdktf/provider-azurerm/lib/storage-container";
import { DataResource, ITerraformDependable } from "cdktf";
import { createHash } from "node:crypto";
import { Construct } from "constructs";
import { AZURE_NAME_RULES } from "../../config/azure-rules";
import { protectedLifecycle } from "../../config/protection";
import { issuerUrl, OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH } from "../../config/names";
import { discoveryDocument, jwksDocument } from "./documents";

export interface OidcIssuerProps {
  /** Storage account that serves the documents (see OidcStorageAccount). */
  readonly storageAccountName: string;
  /** ARM ID of that account; the container is created through the ARM API with it. */
  readonly storageAccountId: string;
  /** Blob container: 3-63 lowercase letters, digits, single '-'; last segment of the issuer URL. */
  readonly containerName: string;
  /**
   * PEM (SPKI) RSA public key whose JWKS is published; or several, one after another: the current
   * key first, then the keys a rotation keeps published (jwksDocument). Read at synth; never the private key.
   */
  readonly publicKeyPem: string;
  /**
   * Make Terraform refuse to destroy the container (the issuer). The document blobs are not protected: a key rotation
   * replaces them (lifecycle prevent_destroy; config
   * `protection.preventDestroy`).
   * @default true
   */
  readonly preventDestroy?: boolean;
  /**
   * Resources the uploads must wait for (e.g. the deployer's blob data role assignment).
   * @default []
   */
  readonly uploadsDependOn?: ITerraformDependable[];
  /**
   * The documents exist already (ccoctl's, adopted with import blocks) and are kept until their
   * content here changes. azurerm cannot read a blob's content (nor `parallelism` and `size`) back,
   * and each forces a replacement, so an imported blob would otherwise be deleted and uploaded again
   * on the first deploy. Instead the content's hash lives in a terraform_data that triggers the replacement
   * (a key rotation) and the content itself is ignored.
   * @default false
   */
  readonly keepExistingDocuments?: boolean;
  /** Blob service DNS suffix of the cloud (the issuer URL's host). @default "blob.core.windows.net" - the public cloud */
  readonly blobSuffix?: string;
}

/**
 * An OIDC issuer on Blob Storage, in place of `ccoctl azure create-oidc-issuer`: a container
 * readable anonymously blob by blob (ccoctl allows listing too; Entra ID only GETs two known
 * paths) holding the discovery document and JWKS as application/json.
 */
export class OidcIssuer extends Construct {
  /** `https://<account>.blob.core.windows.net/<container>`, no trailing slash. */
  public readonly issuerUrl: string;
  /** The exact bytes uploaded to `.well-known/openid-configuration`. */
  public readonly discoveryDocument: string;
  /** The exact bytes uploaded to `openid/v1/jwks`. */
  public readonly jwks: string;
  public readonly container: StorageContainer;

  constructor(scope: Construct, id: string, props: OidcIssuerProps) {
    super(scope, id);
    if (!AZURE_NAME_RULES.blobContainer.test(props.containerName)) {
      throw new Error(`OidcIssuer containerName "${props.containerName}" ${AZURE_NAME_RULES.blobContainer.rule}`);
    }
    this.issuerUrl = issuerUrl(props.storageAccountName, props.containerName, props.blobSuffix);
    // Every federated credential and the HostedCluster compare the issuer byte for byte.
    if (!/^https:\/\/[^/]+\/[^/]+$/.test(this.issuerUrl)) {
      throw new Error(`OidcIssuer URL "${this.issuerUrl}" must be https with no trailing slash`);
    }
    this.discoveryDocument = discoveryDocument(this.issuerUrl);
    this.jwks = jwksDocument(props.publicKeyPem);

    this.container = new StorageContainer(this, "Container", {
      name: props.containerName,
      storageAccountId: props.storageAccountId,
      containerAccessType: "blob",
      lifecycle: protectedLifecycle(props.preventDestroy),
    });
    const documents: Array<[string, string, string]> = [
      ["DiscoveryDocument", OIDC_DISCOVERY_PATH, this.discoveryDocument],
      ["Jwks", OIDC_JWKS_PATH, this.jwks],
    ];
    for (const [documentId, blobName, content] of documents) {
      const contentHash = props.keepExistingDocuments
        ? new DataResource(this, `${documentId}Content`, { input: { sha256: createHash("sha256").update(content).digest("hex") } })
        : undefined;
      new StorageBlob(this, documentId, {
        name: blobName,
        storageAccountName: props.storageAccountName,
        storageContainerName: this.container.name,
        type: "Block",
        sourceContent: content,
        contentType: "application/json",
        dependsOn: props.uploadsDependOn,
        // Ignored: what an imported blob's state cannot match and that forces a replacement: the
        // content, content_md5 (Azure computed one for ccoctl's upload), parallelism and size (never
        // read back: hashicorp/terraform-provider-azurerm#8392, #25658). The trigger's address as a
        // plain string: Terraform's JSON syntax rejects cdktf's "${...}" form of a resource here
        // ("Invalid character"; proven in __tests__/e2e/adoption-terraform.test.ts).
        lifecycle: contentHash
          ? {
              ignoreChanges: ["source_content", "content_md5", "parallelism", "size"],
              replaceTriggeredBy: [`${contentHash.terraformResourceType}.${contentHash.friendlyUniqueId}`],
            }
          : undefined,
      });
    }
  }
}
