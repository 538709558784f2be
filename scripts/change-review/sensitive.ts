/**
 * Which synthesized values the review must never print. The synthesized JSON holds no secret by
 * design (plan-time secrets are references: `var.<name>` of a sensitive variable, or
 * `sensitive(file(...))` in files mode, both from constructs/plan-time-input; generated keys stay
 * in state), but a review must not rely on that: a literal that slipped in, a default given to a
 * sensitive variable or an edited output folder would otherwise end up in a pull-request comment.
 */

/** UUIDs and ARM IDs: identifiers, not secrets. */
const IDENTIFIER = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\/subscriptions\/[^\s]*)$/i;

/** What a masked value prints as. */
export const MASK = "(sensitive)";

/** Attributes that hold secret material, by resource type (first path segments). */
const SECRET_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  kubernetes_secret_v1: ["data", "binary_data", "data_wo"],
  kubernetes_secret: ["data", "binary_data"],
  azurerm_key_vault_secret: ["value", "value_wo"],
  azuread_application_password: ["value"],
  azuread_application_certificate: ["value"],
  tls_self_signed_cert: ["private_key_pem"],
};

/** An attribute name that says it holds a secret, wherever it appears. */
const SECRET_NAME =
  /(^|[._\]["])(password|passwd|secret_?value|client_secret|private_?key(_pem|_openssh|_pem_pkcs8)?|token|client_key(_data)?|access_key|connection_string|kube_(admin_)?config(_raw)?|dockerconfigjson|\.dockerconfigjson|stringData)("?\]|$)/i;

/** Terraform references whose value is a secret. */
const SECRET_REFERENCE = [
  /\bsensitive\(/, // PlanTimeInput files mode (sensitive spec), or any explicit marking
  /\bfile\(/, // PlanTimeInput files mode: whatever Terraform reads at plan time
  /\btls_private_key\.[^.}\s]+\.private_key/,
  /\brandom_(bytes|password|string)\.[^.}\s]+\.(base64|hex|result)/,
  /\.kube_(admin_)?config/,
  /\bazuread_application_password\.[^.}\s]+\.value/,
];

/** Literal secret material (a pasted key or pull secret). */
const SECRET_LITERAL = [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, /"auths"\s*:/, /\bAccountKey=/];

/** What makes values of one stack sensitive beyond the fixed rules: its sensitive variables. */
export interface SensitivityContext {
  /** Names of variables declared `sensitive: true` (PlanTimeInput's secrets), on either side. */
  readonly sensitiveVariables: ReadonlySet<string>;
}

/** The sensitive variables of the given stacks (old and new side of one stack). */
export function sensitivityContext(...stacks: (Record<string, any> | undefined)[]): SensitivityContext {
  const names = new Set<string>();
  for (const stack of stacks) {
    for (const [name, variable] of Object.entries<any>(stack?.variable ?? {})) if (variable?.sensitive === true) names.add(name);
  }
  return { sensitiveVariables: names };
}

/** Whether any string inside `value` is secret by its content (references or literal key material). */
export function hasSecretContent(value: unknown, context: SensitivityContext): boolean {
  if (typeof value === "string") {
    if (SECRET_LITERAL.some((pattern) => pattern.test(value))) return true;
    if (SECRET_REFERENCE.some((pattern) => pattern.test(value))) return true;
    for (const match of value.matchAll(/\bvar\.([A-Za-z_][\w-]*)/g)) if (context.sensitiveVariables.has(match[1])) return true;
    return false;
  }
  if (Array.isArray(value)) return value.some((item) => hasSecretContent(item, context));
  if (value && typeof value === "object") return Object.values(value).some((item) => hasSecretContent(item, context));
  return false;
}

/**
 * Whether the value at `path` of a block is sensitive. `kind` is the block kind (`resource`,
 * `data`, `output`, `variable`, ...), `type` the resource type, `body` the whole block (old or new),
 * so a Secret manifest or a sensitive output masks all of its values.
 */
export function isSensitive(kind: string, type: string, body: any, path: string, values: readonly unknown[], context: SensitivityContext): boolean {
  if (values.some((value) => hasSecretContent(value, context))) return true;
  if (SECRET_NAME.test(path)) return true;
  if ((kind === "output" || kind === "variable") && body?.sensitive === true && (path === "value" || path.startsWith("default"))) return true;
  if (kind !== "resource" && kind !== "data") return false;
  const secret = SECRET_ATTRIBUTES[type] ?? [];
  if (secret.some((attribute) => path === attribute || path.startsWith(`${attribute}.`) || path.startsWith(`${attribute}[`))) return true;
  // A Secret written as a raw manifest: everything under its data.
  return type === "kubernetes_manifest" && body?.manifest?.kind === "Secret" && /^manifest\.(data|stringData)\b/.test(path);
}

/**
 * Every string that was masked, so the final text can be scrubbed of them wherever else they might
 * surface (a CRD message quoting a value, a construct path). Short strings are not collected: they
 * would scrub ordinary words.
 */
export class MaskedValues {
  private readonly values = new Set<string>();

  add(value: unknown): void {
    if (typeof value === "string") {
      // IDs sitting in a Secret (subscription and tenant IDs, ARM IDs) are masked in their own cell
      // but not elsewhere: they name resources all over the report.
      if (value.length >= 8 && !IDENTIFIER.test(value)) this.values.add(value);
    } else if (Array.isArray(value)) value.forEach((item) => this.add(item));
    else if (value && typeof value === "object") Object.values(value).forEach((item) => this.add(item));
  }

  /** `text` with every collected value (longest first) replaced by MASK. */
  scrub(text: string): string {
    let out = text;
    // As written, and as JSON-escaped in a rendered value (a PEM's newlines become \n).
    const forms = [...this.values].flatMap((value) => [value, JSON.stringify(value).slice(1, -1)]);
    for (const form of forms.sort((a, b) => b.length - a.length)) out = out.split(form).join(MASK);
    return out;
  }
}
