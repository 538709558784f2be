import * as fs from "node:fs";
import * as path from "node:path";
import { hostedClusterMonitoring } from "../../constructs/hosted-cluster/monitoring";
import { checkManifests, HAVE_CRDS, hostedClusterSpec, loadInline, minimalConfig, resources, synthClusterStackInto, tempDir } from "../helpers";

describe("HostedCluster spec.monitoring", () => {
  it("is not written unless set (existing HostedClusters unchanged)", () => {
    expect(hostedClusterMonitoring(undefined)).toEqual({});
  });

  it("writes metricsSet and metricsForwarding as the CRD names them", () => {
    expect(hostedClusterMonitoring({ metricsSet: "SRE" })).toEqual({ monitoring: { metricsSet: "SRE" } });
    expect(hostedClusterMonitoring({ metricsForwarding: "Forward", forwardedMetricsSet: "Telemetry" })).toEqual({
      monitoring: { metricsForwarding: { mode: "Forward", metricsSet: "Telemetry" } },
    });
  });
});

if (!HAVE_CRDS) console.warn("hosted-cluster-monitoring: ../shared is absent; the CRD check is skipped");

(HAVE_CRDS ? describe : describe.skip)("spec.monitoring against the real HostedCluster CRD (check-manifests)", () => {
  const out = tempDir("hcp-azure-monitoring-");
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it("the synthesized HostedCluster carries it and passes the schema and every CEL rule", async () => {
    const loaded = loadInline(
      minimalConfig({
        managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
        clusters: [
          {
            name: "hc1",
            hostedCluster: { ...hostedClusterSpec(), monitoring: { metricsSet: "All", metricsForwarding: "Forward", forwardedMetricsSet: "SRE" } },
          },
        ],
      }),
    );
    const stack = synthClusterStackInto(loaded, path.join(out, "cdktf.out"));
    const hc = resources(stack, "kubernetes_manifest").find((m) => m.manifest.kind === "HostedCluster");
    expect(hc.manifest.spec.monitoring).toEqual({ metricsSet: "All", metricsForwarding: { mode: "Forward", metricsSet: "SRE" } });
    const result = await checkManifests(path.join(out, "cdktf.out"));
    expect(result.stdout).toMatch(/ 0 errors, /);
    expect(result.status).toBe(0);
  });
});
