import { isOperatorDeployment } from "./facts";
import { apiGroup, servedByBundle } from "./kinds";
import { objectNameProblems } from "./object-names";
import { BundleObject, RenderedObject } from "./types";

/** A rendered object beside what the bundle applies of it (kinds.ts bundleObjectOf). */
export interface KeptObject {
  readonly rendered: RenderedObject;
  readonly bundled: BundleObject;
}

/**
 * What keeps the objects that survived parsing and omitKinds from being applied with
 * kubernetes_manifest, per object in bundle order (a name the API server refuses, a duplicate,
 * secret data, a custom resource of a CRD in the same bundle), then whether it is a whole
 * HyperShift operator bundle.
 */
export function bundleProblems(kept: readonly KeptObject[], crds: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  // The Terraform resource of an object is named by kind, namespace and name (not API group).
  const resourceNames = new Map<string, { group: string; line: number }>();
  for (const { rendered, bundled } of kept) {
    const { object, line } = rendered;
    const { manifest, label } = bundled;
    const names = objectNameProblems(manifest, line);
    problems.push(...names);
    if (names.length > 0) continue;
    // From the cleaned object: a namespace on a cluster-scoped object names nothing on the cluster.
    const group = apiGroup(object.apiVersion);
    const identity = `${group}/${manifest.kind}/${manifest.metadata.namespace ?? ""}/${manifest.metadata.name}`;
    const previous = seen.get(identity);
    if (previous !== undefined) problems.push(`${label} appears twice (lines ${previous} and ${line})`);
    seen.set(identity, line);
    const resourceName = `${manifest.kind}/${manifest.metadata.namespace ?? ""}/${manifest.metadata.name}`;
    const other = resourceNames.get(resourceName);
    if (other && other.group !== group)
      problems.push(
        `${label} appears twice, in API groups ${JSON.stringify(other.group)} (line ${other.line}) and ${JSON.stringify(group)} (line ${line}); this project names each object's resource by kind, namespace and name: rename one`,
      );
    else resourceNames.set(resourceName, { group, line });

    // As rendered: `data: {}` shows a --render-sensitive render even though cleaning drops it.
    if (object.kind === "Secret" && apiGroup(object.apiVersion) === "" && (object.data !== undefined || object.stringData !== undefined)) {
      problems.push(
        `${label} (line ${line}) carries secret data, which would be written into cdktf.out: render without --render-sensitive; this project creates the external-dns and pull secrets itself`,
      );
    }
    if (servedByBundle(object, crds)) {
      problems.push(
        `${label} (line ${line}) is a custom resource whose CRD is in the same bundle; kubernetes_manifest cannot plan it before the CRD exists (hashicorp/terraform-provider-kubernetes#1391)`,
      );
    }
  }
  const completeness = completenessProblem(kept.map(({ rendered }) => rendered));
  return completeness ? [...problems, completeness] : problems;
}

/** The operator Deployment and the HostedCluster CRD must both be there (render --outputs all). */
function completenessProblem(objects: readonly RenderedObject[]): string | undefined {
  const operator = objects.some(({ object }) => isOperatorDeployment(object));
  const hostedClusterCrd = objects.some(
    ({ object }) => object.kind === "CustomResourceDefinition" && object.metadata.name === "hostedclusters.hypershift.openshift.io",
  );
  if (operator && hostedClusterCrd) return undefined;
  return `is not a complete HyperShift operator bundle (missing ${[!operator && "the Deployment 'operator'", !hostedClusterCrd && "the HostedCluster CRD"].filter(Boolean).join(" and ")}); render it with --outputs all, not crds or resources`;
}
