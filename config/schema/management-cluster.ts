import { z } from "zod";
import { HYPERSHIFT_RELEASE_SHAPE, HYPERSHIFT_RELEASE_SHAPE_MESSAGE, hypershiftReleaseProblem } from "../hypershift-release";
import { AZURE_NAME_RULES, azureName } from "../azure-rules";
import { aksSchema } from "./aks";
import { etcdBackupSchema } from "./etcd-backup";
import { managementMonitoringSchema } from "./monitoring";
import { clientSecret, filePath, guid, wholeDuration } from "./primitives";

/** `managementCluster`: how Terraform reaches it, the HyperShift operator, and its Private Link management. */

export const managementClusterSchema = z
  .strictObject({
    kubeconfig: z
      .strictObject({
        path: filePath().describe("Kubeconfig file used at plan/apply time; relative to the config file, absolute, or starting with ~/. Never read at synth."),
        context: z.string().min(1).optional().describe("Kubeconfig context. Default: the file's current context."),
      })
      .optional()
      .describe(
        "How Terraform reaches the management cluster. Omit to use the Kubernetes provider's KUBE_* environment variables (Terraform Cloud), or with aks.",
      ),
    credentialsFromVariables: z
      .boolean()
      .default(false)
      .describe(
        "Connect the Kubernetes provider with the sensitive Terraform variables kube_host, kube_cluster_ca_certificate and kube_token (or kube_client_certificate + kube_client_key) instead of KUBE_* environment variables. Not with kubeconfig or aks.",
      ),
    aks: aksSchema.optional(),
    operator: z
      .strictObject({
        bundleFile: filePath().describe(
          "Output of `hypershift install render --format yaml --outputs all ...`, relative to the config file (see help/management-cluster.md).",
        ),
        hypershiftRelease: z
          .string()
          .regex(HYPERSHIFT_RELEASE_SHAPE, { error: HYPERSHIFT_RELEASE_SHAPE_MESSAGE, abort: true })
          .refine((release) => hypershiftReleaseProblem(release) === undefined, { error: (issue) => hypershiftReleaseProblem(String(issue.input)) })
          .optional()
          .describe(
            'The HyperShift release (operator and CLI) you run, e.g. "4.21": adoption names and the features an older operator lacks follow it (help/management-cluster.md#the-hypershift-release). Default: read from the bundle (the install-cli-version annotation or the operator image tag); neither: HyperShift main.',
          ),
        rolloutTimeout: wholeDuration("10m").default("10m").describe("How long apply waits for each operator Deployment to roll out."),
        omitKinds: z
          .array(z.string().regex(/^[A-Z][A-Za-z0-9]*$/, { error: "must be a Kubernetes kind such as ServiceMonitor" }))
          .default([])
          .describe(
            "Kinds of the bundle not to apply, e.g. [ServiceMonitor, PrometheusRule, PodMonitor] on a cluster without the Prometheus operator CRDs (AKS).",
          ),
        preventDestroy: z
          .boolean()
          .optional()
          .describe(
            "Make Terraform refuse to delete the HyperShift CRDs and namespaces (deleting a CRD deletes every HostedCluster). Default: protection.preventDestroy.",
          ),
        forceConflicts: z
          .boolean()
          .default(false)
          .describe(
            "Take over fields owned by another field manager (objects from an earlier hypershift install, after import) instead of failing with a conflict.",
          ),
      })
      .describe("The HyperShift operator, applied from a rendered bundle."),
    pullSecretFile: filePath()
      .optional()
      .describe(
        "Pull secret (JSON) for the Secret pull-secret in the operator namespace, as `hypershift install --pull-secret`; external-dns pulls its image from registry.redhat.io with it. Relative to the config file; read at plan time, never at synth. Default: no pull-secret Secret.",
      ),
    externalDnsCredentialsFile: filePath()
      .optional()
      .describe(
        "azure_mgmt.json handed over by the Azure administrator, read at plan time. Default: read from the shared stack's state (output external_dns_credentials).",
      ),
    privateLink: z
      .strictObject({
        resourceGroupName: azureName(AZURE_NAME_RULES.resourceGroup).describe(
          "Resource group of the management cluster's internal load balancer, where the operator creates the Private Link Services (--azure-pls-resource-group; oc get infrastructure cluster -o jsonpath='{.status.platformStatus.azure.resourceGroupName}').",
        ),
        subscriptionId: guid("subscription of the management cluster")
          .optional()
          .describe("Subscription of the management cluster (its load balancer, VNet and the NAT subnets). Default: subscriptionId."),
        applicationName: z
          .string()
          .min(1, { error: "must not be empty" })
          .max(120, { error: "must be at most 120 characters (Entra display name)" })
          .optional()
          .describe("Display name of the operator's Private Link service principal (shared stack). Default: <prefix>-private-link."),
        password: clientSecret("the Private Link service principal"),
        credentialsFile: filePath()
          .optional()
          .describe(
            "Credentials JSON {subscriptionId, tenantId, clientId, clientSecret} handed over by the Azure administrator, read at plan time; then no service principal is created here. Default: the shared stack's principal (output private_link_credentials).",
          ),
      })
      .optional()
      .describe(
        "The operator's Private Link Service management (hypershift install --private-platform Azure): needed when a cluster has endpointAccess PublicAndPrivate or Private (help/private-clusters.md).",
      ),
    monitoring: managementMonitoringSchema.optional(),
    etcdBackup: etcdBackupSchema.optional(),
  })
  .describe("Management cluster (seed 004 Phase 2): the HyperShift operator and the ExternalDNS credentials, through the Terraform Kubernetes provider.");

export type ManagementClusterConfig = z.output<typeof managementClusterSchema>;
