import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { parse, parseAllDocuments } from "yaml";
import { CHECK_MANIFESTS, HAVE_CRDS, loadExample, REPO, synthStacks } from "../helpers";

/** help/backup.md: its HCPEtcdBackup against the real CRD, and the restore claim about the HostedCluster. */

const PAGE = fs.readFileSync(path.join(REPO, "help", "backup.md"), "utf8");
const CRD = parse(fs.readFileSync(path.join(REPO, "__tests__", "fixtures", "hypershift", "hcpetcdbackups-TechPreviewNoUpgrade.crd.yaml"), "utf8"));
const SCHEMA = CRD.spec.versions.find((v: { name: string }) => v.name === "v1beta1").schema.openAPIV3Schema;

/** The page's YAML blocks, parsed. */
const yamlBlocks = [...PAGE.matchAll(/```yaml\n([\s\S]*?)```/g)].flatMap((m) => parseAllDocuments(m[1]).map((d) => d.toJS()));

type Validate = (manifest: unknown, schema: unknown) => { errors: Array<{ path: string; message: string }>; cel: Record<string, number> };

if (!HAVE_CRDS) console.warn("backup: ../shared is absent; the CRD check is skipped");

(HAVE_CRDS ? describe : describe.skip)("help/backup.md's HCPEtcdBackup against the release-4.22 CRD", () => {
  let validateManifest: Validate;
  beforeAll(async () => {
    validateManifest = (await import(pathToFileURL(CHECK_MANIFESTS).href)).validateManifest;
  });
  const backup = yamlBlocks.find((o) => o?.kind === "HCPEtcdBackup");

  it("passes the schema and every CEL rule", () => {
    expect(backup).toBeDefined();
    const findings = validateManifest(backup, SCHEMA);
    expect(findings.errors).toEqual([]);
    expect(findings.cel.pass).toBeGreaterThan(3);
    expect(findings.cel.unsupported).toBe(0);
  });

  it("the check catches what the API server would refuse", () => {
    const broken = structuredClone(backup);
    broken.spec.storage.azureBlob.storageAccount = "Demo-Backups";
    broken.spec.storage.azureBlob.container = "etcd--backups";
    const messages = validateManifest(broken, SCHEMA).errors.map((e) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/storageAccount must consist of lowercase letters and numbers only/),
        expect.stringMatching(/container must not contain consecutive hyphens/),
      ]),
    );
  });
});

describe("the HostedCluster leaves restoreSnapshotURL to its owner (help/backup.md)", () => {
  it("no synthesized HostedCluster writes spec.etcd.managed.storage.restoreSnapshotURL", () => {
    const stacks = synthStacks(loadExample("basic.yaml"));
    const hostedClusters = Object.values(stacks).flatMap((stack: any) =>
      Object.values((stack.resource?.kubernetes_manifest ?? {}) as Record<string, any>).filter((m) => m.manifest.kind === "HostedCluster"),
    );
    expect(hostedClusters.length).toBeGreaterThan(0);
    for (const hc of hostedClusters) {
      expect(hc.manifest.spec.etcd.managed.storage).not.toHaveProperty("restoreSnapshotURL");
      expect(JSON.stringify(hc)).not.toContain("restoreSnapshotURL");
    }
  });
});
