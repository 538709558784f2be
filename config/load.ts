import * as fs from "node:fs";
import * as path from "node:path";
import { boundaryIssues, parseConfigYaml } from "./boundary";
import { keyId, rsaPublicKey } from "./keys";
import { DeploymentNames, deriveNames } from "./names";
import { BundleResult, OperatorBundle, readOperatorBundle } from "./operator-bundle";
import {
  bundleIssues,
  bundleWarnings,
  ConfigIssue,
  configWarnings,
  configuredHypershiftRelease,
  HOSTED_CLUSTER_RULES,
  NODE_POOL_RULES,
  hostedClusterCollisions,
  NAME_RULES,
  runRules,
  STRUCTURE_RULES,
} from "./rules";
import { Config, configSchema } from "./schema";
import { readLimitedFile } from "./read-file";
import { PLACEHOLDER_PUBLIC_KEY, placeholderKeyWarning } from "./review-mode";
import { readPublicKey } from "./signing-key";
import { readTrustBundle } from "./trust-bundle";
import { fromZodIssue } from "./zod-issues";
import { showValue } from "./rules/rule";

export interface LoadedConfig {
  readonly ok: true;
  readonly file: string;
  readonly config: Config;
  readonly names: DeploymentNames;
  /** SPKI PEM of each issuer's public key, by absolute key file path. */
  readonly publicKeys: ReadonlyMap<string, string>;
  /**
   * What each issuer's JWKS publishes, by its public key file: the current key's PEM followed by
   * those of `previousPublicKeyFiles` (a rotation). @default - the current key alone (publicKeys)
   */
  readonly jwksKeys?: ReadonlyMap<string, string>;
  /** PEM of each additional trust bundle (hostedCluster.additionalTrustBundleFile), by absolute file path. */
  readonly trustBundles: ReadonlyMap<string, string>;
  /** The checked HyperShift operator bundle, when managementCluster is configured. */
  readonly operatorBundle?: OperatorBundle;
  /**
   * The HyperShift release the user runs (help/management-cluster.md#the-hypershift-release):
   * `managementCluster.operator.hypershiftRelease`, else the bundle's. @default - HyperShift main
   */
  readonly hypershiftRelease?: string;
  /** Valid but worth acting on before `cdktf deploy` (printed by synth). */
  readonly warnings: readonly string[];
}

export interface ConfigErrors {
  readonly ok: false;
  readonly file: string;
  readonly issues: readonly ConfigIssue[];
}

/** Reads, validates and resolves a config file. Never throws for bad input: returns every issue. */
/** `review`: review mode (config/review-mode.ts): a missing signing public key becomes a marked placeholder. */
export function loadConfigFile(file: string, review = false): LoadedConfig | ConfigErrors {
  const read = readLimitedFile(file, "config", "file not found");
  if (!read.ok) return { ok: false, file, issues: [{ path: "(file)", value: file, message: read.message }] };
  const parsed = parseConfigYaml(read.text);
  if (!parsed.ok) return { ok: false, file, issues: parsed.issues };
  return validateConfig(parsed.value, path.dirname(path.resolve(file)), file, review);
}

/** Validates an already parsed config object; `configDir` resolves relative paths. */
export function validateConfig(input: unknown, configDir: string, file = "(inline)", review = false): LoadedConfig | ConfigErrors {
  // Config text is data: no cdktf token marker, no prototype key (config/boundary.ts).
  const boundary = boundaryIssues(input);
  if (boundary.length > 0) return { ok: false, file, issues: boundary };
  const parsed = configSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) return { ok: false, file, issues: parsed.error.issues.map(fromZodIssue) };
  const config = parsed.data;

  const structureIssues = runRules(STRUCTURE_RULES, config);
  if (structureIssues.length > 0) return { ok: false, file, issues: structureIssues };

  // The operator bundle, read once: its release decides how names are derived, and its checks run below.
  const operator = config.managementCluster?.operator;
  const bundleRead = operator && readOperatorBundle(path.resolve(configDir, operator.bundleFile), { omitKinds: operator.omitKinds });
  const hypershiftRelease = configuredHypershiftRelease(config, bundleRead);
  const names = deriveNames(config, configDir, hypershiftRelease);
  const issues: ConfigIssue[] = runRules(NAME_RULES, names);
  for (const cluster of names.clusters) {
    const hosted = cluster.hosted;
    if (!hosted) continue;
    const context = { config, names, cluster, hosted, spec: hosted.config, at: `clusters[${cluster.index}].hostedCluster` };
    issues.push(...runRules(HOSTED_CLUSTER_RULES, context));
    issues.push(...runRules(NODE_POOL_RULES, context));
  }
  issues.push(...hostedClusterCollisions(names));

  const warnings: string[] = configWarnings(config, names);
  const { publicKeys, jwksKeys } = readIssuerKeys(config, names, configDir, issues, review ? warnings : undefined);
  const trustBundles = readTrustBundles(names, issues);
  const operatorBundle = bundleChecked(bundleRead, config, names, issues, warnings);
  if (issues.length > 0) return { ok: false, file, issues };
  return { ok: true, file, config, names, publicKeys, jwksKeys, trustBundles, operatorBundle, hypershiftRelease, warnings };
}

/**
 * The issuers' public keys (read at synth to publish the JWKS): `publicKeys` the current key of each
 * issuer by key file, `jwksKeys` what its JWKS publishes (the current key, then keys being retired).
 */
function readIssuerKeys(
  config: Config,
  names: DeploymentNames,
  configDir: string,
  issues: ConfigIssue[],
  reviewWarnings?: string[],
): { publicKeys: Map<string, string>; jwksKeys: Map<string, string> } {
  const publicKeys = new Map<string, string>();
  const jwksKeys = new Map<string, string>();
  const issuerByKeyId = new Map<string, string>();
  for (const issuer of new Map(names.clusters.map((c) => [c.issuer.url, c.issuer])).values()) {
    const result = reviewWarnings ? readPublicKeyForReview(issuer.publicKeyFile, issuer.keyOrigin, reviewWarnings) : readPublicKey(issuer.publicKeyFile);
    if (!result.ok) {
      issues.push({ path: `${issuer.keyOrigin}.publicKeyFile`, value: relativeToCwd(issuer.publicKeyFile), message: result.message });
      continue;
    }
    // Isolation between per-cluster issuers is only real when their keys differ.
    const other = issuerByKeyId.get(result.keyId);
    if (other !== undefined) {
      issues.push({
        path: `${issuer.keyOrigin}.publicKeyFile`,
        value: relativeToCwd(issuer.publicKeyFile),
        message: `is the same key as ${other}.publicKeyFile; per-cluster issuers need distinct keys`,
      });
    }
    issuerByKeyId.set(result.keyId, issuer.keyOrigin);
    publicKeys.set(issuer.publicKeyFile, result.pem);
    jwksKeys.set(issuer.publicKeyFile, result.pem);
  }
  // Rotation: previous keys stay published beside the current one (help/oidc-issuer.md#rotating-the-signing-key).
  for (const issuer of new Map(names.clusters.map((c) => [c.issuer.url, c.issuer])).values()) {
    const current = jwksKeys.get(issuer.publicKeyFile);
    const previous = signingKeyAt(config, issuer.keyOrigin)?.previousPublicKeyFiles ?? [];
    if (current === undefined) continue;
    const published = [current];
    previous.forEach((file, index) => {
      const at = `${issuer.keyOrigin}.previousPublicKeyFiles[${index}]`;
      const result = readPublicKey(path.resolve(configDir, file));
      if (!result.ok) return void issues.push({ path: at, value: file, message: result.message });
      const owner = issuerByKeyId.get(result.keyId);
      if (owner === issuer.keyOrigin) issues.push({ path: at, value: file, message: "is the current key (publicKeyFile): list only keys being retired" });
      else if (owner !== undefined)
        issues.push({ path: at, value: file, message: `is ${owner}.publicKeyFile: an issuer publishing another issuer's key trusts that issuer's tokens` });
      else if (published.includes(result.pem)) issues.push({ path: at, value: file, message: "is listed twice" });
      else published.push(result.pem);
    });
    jwksKeys.set(issuer.publicKeyFile, published.join(""));
  }

  return { publicKeys, jwksKeys };
}

/** Review mode: a key file missing here is replaced by the placeholder key, with a warning. */
function readPublicKeyForReview(file: string, keyOrigin: string, warnings: string[]): ReturnType<typeof readPublicKey> {
  if (fs.existsSync(file)) return readPublicKey(file);
  warnings.push(placeholderKeyWarning(`${keyOrigin}.publicKeyFile`, relativeToCwd(file)));
  const key = rsaPublicKey(PLACEHOLDER_PUBLIC_KEY);
  return { ok: true, pem: key.export({ type: "spki", format: "pem" }).toString(), keyId: keyId(key) };
}

/** The additional trust bundles, by absolute file path. */
function readTrustBundles(names: DeploymentNames, issues: ConfigIssue[]): Map<string, string> {
  const trustBundles = new Map<string, string>();
  for (const cluster of names.clusters) {
    const file = cluster.hosted?.files.additionalTrustBundleFile;
    if (!file || trustBundles.has(file)) continue;
    const result = readTrustBundle(file);
    if (result.ok) trustBundles.set(file, result.pem);
    else issues.push({ path: `clusters[${cluster.index}].hostedCluster.additionalTrustBundleFile`, value: relativeToCwd(file), message: result.message });
  }

  return trustBundles;
}

/** The checked operator bundle, when managementCluster is configured (its issues and warnings added). */
function bundleChecked(read: BundleResult | undefined, config: Config, names: DeploymentNames, issues: ConfigIssue[], warnings: string[]) {
  if (!read || !names.managementCluster) return undefined;
  if (!read.ok) {
    const value = relativeToCwd(names.managementCluster.bundleFile);
    issues.push(...read.problems.map((message) => ({ path: "managementCluster.operator.bundleFile", value, message })));
    return undefined;
  }
  issues.push(...bundleIssues(config, names, read.bundle));
  warnings.push(...bundleWarnings(read.bundle, config));
  return read.bundle;
}

/** The signing key config at `keyOrigin` (`serviceAccountSigningKey` or `clusters[<i>].serviceAccountSigningKey`). */
function signingKeyAt(config: Config, keyOrigin: string): Config["serviceAccountSigningKey"] | undefined {
  const index = /^clusters\[(\d+)\]\./.exec(keyOrigin)?.[1];
  return index === undefined ? config.serviceAccountSigningKey : config.clusters[Number(index)]?.serviceAccountSigningKey;
}

/** `config error(s) in <file>:` followed by one `  <path>: <value> <message>` line per issue. */
export function formatIssues(errors: ConfigErrors): string {
  const lines = errors.issues.map((i) => `  ${i.path}: ${i.value === undefined ? "" : `${showValue(i.value)} `}${i.message}`);
  return [`config error(s) in ${errors.file}:`, ...lines].join("\n");
}

function relativeToCwd(file: string): string {
  return path.relative(process.cwd(), file) || file;
}
