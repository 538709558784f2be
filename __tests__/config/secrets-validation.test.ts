import { formatIssues, validateConfig } from "../../config/load";
import { secretsSource } from "../../config/plan-time-inputs";
import { missingSecretFiles } from "../../config/rules";
import { EXAMPLES, hostedClusterSpec, loadInline, minimalConfig } from "../helpers";

/** A config with a hosted cluster and a management cluster, plus overrides. */
function withCluster(overrides: Record<string, unknown> = {}, management: Record<string, unknown> = {}) {
  return minimalConfig({
    clusters: [{ name: "hc1", hostedCluster: { ...hostedClusterSpec(), sshPublicKeyFile: "keys/id.pub", nodePools: [{ name: "hc1" }] } }],
    managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" }, ...management },
    ...overrides,
  });
}

function issues(input: unknown) {
  const result = validateConfig(input, EXAMPLES);
  return result.ok ? [] : result.issues;
}

const CLOUD = { type: "cloud", organization: "acme" };

describe("secrets.source", () => {
  it("defaults to variables with the cloud backend and to files otherwise; an explicit value wins", () => {
    expect(secretsSource(loadInline(withCluster()).config)).toBe("files");
    expect(
      secretsSource(
        loadInline(withCluster({ backend: { type: "azurerm", resourceGroupName: "rg", storageAccountName: "st0001", containerName: "tfstate" } })).config,
      ),
    ).toBe("files");
    expect(secretsSource(loadInline(withCluster({ backend: CLOUD })).config)).toBe("variables");
    expect(secretsSource(loadInline(withCluster({ backend: CLOUD, secrets: { source: "files" } })).config)).toBe("files");
    expect(secretsSource(loadInline(withCluster({ secrets: { source: "variables" } })).config)).toBe("variables");
  });

  it("rejects an unknown source, naming the field and the choices", () => {
    expect(issues(withCluster({ secrets: { source: "vault" } }))).toEqual([
      { path: "secrets.source", value: "vault", message: "must be one of files, variables" },
    ]);
  });

  it("refuses a kubeconfig file where no stack may read files, saying what to do instead", () => {
    const kubeconfig = { kubeconfig: { path: "~/.kube/config" } };
    const cloud = issues(withCluster({ backend: CLOUD }, kubeconfig));
    expect(cloud).toHaveLength(1);
    expect(cloud[0]).toMatchObject({ path: "managementCluster.kubeconfig.path", value: "~/.kube/config" });
    expect(cloud[0].message).toMatch(/with backend.type: cloud \(secrets.source defaults to variables\) no stack reads files/);
    expect(cloud[0].message).toMatch(/KUBE_\*.*credentialsFromVariables: true.*local execution mode set secrets.source: files/);
    expect(issues(withCluster({ secrets: { source: "variables" } }, kubeconfig))[0].message).toMatch(
      /^is a file, and with secrets.source: variables no stack reads files/,
    );
    // Local execution mode: the user says the files are there.
    expect(issues(withCluster({ backend: CLOUD, secrets: { source: "files", filesOnlyWhereTerraformRuns: true } }, kubeconfig))).toEqual([]);
  });

  it("credentialsFromVariables excludes kubeconfig and aks", () => {
    expect(issues(withCluster({}, { credentialsFromVariables: true, kubeconfig: { path: "k" } }))).toEqual([
      {
        path: "managementCluster.credentialsFromVariables",
        value: true,
        message: "is not allowed with managementCluster.kubeconfig: the provider connects one way (drop one of them)",
      },
    ]);
    expect(issues(withCluster({ backend: CLOUD }, { credentialsFromVariables: true }))).toEqual([]);
  });

  it("filesOnlyWhereTerraformRuns belongs to files mode", () => {
    expect(issues(withCluster({ backend: CLOUD, secrets: { filesOnlyWhereTerraformRuns: true } }))).toEqual([
      { path: "secrets.filesOnlyWhereTerraformRuns", value: true, message: "is only used with secrets.source: files (variables mode reads no files)" },
    ]);
  });
});

describe("missing secret files (synth, files mode)", () => {
  const management = { pullSecretFile: "pull-secret.json", externalDnsCredentialsFile: "azure_mgmt.json" };

  it("names every secret file Terraform would read that does not exist here, with the stack and the ways out", () => {
    const loaded = loadInline(withCluster({}, management));
    const found = missingSecretFiles(loaded.config, loaded.names, () => false);
    expect(found.map((i) => i.path)).toEqual([
      "clusters[0].hostedCluster.pullSecretFile",
      "clusters[0].hostedCluster.sshPublicKeyFile",
      "serviceAccountSigningKey.privateKeyFile",
      "managementCluster.pullSecretFile",
      "managementCluster.externalDnsCredentialsFile",
    ]);
    expect(found[0].value).toBe(`${EXAMPLES}/pull-secret.json`);
    expect(found[0].message).toMatch(/Terraform reads it when it plans cluster-hc1, so deploy would stop there/);
    expect(found[3].message).toMatch(/when it plans management/);
    expect(found[0].message).toMatch(/secrets.source: variables.*secrets.filesOnlyWhereTerraformRuns: true/);
    expect(formatIssues({ ok: false, file: "x.yaml", issues: found })).toContain("  serviceAccountSigningKey.privateKeyFile: ");
  });

  it("is quiet when the files exist, when they exist only where Terraform runs, and in variables mode", () => {
    const files = loadInline(withCluster({}, management));
    expect(missingSecretFiles(files.config, files.names, () => true)).toEqual([]);
    const elsewhere = loadInline(withCluster({ secrets: { filesOnlyWhereTerraformRuns: true } }, management));
    expect(missingSecretFiles(elsewhere.config, elsewhere.names, () => false)).toEqual([]);
    const variables = loadInline(withCluster({ secrets: { source: "variables" } }, management));
    expect(missingSecretFiles(variables.config, variables.names, () => false)).toEqual([]);
  });

  it("checks a key shared by several clusters once", () => {
    const two = loadInline(
      minimalConfig({
        clusters: ["a", "b"].map((name, i) => ({
          name,
          hostedCluster: { ...hostedClusterSpec(), network: { vnetCidr: `10.${i}.0.0/16`, subnetCidr: `10.${i}.0.0/24` } },
        })),
        managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
      }),
    );
    const found = missingSecretFiles(two.config, two.names, (file) => !file.endsWith(".private"));
    expect(found.map((i) => i.path)).toEqual(["serviceAccountSigningKey.privateKeyFile"]);
  });
});

it("the config error text is what formatIssues prints", () => {
  const result = validateConfig(withCluster({ secrets: { source: "vault" } }), EXAMPLES, "dev.yaml");
  expect(result.ok).toBe(false);
  if (!result.ok) expect(formatIssues(result)).toBe('config error(s) in dev.yaml:\n  secrets.source: "vault" must be one of files, variables');
});

describe("variables mode with one value per variable name (TF_VAR_*)", () => {
  const perCluster = (overrides: Record<string, unknown>) =>
    loadInline(
      minimalConfig({
        oidc: { issuer: "perCluster" },
        serviceAccountSigningKey: undefined,
        clusters: ["a", "b"].map((suffix, i) => ({
          name: `cluster-${suffix}`,
          serviceAccountSigningKey: { publicKeyFile: `keys/cluster-${suffix}-signer.public` },
          hostedCluster: { ...hostedClusterSpec(), network: { vnetCidr: `10.${i}.0.0/16`, subnetCidr: `10.${i}.0.0/24` } },
        })),
        managementCluster: { operator: { bundleFile: "operator/hypershift-operator.yaml" } },
        ...overrides,
      }),
    );

  it("warns when cluster stacks need different signing keys but TF_VAR_* gives them one", () => {
    expect(perCluster({ secrets: { source: "variables" } }).warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^secrets: the cluster stacks cluster-cluster-a, cluster-cluster-b each declare service_account_signing_key with different sources/,
        ),
      ]),
    );
  });

  it("says nothing with workspaces per stack (cloud), in files mode, or with one shared key", () => {
    const quiet = (warnings: readonly string[]) => warnings.filter((w) => w.startsWith("secrets:"));
    expect(quiet(perCluster({ backend: CLOUD }).warnings)).toEqual([]);
    expect(quiet(perCluster({}).warnings)).toEqual([]);
    const shared = loadInline(withCluster({ secrets: { source: "variables" } }));
    expect(quiet(shared.warnings)).toEqual([]);
  });
});
