import { z } from "zod";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { clusterAdoptSchema } from "./adopt";
import { hostedClusterSchema } from "./hosted-cluster";
import { signingKeySchema } from "./oidc";

/** `clusters[]`: one hosted cluster, its identities and, from Phase 3, its HostedCluster. */

export const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;

export const clusterSchema = z
  .strictObject({
    name: z
      .string()
      .regex(CLUSTER_NAME, {
        error: "must be 1-40 lowercase letters, digits or '-', starting and ending with a letter or digit (Kubernetes and Azure name)",
      })
      .describe("Hosted cluster name (HostedCluster metadata.name); also the default prefix of its identity names."),
    serviceAccountSigningKey: signingKeySchema
      .optional()
      .describe("This cluster's own signing key. Required with oidc.issuer: perCluster; not allowed with shared."),
    identities: z
      .strictObject({
        namePrefix: azureName(AZURE_NAME_RULES.userAssignedIdentity)
          .optional()
          .describe("Prefix of the identity names (<namePrefix>-<component>). Default: the cluster name."),
        controlPlaneOperator: z
          .boolean()
          .optional()
          .describe(
            "Create the control-plane-operator identity (private clusters need it). Default: true with topology selfManaged, as `hypershift create iam azure`; false opts out. Not used with aroHcp.",
          ),
        kms: z.boolean().default(false).describe("Also create the KMS identity (etcd encryption with Azure Key Vault)."),
      })
      .default({ kms: false })
      .describe("Workload identities of this cluster."),
    hostedCluster: hostedClusterSchema.optional(),
    adopt: clusterAdoptSchema.optional(),
    retired: z
      .boolean()
      .default(false)
      .describe(
        "Being retired: its stacks are still synthesized so `cdktf destroy` can remove them, and a deploy of them fails at plan. Remove the cluster from the config once they are destroyed (help/retire-cluster.md).",
      ),
  })
  .describe("A hosted cluster.");
