import * as crypto from "node:crypto";
import * as path from "node:path";
import { LineCounter, parseDocument } from "yaml";
import type { DeploymentNames } from "../names";
import { secretsSource } from "../plan-time-inputs";
import { readLimitedFile, ReadResult } from "../read-file";
import type { Config } from "../schema";
import type { ConfigIssue } from "./rule";
import { expandHome } from "./secrets";
import { toJsProblem } from "../yaml-aliases";

/**
 * Files mode: the secret files Terraform reads at plan must be what they claim to be, or a deploy
 * stops half-way (or, for the signing key, "succeeds" with a cluster whose every component fails).
 * Checked by synth on this machine (main.ts), for the files that exist here (missing ones are
 * missingSecretFiles'); nothing read is kept, printed or written. Variables mode checks the same
 * properties at plan (config/plan-time-inputs.ts).
 */

export type FileReader = (file: string) => ReadResult;

/** A file check: what is wrong with the text, or undefined. Messages never quote the text. */
type Check = (text: string) => string | undefined;

const JSON_WITH =
  (what: string, keys: readonly string[]): Check =>
  (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return `is not JSON; it must be ${what}`;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return `is not a JSON object; it must be ${what}`;
    const missing = keys.filter((key) => {
      const field = (value as Record<string, unknown>)[key];
      return field === undefined || field === null || field === "";
    });
    return missing.length > 0 ? `has no ${missing.join(", ")}; it must be ${what}` : undefined;
  };

const pullSecret: Check = (text) => {
  const problem = JSON_WITH("the pull secret JSON from console.redhat.com/openshift/install/pull-secret", ["auths"])(text);
  if (problem) return problem;
  const auths = (JSON.parse(text) as { auths: unknown }).auths;
  return typeof auths === "object" && auths !== null && !Array.isArray(auths) && Object.keys(auths).length > 0
    ? undefined
    : 'has an empty or malformed "auths"; it must be the pull secret JSON from console.redhat.com/openshift/install/pull-secret';
};

/** One OpenSSH public key line (what `ssh-keygen` writes to the .pub file). */
export const OPENSSH_PUBLIC_KEY =
  /^(ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) [A-Za-z0-9+/]+={0,3}( [^\n]*)?\s*$/;

const sshPublicKey =
  (cluster: string): Check =>
  (text) => {
    if (/PRIVATE KEY/.test(text)) return `holds a PRIVATE key, which would be written into the ${cluster}-ssh-key Secret; give the public half (the .pub file)`;
    return OPENSSH_PUBLIC_KEY.test(text) ? undefined : "is not one OpenSSH public key line such as ssh-ed25519 AAAA... (the .pub file of ssh-keygen)";
  };

/** The signing key: a PEM private key whose public half is the published key (`spkiPem`). */
const signingKey =
  (spkiPem: string | undefined, keyOrigin: string): Check =>
  (text) => {
    if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(text))
      return "is not an unencrypted RSA private key in PEM (PKCS#1 or PKCS#8); give the .private file of npm run keygen or ccoctl";
    let derived: string;
    try {
      derived = crypto.createPublicKey(crypto.createPrivateKey(text)).export({ type: "spki", format: "pem" }).toString();
    } catch {
      return "cannot be read as a private key (damaged or encrypted PEM); give the .private file of npm run keygen or ccoctl";
    }
    if (spkiPem !== undefined && derived.trim() !== spkiPem.trim()) {
      return (
        `is not the private half of ${keyOrigin}.publicKeyFile: every service-account token would be signed with a key the issuer does not publish, ` +
        "and storage, ingress, node management and the cloud provider would fail after the deploy. Give the matching .private file, or make a new pair (npm run keygen) and publish its .public"
      );
    }
    return undefined;
  };

const kubeconfig =
  (context: string | undefined): Check =>
  (text) => {
    let value: unknown;
    // Where it fails and why, never the text (the library's messages quote the line).
    const lineCounter = new LineCounter();
    const document = parseDocument(text, { lineCounter });
    const error = document.errors[0];
    if (error)
      return `is not a kubeconfig: it does not parse as YAML (line ${error.linePos?.[0].line ?? "?"}, column ${error.linePos?.[0].col ?? "?"}: ${error.code})`;
    try {
      value = document.toJS({ maxAliasCount: 100 });
    } catch (error) {
      // Never the library's message: it may quote the file.
      const problem = toJsProblem(error, document, lineCounter);
      if (problem.kind === "unresolved alias")
        return `is not a kubeconfig: it does not parse as YAML (line ${problem.line}, column ${problem.col}: an alias (*name) that no anchor (&name) before it defines)`;
      return problem.kind === "alias bomb"
        ? "is not a kubeconfig: it does not parse as YAML (its aliases (*name) expand to too much data)"
        : "is not a kubeconfig: it does not parse as YAML";
    }
    const config = value as { clusters?: unknown; contexts?: Array<{ name?: unknown }>; "current-context"?: unknown } | null;
    if (typeof config !== "object" || config === null || !Array.isArray(config.clusters) || !Array.isArray(config.contexts)) {
      return "is not a kubeconfig (no clusters and contexts lists); give the file `oc login` or `az aks get-credentials` writes";
    }
    const names = config.contexts.map((c) => c?.name).filter((n): n is string => typeof n === "string");
    if (context !== undefined && !names.includes(context)) {
      return `has no context named ${JSON.stringify(context)} (managementCluster.kubeconfig.context); it has ${names.length > 0 ? names.map((n) => JSON.stringify(n)).join(", ") : "none"}`;
    }
    if (context === undefined && (typeof config["current-context"] !== "string" || !names.includes(config["current-context"]))) {
      return "has no current-context to use; set managementCluster.kubeconfig.context";
    }
    return undefined;
  };

/**
 * Config issues for every secret file of files mode that exists here but is not what it claims
 * to be. `publicKeys`: the published SPKI PEM by public key file (LoadedConfig.publicKeys).
 */
export function secretFileIssues(
  config: Config,
  names: DeploymentNames,
  publicKeys: ReadonlyMap<string, string>,
  read: FileReader = (file) => readLimitedFile(file, "secret"),
): ConfigIssue[] {
  if (secretsSource(config) !== "files") return [];
  const files: Array<[field: string, file: string | undefined, check: Check]> = [];
  for (const cluster of names.clusters) {
    const hosted = cluster.hosted;
    if (!hosted) continue;
    const at = `clusters[${cluster.index}].hostedCluster`;
    files.push([`${at}.pullSecretFile`, hosted.files.pullSecretFile, pullSecret]);
    files.push([`${at}.sshPublicKeyFile`, hosted.files.sshPublicKeyFile, sshPublicKey(cluster.name)]);
    files.push([
      `${cluster.issuer.keyOrigin}.privateKeyFile`,
      cluster.issuer.privateKeyFile,
      signingKey(publicKeys.get(cluster.issuer.publicKeyFile), cluster.issuer.keyOrigin),
    ]);
  }
  const management = names.managementCluster;
  if (management) {
    files.push(["managementCluster.pullSecretFile", management.pullSecretFile, pullSecret]);
    files.push([
      "managementCluster.externalDnsCredentialsFile",
      management.externalDnsCredentialsFile,
      JSON_WITH("azure_mgmt.json (tenantId, subscriptionId, resourceGroup, aadClientId, aadClientSecret)", [
        "tenantId",
        "subscriptionId",
        "resourceGroup",
        "aadClientId",
        "aadClientSecret",
      ]),
    ]);
    files.push([
      "managementCluster.privateLink.credentialsFile",
      names.privateLink?.credentialsFile,
      JSON_WITH("the Private Link credentials JSON (subscriptionId, tenantId, clientId, clientSecret)", [
        "subscriptionId",
        "tenantId",
        "clientId",
        "clientSecret",
      ]),
    ]);
    files.push(["managementCluster.kubeconfig.path", management.kubeconfig, kubeconfig(config.managementCluster?.kubeconfig?.context)]);
  }
  const seen = new Set<string>();
  const issues: ConfigIssue[] = [];
  for (const [field, file, check] of files) {
    if (!file || seen.has(`${field} ${file}`)) continue;
    seen.add(`${field} ${file}`);
    const result = read(expandHome(file));
    // A missing file is missingSecretFiles' (or exists only where Terraform runs).
    if (!result.ok && result.code === "ENOENT") continue;
    const problem = result.ok ? check(result.text) : result.message;
    if (problem) issues.push({ path: field, value: relativeToCwd(file), message: problem });
  }
  return issues;
}

function relativeToCwd(file: string): string {
  return file.startsWith("~") ? file : path.relative(process.cwd(), file) || file;
}
