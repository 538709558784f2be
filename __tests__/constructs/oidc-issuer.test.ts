import { StorageAccount } from "@cdktf/provider-azurerm/lib/storage-account";
import { StorageBlob } from "@cdktf/provider-azurerm/lib/storage-blob";
import { StorageContainer } from "@cdktf/provider-azurerm/lib/storage-container";
import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Testing } from "cdktf";
import { OidcIssuer } from "../../constructs/oidc/oidc-issuer";
import { OidcStorageAccount } from "../../constructs/oidc/oidc-storage-account";
import { resources, rsaKeyPair } from "../helpers";

const { publicKey } = rsaKeyPair();
const ACCOUNT_ID = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct123";

function synthIssuer(containerName = "issuer-a") {
  let issuer!: OidcIssuer;
  const json = Testing.synthScope((scope) => {
    issuer = new OidcIssuer(scope, "Issuer", {
      storageAccountName: "acct123",
      storageAccountId: ACCOUNT_ID,
      containerName,
      publicKeyPem: publicKey,
    });
  });
  return { issuer, json, parsed: JSON.parse(json) };
}

describe("OidcIssuer", () => {
  it("issuer URL is https://<account>.blob.core.windows.net/<container> with no trailing slash", () => {
    expect(synthIssuer().issuer.issuerUrl).toBe("https://acct123.blob.core.windows.net/issuer-a");
  });

  it("container allows anonymous reads of blobs only (no listing) and is created through ARM", () => {
    const { json } = synthIssuer();
    expect(json).toHaveResourceWithProperties(StorageContainer, {
      name: "issuer-a",
      storage_account_id: ACCOUNT_ID,
      container_access_type: "blob",
    });
  });

  it("uploads the discovery document and JWKS at the Kubernetes paths as application/json", () => {
    const { issuer, json, parsed } = synthIssuer();
    expect(json).toHaveResourceWithProperties(StorageBlob, {
      name: ".well-known/openid-configuration",
      type: "Block",
      content_type: "application/json",
      source_content: issuer.discoveryDocument,
    });
    expect(json).toHaveResourceWithProperties(StorageBlob, {
      name: "openid/v1/jwks",
      type: "Block",
      content_type: "application/json",
      source_content: issuer.jwks,
    });
    expect(resources(parsed, "azurerm_storage_blob")).toHaveLength(2);
  });

  it("rejects an invalid container name", () => {
    expect(() => synthIssuer("Bad--Name")).toThrow(/containerName "Bad--Name" must be 3-63 lowercase/);
  });
});

describe("OidcStorageAccount", () => {
  function synthAccount(grantDeployerBlobAccess?: boolean) {
    return Testing.synthScope((scope) => {
      new OidcStorageAccount(scope, "Storage", {
        name: "acct123",
        resourceGroupName: "rg",
        location: "eastus",
        subscriptionId: "00000000-0000-0000-0000-000000000000",
        grantDeployerBlobAccess,
      });
    });
  }

  it("is hardened beyond ccoctl: https only, TLS 1.2, no shared keys, no cross-tenant replication", () => {
    expect(synthAccount()).toHaveResourceWithProperties(StorageAccount, {
      account_kind: "StorageV2",
      https_traffic_only_enabled: true,
      min_tls_version: "TLS1_2",
      shared_access_key_enabled: false,
      default_to_oauth_authentication: true,
      cross_tenant_replication_enabled: false,
      infrastructure_encryption_enabled: true,
      // Entra ID must read the issuer anonymously from the internet.
      allow_nested_items_to_be_public: true,
      public_network_access_enabled: true,
    });
  });

  it("grants the deployer Storage Blob Data Contributor on the account only, by default", () => {
    const parsed = JSON.parse(synthAccount());
    const [accountKey] = Object.keys(parsed.resource.azurerm_storage_account);
    const [assignment] = resources(parsed, "azurerm_role_assignment");
    expect(assignment.scope).toBe(`\${azurerm_storage_account.${accountKey}.id}`);
    expect(assignment.role_definition_id).toBe(
      `/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.Authorization/roleDefinitions/ba92f5b4-2d11-453d-a403-e96b0029c9fe`,
    );
    expect(assignment.principal_id).toMatch(/^\$\{data\.azurerm_client_config\..+\.object_id\}$/);
    expect(synthAccount(false)).not.toHaveResource(RoleAssignment);
  });

  it("rejects an invalid account name", () => {
    expect(() =>
      Testing.synthScope((scope) => {
        new OidcStorageAccount(scope, "S", { name: "Bad_Name", resourceGroupName: "rg", location: "eastus", subscriptionId: "x" });
      }),
    ).toThrow(/"Bad_Name" must match/);
  });
});

describe("protection (prevent_destroy)", () => {
  const synthBoth = (preventDestroy?: boolean) =>
    JSON.parse(
      Testing.synthScope((scope) => {
        new OidcStorageAccount(scope, "Storage", {
          name: "acct123",
          resourceGroupName: "rg",
          location: "eastus",
          subscriptionId: "00000000-0000-0000-0000-000000000000",
          preventDestroy,
        });
        new OidcIssuer(scope, "Issuer", {
          storageAccountName: "acct123",
          storageAccountId: ACCOUNT_ID,
          containerName: "issuer-a",
          publicKeyPem: publicKey,
          preventDestroy,
        });
      }),
    );

  it("protects the account and the container by default, never the documents (a key rotation replaces them)", () => {
    const parsed = synthBoth();
    expect(resources(parsed, "azurerm_storage_account")[0].lifecycle).toEqual({ prevent_destroy: true });
    expect(resources(parsed, "azurerm_storage_container")[0].lifecycle).toEqual({ prevent_destroy: true });
    for (const blob of resources(parsed, "azurerm_storage_blob")) expect(blob.lifecycle).toBeUndefined();
    for (const assignment of resources(parsed, "azurerm_role_assignment")) expect(assignment.lifecycle).toBeUndefined();
  });

  it("preventDestroy: false leaves no lifecycle at all", () => {
    const parsed = synthBoth(false);
    for (const type of ["azurerm_storage_account", "azurerm_storage_container", "azurerm_storage_blob"]) {
      for (const resource of resources(parsed, type)) expect(resource.lifecycle).toBeUndefined();
    }
  });
});
