import { App, TerraformStack } from "cdktf";
import { ValidateProviderPresence } from "cdktf/lib/validations/validate-provider-presence";
import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "../config/load";
import { AdoptionNames } from "../config/names";
import { importExisting } from "../constructs/adoption/import-existing";
import { stackImportTargets } from "./adoption";
import { AksStack } from "./aks-stack";
import { ClusterStack } from "./cluster-stack";
import { IdentitiesStack } from "./identities-stack";
import { InfraStack } from "./infra-stack";
import { ManagementStack } from "./management-stack";
import { SharedStack } from "./shared-stack";
import { replaceOutput } from "./output-folder";
import { describeWorkspaces, WORKSPACES_FILE } from "./workspaces";
import { checkReferencesWhenSynthesized, skipPreparingResolve } from "./references";
import { leaveOutOfManifest } from "./retired-stacks";

/** Adds every stack of the deployment to `app`, in dependency order. */
export function addStacks(app: App, loaded: LoadedConfig, outdir: string): TerraformStack[] {
  const context = { config: loaded.config, names: loaded.names, outdir, publicKeys: loaded.publicKeys, trustBundles: loaded.trustBundles };
  // The topology, switched once: each stack gets the props of its variant, never the union.
  const topology = loaded.names.topology;
  const aroHcp = topology.kind === "aroHcp" ? { keyVault: topology.keyVault, aks: topology.aks } : undefined;
  // The issuers publish every key of their JWKS (a rotation keeps the previous ones: LoadedConfig.jwksKeys).
  const issuerContext = { ...context, publicKeys: loaded.jwksKeys ?? loaded.publicKeys };
  const shared = new SharedStack(app, { ...issuerContext, controlPlaneKeyVault: aroHcp?.keyVault });
  const perCluster = loaded.names.clusters.map((cluster) => {
    const identities = new IdentitiesStack(app, { ...issuerContext, cluster });
    // The identities need from the shared stack only the persistent group it creates and, with a
    // per-cluster issuer, the storage account and the deployer's blob role. With an adopted group
    // and the shared issuer they need nothing of it (the issuer URL is derived), so they deploy
    // alongside it: the critical path is group -> identity -> chained credentials (help/getting-started.md).
    if (loaded.config.resourceGroup.create || cluster.ownsIssuer) identities.addDependency(shared);
    return { cluster, identities };
  });
  const stacks: TerraformStack[] = [shared, ...perCluster.map((c) => c.identities)];
  // aroHcp: the AKS management cluster, whose add-on identity reads the shared stack's vault.
  const managementAks = aroHcp?.aks;
  const aks = aroHcp && managementAks ? new AksStack(app, { ...context, aks: managementAks, keyVault: aroHcp.keyVault }) : undefined;
  if (aks) {
    aks.addDependency(shared);
    stacks.push(aks);
  }
  const management = loaded.operatorBundle && new ManagementStack(app, { ...context, managementAks, bundle: loaded.operatorBundle });
  if (management) {
    // Phase 2 follows Phase 1: it reads the ExternalDNS credentials from the shared stack's state
    // (and, on AKS, reads the cluster the aks stack makes).
    management.addDependency(shared);
    if (aks) management.addDependency(aks);
    stacks.push(management);
  }
  for (const { cluster, identities } of perCluster) {
    if (!cluster.hosted) continue;
    // Phase 3, per cluster: nothing here depends on another cluster, so a change to one cluster
    // plans only its own stacks. Destroy runs in reverse: the HostedCluster goes (and HyperShift
    // cleans up its VMs) before its resource groups.
    const infra = new InfraStack(app, { ...context, cluster });
    infra.addDependency(identities);
    // What reaches it only through the identities stack otherwise (aroHcp: the control-plane
    // principals' IDs it reads from the shared state).
    infra.addDependency(shared);
    stacks.push(infra);
    if (!management) continue; // rules/hosted-cluster.ts requires managementCluster with hostedCluster
    const hostedCluster = new ClusterStack(app, {
      ...context,
      managementAks,
      cluster,
      operatorNamespace: loaded.operatorBundle?.operatorNamespace,
      hypershiftRelease: loaded.hypershiftRelease,
    });
    hostedCluster.addDependency(infra);
    hostedCluster.addDependency(management);
    stacks.push(hostedCluster);
  }
  adoptExisting(stacks, loaded.names.adoption);
  return stacks;
}

/**
 * Adoption (help/adopt.md): the import blocks of every stack, the import IDs of config/names at the
 * resources their constructs name (stacks/adoption.ts); an import for a stack not synthesized is a bug.
 */
function adoptExisting(stacks: readonly TerraformStack[], adoption: AdoptionNames): void {
  const names = new Set(stacks.map((stack) => stack.node.id));
  const missing = [...adoption.stacks.keys()].filter((name) => !names.has(name));
  if (missing.length > 0) throw new Error(`internal: imports for stacks that are not synthesized: ${missing.join(", ")}`);
  for (const stack of stacks) {
    const imports = adoption.stacks.get(stack.node.id);
    if (imports) importExisting(stack, stackImportTargets(stack, imports));
  }
}

export interface StackSummary {
  readonly name: string;
  readonly resources: number;
  readonly dataSources: number;
  readonly outputs: number;
}

export interface SynthesizeOptions {
  /**
   * Keep the stack folders of stacks no longer in the app (a removed cluster's) in the new output:
   * under the cdktf CLI, which removes them itself after running the app and fails when one is
   * already gone (stacks/output-folder.ts).
   * @default false
   */
  readonly keepRemovedStacks?: boolean;
  /**
   * Called with every stack's Terraform JSON, by stack name, once synthesized and before the new
   * output takes the old one's place: throwing keeps the old output untouched (main.ts refuses a
   * config that drops protected resources this way, config/protected-resources/).
   * @default - none
   */
  readonly beforeReplace?: (stacks: ReadonlyMap<string, Record<string, any>>) => void;
  /**
   * Stacks synthesized but left out of the manifest, so the cdktf CLI does not see them: a retired
   * cluster's under `cdktf deploy` (stacks/retired-stacks.ts).
   * @default - none
   */
  readonly leaveOutOfManifest?: readonly string[];
}

/**
 * Synthesizes into `outdir`, whole or not at all (stacks/output-folder.ts): the app synthesizes
 * into a new folder beside it, which takes the old output's place by renames once complete, with
 * what the old output holds beyond synth's own files (Terraform's `.terraform`, lock files, a
 * user's files). Of the old stack folders, only those the previous synth wrote (its manifest) and
 * this one does not are left behind, unless they hold a `terraform.tfstate` of their own.
 */
export function synthesize(loaded: LoadedConfig, outdir: string, options: SynthesizeOptions = {}): StackSummary[] {
  return replaceOutput(
    outdir,
    (folder) => {
      // cdktf's own validations would run `terraform version` once per terraform_data resource
      // (about 60 ms each, and a synth failure where Terraform is not installed, although synth
      // needs no Terraform): the one that checks our code, provider presence, runs here instead.
      const app = new App({ outdir: folder, skipValidation: true });
      // `outdir`, not the folder written: paths in the stacks are relative to where Terraform runs.
      const stacks = addStacks(app, loaded, outdir);
      assertProvidersPresent(stacks);
      skipPreparingResolve(stacks);
      const dangling = checkReferencesWhenSynthesized(stacks);
      const jsons = new Map<string, Record<string, any>>();
      const summaries = summarizeWhenSynthesized(stacks, options.beforeReplace ? jsons : undefined);
      app.synth();
      if (dangling.length > 0) {
        throw new Error(
          `internal: stacks refer to resources they do not declare (a cdktf cross-stack reference? share values through remote state, stacks/stack-setup.ts):\n  ${dangling.join("\n  ")}`,
        );
      }
      options.beforeReplace?.(jsons);
      fs.writeFileSync(path.join(folder, WORKSPACES_FILE), `${JSON.stringify(describeWorkspaces(loaded, stacks, outdir), null, 2)}\n`);
      leaveOutOfManifest(folder, options.leaveOutOfManifest ?? []);
      return summarize(folder, summaries);
    },
    { keepRemovedStacks: options.keepRemovedStacks },
  );
}

/** Fails when a stack holds a resource or data source whose provider it does not configure. */
export function assertProvidersPresent(stacks: readonly TerraformStack[]): void {
  const errors = stacks.flatMap((stack) => new ValidateProviderPresence(stack).validate());
  if (errors.length > 0) throw new Error(`Validation failed with the following errors:\n  ${errors.join("\n  ")}`);
}

/** What a synthesized stack (its Terraform JSON) holds. */
function summarizeStack(name: string, json: Record<string, any>): StackSummary {
  const count = (block: Record<string, Record<string, unknown>> | undefined) =>
    Object.values(block ?? {}).reduce((sum, byName) => sum + Object.keys(byName).length, 0);
  return { name, resources: count(json.resource), dataSources: count(json.data), outputs: Object.keys(json.output ?? {}).length };
}

/** Summaries of the stacks (and, given `jsons`, their JSON), by name, filled by `app.synth()` as it produces each stack's JSON (no second read of the written files). */
function summarizeWhenSynthesized(stacks: readonly TerraformStack[], jsons?: Map<string, Record<string, any>>): Map<string, StackSummary> {
  const summaries = new Map<string, StackSummary>();
  for (const stack of stacks) {
    const toTerraform = stack.toTerraform.bind(stack);
    stack.toTerraform = () => {
      const json = toTerraform();
      summaries.set(stack.node.id, summarizeStack(stack.node.id, json));
      jsons?.set(stack.node.id, json);
      return json;
    };
  }
  return summaries;
}

/** What each synthesized stack holds (`summaries`, filled as synth produced them), in the manifest's order. */
export function summarize(outdir: string, summaries: ReadonlyMap<string, StackSummary>): StackSummary[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
  return Object.values(manifest.stacks as Record<string, { name: string }>).map((stack) => {
    const summary = summaries.get(stack.name);
    if (!summary) throw new Error(`internal: stack ${stack.name} was written without being synthesized`);
    return summary;
  });
}
