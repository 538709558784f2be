/** The smallest complete operator bundle (HostedCluster CRD + operator Deployment), followed by `extra` documents. */
export function minimalBundle(...extra: string[]): string {
  return [
    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: hostedclusters.hypershift.openshift.io\nspec:\n  group: hypershift.openshift.io\n  names:\n    kind: HostedCluster\n",
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: operator\n  namespace: hypershift\n",
    ...extra,
  ].join("---\n");
}
