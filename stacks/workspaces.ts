import { AzureadProvider } from "@cdktf/provider-azuread/lib/provider";
import { AzurermProvider } from "@cdktf/provider-azurerm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { TerraformRemoteState, TerraformStack } from "cdktf";
import * as path from "node:path";
import { LoadedConfig } from "../config/load";
import { secretsSource } from "../config/plan-time-inputs";
import { PlanTimeInput } from "../constructs/plan-time-input/plan-time-input";
import { remoteStateProducer } from "./stack-setup";

/**
 * workspaces.json: what each stack (one Terraform Cloud workspace, or one state) needs to plan,
 * derived from the synthesized app so it cannot drift: its Terraform variables, the environment
 * variables its providers read, the stacks whose state it reads, and the run order.
 */

export const WORKSPACES_FILE = "workspaces.json";

export interface WorkspaceVariable {
  readonly name: string;
  /** terraform: a Terraform variable (workspace variable or TF_VAR_<name>); env: an environment variable. */
  readonly category: "terraform" | "env";
  readonly sensitive: boolean;
  /** false: may stay unset (one of several ways to authenticate). */
  readonly required: boolean;
  readonly description: string;
  /** A fixed value to set, where there is one (e.g. TFC_AZURE_PROVIDER_AUTH=true). */
  readonly value?: string;
}

export interface WorkspaceEntry {
  readonly stack: string;
  /** Terraform Cloud workspace (backend cloud), state blob key (azurerm) or state file (local). */
  readonly state: string;
  /** Stacks that must be applied first. */
  readonly dependsOn: readonly string[];
  /** Stacks whose state this one reads (Terraform Cloud: they must share state with this workspace). */
  readonly readsStateOf: readonly string[];
  readonly variables: readonly WorkspaceVariable[];
  /** files mode: files Terraform reads at plan time, as the stack folder sees them. */
  readonly files: readonly string[];
}

export interface WorkspacesDocument {
  readonly backend: LoadedConfig["config"]["backend"]["type"];
  readonly secretsSource: "files" | "variables";
  /** Waves of stacks: every stack of a wave can run once the previous waves are applied. */
  readonly runOrder: readonly (readonly string[])[];
  readonly workspaces: readonly WorkspaceEntry[];
}

const AZURE_DYNAMIC_CREDENTIALS: readonly WorkspaceVariable[] = [
  {
    name: "TFC_AZURE_PROVIDER_AUTH",
    category: "env",
    sensitive: false,
    required: true,
    value: "true",
    description:
      "Terraform Cloud dynamic provider credentials for azurerm and azuread (OIDC; no secret). Alternative: ARM_CLIENT_ID with ARM_CLIENT_SECRET (sensitive) or ARM_CLIENT_CERTIFICATE_PATH.",
  },
  {
    name: "TFC_AZURE_RUN_CLIENT_ID",
    category: "env",
    sensitive: false,
    required: true,
    description: "Client ID of the Entra application whose federated credentials trust this workspace's plan and apply runs (help/terraform-cloud.md).",
  },
];

const KUBE_ENVIRONMENT: readonly WorkspaceVariable[] = [
  { name: "KUBE_HOST", category: "env", sensitive: false, required: true, description: "API server URL of the management cluster." },
  { name: "KUBE_CLUSTER_CA_CERT_DATA", category: "env", sensitive: false, required: true, description: "PEM CA certificate of the API server." },
  {
    name: "KUBE_TOKEN",
    category: "env",
    sensitive: true,
    required: false,
    description: "Bearer token with cluster-admin; or KUBE_CLIENT_CERT_DATA and KUBE_CLIENT_KEY_DATA.",
  },
  {
    name: "KUBE_CLIENT_CERT_DATA",
    category: "env",
    sensitive: false,
    required: false,
    description: "PEM client certificate, with KUBE_CLIENT_KEY_DATA, instead of KUBE_TOKEN.",
  },
  { name: "KUBE_CLIENT_KEY_DATA", category: "env", sensitive: true, required: false, description: "PEM private key of KUBE_CLIENT_CERT_DATA." },
];

/** The workspaces document of a synthesized app (stacks in dependency order). */
export function describeWorkspaces(loaded: LoadedConfig, stacks: readonly TerraformStack[], outdir: string): WorkspacesDocument {
  const { config, names } = loaded;
  const workspaces = stacks.map((stack): WorkspaceEntry => {
    const children = stack.node.findAll();
    const inputs = children.filter((c): c is PlanTimeInput => c instanceof PlanTimeInput);
    const variables: WorkspaceVariable[] = inputs.flatMap((input) =>
      input.variable
        ? [
            {
              name: input.spec.variable,
              category: "terraform" as const,
              sensitive: input.spec.sensitive,
              required: !input.spec.optional,
              description: input.spec.description,
            },
          ]
        : [],
    );
    // Elsewhere Terraform takes Azure credentials from az login or ARM_* (help/getting-started.md).
    if (config.backend.type === "cloud" && children.some((c) => c instanceof AzurermProvider || c instanceof AzureadProvider))
      variables.push(...AZURE_DYNAMIC_CREDENTIALS);
    const kubernetes = children.find((c): c is KubernetesProvider => c instanceof KubernetesProvider);
    // A provider with neither a kubeconfig nor a host reads its connection from KUBE_*.
    if (kubernetes && kubernetes.configPath === undefined && kubernetes.host === undefined) variables.push(...KUBE_ENVIRONMENT);
    return {
      stack: stack.node.id,
      state: stateLabel(names.stateLocation(stack.node.id), outdir),
      dependsOn: stack.dependencies.map((d) => d.node.id),
      readsStateOf: [...new Set(children.filter((c) => c instanceof TerraformRemoteState).flatMap((c) => remoteStateProducer(c.node.id) ?? []))].sort(),
      variables,
      files: inputs.flatMap((input) => input.file ?? []),
    };
  });
  return { backend: config.backend.type, secretsSource: secretsSource(config), runOrder: waves(workspaces), workspaces };
}

/** Local state files relative to the output folder: no machine-specific path in the document. */
function stateLabel(location: string, outdir: string): string {
  return path.isAbsolute(location) ? path.relative(outdir, location) : location;
}

function waves(entries: readonly WorkspaceEntry[]): string[][] {
  const done = new Set<string>();
  const result: string[][] = [];
  let left = [...entries];
  while (left.length > 0) {
    const wave = left.filter((e) => e.dependsOn.every((d) => done.has(d))).map((e) => e.stack);
    if (wave.length === 0) throw new Error(`internal: dependency cycle among ${left.map((e) => e.stack).join(", ")}`);
    wave.forEach((s) => done.add(s));
    result.push(wave.sort());
    left = left.filter((e) => !done.has(e.stack));
  }
  return result;
}
