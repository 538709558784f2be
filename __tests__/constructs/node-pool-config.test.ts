import * as fs from "node:fs";
import * as path from "node:path";
import { parseAllDocuments } from "yaml";
import { writeOutputFolder } from "../../scripts/change-review/sides";
import { checkManifests, HAVE_CRDS, loadExample, resources, synthStacks, tempDir, terraformLiteral } from "../helpers";

/**
 * examples/nodepool-options.yaml's workload keys, synthesized: the NodePool fields pass the real
 * NodePool CRD (schema and CEL, ../shared/tools/check-manifests.mjs), and the ConfigMaps have the
 * shape HyperShift reads (the CRD: a single key `config` of machineconfiguration.openshift.io
 * documents, a single key `tuning` with a Tuned; the ConfigGenerator splits `---` documents).
 */
const out = tempDir("hcp-azure-node-pool-config-");
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

const stacks = synthStacks(loadExample("nodepool-options.yaml"));
writeOutputFolder(path.join(out, "cdktf.out"), stacks);
const stack = stacks["cluster-myprefix-np"];
const nodePool = (name: string) =>
  resources(stack, "kubernetes_manifest").find((r: any) => r.manifest.kind === "NodePool" && r.manifest.metadata.name === name);
const configMap = (name: string) => resources(stack, "kubernetes_config_map_v1").find((r: any) => r.metadata.name === name);
/** Accepted kinds of `spec.config` (the NodePool CRD's description of the field). */
const CONFIG_KINDS = ["KubeletConfig", "ContainerRuntimeConfig", "MachineConfig", "ClusterImagePolicy", "ImageContentSourcePolicy", "ImageDigestMirrorSet"];

describe("NodePool workload fields", () => {
  test("labels, taints, rolling update and the ConfigMap references", () => {
    expect(nodePool("myprefix-np-amd").manifest.spec).toMatchObject({
      management: { autoRepair: true, upgradeType: "Replace", replace: { strategy: "RollingUpdate", rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } } },
      nodeLabels: { "example.com/workload": "general" },
      config: [{ name: "myprefix-np-amd-config" }],
      tuningConfig: [{ name: "myprefix-np-amd-tuning" }],
    });
    const arm = nodePool("myprefix-np-arm").manifest.spec;
    expect([arm.management, arm.taints, arm.config]).toEqual([
      { autoRepair: false, upgradeType: "InPlace" },
      [{ key: "example.com/arch", value: "arm64", effect: "NoSchedule" }],
      undefined,
    ]);
    // A pool without the keys renders as before: nothing new is written.
    expect(Object.keys(nodePool("myprefix-np-eph").manifest.spec)).not.toEqual(expect.arrayContaining(["nodeLabels"]));
    expect(nodePool("myprefix-np-eph").manifest.spec.management).toEqual({ autoRepair: false, upgradeType: "Replace" });
  });

  test("the config ConfigMap: one key `config`, documents of accepted kinds, in the HostedCluster's namespace", () => {
    const cm = configMap("myprefix-np-amd-config");
    expect(cm.metadata.namespace).toBe(nodePool("myprefix-np-amd").manifest.metadata.namespace);
    expect(Object.keys(cm.data)).toEqual(["config"]);
    const docs = parseAllDocuments(terraformLiteral(cm.data.config)).map((d) => d.toJS());
    expect(docs.map((d) => [d.apiVersion, d.kind])).toEqual([
      ["machineconfiguration.openshift.io/v1", "KubeletConfig"],
      ["machineconfiguration.openshift.io/v1", "ContainerRuntimeConfig"],
    ]);
    for (const doc of docs) expect(CONFIG_KINDS).toContain(doc.kind);
    expect(docs[0].spec.kubeletConfig).toEqual({
      maxPods: 300,
      systemReserved: { cpu: "500m", memory: "1Gi" },
      evictionHard: { "memory.available": "500Mi", "nodefs.available": "10%", "nodefs.inodesFree": "5%", "imagefs.available": "15%" },
    });
    expect(docs[1].spec.containerRuntimeConfig).toEqual({ pidsLimit: 4096, logSizeMax: "50Mi" });
  });

  test("the tuning ConfigMap: one key `tuning` with a Tuned whose profile is recommended", () => {
    const cm = configMap("myprefix-np-amd-tuning");
    expect(Object.keys(cm.data)).toEqual(["tuning"]);
    const tuned = parseAllDocuments(terraformLiteral(cm.data.tuning)).map((d) => d.toJS());
    expect(tuned).toHaveLength(1);
    expect(tuned[0]).toMatchObject({ apiVersion: "tuned.openshift.io/v1", kind: "Tuned", spec: { recommend: [{ priority: 20, profile: "workers-sysctl" }] } });
    expect(tuned[0].spec.profile[0].data).toContain("fs.inotify.max_user_watches=1048576");
  });

  test("each NodePool depends on its ConfigMaps (created first, deleted after it)", () => {
    const ids = Object.keys(stack.resource.kubernetes_config_map_v1).filter((id) => id.includes("NodePoolConfig_myprefix-np-amd"));
    expect(ids).toHaveLength(2);
    const np = Object.values<any>(stack.resource.kubernetes_manifest).find((r) => r.manifest.metadata.name === "myprefix-np-amd");
    for (const id of ids) expect(np.depends_on).toContain(`kubernetes_config_map_v1.${id}`);
  });

  (HAVE_CRDS ? test : test.skip)("every NodePool passes the real CRDs (schema and CEL)", async () => {
    const result = await checkManifests(path.join(out, "cdktf.out"));
    expect(result.stdout + result.stderr).toMatch(/NodePool: 3\), 0 errors/);
    expect(result.status).toBe(0);
  });
});
