import { Fn, TerraformStack, Testing } from "cdktf";
import * as path from "node:path";
import { BundleObject, KubernetesObject, readOperatorBundle, tierOf } from "../../config/operator-bundle";
import { escapeTemplates, HypershiftOperator, HypershiftOperatorProps, manifestId } from "../../constructs/hypershift-operator/hypershift-operator";
import { OperatorSecret, OperatorSecretProps } from "../../constructs/hypershift-operator/operator-secret";
import { terraformLiteral } from "../helpers";

const FIXTURE = path.join(__dirname, "..", "fixtures", "bundles", "render.yaml");

function fixtureObjects(): readonly BundleObject[] {
  const result = readOperatorBundle(FIXTURE);
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.bundle.objects;
}

/** A bundle object as the parser would make it (tier from the kind). */
function object(kind: string, name: string, namespace?: string, apiVersion = "apps/v1"): BundleObject {
  const manifest: KubernetesObject = { apiVersion, kind, metadata: namespace ? { name, namespace } : { name } };
  return { manifest, tier: tierOf(manifest), label: `${kind} ${namespace ? `${namespace}/` : ""}${name}`, line: 1, needsExistingCrd: false };
}

/** Synthesizes an operator in its own stack; `extra` may add more to the stack. */
function synth(props: HypershiftOperatorProps, extra?: (stack: TerraformStack, operator: HypershiftOperator) => void) {
  const stack = new TerraformStack(Testing.app(), "s");
  const operator = new HypershiftOperator(stack, "Op", props);
  extra?.(stack, operator);
  const json = JSON.parse(Testing.synth(stack));
  const manifests: Record<string, any> = json.resource.kubernetes_manifest;
  /** Terraform address of each object, by its label. */
  const address = new Map<string, string>(props.objects.map((o, i) => [o.label, `kubernetes_manifest.${stack.getLogicalId(operator.manifests[i])}`]));
  const resource = (label: string) => manifests[address.get(label)!.replace("kubernetes_manifest.", "")];
  return { json, manifests, address, resource, operator };
}

/** Every string and key of a synthesized value as Terraform reads it. */
function asTerraformReads(value: unknown): unknown {
  if (typeof value === "string") return terraformLiteral(value);
  if (Array.isArray(value)) return value.map(asTerraformReads);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [terraformLiteral(k), asTerraformReads(v)]));
  }
  return value;
}

describe("HypershiftOperator on a render-shaped bundle", () => {
  const objects = fixtureObjects();
  const { manifests, address, resource, operator } = synth({ objects });
  const tierAddresses = (tier: string) => objects.filter((o) => o.tier === tier).map((o) => address.get(o.label));

  it("makes one kubernetes_manifest per object, in apply order, named <Kind>_<namespace>_<name>", () => {
    expect(Object.keys(manifests)).toHaveLength(objects.length);
    expect(operator.manifests).toHaveLength(objects.length);
    expect(operator.node.children.map((c) => c.node.id)).toEqual([
      "CustomResourceDefinition__hostedclusters.hypershift.openshift.io",
      "PriorityClass__hypershift-operator",
      "Namespace__hypershift",
      "ServiceAccount_hypershift_operator",
      "ClusterRole__hypershift-operator",
      "Service_hypershift_operator",
      "ServiceMonitor_hypershift_operator",
      "Deployment_hypershift_external-dns",
      "Deployment_hypershift_operator",
      "ValidatingWebhookConfiguration__hypershift.openshift.io",
    ]);
    for (const o of objects) expect(resource(o.label).manifest.metadata.name).toBe(o.manifest.metadata.name);
  });

  it("chains the tiers: each depends on exactly the objects of the tier before it; definitions on nothing", () => {
    for (const a of tierAddresses("definitions")) expect(manifests[a!.split(".")[1]].depends_on).toBeUndefined();
    expect(resource("ServiceAccount hypershift/operator").depends_on).toEqual(tierAddresses("definitions"));
    expect(tierAddresses("definitions")).toHaveLength(3);
    for (const o of objects.filter((x) => x.tier === "configuration")) expect(resource(o.label).depends_on).toEqual(tierAddresses("definitions"));
    for (const o of objects.filter((x) => x.tier === "workloads")) expect(resource(o.label).depends_on).toEqual(tierAddresses("configuration"));
    expect(resource("ValidatingWebhookConfiguration hypershift.openshift.io").depends_on).toEqual(tierAddresses("workloads"));
  });

  it("waits for Deployments to roll out, and for nothing else", () => {
    for (const o of objects) {
      const expected = o.manifest.kind === "Deployment" ? { rollout: true } : undefined;
      expect([o.label, resource(o.label).wait]).toEqual([o.label, expected]);
    }
  });

  it("gives every manifest create/update timeouts of 10m and the field manager hcp-azure", () => {
    for (const o of objects) {
      expect(resource(o.label).timeouts).toEqual({ create: "10m", update: "10m" });
      expect(resource(o.label).field_manager).toEqual({ name: "hcp-azure" });
    }
  });

  it("prevents destroying the CRD and the Namespace, not the PriorityClass or anything else", () => {
    const guarded = objects.filter((o) => resource(o.label).lifecycle !== undefined).map((o) => o.label);
    expect(guarded).toEqual(["CustomResourceDefinition hostedclusters.hypershift.openshift.io", "Namespace hypershift"]);
    for (const label of guarded) expect(resource(label).lifecycle).toEqual({ prevent_destroy: true });
  });

  it("escapes Terraform template syntax in strings and keys", () => {
    const crd = resource("CustomResourceDefinition hostedclusters.hypershift.openshift.io").manifest;
    const schema = crd.spec.versions[0].schema.openAPIV3Schema;
    expect(schema.description).toBe("Renders $${not_a_reference} and %%{x} literally; $$${already} stays too.");
    expect(Object.keys(schema.properties).sort()).toEqual(["$${weird}", "creationTimestamp"]);
    const env = resource("Deployment hypershift/operator").manifest.spec.template.spec.containers[0].env;
    expect(env[1]).toEqual({ name: "TEMPLATE", value: "prefix-$${HOSTNAME}-%%{ if x }y%%{ endif }" });
    // $(VAR) is Kubernetes syntax, not Terraform's: untouched.
    expect(resource("Deployment hypershift/operator").manifest.spec.template.spec.containers[0].args).toEqual(["run", "--namespace=$(MY_NAMESPACE)"]);
  });

  it("round trip: what Terraform reads from the synthesized JSON is exactly the cleaned object", () => {
    for (const o of objects) {
      expect([o.label, asTerraformReads(resource(o.label).manifest)]).toEqual([o.label, o.manifest]);
    }
  });

  it("exposes the definitions tier for other resources to depend on", () => {
    expect(operator.definitions).toHaveLength(3);
    expect(operator.definitions).toEqual(operator.manifests.slice(0, 3));
  });
});

describe("HypershiftOperator options", () => {
  const objects = fixtureObjects();

  it("rolloutTimeout sets create and update timeouts of every manifest", () => {
    const { manifests } = synth({ objects, rolloutTimeout: "25m" });
    for (const m of Object.values(manifests)) expect(m.timeouts).toEqual({ create: "25m", update: "25m" });
  });

  it("preventDestroy: false lets the CRDs and Namespaces be destroyed", () => {
    const { resource } = synth({ objects, preventDestroy: false });
    expect(resource("CustomResourceDefinition hostedclusters.hypershift.openshift.io").lifecycle?.prevent_destroy ?? false).toBe(false);
    expect(resource("Namespace hypershift").lifecycle?.prevent_destroy ?? false).toBe(false);
  });

  it("addWorkloadDependency makes every workload, and only workloads, depend on the resource as well", () => {
    const secrets: string[] = [];
    const { resource, address } = synth({ objects }, (stack, operator) => {
      for (const name of ["pull-secret", "dns-creds"]) {
        const secret = new OperatorSecret(stack, name, { name, namespace: "hypershift", data: { key: Fn.file(`${name}.txt`) } });
        operator.addWorkloadDependency(secret.resource);
        secrets.push(`kubernetes_secret_v1.${stack.getLogicalId(secret.resource)}`);
      }
    });
    const tier = (name: string) => objects.filter((o) => o.tier === name).map((o) => address.get(o.label));
    const expected: Record<string, unknown> = {
      definitions: undefined,
      configuration: tier("definitions"),
      workloads: [...tier("configuration"), ...secrets],
      admission: tier("workloads"), // waits for the secrets through the workloads
    };
    for (const o of objects) expect([o.label, resource(o.label).depends_on]).toEqual([o.label, expected[o.tier]]);
  });

  it("waits for DaemonSet and StatefulSet rollouts but not for Jobs; a tier without objects is skipped in the chain", () => {
    const crd = object("CustomResourceDefinition", "hostedclusters.hypershift.openshift.io", undefined, "apiextensions.k8s.io/v1");
    const workloads = [object("DaemonSet", "ds", "ns"), object("StatefulSet", "sts", "ns"), object("Job", "job", "ns", "batch/v1")];
    const hook = object("MutatingWebhookConfiguration", "hooks", undefined, "admissionregistration.k8s.io/v1");
    const { resource, address } = synth({ objects: [crd, ...workloads, hook] });
    expect(resource("DaemonSet ns/ds").wait).toEqual({ rollout: true });
    expect(resource("StatefulSet ns/sts").wait).toEqual({ rollout: true });
    expect(resource("Job ns/job").wait).toBeUndefined();
    // No configuration tier: workloads depend on the definitions directly.
    for (const w of workloads) expect(resource(w.label).depends_on).toEqual([address.get(crd.label)]);
    expect(resource(hook.label).depends_on).toEqual(workloads.map((w) => address.get(w.label)));
  });

  it("rejects no objects and two objects with one construct ID", () => {
    const build = (props: HypershiftOperatorProps) => () => Testing.synthScope((scope) => void new HypershiftOperator(scope, "Op", props));
    expect(build({ objects: [] })).toThrow(/^HypershiftOperator: objects is empty/);
    const twice = [...objects, object("Deployment", "operator", "hypershift")];
    expect(build({ objects: twice })).toThrow("Deployment hypershift/operator appears twice");
    // Same kind and name in different API groups still collide in the construct ID.
    expect(build({ objects: [object("Widget", "w", "ns", "a.example.com/v1"), object("Widget", "w", "ns", "b.example.com/v1")] })).toThrow(
      /Widget ns\/w appears twice/,
    );
  });
});

describe("manifestId and escapeTemplates", () => {
  it("manifestId is <Kind>_<namespace>_<name>, with an empty namespace for cluster-scoped objects", () => {
    expect(manifestId(object("Deployment", "operator", "hypershift"))).toBe("Deployment_hypershift_operator");
    expect(manifestId(object("ClusterRole", "hypershift-operator", undefined, "rbac.authorization.k8s.io/v1"))).toBe("ClusterRole__hypershift-operator");
  });

  it("escapes every ${ and %{ exactly once, and only those", () => {
    expect(escapeTemplates("${a}")).toBe("$${a}");
    expect(escapeTemplates("%{a}")).toBe("%%{a}");
    expect(escapeTemplates("${a}${b}%{c}%{d}")).toBe("$${a}$${b}%%{c}%%{d}");
    expect(escapeTemplates("$${a}")).toBe("$$${a}");
    expect(escapeTemplates("$$ $ { % {} %% $(X) {x}")).toBe("$$ $ { % {} %% $(X) {x}");
    expect(escapeTemplates("ends with $")).toBe("ends with $");
  });

  it("escapes keys and nested values, keeps other types and does not change its input", () => {
    const input = { "${k}": [{ "%{j}": "${v}" }, 1, true, null], n: 2.5 };
    const copy = structuredClone(input);
    expect(escapeTemplates(input)).toEqual({ "$${k}": [{ "%%{j}": "$${v}" }, 1, true, null], n: 2.5 });
    expect(input).toEqual(copy);
  });

  it("round trip: Terraform reads back any string unchanged", () => {
    const samples = ["${x}", "$${x}", "$$${x}", "%%{x}", "$%{x}", "%${x}", "${${x}}", "a$", "%", "${", "%{", "$$", "{}", "${}%{}"];
    for (const s of samples) expect(terraformLiteral(escapeTemplates(s) as string)).toBe(s);
  });
});

describe("OperatorSecret", () => {
  const build = (props: Partial<OperatorSecretProps>) => () =>
    Testing.synthScope((scope) => void new OperatorSecret(scope, "S", { name: "external-dns-credentials", namespace: "hypershift", data: {}, ...props }));

  it("makes a kubernetes_secret_v1 of type Opaque from Terraform references", () => {
    const json = JSON.parse(build({ data: { credentials: Fn.file("azure.json") } })());
    const secrets = Object.values(json.resource.kubernetes_secret_v1) as any[];
    expect(secrets).toHaveLength(1);
    expect(secrets[0]).toMatchObject({
      metadata: { name: "external-dns-credentials", namespace: "hypershift", labels: { "app.kubernetes.io/managed-by": "hcp-azure" } },
      type: "Opaque",
      data_wo: { credentials: '${file("azure.json")}' },
    });
    // Write-only: never in plan or state; the revision (of the name and the data) makes a changed value be written.
    expect(secrets[0].data).toBeUndefined();
    expect(secrets[0].data_wo_revision).toBe(
      '${(parseint(substr(sha256(join("\\n", ["external-dns-credentials", jsonencode({"credentials" = file("azure.json")})])), 0, 13), 16) + 1)}',
    );
    expect(json.terraform.required_version).toBe(">= 1.11");
    const [id] = Object.keys(json.resource.kubernetes_secret_v1);
    expect(json.check).toEqual({
      [`${id}_data_out_of_state`]: {
        assert: [
          {
            condition: `\${try(length(kubernetes_secret_v1.${id}.data), 0) == 0}`,
            error_message: expect.stringContaining(`terraform apply -replace=kubernetes_secret_v1.${id}`),
          },
        ],
      },
    });
  });

  it("keeps a given type", () => {
    const json = JSON.parse(build({ name: "pull-secret", type: "kubernetes.io/dockerconfigjson", data: { ".dockerconfigjson": Fn.file("pull.json") } })());
    expect((Object.values(json.resource.kubernetes_secret_v1)[0] as any).type).toBe("kubernetes.io/dockerconfigjson");
  });

  it("rejects literal values, naming the keys, so no secret reaches cdktf.out", () => {
    expect(build({ data: { credentials: '{"tenantId":"t"}' } })).toThrow(
      "OperatorSecret hypershift/external-dns-credentials: data keys credentials are literal values; pass Terraform references",
    );
    expect(build({ data: { a: Fn.file("a"), b: "literal", c: "" } })).toThrow(/data keys b, c are literal values/);
  });

  it("rejects empty data", () => {
    expect(build({ data: {} })).toThrow("OperatorSecret hypershift/external-dns-credentials: data is empty");
  });

  it("depends on what it is given", () => {
    const stack = new TerraformStack(Testing.app(), "s");
    const operator = new HypershiftOperator(stack, "Op", { objects: fixtureObjects() });
    const secret = new OperatorSecret(stack, "S", { name: "n", namespace: "hypershift", data: { k: Fn.file("k") }, dependsOn: operator.definitions });
    const json = JSON.parse(Testing.synth(stack));
    expect(json.resource.kubernetes_secret_v1[stack.getLogicalId(secret.resource)].depends_on).toEqual(
      operator.definitions.map((d: any) => `kubernetes_manifest.${stack.getLogicalId(d)}`),
    );
  });
});
