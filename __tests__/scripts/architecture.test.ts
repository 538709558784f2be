import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { buildGraph, SynthesizedStack } from "../../scripts/architecture/graph";
import { escapeLabel, Flowchart } from "../../scripts/architecture/flowchart";
import { ARCHITECTURE_FILE, renderArchitecture } from "../../scripts/architecture/render";
import { REPO } from "../helpers";

/** The ```mermaid blocks of a Markdown text. */
function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

type ParseResult = { ok: boolean; type?: string; error?: string };

/** Mermaid's own parser (jsdom supplies the DOM its sanitizer needs), one Node process for all texts. */
function parseMermaid(texts: readonly string[]): Promise<ParseResult[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [path.join(__dirname, "parse-mermaid.mjs")], { cwd: REPO }, (error, stdout, stderr) =>
      error ? reject(new Error(`parse-mermaid.mjs failed: ${stderr || error.message}`)) : resolve(JSON.parse(stdout)),
    );
    child.stdin!.end(JSON.stringify(texts));
  });
}

const helpPages = fs.readdirSync(path.join(REPO, "help")).filter((f) => f.endsWith(".md"));
/** Every diagram committed in help/, and one broken on purpose (the parser must reject it). */
const committedBlocks = [...new Set(helpPages.flatMap((f) => mermaidBlocks(fs.readFileSync(path.join(REPO, "help", f), "utf8"))))];
const BROKEN = "flowchart LR\n  x --> end\n";

describe("help/architecture.md (npm run diagrams)", () => {
  let rendered: string;
  let parsed: Promise<ParseResult[]>;
  beforeAll(() => {
    // Mermaid parses the committed diagrams in a child process while this one synthesizes
    // (the freshness test below proves the committed file is what the generator writes).
    parsed = parseMermaid([...committedBlocks, BROKEN]);
    parsed.catch(() => undefined); // reported by the test that awaits it
    rendered = renderArchitecture();
  });

  it("is current: the committed file is what npm run diagrams writes", () => {
    const committed = fs.readFileSync(ARCHITECTURE_FILE, "utf8");
    if (committed !== rendered) {
      const a = committed.split("\n");
      const b = rendered.split("\n");
      const line = a.findIndex((text, i) => text !== b[i]);
      throw new Error(
        `help/architecture.md is stale: run \`npm run diagrams\` and commit the result.\n` +
          `first difference at line ${line + 1}:\n  committed: ${a[line]}\n  generated: ${b[line]}`,
      );
    }
  });

  it("every mermaid block of help/ parses with Mermaid, and a broken one does not", async () => {
    expect(committedBlocks.length).toBeGreaterThanOrEqual(15);
    const results = await parsed;
    expect(results).toHaveLength(committedBlocks.length + 1);
    const broken = results.pop();
    expect(results.map((r, i) => (r.ok ? "ok" : `${committedBlocks[i].split("\n").slice(0, 3).join(" / ")}: ${r.error}`)).filter((r) => r !== "ok")).toEqual(
      [],
    );
    expect(new Set(results.map((r) => r.type))).toEqual(new Set(["flowchart-v2"]));
    expect(broken).toMatchObject({ ok: false, error: expect.stringContaining("Parse error") });
  });

  it("draws per-cluster stacks once, and every stack dependency as an edge", () => {
    const [stacks] = mermaidBlocks(rendered);
    expect(stacks).toContain('subgraph per_cluster["one per cluster (2: myprefix-hc, myprefix-dev)"]');
    // The two clusters' infra stacks differ in size (one has ExternalDNS): drawn once, with the range.
    expect(stacks).toMatch(/s_infra_cluster_\["infra-#lt;cluster#gt;<br\/>(\d+)-(\d+) resources"\]/);
    for (const edge of [
      "s_identities_cluster_ --> s_infra_cluster_",
      "s_infra_cluster_ --> s_cluster_cluster_",
      "s_management --> s_cluster_cluster_",
      "s_shared --> s_management",
    ]) {
      expect(stacks).toContain(edge);
    }
    expect(stacks).not.toContain("myprefix-hc<br/>");
  });

  it("links a cluster's config sections to the resources that carry their values, across its stacks", () => {
    const cluster = rendered.slice(rendered.indexOf("### Hosted cluster myprefix-hc"));
    expect(cluster).toContain("c_hostedCluster_network --> n_infra_cluster_resource_Network_azurerm_virtual_network");
    expect(cluster).toContain("c_hostedCluster_nodePools_0_ --> n_cluster_cluster_resource_HostedCluster_kubernetes_manifest_NodePool");
    expect(cluster).toContain("c_hostedCluster_network --> n_cluster_cluster_resource_HostedCluster_kubernetes_manifest_HostedCluster");
    expect(cluster).not.toContain("c_hostedCluster_network --> n_cluster_cluster_resource_HostedCluster_kubernetes_manifest_NodePool");
    // The cluster stack looks up the identities the identities stack makes.
    expect(cluster).toContain(
      "n_identities_cluster_resource_WorkloadIdentities_azurerm_user_assigned_identity --> n_cluster_cluster_data_azurerm_user_assigned_identity",
    );
  });
});

describe("buildGraph", () => {
  const stack = (name: string, json: any, dependsOn: string[] = []): SynthesizedStack => ({ name, dependsOn, json });
  const graph = buildGraph([
    stack("a", { resource: { azurerm_user_assigned_identity: { id1: { name: "ident", resource_group_name: "rg" } } } }),
    stack(
      "b",
      {
        data: {
          azurerm_user_assigned_identity: { same: { name: "ident", resource_group_name: "rg" }, other: { name: "ident", resource_group_name: "rg2" } },
          terraform_remote_state: { st: { backend: "local", config: { path: "../../state/a.tfstate" } } },
        },
        resource: {
          azurerm_role_assignment: { ra: { principal_id: "${data.azurerm_user_assigned_identity.same.principal_id}", depends_on: ["terraform_data.guard"] } },
          terraform_data: { guard: { input: "${data.terraform_remote_state.st.outputs.x}" } },
        },
      },
      ["a"],
    ),
  ]);
  const edges = graph.edges.map((e) => `${e.from.stack}:${e.from.address} ${e.kind} ${e.to.stack}:${e.to.address}`).sort();

  it("finds references, depends_on, and lookups of what another stack creates (by name and group)", () => {
    expect(edges).toEqual([
      "a:azurerm_user_assigned_identity.id1 reference b:data.azurerm_user_assigned_identity.same",
      "b:data.azurerm_user_assigned_identity.same reference b:azurerm_role_assignment.ra",
      "b:data.terraform_remote_state.st reference b:terraform_data.guard",
      "b:terraform_data.guard dependsOn b:azurerm_role_assignment.ra",
    ]);
  });

  it("names the stack a remote state reads", () => {
    expect([...graph.remoteStateOf.values()]).toEqual(["a"]);
  });
});

describe("Flowchart", () => {
  it("escapes labels and refuses a node id used twice or an edge to nothing", () => {
    expect(escapeLabel('a "b" <c> #1')).toBe("a #quot;b#quot; #lt;c#gt; #35;1");
    const chart = new Flowchart("LR");
    chart.node("n_a", ["a"], "box");
    expect(() => chart.node("n_a", ["again"], "box")).toThrow("added twice");
    expect(() => chart.edge("n_a", "n_b")).toThrow("unknown node n_b");
  });
});
