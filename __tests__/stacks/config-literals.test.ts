import * as path from "node:path";
import { validateConfig } from "../../config/load";
import { EXAMPLES, hostedClusterSpec, loadInline, minimalConfig, only, resources, synthStacks } from "../helpers";

/**
 * Issue 11 item 5, site by site: each place a free-text config string reaches Terraform JSON,
 * with what Terraform reads back from it. (__tests__/main-config-strings.test.ts covers every
 * schema field at once.)
 */

const TEXT = '${file("/etc/hostname")}%{if true}x%{endif}"\\ü';
/** A tag name may not hold % \ / (Azure's rule). */
const TAG_NAME = 'owner-${timestamp()}"';

/** What Terraform reads from a JSON string literal; throws on a template. */
function literal(text: string): string {
  if (/(^|[^$])\$\{|(^|[^%])%\{/.test(text.replace(/\$\$\{|%%\{/g, ""))) throw new Error(`template in ${JSON.stringify(text)}`);
  return text.replace(/([$%])\1\{/g, "$1{");
}

/** The path a `${file("...")}` expression (possibly inside sensitive()) reads, as Terraform decodes the HCL string. */
function fileArgument(expression: string): string {
  const match = /^\$\{(?:sensitive\()?file\("((?:[^"\\]|\\.)*)"\)\)?\}$/.exec(expression);
  if (!match) throw new Error(`not a file() expression: ${expression}`);
  return match[1]
    .replace(/\$\$\{/g, "${")
    .replace(/%%\{/g, "%{")
    .replace(/\\(u[0-9a-f]{4}|.)/g, (_, e: string) =>
      e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (({ n: "\n", t: "\t", r: "\r" } as Record<string, string>)[e] ?? e),
    );
}

const config = () =>
  minimalConfig({
    prefix: "myprefix",
    tags: { [TAG_NAME]: TEXT },
    serviceAccountSigningKey: { publicKeyFile: "keys/example-signer.public", privateKeyFile: `keys/${TEXT}.private` },
    clusters: [
      {
        name: "hc1",
        hostedCluster: {
          ...hostedClusterSpec(),
          pullSecretFile: `pull-${TEXT}.json`,
          sshPublicKeyFile: `ssh-${TEXT}.pub`,
          nodePools: [{ name: "np1", marketplace: { publisher: "azureopenshift", offer: TEXT, sku: "aro_419", version: "latest" } }],
        },
      },
    ],
    dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } },
    externalDns: { applicationName: TEXT, password: { rotation: TEXT } },
    managementCluster: {
      kubeconfig: { path: `kube/${TEXT}`, context: TEXT },
      operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" },
      pullSecretFile: `mgmt-${TEXT}.json`,
    },
    backend: { type: "local", directory: `state-${TEXT}` },
  });

describe("free-text config strings reach Terraform as literals", () => {
  const stacks = synthStacks(loadInline(config()));
  const examples = path.resolve(__dirname, "..", "..", "examples");
  const fromStack = (stack: string, file: string) =>
    path.relative(path.resolve(__dirname, "..", "..", "cdktf.out", "stacks", stack), path.join(examples, file));

  it("tags: names and values on every tagged resource", () => {
    let tagged = 0;
    for (const [name, stack] of Object.entries(stacks)) {
      for (const byName of Object.values(stack.resource ?? {}) as Record<string, any>[]) {
        for (const resource of Object.values(byName)) {
          if (!resource.tags) continue;
          tagged += 1;
          const tags = Object.fromEntries(Object.entries(resource.tags as Record<string, string>).map(([k, v]) => [literal(k), literal(v)]));
          expect({ stack: name, tags }).toEqual({ stack: name, tags: { [TAG_NAME]: TEXT } });
        }
      }
    }
    expect(tagged).toBeGreaterThan(10);
  });

  it("externalDns.applicationName and password.rotation", () => {
    expect(literal(only(stacks.shared.resource.azuread_application).display_name)).toBe(TEXT);
    expect(literal(only(stacks.shared.resource.azuread_application_password).rotate_when_changed.rotation)).toBe(TEXT);
  });

  it("managementCluster.kubeconfig path and context (provider arguments)", () => {
    for (const stack of [stacks.management, stacks["cluster-hc1"]]) {
      const provider = stack.provider.kubernetes[0];
      expect(literal(provider.config_path)).toBe(fromStack("management", `kube/${TEXT}`));
      expect(literal(provider.config_context)).toBe(TEXT);
    }
  });

  it("paths Terraform reads with file(): a quote, a backslash and templates are escaped HCL", () => {
    const secrets = Object.fromEntries(resources(stacks["cluster-hc1"], "kubernetes_secret_v1").map((s) => [s.metadata.name, s]));
    expect(fileArgument(secrets["hc1-pull-secret"].data_wo[".dockerconfigjson"])).toBe(fromStack("cluster-hc1", `pull-${TEXT}.json`));
    expect(fileArgument(secrets["hc1-ssh-key"].data["id_rsa.pub"])).toBe(fromStack("cluster-hc1", `ssh-${TEXT}.pub`));
    expect(fileArgument(secrets["hc1sa-token-issuer-key"].data_wo.key)).toBe(fromStack("cluster-hc1", `keys/${TEXT}.private`));
    const pull = resources(stacks.management, "kubernetes_secret_v1").find((s) => s.metadata.name === "pull-secret");
    expect(fileArgument(pull.data_wo[".dockerconfigjson"])).toBe(fromStack("management", `mgmt-${TEXT}.json`));
  });

  it("NodePool marketplace offer (kubernetes_manifest)", () => {
    const nodePool = resources(stacks["cluster-hc1"], "kubernetes_manifest").find((m) => m.manifest.kind === "NodePool");
    expect(literal(nodePool.manifest.spec.platform.azure.image.azureMarketplace.offer)).toBe(TEXT);
  });

  it("local state: the backend path verbatim (Terraform reads it so), the remote-state path escaped", () => {
    // The environment's folder: <backend.directory>/<subscriptionId>/<prefix>/.
    const file = `state-${TEXT}/00000000-0000-0000-0000-000000000000/myprefix/shared.tfstate`;
    const state = fromStack("management", file);
    expect(stacks.shared.terraform.backend.local.path).toBe(fromStack("shared", file));
    const remote = only(stacks.management.data.terraform_remote_state);
    expect(literal(remote.config.path)).toBe(state);
  });

  it("cloud backend: the config refuses such names; past it, remote-state organization and hostname escaped, the cloud block verbatim", () => {
    const cloud = { type: "cloud", organization: `org-${TEXT}`, hostname: `tfe-${TEXT}`, project: TEXT };
    // files mode with the cloud backend (local execution) keeps the kubeconfig of config().
    const raw = { ...config(), secrets: { source: "files" } };
    const refused = validateConfig({ ...raw, backend: cloud }, EXAMPLES);
    expect(refused.ok ? [] : refused.issues.map((i) => i.path)).toEqual(["backend.organization", "backend.hostname", "backend.project"]);
    // The same text set after validation (the stacks' own escaping, defense in depth).
    const loaded = loadInline({ ...raw, backend: { type: "cloud", organization: "org", project: "proj" } });
    Object.assign(loaded.config.backend, cloud);
    const management = synthStacks(loaded).management;
    const remote = only(management.data.terraform_remote_state);
    expect(literal(remote.config.organization)).toBe(cloud.organization);
    expect(literal(remote.config.hostname)).toBe(cloud.hostname);
    expect(management.terraform.cloud).toMatchObject({ organization: cloud.organization, hostname: cloud.hostname, workspaces: { project: TEXT } });
  });
});
