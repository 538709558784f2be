import { Testing } from "cdktf";
import { LoadedConfig } from "../../config/load";
import type { AdoptedResource, AdoptionNames, DeploymentNames } from "../../config/names";
import { stackImportTargets } from "../../stacks/adoption";
import { addStacks } from "../../stacks/app";
import * as helpers from "../helpers";

/** An import as the stack joins it: the adopted resource and the path its construct gave it in the stack. */
export type JoinedImport = AdoptedResource & { readonly path: string };

/** A loaded config whose `names.adoption.imports` are the joined imports, by stack. */
export type LoadedWithImportTargets = Omit<LoadedConfig, "names"> & {
  readonly names: Omit<DeploymentNames, "adoption"> & {
    readonly adoption: Omit<AdoptionNames, "imports"> & { readonly imports: ReadonlyMap<string, readonly JoinedImport[]> };
  };
};

/**
 * config/names derives the import IDs and knows no construct path; the constructs place them
 * (stacks/adoption.ts). For the adoption tests, which read imports by path: each stack's imports,
 * in the order its constructs list them, with the path they gave each (the stacks built, not
 * synthesized). Every one of names' imports must be placed exactly once.
 */
function withImportTargets(loaded: LoadedConfig): LoadedWithImportTargets {
  const app = Testing.app();
  const adoption = loaded.names.adoption;
  const imports = new Map<string, JoinedImport[]>();
  for (const stack of addStacks(app, loaded, app.outdir)) {
    const record = adoption.stacks.get(stack.node.id);
    if (!record) continue;
    const named = new Map((adoption.imports.get(stack.node.id) ?? []).map((resource) => [`${resource.type} ${resource.id}`, resource]));
    const joined = stackImportTargets(stack, record).map((target) => {
      const resource = named.get(`${target.type} ${target.id}`);
      if (!resource) throw new Error(`${stack.node.id}: ${target.path} imports ${target.type} ${target.id}, which names.adoption does not list`);
      named.delete(`${target.type} ${target.id}`);
      return { ...resource, path: target.path };
    });
    if (named.size > 0) throw new Error(`${stack.node.id}: imports no construct placed: ${[...named.keys()].join(", ")}`);
    imports.set(stack.node.id, joined);
  }
  return { ...loaded, names: { ...loaded.names, adoption: { ...adoption, imports } } };
}

export const loadExample = (file: string): LoadedWithImportTargets => withImportTargets(helpers.loadExample(file));
export const loadInline = (input: unknown): LoadedWithImportTargets => withImportTargets(helpers.loadInline(input));
