import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import { DataResource, dependable, TerraformLocal, Token } from "cdktf";
import { Construct } from "constructs";
import { escapeTemplates } from "../hypershift-operator/hypershift-operator";
import { HostedCluster } from "./hosted-cluster";
import { ConfigKeyContext, HOSTED_CLUSTER_IMMUTABLE_FIELDS, ImmutableField, NODE_POOL_IMMUTABLE_FIELDS } from "./immutable-fields";
import { HyperShiftObject } from "./hypershift-object";

export interface CreationGuardProps extends ConfigKeyContext {
  /**
   * The HostedCluster construct to guard: its rendered objects give the values, and its
   * HostedCluster and NodePool resources are made to depend on their guard.
   */
  readonly hostedCluster: HostedCluster;
}

/**
 * Stops, at `terraform plan`, a config edit that the API server would refuse in the middle of an
 * apply: a change to a HostedCluster or NodePool field the CRDs make immutable
 * (`immutable-fields.ts`).
 *
 * Per object, a `terraform_data` keeps in state the values the object was created with (its
 * `input` is ignored after creation) and a postcondition per field compares them with the values
 * of the current config (a local). Terraform evaluates postconditions while planning when the
 * values are known, as literals are; a failed one fails the plan, so nothing is applied. Built-in
 * only: no provider, any backend. A NodePool's guard goes with it (added, renamed or removed
 * with the pool). Proven with the terraform binary in `__tests__/e2e/creation-guard.test.ts`.
 *
 * Construct IDs are a contract: `CreationGuard` (in the stack), `HostedCluster` and
 * `NodePool_<name>` below it.
 */
export class CreationGuard extends Construct {
  /** The guard of the HostedCluster. */
  public readonly hostedClusterGuard: DataResource;
  /** The guards of the NodePools, in config order. */
  public readonly nodePoolGuards: readonly DataResource[];

  constructor(scope: Construct, id: string, props: CreationGuardProps) {
    super(scope, id);
    const hc = props.hostedCluster;
    this.hostedClusterGuard = guard(
      this,
      "HostedCluster",
      hc.resource,
      HOSTED_CLUSTER_IMMUTABLE_FIELDS,
      props,
      "create a new cluster with the new value (a new clusters[] entry)",
    );
    this.nodePoolGuards = hc.nodePools.map((pool) => {
      const name = objectOf(pool).metadata.name;
      return guard(
        this,
        `NodePool_${name}`,
        pool,
        NODE_POOL_IMMUTABLE_FIELDS,
        { ...props, nodePoolName: name },
        "add a NodePool under a new name with the new value and remove this one",
      );
    });
  }
}

function objectOf(manifest: Manifest): HyperShiftObject {
  return manifest.manifestInput as unknown as HyperShiftObject;
}

/** The guard of one object, which `manifest` then depends on. */
function guard(
  scope: Construct,
  id: string,
  manifest: Manifest,
  fields: readonly ImmutableField[],
  context: ConfigKeyContext,
  wayForward: string,
): DataResource {
  const object = objectOf(manifest);
  const resource = guardValues(scope, id, {
    what: `${object.kind} ${object.metadata.namespace}/${object.metadata.name}`,
    fields,
    value: (field) => field.read(object),
    context,
    wayForward,
  });
  manifest.dependsOn = [...(manifest.dependsOn ?? []), dependable(resource)];
  return resource;
}

export interface GuardedValues {
  /** The guarded object, for messages (e.g. `HostedCluster clusters/hc1`). */
  readonly what: string;
  readonly fields: readonly ImmutableField[];
  /** The current value of a field: a literal (escaped for Terraform, as the objects are). */
  readonly value: (field: ImmutableField) => string;
  readonly context: ConfigKeyContext;
  /** What to do instead, ending the message. */
  readonly wayForward: string;
}

/**
 * A `terraform_data` (construct `<id>/Resource`, local `<id>/Config`) that keeps the values it was
 * created with and fails the plan, with a message per field, when the current values differ.
 */
export function guardValues(scope: Construct, id: string, props: GuardedValues): DataResource {
  const { what, fields, context, wayForward } = props;
  const values: Record<string, string> = {};
  for (const field of fields) {
    const value = props.value(field);
    // A reference would be unknown at plan, and the postcondition would only run during apply.
    if (Token.isUnresolved(value)) throw new Error(`internal: ${what} ${field.path} must be a literal to be guarded`);
    values[field.path] = value;
  }
  const construct = new Construct(scope, id);
  const current = new TerraformLocal(construct, "Config", values);
  const configured = (path: string) => `local.${current.friendlyUniqueId}["${path}"]`;
  return new DataResource(construct, "Resource", {
    input: current.expression,
    lifecycle: {
      // The state keeps the creation values; postconditions compare them with the config.
      ignoreChanges: ["input"],
      postcondition: fields.map((field) => {
        const now = configured(field.path);
        // A guard created before a field was guarded has no creation value for it: nothing to compare.
        const created = `try(self.input["${field.path}"], ${now})`;
        // Literal text is escaped; `what` and the values come from already escaped names.
        const [key, reason, forward] = [field.configKey(context), field.crdMessage, wayForward].map((text) => escapeTemplates(text) as string);
        const consequence = field.consequence ?? `The API server refuses this change (${reason}), so the apply would fail halfway.`;
        return {
          condition: `\${${condition(field, created, now)}}`,
          // Terraform evaluates the message even when the condition holds: `created`, not self.input[...].
          errorMessage:
            `${key}: ${what} was created with ${field.path} ${shown(created)}, and the config now gives ${shown(now)}. ` +
            `${consequence} Put the created value back, or ${forward}.`,
        };
      }),
    },
  });
}

function condition(field: ImmutableField, created: string, now: string): string {
  switch (field.rule) {
    case "always":
      return `${created} == ${now}`;
    case "whileSet":
      return `${created} == "" || ${now} == "" || ${created} == ${now}`;
    case "onceSet":
      return `${created} == "" || ${created} == ${now}`;
  }
}

/** A value in a message, quoted, or "(not set)". */
const shown = (expression: string) => `\${${expression} == "" ? "(not set)" : format("%q", ${expression})}`;
