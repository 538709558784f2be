/**
 * Which secret values the synthesized Terraform writes into state (issue 22, item 4), read from
 * the synthesized JSON: every argument of a Kubernetes Secret or Key Vault secret whose
 * expression carries a secret input, and whether that argument is stored (`data`, `binary_data`,
 * `value`) or write-only (`data_wo`, `binary_data_wo`, `value_wo`: never in plan or state).
 */

/** Arguments that hold a secret's value, by resource type: stored in state, or write-only. */
const VALUE_ARGUMENTS: Record<string, { stored: readonly string[]; writeOnly: readonly string[] }> = {
  kubernetes_secret_v1: { stored: ["data", "binary_data"], writeOnly: ["data_wo", "binary_data_wo"] },
  azurerm_key_vault_secret: { stored: ["value"], writeOnly: ["value_wo"] },
};

/** Where a secret input comes from, as its expression shows it. */
export type SecretSource = "plan-time file" | "plan-time variable" | "remote state" | "generated in state";

export interface SecretArgument {
  readonly stack: string;
  /** The secret as the cluster or vault names it: `<Secret name>[<key>]` or `keyvault:<name>`. */
  readonly secret: string;
  readonly argument: string;
  readonly source: SecretSource;
  /** true: the argument is write-only (kept out of plan and state). */
  readonly writeOnly: boolean;
}

/** The secret sources an expression refers to (none: a literal, a public key, a non-sensitive file). */
export function secretSources(expression: string, sensitiveVariables: ReadonlySet<string>): SecretSource[] {
  const found = new Set<SecretSource>();
  // PlanTimeInput's files mode wraps a secret file in sensitive(); a public key file is left bare.
  if (/\bsensitive\(\s*file\(/.test(expression)) found.add("plan-time file");
  for (const [, name] of expression.matchAll(/\bvar\.([A-Za-z_][A-Za-z0-9_-]*)/g)) if (sensitiveVariables.has(name)) found.add("plan-time variable");
  if (/\bdata\.terraform_remote_state\.[^.\s]+\.outputs\b/.test(expression)) found.add("remote state");
  // Private halves of generated keys, random bytes and passwords (public_key_* is not secret).
  if (
    /\btls_private_key\.[^.\s]+\.private_key_|\brandom_(bytes|password)\.[^.\s]+\.(base64|hex|result|bcrypt_hash)\b|\bazuread_application_password\.[^.\s]+\.value\b/.test(
      expression,
    )
  )
    found.add("generated in state");
  return [...found];
}

/** Every secret-bearing argument of one synthesized stack. */
export function secretArguments(stackName: string, stack: Record<string, any>): SecretArgument[] {
  const sensitiveVariables = new Set(
    Object.entries<Record<string, unknown>>(stack.variable ?? {})
      .filter(([, v]) => v.sensitive === true)
      .map(([name]) => name),
  );
  const found: SecretArgument[] = [];
  for (const [type, { stored, writeOnly }] of Object.entries(VALUE_ARGUMENTS)) {
    for (const resource of Object.values<Record<string, any>>(stack.resource?.[type] ?? {})) {
      for (const argument of [...stored, ...writeOnly]) {
        const value = resource[argument];
        if (value === undefined) continue;
        const entries: Array<[string | undefined, string]> =
          typeof value === "string" ? [[undefined, value]] : Object.entries<string>(value).map(([k, v]) => [k, String(v)]);
        for (const [key, expression] of entries) {
          // The SSH public key is read like a secret (a sensitive variable or file) but is not one.
          if (type === "kubernetes_secret_v1" && key === "id_rsa.pub") continue;
          for (const source of secretSources(expression, sensitiveVariables)) {
            const secret = type === "azurerm_key_vault_secret" ? `keyvault:${resource.name}` : `${resource.metadata.name}[${key}]`;
            found.push({ stack: stackName, secret, argument, source, writeOnly: writeOnly.includes(argument) });
          }
        }
      }
    }
  }
  return found;
}

/** Every secret-bearing argument of a synthesized app (stack name → Terraform JSON), sorted. */
export function appSecretArguments(stacks: Record<string, Record<string, any>>): SecretArgument[] {
  return Object.entries(stacks)
    .flatMap(([name, stack]) => secretArguments(name, stack))
    .sort((a, b) => `${a.stack} ${a.secret} ${a.source}`.localeCompare(`${b.stack} ${b.secret} ${b.source}`));
}

/** Arguments that never hold a secret in state: write-only values, their revisions, meta-arguments. */
const NOT_STORED = /(_wo|_wo_revision|_wo_version)$|^(lifecycle|depends_on|count|for_each|provider)$/;

/**
 * Other copies of secret inputs in one stack's state: any argument of any other resource or data
 * source (Terraform stores them all), and outputs, whose expression carries a secret source.
 * Labelled `<type> <argument>` (`data.<type>` for a data source, `output <name>`).
 */
export function otherSecretCopies(stackName: string, stack: Record<string, any>): Array<{ stack: string; label: string; source: SecretSource }> {
  const sensitiveVariables = new Set(
    Object.entries<Record<string, unknown>>(stack.variable ?? {})
      .filter(([, v]) => v.sensitive === true)
      .map(([name]) => name),
  );
  const found = new Map<string, { stack: string; label: string; source: SecretSource }>();
  const walk = (value: unknown, label: string): void => {
    if (typeof value === "string") {
      // Remote-state values other stacks read here are IDs; the secret ones are listed where they are
      // produced (the shared stack's outputs) and where they are written (Secrets, above).
      for (const source of secretSources(value, sensitiveVariables))
        if (source !== "remote state") found.set(`${label} ${source}`, { stack: stackName, label, source });
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, label));
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) if (!NOT_STORED.test(k)) walk(v, label);
  };
  for (const [mode, block] of [
    ["", stack.resource],
    ["data.", stack.data],
  ] as const)
    for (const [type, byName] of Object.entries<Record<string, any>>(block ?? {})) {
      if (mode === "" && type in VALUE_ARGUMENTS) continue;
      for (const resource of Object.values<Record<string, unknown>>(byName))
        for (const [argument, value] of Object.entries(resource)) if (!NOT_STORED.test(argument)) walk(value, `${mode}${type} ${argument}`);
    }
  for (const [name, output] of Object.entries<Record<string, unknown>>(stack.output ?? {})) walk(output.value, `output ${name}`);
  return [...found.values()].sort((a, b) => `${a.stack} ${a.label}`.localeCompare(`${b.stack} ${b.label}`));
}
