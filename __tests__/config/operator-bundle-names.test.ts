import * as fc from "fast-check";
import { BundleResult, parseOperatorBundle } from "../../config/operator-bundle";
import { manifestId } from "../../constructs/hypershift-operator/hypershift-operator";
import { minimalBundle } from "./minimal-bundle";

const object = (apiVersion: string, kind: string, name: string, namespace?: string) =>
  `apiVersion: ${apiVersion}\nkind: ${JSON.stringify(kind)}\nmetadata:\n  name: ${JSON.stringify(name)}\n${namespace === undefined ? "" : `  namespace: ${JSON.stringify(namespace)}\n`}`;
const configMap = (name: string, namespace = "hypershift") => object("v1", "ConfigMap", name, namespace);

function problemsOf(result: BundleResult): readonly string[] {
  if (result.ok) throw new Error(`expected problems, got a bundle of ${result.bundle.objects.length} objects`);
  return result.problems;
}

/** The construct IDs cdktf gives the bundle's objects (constructs turn `/` into `--`). */
const constructIds = (result: BundleResult & { ok: true }) => result.bundle.objects.map((o) => manifestId(o).replace(/\//g, "--"));

describe("operator bundle object names (Kubernetes' own rules)", () => {
  it("refuses the names whose construct IDs collided (review: a/b beside a--b, a_/b beside a/_b), naming the object, its line and the rule", () => {
    expect(problemsOf(parseOperatorBundle(minimalBundle(configMap("a/b"), configMap("a--b"))))).toEqual([
      "ConfigMap \"a/b\" (line 16) has metadata.name \"a/b\", which is not a DNS-1123 subdomain: at most 253 characters, lowercase letters, digits, '-' and '.', each dot-separated part starting and ending with a letter or digit; the API server would refuse it; render the bundle again with valid names",
    ]);
    const problems = problemsOf(parseOperatorBundle(minimalBundle(configMap("b", "a_"), configMap("_b", "a"))));
    expect(problems).toEqual([
      expect.stringMatching(/^ConfigMap "b" \(line 16\) has metadata.namespace "a_", which is not a DNS-1123 label: at most 63 characters/),
      expect.stringMatching(/^ConfigMap "_b" \(line 22\) has metadata.name "_b", which is not a DNS-1123 subdomain/),
    ]);
  });

  it("applies the rule of each kind: Namespace and namespaces a label, Service a DNS-1035 label, RBAC a path segment, kinds DNS-1035", () => {
    const accepted = parseOperatorBundle(
      minimalBundle(
        object("rbac.authorization.k8s.io/v1", "ClusterRole", "system:hypershift:operator"),
        object("v1", "Service", "operator-metrics", "hypershift"),
        object("v1", "ConfigMap", "a.b-c", ""),
        object("v1", "Namespace", "hypershift"),
      ),
    );
    expect(accepted.ok).toBe(true);
    const refused = problemsOf(
      parseOperatorBundle(
        minimalBundle(
          object("v1", "Namespace", "a.b"),
          object("v1", "Service", "1metrics", "hypershift"),
          object("rbac.authorization.k8s.io/v1", "Role", "..", "hypershift"),
          object("rbac.authorization.k8s.io/v1", "RoleBinding", "a%2f", "hypershift"),
          object("example.com/v1", "My_Kind", "x", "hypershift"),
          configMap("x".repeat(254)),
          configMap("UPPER"),
        ),
      ),
    );
    expect(
      refused.map((p) =>
        p
          .replace(/ \(line \d+\)/, "")
          .split(", which is not ")[0]
          .replace(/"x{96}\.\.\./g, '"x..."'),
      ),
    ).toEqual([
      'Namespace "a.b" has metadata.name "a.b"',
      'Service "1metrics" has metadata.name "1metrics"',
      'Role ".." has metadata.name ".."',
      'RoleBinding "a%2f" has metadata.name "a%2f"',
      'My_Kind "x" has kind "My_Kind"',
      'ConfigMap "x..." has metadata.name "x..."',
      'ConfigMap "UPPER" has metadata.name "UPPER"',
    ]);
  });

  it("refuses one kind, namespace and name in two API groups (one Terraform resource name)", () => {
    const problems = problemsOf(
      parseOperatorBundle(minimalBundle(object("v1", "Widget", "w", "hypershift"), object("example.com/v1", "Widget", "w", "hypershift"))),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^Widget hypershift\/w appears twice, in API groups "" \(line 16\) and "example.com" \(line 22\); this project names/),
    ]);
  });

  it("any bundle it accepts gives every object its own construct ID (what crashed synth)", () => {
    // A small space around the collisions found, so that objects often share a construct ID when nothing refuses them.
    const name = fc.constantFrom("a/b", "a--b", "_b", "b", "a_b", "a", "a:b", "a.b");
    const namespace = fc.constantFrom(undefined, "a", "a_", "_a");
    const typed = fc.constantFrom(["v1", "ConfigMap"], ["rbac.authorization.k8s.io/v1", "Role"]);
    const obj = fc.tuple(typed, name, namespace).map(([[g, k], n, ns]) => object(g, k, n, ns));
    fc.assert(
      fc.property(fc.array(obj, { minLength: 2, maxLength: 3 }), (objects) => {
        const result = parseOperatorBundle(minimalBundle(...objects));
        if (!result.ok) return;
        const ids = constructIds(result);
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});
