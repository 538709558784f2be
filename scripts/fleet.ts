import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fleetCapacity, fleetCollisions, listed, managementClusterOf, Stamp } from "../config/fleet";
import { formatIssues, loadConfigFile } from "../config/load";
import { identityText, remoteBackendIdentity } from "../config/names/state";
import { isEarlierOutput, OUTPUT_FOLDER_FIX, outputFolderOf, outputFolderRefusal } from "../stacks/output-location";

/**
 * `npm run fleet -- envs/*.yaml`: a fleet is a list of stamps, a stamp one config. Checks across
 * the stamps what they must not share (config/fleet.ts: prefixes, state, management clusters,
 * Azure resources, limits summed over stamps), then synthesizes each stamp as `npm run synth`
 * does into `<CDKTF_OUTDIR or cdktf.out>/<stamp>/`, and writes the fleet's one list of
 * workspaces, `fleet-workspaces.json`. Exit 0: synthesized; 1: a collision, a config error or a
 * failed synth (collisions and config errors: nothing written); 2: usage. help/fleet.md.
 */

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** Synthesizes one config into `outdir` (the `main` of main.ts); returns its exit code. */
export type SynthRunner = (configFile: string, outdir: string, io: Io) => number;

export const FLEET_WORKSPACES = "fleet-workspaces.json";

const USAGE = `usage: npm run fleet -- <stamp.yaml>...
  each config is a stamp, named after its file (envs/prod-eastus.yaml: prod-eastus)
  output: <$CDKTF_OUTDIR, else cdktf.out>/<stamp>/ and ${FLEET_WORKSPACES}`;

/** Runs the fleet; `synth` synthesizes one stamp (a child `npm run synth` by default). */
export function fleet(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io, synth: SynthRunner = synthInChild): number {
  const files = argv.filter((a) => a !== "--");
  if (files.length === 0 || files.some((f) => f === "--help" || f === "-h")) {
    io.err(USAGE);
    return files.length === 0 ? 2 : 0;
  }
  const stampNames = files.map((f) => path.basename(f).replace(/\.ya?ml$/i, ""));
  const nameErrors = stampNameErrors(files, stampNames);
  if (nameErrors.length > 0) {
    nameErrors.forEach((error) => io.err(error));
    io.err("nothing was written.");
    return 2;
  }
  const stamps: Stamp[] = [];
  let invalid = false;
  files.forEach((file, i) => {
    const loaded = loadConfigFile(file);
    if (loaded.ok) stamps.push({ name: stampNames[i], loaded });
    else {
      io.err(`stamp ${stampNames[i]}: ${formatIssues(loaded)}`);
      invalid = true;
    }
  });
  if (invalid) return refuse(io);
  if (!checkAcross(stamps, files, io)) return refuse(io);
  const outRoot = outputFolderOf(env);
  const problems = outputProblems(outRoot, stamps, files);
  if (problems.length > 0) {
    problems.forEach((problem) => io.err(problem));
    return refuse(io);
  }
  return synthesizeAll(stamps, files, outRoot, io, synth);
}

/**
 * A stamp's name is a folder under the output root: not empty, `.` or `..` (the root itself, or
 * outside it), not the fleet's own file, no path separator or control character, and unique
 * ignoring case (`Prod` and `prod` are one folder on a case-insensitive file system).
 */
function stampNameErrors(files: readonly string[], names: readonly string[]): string[] {
  const fix = "Rename the file (a stamp is named after its file, without .yaml or .yml).";
  const errors = names.flatMap((name, i) => {
    const rule =
      name === "" || name === "." || name === ".."
        ? `is ${name === "" ? "empty" : `"${name}"`}: its folder would be the output folder itself or outside it`
        : name.toLowerCase() === FLEET_WORKSPACES
          ? `is ${FLEET_WORKSPACES}, the fleet's list of workspaces`
          : /[/\\]/.test(name)
            ? "holds a path separator"
            : // eslint-disable-next-line no-control-regex
              /[\u0000-\u001f\u007f]/.test(name)
              ? "holds a control character"
              : undefined;
    return rule ? [`stamp ${JSON.stringify(name)} (${JSON.stringify(files[i])}): its name ${rule}. ${fix}`] : [];
  });
  const byFolder = new Map<string, number[]>();
  names.forEach((name, i) => byFolder.set(name.toLowerCase(), [...(byFolder.get(name.toLowerCase()) ?? []), i]));
  for (const same of byFolder.values()) {
    if (same.length < 2) continue;
    const who = same.map((i) => `${names[i]} (${files[i]})`).join(", ");
    errors.push(`stamp names must be unique, ignoring case (each is a folder, one for Prod and prod on a case-insensitive file system): ${who}. ${fix}`);
  }
  return errors;
}

/**
 * Where the fleet may not write, before anything is: the output root under synth's rules
 * (stacks/output-location.ts: not the current directory or one holding it, a config or a project),
 * and a stamp's folder (named after its file) that exists with content but is no earlier output:
 * synth would replace it whole.
 */
function outputProblems(outRoot: string, stamps: readonly Stamp[], files: readonly string[]): string[] {
  const shown = path.relative(process.cwd(), outRoot) || ".";
  const root = files.map((file) => outputFolderRefusal(outRoot, file)).find((refusal) => refusal !== undefined);
  if (root) return [`cannot write the fleet's output folder ${shown}: it ${root}; ${OUTPUT_FOLDER_FIX}`];
  return stamps.flatMap((stamp) => {
    const folder = path.join(outRoot, stamp.name);
    const occupied = fs.existsSync(folder) && fs.statSync(folder).isDirectory() && fs.readdirSync(folder).length > 0 && !isEarlierOutput(folder);
    return occupied
      ? [
          `stamp ${stamp.name}: ${path.join(shown, stamp.name)} holds files but no earlier output (no cdktf manifest.json); synth would replace it whole. Move it away, rename the stamp's file, or set CDKTF_OUTDIR to another folder.`,
        ]
      : [];
  });
}

/** Prints the collisions and the summed limits; false when the fleet must be refused. */
function checkAcross(stamps: readonly Stamp[], files: readonly string[], io: Io): boolean {
  const fileOf = (name: string) => files[stamps.findIndex((s) => s.name === name)] ?? name;
  io.out(`fleet: ${stamps.length} stamp${stamps.length === 1 ? "" : "s"}: ${stamps.map((s) => `${s.name} (${fileOf(s.name)})`).join(", ")}`);
  const collisions = fleetCollisions(stamps);
  const capacity = fleetCapacity(stamps);
  if (collisions.length > 0) {
    io.err(`${collisions.length} collision${collisions.length === 1 ? "" : "s"} between stamps:`);
    // One line per kind and stamps (a cluster name two stamps share gives eight identities).
    const groups = new Map<string, { what: string; stamps: readonly string[]; values: string[] }>();
    for (const c of collisions) {
      const key = `${c.what}\u0000${c.stamps.join("\u0000")}`;
      const group = groups.get(key) ?? { what: c.what, stamps: c.stamps, values: [] };
      group.values.push(`"${c.value}"`);
      groups.set(key, group);
    }
    for (const g of groups.values()) {
      const who = `stamps ${listed(g.stamps.map((s) => `${s} (${fileOf(s)})`))} ${g.stamps.length === 2 ? "both" : "all"} use`;
      io.err(`  ${g.what}${g.values.length > 1 ? ` (${g.values.length})` : ""}: ${who} ${g.values.join(", ")}`);
    }
    io.err("  give each stamp its own prefix, backend key prefix or workspace prefix, management cluster and cluster names (help/fleet.md).");
  }
  for (const error of capacity.errors) io.err(error);
  for (const warning of capacity.warnings) io.err(`warning: ${warning}`);
  const unknown = stamps.filter((s) => s.loaded.config.managementCluster && !managementClusterOf(s.loaded)).map((s) => s.name);
  if (unknown.length > 0) {
    io.out(
      `note: ${listed(unknown)} reach${unknown.length === 1 ? "es its" : " their"} management cluster through KUBE_* or Terraform variables: not compared (help/fleet.md).`,
    );
  }
  return collisions.length === 0 && capacity.errors.length === 0;
}

/** Synthesizes every stamp into its folder, then writes fleet-workspaces.json. */
function synthesizeAll(stamps: readonly Stamp[], files: readonly string[], outRoot: string, io: Io, synth: SynthRunner): number {
  const failed: string[] = [];
  stamps.forEach((stamp, i) => {
    const prefixed: Io = { out: (line) => io.out(`[${stamp.name}] ${line}`), err: (line) => io.err(`[${stamp.name}] ${line}`) };
    if (synth(files[i], path.join(outRoot, stamp.name), prefixed) !== 0) failed.push(stamp.name);
  });
  if (failed.length > 0) {
    io.err(`stamps ${listed(failed)} did not synthesize (above); ${FLEET_WORKSPACES} was not written.`);
    return 1;
  }
  fs.writeFileSync(path.join(outRoot, FLEET_WORKSPACES), `${JSON.stringify(fleetWorkspaces(stamps, files, outRoot), null, 2)}\n`);
  io.out(`${FLEET_WORKSPACES}: the workspaces of every stamp, each with its stamp, state and run order (help/fleet.md)`);
  return 0;
}

/** The fleet's workspaces: each stamp's workspaces.json entries with the stamp's name, config, output and backend. */
export function fleetWorkspaces(stamps: readonly Stamp[], files: readonly string[], outRoot: string): object {
  return {
    stamps: stamps.map((stamp, i) => {
      const output = path.join(outRoot, stamp.name);
      const written = JSON.parse(fs.readFileSync(path.join(output, "workspaces.json"), "utf8")) as { runOrder: string[][]; workspaces: object[] };
      const identity = remoteBackendIdentity(stamp.loaded.config);
      return {
        stamp: stamp.name,
        config: path.relative(process.cwd(), path.resolve(files[i])),
        output: path.relative(process.cwd(), output),
        backend: identity ? JSON.parse(identityText(identity)) : { type: "local" },
        runOrder: written.runOrder,
        workspaces: written.workspaces.map((w) => ({ stamp: stamp.name, ...w })),
      };
    }),
  };
}

function refuse(io: Io): number {
  io.err("nothing was written.");
  return 1;
}

/** `node scripts/run.js main <config>` with CDKTF_OUTDIR: the same synth as `npm run synth`, its lines prefixed. */
function synthInChild(configFile: string, outdir: string, io: Io): number {
  const run = spawnSync(process.execPath, [path.join(projectRoot(__dirname), "scripts", "run.js"), "main", configFile], {
    env: { ...process.env, CDKTF_OUTDIR: outdir },
    encoding: "utf8",
  });
  for (const line of run.stdout.split("\n").filter(Boolean)) io.out(line);
  for (const line of run.stderr.split("\n").filter(Boolean)) io.err(line);
  return run.status ?? 1;
}

/** The folder holding scripts/run.js, above `from` (scripts/ under tsx, dist/scripts/ in the bundle). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "scripts", "run.js"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`scripts/run.js not found above ${from}`);
  }
}

if (require.main === module) {
  process.exitCode = fleet(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
