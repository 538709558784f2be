import { Testing } from "cdktf";
import * as path from "node:path";
import { LoadedConfig } from "../../config/load";
import { managementAksOf } from "../../config/names";
import { ClusterStack } from "../../stacks/cluster-stack";
import { EXAMPLES, hostedClusterSpec, loadInline, minimalConfig, recordingReads, REPO } from "../helpers";

/** The brief's config: cluster hc1 with one NodePool, plus overrides of the cluster and of the top level. */
function config(cluster: Record<string, unknown> = {}, hosted: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
  return loadInline(
    minimalConfig({
      clusters: [
        {
          name: "hc1",
          ...cluster,
          hostedCluster: {
            ...hostedClusterSpec(),
            nodePools: [{ name: "hc1" }],
            ...hosted,
          },
        },
      ],
      managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
      ...top,
    }),
  );
}

function makeStack(loaded: LoadedConfig, index = 0) {
  return new ClusterStack(Testing.app(), {
    config: loaded.config,
    names: loaded.names,
    outdir: path.join(REPO, "cdktf.out"),
    managementAks: managementAksOf(loaded.names.topology),
    cluster: loaded.names.clusters[index],
  });
}

const synth = (loaded: LoadedConfig) => JSON.parse(Testing.synth(makeStack(loaded)));
const hostedClusterOf = (stack: any) =>
  Object.values(stack.resource.kubernetes_manifest as Record<string, any>).find((m) => m.manifest.kind === "HostedCluster");
const secretNamed = (stack: any, name: string) =>
  Object.values(stack.resource.kubernetes_secret_v1 as Record<string, any>).find((s) => s.metadata.name === name);
/** Where a path Terraform reads lands: Terraform runs in cdktf.out/stacks/<stack>. */
const fromStackFolder = (file: string) => path.resolve(REPO, "cdktf.out", "stacks", "cluster-hc1", file);
const fileArgument = (expression: string) => /file\("([^"]+)"\)/.exec(expression)![1];

describe("cluster stack", () => {
  const stack = synth(config());

  it("is named cluster-<name> and keeps its state in its own file", () => {
    expect(makeStack(config()).node.id).toBe("cluster-hc1");
    expect(stack.terraform.backend.local.path).toBe("../../../examples/terraform-state/00000000-0000-0000-0000-000000000000/demo/cluster-hc1.tfstate");
  });

  it("configures the Azure (look-ups), Kubernetes, random and tls providers", () => {
    expect(Object.keys(stack.provider).sort()).toEqual(["azurerm", "kubernetes", "random", "tls"]);
    expect(stack.provider.kubernetes).toEqual([{}]);
  });

  it("looks up the seven workload identities and the control-plane operator's (default) by name in the persistent group and uses their client IDs", () => {
    const identities = stack.data.azurerm_user_assigned_identity;
    expect(Object.keys(identities).sort()).toEqual(
      ["cloudProvider", "controlPlaneOperator", "disk", "file", "imageRegistry", "ingress", "network", "nodePoolManagement"].map((key) => `Identity_${key}`),
    );
    expect(identities.Identity_ingress).toEqual({ name: "hc1-ingress", resource_group_name: "demo-hcp-persistent" });
    const workloadIdentities = hostedClusterOf(stack).manifest.spec.platform.azure.azureAuthenticationConfig.workloadIdentities;
    expect(workloadIdentities.ingress).toEqual({ clientID: "${data.azurerm_user_assigned_identity.Identity_ingress.client_id}" });
    expect(Object.keys(workloadIdentities)).toHaveLength(8);
  });

  it("reads the pull secret and the signing private key at plan time, by paths relative to the stack folder", () => {
    const pull = secretNamed(stack, "hc1-pull-secret").data_wo[".dockerconfigjson"];
    expect(pull).toBe('${sensitive(file("../../../examples/pull-secret.json"))}');
    expect(fromStackFolder(fileArgument(pull))).toBe(path.join(EXAMPLES, "pull-secret.json"));
    const key = secretNamed(stack, "hc1sa-token-issuer-key").data_wo.key;
    expect(fromStackFolder(fileArgument(key))).toBe(path.join(EXAMPLES, "keys", "example-signer.private"));
  });

  it("never reads the pull secret or the private key at synth", () => {
    const loaded = config();
    const { reads } = recordingReads(() => Testing.synth(makeStack(loaded)));
    expect(reads.filter((file) => /pull-secret|\.private$/.test(file))).toEqual([]);
  });

  it("keeps an absolute pull secret path as written", () => {
    const absolute = synth(config({}, { pullSecretFile: "/etc/openshift/pull-secret.json" }));
    expect(secretNamed(absolute, "hc1-pull-secret").data_wo[".dockerconfigjson"]).toBe('${sensitive(file("/etc/openshift/pull-secret.json"))}');
  });

  it("outputs the namespaces and the admin kubeconfig secret's name", () => {
    expect(stack.output.hosted_cluster_namespace.value).toBe("clusters");
    expect(stack.output.control_plane_namespace.value).toBe("clusters-hc1");
    expect(stack.output.kubeconfig_secret.value).toBe("hc1-admin-kubeconfig");
  });

  it("outputs the generated SSH private key, marked sensitive", () => {
    expect(stack.output.ssh_private_key).toMatchObject({
      sensitive: true,
      value: expect.stringMatching(/^\$\{tls_private_key\.[\w]+\.private_key_openssh\}$/),
    });
  });

  it("with an SSH public key file reads it, and has no tls provider and no private key output", () => {
    const withKey = synth(config({}, { sshPublicKeyFile: "keys/id_rsa.pub" }));
    // Sensitive, as every checked plan-time input (config/plan-time-inputs.ts).
    expect(secretNamed(withKey, "hc1-ssh-key").data["id_rsa.pub"]).toBe('${sensitive(file("../../../examples/keys/id_rsa.pub"))}');
    expect(withKey.provider.tls).toBeUndefined();
    expect(withKey.resource.tls_private_key).toBeUndefined();
    expect(withKey.output.ssh_private_key).toBeUndefined();
  });

  it("matches the snapshot", () => {
    expect(Testing.synth(makeStack(config()))).toMatchSnapshot();
  });
});

describe("cluster stack: optional identities", () => {
  it("passes the control-plane-operator client ID only when the cluster has that identity", () => {
    const stack = synth(config({ identities: { controlPlaneOperator: true } }));
    expect(stack.data.azurerm_user_assigned_identity.Identity_controlPlaneOperator).toEqual({
      name: "hc1-control-plane-operator",
      resource_group_name: "demo-hcp-persistent",
    });
    expect(hostedClusterOf(stack).manifest.spec.platform.azure.azureAuthenticationConfig.workloadIdentities.controlPlaneOperator).toEqual({
      clientID: "${data.azurerm_user_assigned_identity.Identity_controlPlaneOperator.client_id}",
    });
  });

  it("leaves the control-plane-operator identity out when the cluster opts out (identities.controlPlaneOperator: false)", () => {
    const stack = synth(config({ identities: { controlPlaneOperator: false } }));
    expect(Object.keys(stack.data.azurerm_user_assigned_identity)).not.toContain("Identity_controlPlaneOperator");
    expect(hostedClusterOf(stack).manifest.spec.platform.azure.azureAuthenticationConfig.workloadIdentities.controlPlaneOperator).toBeUndefined();
  });

  it("with the KMS identity still encrypts etcd with AES-CBC and does not look the identity up", () => {
    const stack = synth(config({ identities: { kms: true } }));
    expect(hostedClusterOf(stack).manifest.spec.secretEncryption).toEqual({ type: "aescbc", aescbc: { activeKey: { name: "hc1-etcd-encryption-key" } } });
    expect(Object.keys(stack.data.azurerm_user_assigned_identity)).not.toContain("Identity_kms");
    expect(JSON.stringify(hostedClusterOf(stack).manifest)).not.toContain("kms");
  });
});

describe("cluster stack: per-cluster issuer", () => {
  it("uses the cluster's own issuer URL and signing key", () => {
    const loaded = config(
      { serviceAccountSigningKey: { publicKeyFile: "keys/cluster-a-signer.public" } },
      {},
      { oidc: { issuer: "perCluster" }, serviceAccountSigningKey: undefined },
    );
    const stack = synth(loaded);
    expect(hostedClusterOf(stack).manifest.spec.issuerURL).toBe(`https://${loaded.names.storageAccount.name}.blob.core.windows.net/hc1`);
    const key = secretNamed(stack, "hc1sa-token-issuer-key").data_wo.key;
    expect(fromStackFolder(fileArgument(key))).toBe(path.join(EXAMPLES, "keys", "cluster-a-signer.private"));
  });
});

describe("cluster stack: misuse", () => {
  it("refuses a cluster without hostedCluster, naming it", () => {
    const loaded = loadInline(minimalConfig());
    expect(() => makeStack(loaded)).toThrow(/clusters\[0\]\.hostedCluster/);
  });
});
