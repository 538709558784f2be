import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { filePath } from "./primitives";

/** The OIDC issuer of the hosted clusters' workload identities and the key its tokens are signed with. */

export const oidcSchema = z
  .strictObject({
    issuer: z
      .enum(["shared", "perCluster"])
      .default("shared")
      .describe("shared: one issuer and key for all clusters (the seeds' layout). perCluster: one container and key per cluster (tenant isolation)."),
    storageAccountName: azureName(AZURE_NAME_RULES.storageAccount)
      .optional()
      .describe("Storage account serving the issuer documents (globally unique). Default: <prefix without '-'>oidc<6 hex of a stable hash>."),
    containerName: azureName(AZURE_NAME_RULES.blobContainer)
      .optional()
      .describe(
        "Blob container of the shared issuer (last segment of the issuer URL). Default: the storage account name, as ccoctl. Not allowed with perCluster (the container is the cluster name).",
      ),
    grantDeployerBlobAccess: z
      .boolean()
      .default(true)
      .describe("Grant the deploying principal Storage Blob Data Contributor on the account, so Terraform can upload the documents with shared keys disabled."),
  })
  .default({ issuer: "shared", grantDeployerBlobAccess: true })
  .describe("OIDC issuer hosted on Azure Blob Storage (replaces ccoctl azure create-oidc-issuer).");

export const signingKeySchema = z
  .strictObject({
    publicKeyFile: filePath().describe(
      "PEM public key (SPKI, ccoctl's serviceaccount-signer.public), relative to the config file. Read at synth to publish the JWKS.",
    ),
    privateKeyFile: filePath()
      .optional()
      .describe(
        "PEM private key (PKCS#1, ccoctl's serviceaccount-signer.private), relative to the config file. Never read at synth; later stacks read it at plan time. Default: publicKeyFile with .public replaced by .private.",
      ),
    previousPublicKeyFiles: z
      .array(filePath())
      .optional()
      .describe(
        "Public keys still published in the JWKS beside publicKeyFile during a signing-key rotation: tokens signed with them keep verifying until the clusters sign with the new key and their old tokens have expired (help/oidc-issuer.md#rotating-the-signing-key). Default: none.",
      ),
  })
  .describe("Service-account signing key pair of the hosted clusters' kube-apiserver.");

export type SigningKeyConfig = z.output<typeof signingKeySchema>;
