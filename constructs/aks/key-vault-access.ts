import { RoleAssignment } from "@cdktf/provider-azurerm/lib/role-assignment";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import { BUILT_IN_ROLES, roleDefinitionId } from "../../config/azure-roles";
import { IManagementAksCluster } from "./management-aks-cluster-interface";
import { KEY_VAULT_SECRET_ID } from "./management-aks-cluster-validation";

/**
 * "Key Vault Secrets User" on each secret for the add-on identity; the same construct IDs
 * (`<cluster>/KeyVaultSecretsUser_<vault>_<secret>`) for a created and an existing cluster.
 */
export function grantKeyVaultAccess(
  cluster: IManagementAksCluster & Construct,
  props: { subscriptionId: string; keyVaultSecretIds?: readonly string[] },
  principalId: string,
): RoleAssignment[] {
  const role = BUILT_IN_ROLES.keyVaultSecretsUser;
  return (props.keyVaultSecretIds ?? []).map((secretId) => {
    // Vault names are globally unique and secret names unique in their vault ('_' is in neither):
    // a stable construct ID whatever the list order.
    const [, vaultName, secretName] = KEY_VAULT_SECRET_ID.exec(secretId)!;
    return new RoleAssignment(cluster, `KeyVaultSecretsUser_${vaultName.toLowerCase()}_${secretName.toLowerCase()}`, {
      // Deterministic name from synth-time strings: a re-apply finds the same assignment.
      name: Fn.uuidv5("url", `${secretId}/${role.guid}/${cluster.id}`),
      scope: secretId,
      roleDefinitionId: roleDefinitionId(props.subscriptionId, role),
      principalId,
      // Spares ARM the Entra lookup that fails with PrincipalNotFound while the identity replicates.
      principalType: "ServicePrincipal",
    });
  });
}
