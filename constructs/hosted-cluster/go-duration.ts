/**
 * A Go duration as `metav1.Duration` writes it: the CLI parses `--node-drain-timeout 30m` with
 * `time.ParseDuration` and the NodePool carries `time.Duration.String()`, "30m0s". Rendering the
 * same text keeps our manifests equal to the CLI's (and the next plan free of a diff).
 */

const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  "\u00b5s": 1_000n,
  "\u03bcs": 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** Nanoseconds of a non-negative Go duration string (`time.ParseDuration`, whose fractions truncate). */
export function parseGoDuration(text: string): bigint {
  if (text === "0") return 0n;
  const parts = [...text.matchAll(/(\d*)(?:\.(\d*))?(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/gu)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) throw new Error(`"${text}" is not a Go duration`);
  let total = 0n;
  for (const [, whole, fraction = "", unit] of parts) {
    const scale = UNIT_NS[unit];
    total += BigInt(whole || "0") * scale;
    if (fraction) total += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length);
  }
  return total;
}

/** `time.Duration.String()`: "0s", "1.5ms", "45s", "30m0s", "1h30m0s". */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return "0s";
  if (ns < 1_000_000_000n) {
    const [unit, scale] = ns < 1_000n ? ["ns", 1n] : ns < 1_000_000n ? ["\u00b5s", 1_000n] : ["ms", 1_000_000n];
    return `${decimal(ns, scale)}${unit}`;
  }
  const hours = ns / UNIT_NS.h;
  const minutes = (ns % UNIT_NS.h) / UNIT_NS.m;
  const seconds = decimal(ns % UNIT_NS.m, UNIT_NS.s);
  if (hours > 0n) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** `value / scale` in decimal, without trailing zeros. */
function decimal(value: bigint, scale: bigint): string {
  const whole = value / scale;
  const rest = value % scale;
  if (rest === 0n) return String(whole);
  const digits = String(scale).length - 1;
  return `${whole}.${String(rest).padStart(digits, "0").replace(/0+$/, "")}`;
}

/** The CLI's rendering of a duration the config gives. */
export const goDuration = (text: string) => formatGoDuration(parseGoDuration(text));
