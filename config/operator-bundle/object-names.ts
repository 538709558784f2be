import { apiGroup } from "./kinds";
import { KubernetesObject } from "./types";
import { showValue } from "../rules/rule";
import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from "../schema/primitives";

/**
 * The names the API server accepts for a bundle object, checked before synth derives anything
 * from them: each object's Terraform resource is named `<Kind>_<namespace>_<name>`
 * (constructs/hypershift-operator manifestId), which is one name per object only while no kind,
 * namespace or name holds `_` or `/`; a name the API server refuses would fail the apply anyway.
 * The rules are Kubernetes' own:
 * - metadata.namespace, and a Namespace's name: a DNS-1123 label (k8s.io/kubernetes
 *   pkg/apis/core/validation ValidateNamespaceName = apimachinery NameIsDNSLabel);
 * - a Service's name: a DNS-1035 label (core/validation ValidateServiceName = NameIsDNS1035Label);
 * - Role, ClusterRole, RoleBinding, ClusterRoleBinding: a path segment name, neither `.` nor `..`
 *   and without `/` or `%` (pkg/apis/rbac/validation minimalNameRequirements =
 *   k8s.io/apimachinery/pkg/api/validation/path IsValidPathSegmentName), so `system:...` is valid;
 * - every other object (built-in or custom): a DNS-1123 subdomain (apimachinery NameIsDNSSubdomain);
 * - the kind: lowercased, a DNS-1035 label (apiextensions ValidateCustomResourceDefinitionNames).
 * The formats: k8s.io/apimachinery/pkg/util/validation/validation.go (IsDNS1123Label,
 * IsDNS1123Subdomain, IsDNS1035Label).
 */

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

interface NameRule {
  readonly test: (value: string) => boolean;
  readonly rule: string;
}

const LABEL: NameRule = {
  test: (v) => DNS1123_LABEL.test(v),
  rule: "a DNS-1123 label: at most 63 characters, lowercase letters, digits and '-', starting and ending with a letter or digit",
};
const SUBDOMAIN: NameRule = {
  test: (v) => DNS1123_SUBDOMAIN.test(v),
  rule: "a DNS-1123 subdomain: at most 253 characters, lowercase letters, digits, '-' and '.', each dot-separated part starting and ending with a letter or digit",
};
const SERVICE: NameRule = {
  test: (v) => v.length <= 63 && DNS1035_LABEL.test(v),
  rule: "a DNS-1035 label: at most 63 characters, lowercase letters, digits and '-', starting with a letter and ending with a letter or digit",
};
const PATH_SEGMENT: NameRule = {
  test: (v) => v !== "." && v !== ".." && !/[/%]/.test(v),
  rule: "a path segment name: not '.' or '..', and no '/' or '%'",
};
const KIND: NameRule = {
  test: (v) => v.length <= 63 && DNS1035_LABEL.test(v.toLowerCase()),
  rule: "a kind: letters, digits and '-', starting with a letter (lowercased, a DNS-1035 label)",
};

const RBAC_KINDS = new Set(["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"]);

/** The rule metadata.name of `object` must follow. */
function nameRule(object: KubernetesObject): NameRule {
  const group = apiGroup(object.apiVersion);
  if (group === "" && object.kind === "Namespace") return LABEL;
  if (group === "" && object.kind === "Service") return SERVICE;
  if (group === "rbac.authorization.k8s.io" && RBAC_KINDS.has(object.kind)) return PATH_SEGMENT;
  return SUBDOMAIN;
}

/**
 * What is wrong with the kind, name and namespace of `manifest` (the object as applied: a
 * cluster-scoped built-in has no namespace), as messages naming the object, its line and the rule.
 */
export function objectNameProblems(manifest: KubernetesObject, line: number): string[] {
  const problems: string[] = [];
  const what = `${manifest.kind} ${showValue(manifest.metadata.name)} (line ${line})`;
  const fix = "the API server would refuse it; render the bundle again with valid names";
  if (!KIND.test(manifest.kind)) problems.push(`${what} has kind ${showValue(manifest.kind)}, which is not ${KIND.rule}; ${fix}`);
  const rule = nameRule(manifest);
  if (!rule.test(manifest.metadata.name)) problems.push(`${what} has metadata.name ${showValue(manifest.metadata.name)}, which is not ${rule.rule}; ${fix}`);
  const namespace = manifest.metadata.namespace;
  // An empty namespace is none (objectLabel, manifestId).
  if (namespace !== undefined && namespace !== "" && !LABEL.test(namespace))
    problems.push(`${what} has metadata.namespace ${showValue(namespace)}, which is not ${LABEL.rule}; ${fix}`);
  return problems;
}
