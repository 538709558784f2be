import * as fs from "node:fs";
import * as path from "node:path";
import { parseAllDocuments } from "yaml";
import {
  BundleObject,
  BundleResult,
  EXAMPLE_ONLY_ANNOTATION,
  OperatorBundle,
  parseOperatorBundle,
  readOperatorBundle,
  RENDER_HINT,
} from "../../config/operator-bundle";
import { EXAMPLES, tempDir } from "../helpers";
import { minimalBundle } from "./minimal-bundle";

const FIXTURE = path.join(__dirname, "..", "fixtures", "bundles", "render.yaml");
const FIXTURE_TEXT = fs.readFileSync(FIXTURE, "utf8");

function bundleOf(result: BundleResult): OperatorBundle {
  if (!result.ok) throw new Error(`expected a bundle, got problems:\n${result.problems.join("\n")}`);
  return result.bundle;
}

function problemsOf(result: BundleResult): readonly string[] {
  if (result.ok) throw new Error(`expected problems, got a bundle of ${result.bundle.objects.length} objects`);
  return result.problems;
}

const labels = (objects: readonly BundleObject[]) => objects.map((o) => o.label);

describe("parseOperatorBundle on a render-shaped bundle", () => {
  const bundle = bundleOf(parseOperatorBundle(FIXTURE_TEXT));
  const byLabel = (label: string) => {
    const found = bundle.objects.find((o) => o.label === label);
    if (!found) throw new Error(`no ${label} in ${labels(bundle.objects).join(", ")}`);
    return found;
  };
  /** The fixture's documents exactly as YAML gives them, by `<Kind>/<name>`. */
  const raw = new Map<string, any>(
    parseAllDocuments(FIXTURE_TEXT)
      .map((d) => d.toJS())
      .filter((o) => o !== null)
      .map((o) => [`${o.kind}/${o.metadata.name}`, o]),
  );
  const rawCopy = (key: string) => structuredClone(raw.get(key));

  it("puts objects in apply order: tier, then bundle order within the tier; empty documents are skipped", () => {
    expect(labels(bundle.objects)).toEqual([
      "CustomResourceDefinition hostedclusters.hypershift.openshift.io",
      "PriorityClass hypershift-operator",
      "Namespace hypershift",
      "ServiceAccount hypershift/operator",
      "ClusterRole hypershift-operator",
      "Service hypershift/operator",
      "ServiceMonitor hypershift/operator",
      "Deployment hypershift/external-dns",
      "Deployment hypershift/operator",
      "ValidatingWebhookConfiguration hypershift.openshift.io",
    ]);
    expect(bundle.objects.map((o) => o.tier)).toEqual([
      "definitions",
      "definitions",
      "definitions",
      "configuration",
      "configuration",
      "configuration",
      "configuration",
      "workloads",
      "workloads",
      "admission",
    ]);
  });

  it("records the line where each object starts (its first key, not the `---` before it or the file's comments)", () => {
    const starts = FIXTURE_TEXT.split("\n").flatMap((text, i) => (text.startsWith("apiVersion:") ? [i + 1] : []));
    expect(starts).toHaveLength(10);
    const inBundleOrder = [...bundle.objects].sort((a, b) => a.line - b.line);
    expect(inBundleOrder.map((o) => o.line)).toEqual(starts);
    expect(byLabel("CustomResourceDefinition hostedclusters.hypershift.openshift.io").line).toBe(5);
  });

  it("removes top-level status, metadata and pod-template creationTimestamp, and nulls; keeps everything else as rendered", () => {
    const crd = rawCopy("CustomResourceDefinition/hostedclusters.hypershift.openshift.io");
    delete crd.status;
    delete crd.metadata.creationTimestamp;
    expect(byLabel("CustomResourceDefinition hostedclusters.hypershift.openshift.io").manifest).toEqual(crd);

    const namespace = rawCopy("Namespace/hypershift");
    expect(namespace.spec).toEqual({});
    delete namespace.status;
    delete namespace.metadata.creationTimestamp;
    // Empty maps are dropped outside CRDs: the API server omits them, and kubernetes_manifest
    // would report an inconsistent result after apply.
    delete namespace.spec;
    expect(byLabel("Namespace hypershift").manifest).toEqual(namespace);

    const operator = rawCopy("Deployment/operator");
    delete operator.status;
    delete operator.metadata.creationTimestamp;
    delete operator.spec.template.metadata.creationTimestamp;
    delete operator.spec.template.spec.nodeSelector;
    delete operator.spec.template.spec.containers[0].env[1].valueFrom;
    expect(operator.spec.strategy).toEqual({});
    expect(operator.spec.template.spec.containers[0].resources).toEqual({});
    delete operator.spec.strategy; // empty maps go too
    delete operator.spec.template.spec.containers[0].resources;
    expect(byLabel("Deployment hypershift/operator").manifest).toEqual(operator);

    const service = rawCopy("Service/operator");
    delete service.status;
    delete service.metadata.creationTimestamp;
    expect(byLabel("Service hypershift/operator").manifest).toEqual(service);
  });

  it("keeps nested status and a schema property named creationTimestamp (only top-level status and metadata.creationTimestamp go)", () => {
    const crd: any = byLabel("CustomResourceDefinition hostedclusters.hypershift.openshift.io").manifest;
    expect(crd.status).toBeUndefined();
    expect(crd.spec.versions[0].subresources).toEqual({ status: {} });
    expect(Object.keys(crd.spec.versions[0].schema.openAPIV3Schema.properties)).toEqual(["creationTimestamp", "${weird}"]);
    expect(crd.spec.versions[0].schema.openAPIV3Schema.description).toBe("Renders ${not_a_reference} and %{x} literally; $${already} stays too.");
  });

  it("leaves no status, no null and no metadata.creationTimestamp anywhere", () => {
    for (const { manifest, label } of bundle.objects) {
      expect([label, "status" in manifest]).toEqual([label, false]);
      const json = JSON.stringify(manifest);
      expect([label, json.includes("null")]).toEqual([label, false]);
      expect([label, /"metadata":\{[^{}]*"creationTimestamp"/.test(json)]).toEqual([label, false]);
    }
  });

  it("drops metadata.namespace from a built-in cluster-scoped kind but keeps it on namespaced kinds", () => {
    const webhook = byLabel("ValidatingWebhookConfiguration hypershift.openshift.io").manifest;
    expect(webhook.metadata).toEqual({ name: "hypershift.openshift.io" });
    // The service reference inside the webhook keeps its namespace.
    expect((webhook as any).webhooks[0].clientConfig.service.namespace).toBe("hypershift");
    expect(byLabel("Deployment hypershift/operator").manifest.metadata.namespace).toBe("hypershift");
    expect(byLabel("ServiceMonitor hypershift/operator").manifest.metadata.namespace).toBe("hypershift");
  });

  it("marks only the custom resource of a group outside the built-in APIs as needing an existing CRD", () => {
    expect(bundle.objects.filter((o) => o.needsExistingCrd).map((o) => o.label)).toEqual(["ServiceMonitor hypershift/operator"]);
  });

  it("reports the operator namespace and external-dns settings from the Deployments", () => {
    expect(bundle.operatorNamespace).toBe("hypershift");
    expect(bundle.externalDns).toEqual({
      namespace: "hypershift",
      domainFilters: ["apps.example.com", "api.example.com"],
      provider: "azure",
      credentialsSecret: "my-dns-secret",
      imagePullSecrets: ["pull-secret"],
    });
    expect(bundle.exampleOnly).toBe(false);
  });

  it("readOperatorBundle reads the same bundle from a file", () => {
    expect(bundleOf(readOperatorBundle(FIXTURE))).toEqual(bundle);
  });
});

describe("parseOperatorBundle on the example bundles", () => {
  const plain = bundleOf(readOperatorBundle(path.join(EXAMPLES, "operator", "hypershift-operator.yaml")));
  const withDns = bundleOf(readOperatorBundle(path.join(EXAMPLES, "operator", "hypershift-operator-external-dns.yaml")));

  it("parses both, marked example-only, with the operator in the hypershift namespace", () => {
    for (const bundle of [plain, withDns]) {
      expect(bundle.exampleOnly).toBe(true);
      expect(bundle.operatorNamespace).toBe("hypershift");
      expect(labels(bundle.objects)).toContain("Deployment hypershift/operator");
      expect(labels(bundle.objects)).toContain("CustomResourceDefinition hostedclusters.hypershift.openshift.io");
    }
    expect(labels(withDns.objects)).toEqual(expect.arrayContaining(labels(plain.objects)));
    expect(withDns.objects.length - plain.objects.length).toBe(5); // external-dns SA, ClusterRole, binding, Deployment, PodMonitor
  });

  it("detects external-dns only in the bundle rendered with --external-dns-*", () => {
    expect(plain.externalDns).toBeUndefined();
    expect(withDns.externalDns).toEqual({
      namespace: "hypershift",
      domainFilters: ["myprefix.example.com"],
      provider: "azure",
      credentialsSecret: "external-dns-credentials",
      imagePullSecrets: ["pull-secret"],
      txtOwnerId: "myprefix",
    });
  });

  it("lists the Secrets workloads need that the bundle does not hold, marking OpenShift serving certificates", () => {
    expect(withDns.secretReferences).toEqual([
      { workload: "Deployment hypershift/external-dns", namespace: "hypershift", secret: "external-dns-credentials", use: "volume", servingCert: false },
      { workload: "Deployment hypershift/external-dns", namespace: "hypershift", secret: "pull-secret", use: "imagePullSecret", servingCert: false },
      { workload: "Deployment hypershift/operator", namespace: "hypershift", secret: "manager-serving-cert", use: "volume", servingCert: true },
    ]);
  });

  it("needs existing CRDs exactly for the monitoring.coreos.com kinds", () => {
    const needing = withDns.objects.filter((o) => o.needsExistingCrd);
    expect(needing.map((o) => o.label).sort()).toEqual(["PodMonitor hypershift/external-dns", "ServiceMonitor hypershift/operator"]);
    for (const o of withDns.objects) expect([o.label, o.needsExistingCrd]).toEqual([o.label, o.manifest.apiVersion.startsWith("monitoring.coreos.com/")]);
  });

  it("omitKinds leaves the named kinds out and nothing else", () => {
    const omitted = bundleOf(
      readOperatorBundle(path.join(EXAMPLES, "operator", "hypershift-operator-external-dns.yaml"), { omitKinds: ["ServiceMonitor", "PodMonitor"] }),
    );
    expect(labels(omitted.objects)).toEqual(labels(withDns.objects).filter((l) => !/^(ServiceMonitor|PodMonitor) /.test(l)));
    expect(omitted.objects.some((o) => o.needsExistingCrd)).toBe(false);
    expect(omitted.externalDns).toEqual(withDns.externalDns);
  });

  it("orders the examples by tier: 4 priority classes, namespace and CRDs before RBAC, workloads after", () => {
    const tiers = withDns.objects.map((o) => o.tier);
    expect(tiers).toEqual(
      [...tiers].sort(
        (a, b) => ["definitions", "configuration", "workloads", "admission"].indexOf(a) - ["definitions", "configuration", "workloads", "admission"].indexOf(b),
      ),
    );
    expect(withDns.objects.filter((o) => o.tier === "definitions").map((o) => o.manifest.kind)).toEqual([
      "CustomResourceDefinition",
      "CustomResourceDefinition",
      "PriorityClass",
      "PriorityClass",
      "PriorityClass",
      "PriorityClass",
      "Namespace",
    ]);
    expect(withDns.objects.filter((o) => o.tier === "workloads").map((o) => o.label)).toEqual([
      "Deployment hypershift/external-dns",
      "Deployment hypershift/operator",
    ]);
  });
});

describe("parseOperatorBundle rejects what cannot be applied", () => {
  it("malformed YAML: names the line and column of the error", () => {
    const text = minimalBundle("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n   namespace: b\n");
    const problems = problemsOf(parseOperatorBundle(text));
    expect(problems).toHaveLength(1);
    // The over-indented key turns the value of `name` (line 19, column 9) into a nested mapping.
    expect(text.split("\n")[19 - 1]).toBe("  name: a");
    expect(problems[0]).toBe("is not valid YAML at line 19, column 9: Nested mappings are not allowed in compact mappings");
    expect(problems[0]).not.toMatch(/\n/);
  });

  it("malformed YAML: a duplicate key, naming its line", () => {
    const problems = problemsOf(parseOperatorBundle("apiVersion: v1\nkind: ConfigMap\nkind: Secret\nmetadata: {name: a}\n"));
    expect(problems).toEqual([expect.stringMatching(/^is not valid YAML at line 3, column 1: Map keys must be unique/)]);
  });

  it("malformed YAML: an alias without an anchor is a problem, not an exception", () => {
    const text = minimalBundle("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: *nowhere\n");
    let result: BundleResult | undefined;
    expect(() => (result = parseOperatorBundle(text))).not.toThrow();
    // Where the alias is, and what it names (the library says neither where nor how to fix it).
    expect(problemsOf(result!)).toEqual([
      "is not valid YAML at line 20, column 7: it uses the alias *nowhere, but no anchor &nowhere comes before it (an alias repeats a value marked &nowhere earlier in the file); mark that value with &nowhere above this line, or write the value out",
    ]);
  });

  it("a document that is not a mapping", () => {
    const problems = problemsOf(parseOperatorBundle(minimalBundle("just a string\n", "- a\n- b\n")));
    expect(problems).toEqual(["document 3 (line 16) is not a Kubernetes object (got string)", "document 4 (line 18) is not a Kubernetes object (got a list)"]);
  });

  it("an object without apiVersion, kind or metadata.name names what is missing", () => {
    const problems = problemsOf(
      parseOperatorBundle(
        minimalBundle(
          "kind: ConfigMap\nmetadata:\n  name: a\n",
          "apiVersion: v1\nmetadata:\n  name: b\n",
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: x\n",
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ""\n',
        ),
      ),
    );
    expect(problems).toEqual([
      "document 3 (line 16) is not a Kubernetes object: missing apiVersion",
      "document 4 (line 20) is not a Kubernetes object: missing kind",
      "document 5 (line 24) is not a Kubernetes object: missing metadata.name",
      "document 6 (line 29) is not a Kubernetes object: missing metadata.name",
    ]);
    expect(problemsOf(parseOperatorBundle("foo: bar\n"))).toEqual(["document 1 (line 1) is not a Kubernetes object: missing apiVersion, kind, metadata.name"]);
  });

  it("a metadata.namespace that is not a string", () => {
    expect(problemsOf(parseOperatorBundle(minimalBundle("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: 7\n")))).toEqual([
      "document 3 (line 16) has a metadata.namespace that is not a string",
    ]);
  });

  it("an object twice, naming both lines", () => {
    const dup = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  namespace: hypershift\n";
    expect(problemsOf(parseOperatorBundle(minimalBundle(dup, dup)))).toEqual(["ConfigMap hypershift/cfg appears twice (lines 16 and 22)"]);
    // Same name in another namespace, or of another kind, is another object.
    expect(parseOperatorBundle(minimalBundle(dup, dup.replace("namespace: hypershift", "namespace: other"), dup.replace("ConfigMap", "Secret"))).ok).toBe(true);
  });

  it("a cluster-scoped object twice even when only the (ignored) namespace differs", () => {
    const webhook = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: hooks\n  namespace: a\n";
    expect(problemsOf(parseOperatorBundle(minimalBundle(webhook, webhook.replace("namespace: a", "namespace: b"))))).toEqual([
      "ValidatingWebhookConfiguration hooks appears twice (lines 16 and 22)",
    ]);
  });

  it("a Secret with data or stringData (it would be synthesized into cdktf.out)", () => {
    const problems = problemsOf(
      parseOperatorBundle(
        minimalBundle(
          "apiVersion: v1\nkind: Secret\nmetadata:\n  name: pull-secret\n  namespace: hypershift\ndata:\n  .dockerconfigjson: e30=\n",
          "apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  namespace: hypershift\nstringData:\n  credentials: x\n",
        ),
      ),
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^Secret hypershift\/pull-secret \(line 16\) carries secret data.*--render-sensitive/);
    expect(problems[1]).toMatch(/^Secret hypershift\/creds \(line 24\) carries secret data/);
  });

  it("a custom resource whose CRD is in the same bundle", () => {
    const problems = problemsOf(
      parseOperatorBundle(minimalBundle("apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedCluster\nmetadata:\n  name: hc1\n  namespace: clusters\n")),
    );
    expect(problems).toEqual([expect.stringMatching(/^HostedCluster clusters\/hc1 \(line 16\) is a custom resource whose CRD is in the same bundle; .*#1391/)]);
  });

  it("an incomplete bundle: names the missing operator Deployment and/or HostedCluster CRD", () => {
    const [crd, operator] = minimalBundle().split("---\n");
    expect(problemsOf(parseOperatorBundle(crd))).toEqual([
      expect.stringMatching(/not a complete HyperShift operator bundle \(missing the Deployment 'operator'\); .*--outputs all/),
    ]);
    expect(problemsOf(parseOperatorBundle(operator))).toEqual([expect.stringMatching(/\(missing the HostedCluster CRD\)/)]);
    expect(problemsOf(parseOperatorBundle("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: hypershift\n"))).toEqual([
      expect.stringMatching(/\(missing the Deployment 'operator' and the HostedCluster CRD\)/),
    ]);
    // Omitting a kind the operator needs is refused outright.
    expect(problemsOf(parseOperatorBundle(minimalBundle(), { omitKinds: ["Deployment"] }))).toEqual(
      expect.arrayContaining(["cannot omit Deployment: the operator needs it (omitKinds)"]),
    );
  });

  it("an empty bundle: no text, only comments or only document markers", () => {
    for (const text of ["", "# rendered nothing\n", "---\n---\n"]) {
      expect(problemsOf(parseOperatorBundle(text))).toEqual([`contains no Kubernetes objects; ${RENDER_HINT}`]);
    }
  });

  it("reports every problem of the bundle at once", () => {
    const problems = problemsOf(parseOperatorBundle("a: [\n---\n42\n---\napiVersion: v1\nkind: ConfigMap\n"));
    expect(problems).toEqual([
      "is not valid YAML at line 2, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]",
      "document 2 (line 3) is not a Kubernetes object (got number)",
      "document 3 (line 5) is not a Kubernetes object: missing metadata.name",
    ]);
  });

  it("an unreadable file names the error code and how to render the bundle", () => {
    const dir = tempDir();
    expect(problemsOf(readOperatorBundle(path.join(dir, "missing.yaml")))).toEqual([`cannot read the operator bundle: file not found; ${RENDER_HINT}`]);
    expect(problemsOf(readOperatorBundle(dir))).toEqual([`cannot read the operator bundle: is a directory; give the path of the file itself; ${RENDER_HINT}`]);
    expect(RENDER_HINT).toContain("hypershift install render --format yaml --outputs all");
  });
});

describe("parseOperatorBundle on other shapes", () => {
  it("flattens a v1 List (the `--format json` output) into its items", () => {
    const list = {
      apiVersion: "v1",
      kind: "List",
      items: [
        { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "operator", namespace: "hs" } },
        { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "hostedclusters.hypershift.openshift.io" }, status: {} },
      ],
    };
    const bundle = bundleOf(parseOperatorBundle(JSON.stringify(list)));
    expect(labels(bundle.objects)).toEqual(["CustomResourceDefinition hostedclusters.hypershift.openshift.io", "Deployment hs/operator"]);
    expect(bundle.objects.every((o) => o.line === 1)).toBe(true);
    expect(bundle.operatorNamespace).toBe("hs");
    expect(problemsOf(parseOperatorBundle(JSON.stringify({ ...list, items: [...list.items, { kind: "ConfigMap" }] })))).toEqual([
      "document 1 (line 1) is not a Kubernetes object: missing apiVersion, metadata.name",
    ]);
  });

  it('exampleOnly needs the annotation with the exact value "true" on some object', () => {
    const annotated = (value: string) =>
      minimalBundle(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: hypershift\n  annotations:\n    ${EXAMPLE_ONLY_ANNOTATION}: ${value}\n`);
    expect(bundleOf(parseOperatorBundle(annotated('"true"'))).exampleOnly).toBe(true);
    expect(bundleOf(parseOperatorBundle(annotated('"false"'))).exampleOnly).toBe(false);
    expect(bundleOf(parseOperatorBundle(minimalBundle())).exampleOnly).toBe(false);
  });

  it("keeps the namespace of a cluster-scoped kind name in a custom API group (not a built-in)", () => {
    const bundle = bundleOf(parseOperatorBundle(minimalBundle("apiVersion: example.com/v1\nkind: ClusterRole\nmetadata:\n  name: x\n  namespace: ns\n")));
    const custom = bundle.objects.find((o) => o.manifest.apiVersion === "example.com/v1")!;
    expect(custom.manifest.metadata.namespace).toBe("ns");
    expect(custom.needsExistingCrd).toBe(true);
  });

  it("external-dns: takes flags from command and args, the secret mounted at /etc/provider, and defaults", () => {
    const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: external-dns
  namespace: dns
spec:
  template:
    spec:
      containers:
      - name: sidecar
        args: [--domain-filter=wrong.example.com]
      - name: external-dns
        command: [/external-dns, --domain-filter=a.example.com]
        args: [--provider=azure, --domain-filter=b.example.com, --domain-filter-extra=c]
        volumeMounts:
        - {name: other, mountPath: /etc/other}
        - {name: creds, mountPath: /etc/provider}
      volumes:
      - {name: other, secret: {secretName: not-this}}
      - {name: creds, secret: {secretName: dns-creds}}
`;
    expect(bundleOf(parseOperatorBundle(minimalBundle(deployment))).externalDns).toEqual({
      namespace: "dns",
      domainFilters: ["a.example.com", "b.example.com"],
      provider: "azure",
      credentialsSecret: "dns-creds",
      imagePullSecrets: [],
    });
    const bare = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: external-dns\n  namespace: dns\n";
    expect(bundleOf(parseOperatorBundle(minimalBundle(bare))).externalDns).toEqual({
      namespace: "dns",
      domainFilters: [],
      provider: undefined,
      credentialsSecret: undefined,
      imagePullSecrets: [],
    });
  });
});

describe("parseOperatorBundle: review follow-ups", () => {
  const bundle = (extra: string) => `${minimalBundle()}\n---\n${extra}`;

  it("drops empty maps and lists outside CRDs, but keeps emptyDir and selectors that mean 'everything'", () => {
    const result = parseOperatorBundle(
      bundle(
        [
          "apiVersion: apps/v1",
          "kind: Deployment",
          "metadata: {name: extra, namespace: hypershift}",
          "spec:",
          "  strategy: {}",
          "  selector: {matchLabels: {app: extra}}",
          "  template:",
          "    metadata: {labels: {app: extra}}",
          "    spec:",
          "      containers: [{name: c, image: i, resources: {requests: {}}, args: []}]",
          "      volumes: [{name: scratch, emptyDir: {}}]",
        ].join("\n"),
      ),
    );
    if (!result.ok) throw new Error(result.problems.join("\n"));
    const extra = result.bundle.objects.find((o) => o.label === "Deployment hypershift/extra")!.manifest as any;
    expect(extra.spec.strategy).toBeUndefined();
    expect(extra.spec.template.spec.containers).toEqual([{ name: "c", image: "i" }]);
    expect(extra.spec.template.spec.volumes).toEqual([{ name: "scratch", emptyDir: {} }]);
  });

  it("reports integers a JSON number cannot hold exactly instead of rounding them; 2^53 itself is fine", () => {
    const big = parseOperatorBundle(bundle("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: n, namespace: hypershift}\nx: 9007199254740993"));
    expect(problemsOf(big)).toEqual([expect.stringMatching(/integers beyond .*: 9007199254740993$/)]);
    const edge = parseOperatorBundle(bundle("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: n, namespace: hypershift}\nx: 9007199254740992"));
    expect(edge.ok).toBe(true);
  });

  it("an alias bomb in the bundle is named as such, not with the YAML library's words", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from(
        { length: 5 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(", ")}]`,
      ),
    ].join("\n");
    const problems = problemsOf(parseOperatorBundle(bundle(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: n, namespace: hypershift}\n${bomb}`)));
    expect(problems).toEqual([
      expect.stringMatching(/^is not valid YAML in document 3 \(line \d+\): its aliases \(\*name\) expand to too much data \(an alias bomb\)$/),
    ]);
    expect(problems.join("\n")).not.toMatch(/xcessive alias count/);
  });

  it("refuses YAML types JSON has no form for (!!binary, !!set, !!timestamp, !!omap) instead of turning them into maps", () => {
    const object = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: n, namespace: hypershift}\ndata:\n  x: ${value}`;
    for (const [value, kind] of [
      ["!!binary aGVsbG8=", "!!binary"],
      ["!!set {a, b}", "!!set"],
      ["!!timestamp 2001-12-14", "!!timestamp"],
      ["!!omap [a: 1]", "!!omap"],
    ]) {
      expect(problemsOf(parseOperatorBundle(bundle(object(value))))).toEqual([
        expect.stringMatching(new RegExp(`has ${kind} data at data\\.x: a Kubernetes object holds only JSON`)),
      ]);
    }
    // Untagged, the YAML 1.2 core schema reads a date as text: accepted.
    expect(parseOperatorBundle(bundle(object("2001-12-14"))).ok).toBe(true);
  });

  it("omitKinds: a kind the bundle does not have is reported (typo), case-sensitively", () => {
    expect(problemsOf(parseOperatorBundle(minimalBundle(), { omitKinds: ["ServiceMonitors"] }))).toEqual([
      "has no object of kind ServiceMonitors to omit (omitKinds; kinds are case-sensitive)",
    ]);
  });
});
