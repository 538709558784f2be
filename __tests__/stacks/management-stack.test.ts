import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { EXAMPLES, HAVE_TERRAFORM, loadInline, minimalConfig, only, REPO, resources, stackDependencies, synthStacks, tempDir } from "../helpers";

const EXTERNAL_DNS_BUNDLE = path.join(EXAMPLES, "operator", "hypershift-operator-external-dns.yaml");

/** Config with the public zone, ExternalDNS and a management cluster using the external-dns bundle. */
function externalDnsConfig(management: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  return minimalConfig({
    prefix: "myprefix",
    dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg" } },
    externalDns: {},
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml" }, ...management },
    ...overrides,
  });
}

/** The management stack of `input`, synthesized alone (the app is built whole, as synthStacks does). */
const management = (input: Record<string, unknown>) => synthStacks(loadInline(input), ["management"]).management;

describe("management stack: access to the cluster", () => {
  it("without kubeconfig, configures nothing: the provider reads KUBE_* variables (Terraform Cloud)", () => {
    expect(management(externalDnsConfig()).provider.kubernetes).toEqual([{}]);
  });

  it("a relative kubeconfig is resolved against the config file, written relative to the stack folder", () => {
    const stack = management(externalDnsConfig({ kubeconfig: { path: "kube/mgmt.kubeconfig", context: "admin" } }));
    expect(stack.provider.kubernetes).toEqual([{ config_path: "../../../examples/kube/mgmt.kubeconfig", config_context: "admin" }]);
    // Terraform runs in cdktf.out/stacks/management: the relative path must land on the file.
    expect(path.resolve(REPO, "cdktf.out", "stacks", "management", stack.provider.kubernetes[0].config_path)).toBe(
      path.join(EXAMPLES, "kube", "mgmt.kubeconfig"),
    );
  });

  it("keeps ~/ for the provider to expand where Terraform runs, and absolute paths as written", () => {
    expect(management(externalDnsConfig({ kubeconfig: { path: "~/.kube/config" } })).provider.kubernetes).toEqual([{ config_path: "~/.kube/config" }]);
    const stack = management(externalDnsConfig({ kubeconfig: { path: "/etc/kube/mgmt" }, pullSecretFile: "/etc/secrets/pull.json" }));
    expect(stack.provider.kubernetes).toEqual([{ config_path: "/etc/kube/mgmt" }]);
    const pull = Object.values(stack.resource.kubernetes_secret_v1 as Record<string, any>).find((x) => x.metadata.name === "pull-secret");
    expect(pull.data_wo[".dockerconfigjson"]).toBe('${sensitive(file("/etc/secrets/pull.json"))}');
  });

  it("forceConflicts reaches every manifest's field manager", () => {
    const stack = management(externalDnsConfig({ operator: { bundleFile: "operator/hypershift-operator-external-dns.yaml", forceConflicts: true } }));
    for (const manifest of Object.values(stack.resource.kubernetes_manifest as Record<string, any>)) {
      expect(manifest.field_manager).toEqual({ name: "hcp-azure", force_conflicts: true });
    }
  });

  it("has no Azure provider and no Azure resources", () => {
    const stack = management(externalDnsConfig());
    expect(stack.provider.azurerm).toBeUndefined();
    expect(Object.keys(stack.resource).filter((type) => type.startsWith("azurerm_"))).toEqual([]);
  });
});

describe("management stack: the ExternalDNS credentials secret", () => {
  it("is external-dns-credentials in hypershift with the single key credentials, from the shared stack's state", () => {
    const stack = management(externalDnsConfig());
    const secret = only(
      stack.resource.kubernetes_secret_v1 &&
        Object.fromEntries(Object.entries(stack.resource.kubernetes_secret_v1).filter(([k]) => k.startsWith("ExternalDns"))),
    );
    expect(secret.metadata).toMatchObject({ name: "external-dns-credentials", namespace: "hypershift" });
    expect(secret.type).toBe("Opaque");
    // Write-only: the client secret reaches the cluster, not this stack's plan or state.
    expect(secret.data).toBeUndefined();
    expect(secret.data_wo).toEqual({ credentials: "${data.terraform_remote_state.shared-state.outputs.external_dns_credentials}" });
    expect(secret.data_wo_revision).toContain("data.terraform_remote_state.shared-state.outputs.external_dns_credentials");
  });

  it("reads the shared state where the configured backend keeps it", () => {
    const local = only(management(externalDnsConfig()).data.terraform_remote_state);
    expect(local).toEqual({
      backend: "local",
      config: { path: "../../../examples/terraform-state/00000000-0000-0000-0000-000000000000/myprefix/shared.tfstate" },
    });

    const azurerm = only(
      management(
        externalDnsConfig({}, { backend: { type: "azurerm", resourceGroupName: "tfstate", storageAccountName: "tfstateacct", containerName: "state" } }),
      ).data.terraform_remote_state,
    );
    expect(azurerm).toEqual({
      backend: "azurerm",
      config: {
        resource_group_name: "tfstate",
        storage_account_name: "tfstateacct",
        container_name: "state",
        key: "hcp-azure/myprefix/shared.tfstate",
        subscription_id: "00000000-0000-0000-0000-000000000000",
        tenant_id: "11111111-1111-1111-1111-111111111111",
        use_azuread_auth: true,
      },
    });

    const cloud = only(management(externalDnsConfig({}, { backend: { type: "cloud", organization: "acme" } })).data.terraform_remote_state);
    expect(cloud).toEqual({ backend: "remote", config: { organization: "acme", hostname: "app.terraform.io", workspaces: { name: "myprefix-shared" } } });
  });

  it("with externalDnsCredentialsFile, reads the handed-over azure_mgmt.json at plan time instead of remote state", () => {
    const stack = management(externalDnsConfig({ externalDnsCredentialsFile: "secrets/azure_mgmt.json" }));
    expect(stack.data?.terraform_remote_state).toBeUndefined();
    const secret = Object.values(stack.resource.kubernetes_secret_v1 as Record<string, any>).find((s) => s.metadata.name === "external-dns-credentials");
    expect(secret.data_wo).toEqual({ credentials: '${sensitive(file("../../../examples/secrets/azure_mgmt.json"))}' });
  });

  it("is created after the namespace and before the workloads that mount it", () => {
    const stack = management(externalDnsConfig());
    const [secretKey] = Object.keys(stack.resource.kubernetes_secret_v1);
    const namespaceKey = Object.keys(stack.resource.kubernetes_manifest).find((k) => k.includes("Namespace"));
    expect(stack.resource.kubernetes_secret_v1[secretKey].depends_on).toContain(`kubernetes_manifest.${namespaceKey}`);
    const workloads = Object.entries(stack.resource.kubernetes_manifest as Record<string, any>).filter(([, m]) => m.manifest.kind === "Deployment");
    expect(workloads.map(([, m]) => m.manifest.metadata.name).sort()).toEqual(["external-dns", "operator"]);
    for (const [, workload] of workloads) expect(workload.depends_on).toContain(`kubernetes_secret_v1.${secretKey}`);
  });

  it("without ExternalDNS there is no credentials secret and no remote state", () => {
    const stack = management(minimalConfig({ managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } } }));
    expect(stack.resource.kubernetes_secret_v1).toBeUndefined();
    expect(stack.data?.terraform_remote_state).toBeUndefined();
  });
});

describe("management stack: pull secret", () => {
  it("pull-secret is a dockerconfigjson Secret in the operator namespace, read from the file at plan time", () => {
    const stack = management(externalDnsConfig({ pullSecretFile: "pull-secret.json" }));
    const secret = Object.values(stack.resource.kubernetes_secret_v1 as Record<string, any>).find((s) => s.metadata.name === "pull-secret");
    expect(secret).toMatchObject({
      metadata: { name: "pull-secret", namespace: "hypershift" },
      type: "kubernetes.io/dockerconfigjson",
      data_wo: { ".dockerconfigjson": '${sensitive(file("../../../examples/pull-secret.json"))}' },
    });
    expect(secret.data).toBeUndefined();
    expect(stack.terraform.required_version).toBe(">= 1.11");
  });
});

describe("management stack: example bundles", () => {
  it("an example-only bundle synthesizes, but deploy fails at plan with a precondition naming the file", () => {
    const stack = management(externalDnsConfig());
    const guard = only(stack.resource.terraform_data);
    // Terraform rejects a constant condition at load time, so it reads a local.
    expect(stack.locals).toEqual({ example_bundle: true });
    expect(guard.lifecycle.precondition).toEqual([
      { condition: "${!local.example_bundle}", error_message: expect.stringContaining("hypershift-operator-external-dns.yaml is an abridged example bundle") },
    ]);
  });

  (HAVE_TERRAFORM ? it : it.skip)(
    "terraform itself refuses to plan the guard, and plans it when the local is false (runs where terraform is on PATH)",
    () => {
      const stack = management(externalDnsConfig());
      const plan = (exampleBundle: boolean) => {
        const dir = tempDir();
        try {
          // Only the built-in terraform_data and the local: no init needed.
          fs.writeFileSync(
            path.join(dir, "main.tf.json"),
            JSON.stringify({ locals: { example_bundle: exampleBundle }, resource: { terraform_data: stack.resource.terraform_data } }),
          );
          const env = { ...process.env, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
          return spawnSync("terraform", ["plan", "-input=false", "-no-color"], { cwd: dir, env, encoding: "utf8" });
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      };
      const refused = plan(true);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain("Resource precondition failed");
      expect(refused.stderr).toContain("is an abridged example bundle");
      expect(plan(false).status).toBe(0);
    },
    60_000,
  );

  it("a real render (no example annotation) has no guard", () => {
    const dir = tempDir();
    try {
      const bundle = path.join(dir, "render.yaml");
      fs.writeFileSync(
        bundle,
        fs
          .readFileSync(EXTERNAL_DNS_BUNDLE, "utf8")
          .replace(/^ *hcp-azure\.dev\/example-only: "true"\n/gm, "")
          .replace(/^ *annotations:\n(?= *creationTimestamp)/gm, ""),
      );
      const stack = management(externalDnsConfig({ operator: { bundleFile: bundle } }));
      expect(stack.resource.terraform_data).toBeUndefined();
      expect(Object.keys(stack.resource.kubernetes_manifest)).toHaveLength(18);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("management stack: HostedCluster namespaces", () => {
  it("creates each distinct HostedCluster namespace once, protected from destroy", () => {
    const stack = management(
      externalDnsConfig(
        {},
        {
          clusters: [
            {
              name: "hc1",
              hostedCluster: { releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64", baseDomain: "example.com", pullSecretFile: "p.json" },
            },
            {
              name: "hc2",
              hostedCluster: {
                releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64",
                baseDomain: "example.com",
                pullSecretFile: "p.json",
                network: { vnetCidr: "10.1.0.0/16", subnetCidr: "10.1.0.0/24" },
              },
            },
            {
              name: "hc3",
              hostedCluster: {
                releaseImage: "quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64",
                baseDomain: "example.com",
                pullSecretFile: "p.json",
                namespace: "team-b",
              },
            },
          ],
        },
      ),
    );
    const namespaces = Object.values(stack.resource.kubernetes_manifest as Record<string, any>).filter(
      (m) => m.manifest.kind === "Namespace" && m.manifest.metadata.name !== "hypershift",
    );
    expect(namespaces.map((m) => m.manifest.metadata.name).sort()).toEqual(["clusters", "team-b"]);
    for (const namespace of namespaces) expect(namespace.lifecycle).toEqual({ prevent_destroy: true });
  });
});

describe("stack order", () => {
  it("management deploys after shared (Phase 2 after Phase 1)", () => {
    expect(stackDependencies(loadInline(externalDnsConfig()), ["management"]).management).toEqual(["shared"]);
  });

  it("the parent zone's provider in another subscription registers no resource providers there", () => {
    const shared = synthStacks(
      loadInline(
        externalDnsConfig(
          {},
          { dns: { parent: { zoneName: "example.com", resourceGroupName: "dns-rg", subscriptionId: "22222222-2222-2222-2222-222222222222" } } },
        ),
      ),
      ["shared"],
    ).shared;
    expect(shared.provider.azurerm).toEqual([
      expect.not.objectContaining({ alias: expect.anything() }),
      expect.objectContaining({ alias: "parent_dns", subscription_id: "22222222-2222-2222-2222-222222222222", resource_provider_registrations: "none" }),
    ]);
  });

  it("shared stack outputs azure_mgmt.json as a sensitive output and the zone's name servers", () => {
    const shared = synthStacks(loadInline(externalDnsConfig()), ["shared"]).shared;
    expect(shared.output.external_dns_credentials.sensitive).toBe(true);
    expect(shared.output.dns_zone_name_servers.value).toMatch(/^\$\{tolist\(azurerm_dns_zone\..*\.name_servers\)\}$/);
    expect(resources(shared, "azurerm_dns_zone")).toMatchObject([{ name: "myprefix.example.com" }]);
  });
});
