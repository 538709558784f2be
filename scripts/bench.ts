import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse, stringify } from "yaml";

/**
 * `npm run bench -- [runs] [--no-test]`: synth time and peak memory of `node scripts/run.js main` (what `npm run synth` and the cdktf.json app run, without npm) for the bundled
 * example (examples/basic.yaml, 1 hosted cluster) and for copies of its cluster (10 and 100
 * hosted clusters: 3 stacks each, plus shared and management), as a table of medians; then the
 * time of one `npm test` (`node scripts/test.js`: tsc, ESLint, Prettier and jest at once), run
 * once after the synths, on the same machine under the same load (`--no-test` skips it). A
 * benchmark, not a test: it prints numbers, it does not judge them (issue 14's targets: 1 cluster
 * ≤ 0.5 s, 100 clusters ≤ 3 s in node; `npm run synth` ≤ 1 s). Each run is a fresh process into a
 * fresh output folder, as a user's synth is.
 */
/** The repository: this file runs as dist/scripts/bench.js, and from scripts/ under jest. */
const REPO = [path.resolve(__dirname, ".."), path.resolve(__dirname, "..", "..")].find((dir) => fs.existsSync(path.join(dir, "package.json"))) ?? process.cwd();
const EXAMPLE = path.join(REPO, "examples", "basic.yaml");
const RUN = path.join(REPO, "scripts", "run.js");
const TEST = path.join(REPO, "scripts", "test.js");
const SIZES = [1, 10, 100];

/** examples/basic.yaml with its hosted cluster copied `count` times (paths made absolute). */
export function configWithClusters(count: number): Record<string, any> {
  const config = parse(fs.readFileSync(EXAMPLE, "utf8"));
  const example = path.dirname(EXAMPLE);
  config.serviceAccountSigningKey.publicKeyFile = path.join(example, config.serviceAccountSigningKey.publicKeyFile);
  config.managementCluster.operator.bundleFile = path.join(example, config.managementCluster.operator.bundleFile);
  const [template] = config.clusters;
  template.hostedCluster.pullSecretFile = path.join(example, template.hostedCluster.pullSecretFile);
  config.clusters = Array.from({ length: count }, (_, i) => {
    const name = count === 1 ? template.name : `${template.name}-${String(i + 1).padStart(3, "0")}`;
    const cluster = structuredClone(template);
    cluster.name = name;
    cluster.hostedCluster.nodePools = cluster.hostedCluster.nodePools.map((pool: any) => ({ ...pool, name }));
    return cluster;
  });
  return config;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

interface Row {
  readonly clusters: number;
  readonly stacks: number;
  readonly seconds: number[];
  readonly peakMiB: number;
}

function measure(clusters: number, runs: number, work: string): Row {
  const configFile = path.join(work, `clusters-${clusters}.yaml`);
  fs.writeFileSync(configFile, stringify(configWithClusters(clusters)));
  // The child's own peak RSS, written when it exits (a preload, so main.js runs unchanged).
  const preload = path.join(work, "peak-rss.js");
  fs.writeFileSync(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`,
  );
  const seconds: number[] = [];
  let peakKiB = 0;
  let stacks = 0;
  for (let run = 0; run < runs; run++) {
    const outdir = path.join(work, `out-${clusters}-${run}`);
    const rssFile = path.join(work, "rss");
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, ["-r", preload, RUN, "main", configFile], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, CDKTF_OUTDIR: outdir, BENCH_RSS_FILE: rssFile },
    });
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
    if (result.status !== 0) throw new Error(`synth of ${clusters} clusters failed:\n${result.stderr}`);
    peakKiB = Math.max(peakKiB, Number(fs.readFileSync(rssFile, "utf8")));
    stacks = fs.readdirSync(path.join(outdir, "stacks")).length;
    fs.rmSync(outdir, { recursive: true, force: true });
  }
  return { clusters, stacks, seconds, peakMiB: peakKiB / 1024 };
}

export function table(rows: readonly Row[]): string {
  const lines = [
    "| hosted clusters | stacks | median s | min s | max s | peak RSS MiB |",
    "|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.clusters} | ${r.stacks} | ${median(r.seconds).toFixed(2)} | ${Math.min(...r.seconds).toFixed(2)} | ${Math.max(...r.seconds).toFixed(2)} | ${r.peakMiB.toFixed(0)} |`,
    ),
  ];
  return lines.join("\n");
}

/** One `npm test` (its output kept, not printed): seconds, and jest's summary or, failed, the output's end. */
function measureTests(): string {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [TEST], { cwd: REPO, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0)
    return `npm test (once): ${seconds.toFixed(1)} s, FAILED (exit ${result.status ?? result.signal}):\n${output.trimEnd().split("\n").slice(-30).join("\n")}`;
  const summary = ["Test Suites", "Tests"].map((label) => new RegExp(`^${label}:.*$`, "m").exec(output)?.[0]).filter((line) => line !== undefined);
  return `npm test (once): ${seconds.toFixed(1)} s, passed (${summary.join("; ")})`;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const withTests = !args.includes("--no-test");
  const runs = Number(args.find((arg) => arg !== "--no-test") ?? 5);
  if (!Number.isInteger(runs) || runs < 1) {
    console.error("usage: npm run bench -- [runs per size, default 5] [--no-test: skip the one npm test run]");
    process.exit(2);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "hcp-azure-bench-"));
  try {
    const rows = SIZES.map((clusters) => measure(clusters, runs, work));
    console.log(
      `node scripts/run.js main <config>, ${runs} runs per size, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}, node ${process.version}`,
    );
    console.log(table(rows));
    if (withTests) console.log(measureTests());
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
