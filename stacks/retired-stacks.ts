import * as fs from "node:fs";
import * as path from "node:path";
import { LoadedConfig } from "../config/load";
import { sh } from "../config/deployed-clusters/messages";

/**
 * `npm run deploy|diff|destroy` (scripts/cdktf.sh) sets this to the cdktf command it runs, so the
 * app it synthesizes knows whether it is being deployed.
 */
export const CDKTF_COMMAND_ENV = "HCP_AZURE_CDKTF_COMMAND";

/** The stacks of retired clusters (`clusters[].retired`), in destroy order per cluster. */
export function retiredStacks(loaded: LoadedConfig): string[] {
  return loaded.names.clusters.filter((cluster) => cluster.retired).flatMap((cluster) => [...cluster.stacks]);
}

/**
 * The stacks a synth under `cdktf deploy` leaves out of the manifest, so that `deploy '*'` never
 * selects them: a retired cluster's stacks only ever destroy (their RetiredClusterGuard fails any
 * other plan, which would stop the whole deploy and the waves after it). Empty for every other
 * command: `destroy` and `diff` see every stack.
 */
export function stacksLeftOutOfDeploy(loaded: LoadedConfig, cli: boolean, env: NodeJS.ProcessEnv): string[] {
  return cli && env[CDKTF_COMMAND_ENV] === "deploy" ? retiredStacks(loaded) : [];
}

/**
 * Removes `names` from the synthesized manifest in `folder` (and from every other stack's
 * dependencies, although none depends on a retired cluster's stacks). Their folders stay: the
 * cdktf CLI removes the folders of stacks the manifest does not list once the app has run.
 */
export function leaveOutOfManifest(folder: string, names: readonly string[]): void {
  if (names.length === 0) return;
  const file = path.join(folder, "manifest.json");
  const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
  const leftOut = new Set(names);
  for (const name of Object.keys(manifest.stacks)) {
    if (leftOut.has(name)) {
      delete manifest.stacks[name];
      continue;
    }
    const stack = manifest.stacks[name];
    const blocked = (stack.dependencies ?? []).filter((dependency: string) => leftOut.has(dependency));
    if (blocked.length > 0) throw new Error(`internal: stack ${name} depends on retired stacks ${blocked.join(", ")}`);
  }
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The closing hint of `npm run synth`: the deploy command, and the destroy command of retired clusters (the config path quoted for sh). */
export function deployHint(configFile: string, loaded: LoadedConfig): string {
  const config = sh(configFile);
  const deploy = `deploy: HCP_AZURE_CONFIG=${config} npm run deploy -- '*'   (needs Terraform and Azure credentials; help/getting-started.md)`;
  const retired = retiredStacks(loaded);
  if (retired.length === 0) return deploy;
  return (
    `${deploy}\n  it leaves out the retired clusters' stacks; destroy them with: HCP_AZURE_CONFIG=${config} npm run destroy -- ${retired.join(" ")}` +
    ` (help/retire-cluster.md)`
  );
}
