import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { generatedKeysIssues } from "../../../config/deployed-clusters/adopted-keys";
import { validateConfig } from "../../../config/load";
import { EXAMPLES, synthStacks, tempDir } from "../../helpers";

/**
 * A cluster this tool created, configured as adopted (adopt.infrastructure, whose hostedCluster
 * default follows it): the adopted form generates no keys, so the deploy would drop the generated
 * SSH key pair from the state, its only copy. With the local backend synth reads the cluster
 * stack's state and refuses; the state a real deploy of examples/adopt.yaml with
 * adopt.hostedCluster: false leaves is stood in by its generated key resources.
 */
const adoptYaml = parse(fs.readFileSync(path.join(EXAMPLES, "adopt.yaml"), "utf8"));
const absolute = (config: any): any => {
  const copy = structuredClone(config);
  copy.serviceAccountSigningKey.publicKeyFile = path.join(EXAMPLES, copy.serviceAccountSigningKey.publicKeyFile);
  copy.managementCluster.operator.bundleFile = path.join(EXAMPLES, copy.managementCluster.operator.bundleFile);
  copy.managementCluster.pullSecretFile = path.join(EXAMPLES, copy.managementCluster.pullSecretFile);
  copy.clusters[0].hostedCluster.pullSecretFile = path.join(EXAMPLES, copy.clusters[0].hostedCluster.pullSecretFile);
  return copy;
};

function load(dir: string, adopt: object) {
  const config = absolute(adoptYaml);
  config.clusters[0].adopt = adopt;
  const loaded = validateConfig(config, dir, path.join(dir, "env.yaml"));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  return loaded;
}

/** The cluster stack's state as a deploy of `stack` leaves it: one instance per managed resource of the given types. */
function writeState(file: string, stack: any, types: readonly string[]): void {
  const resources = types.flatMap((type) =>
    Object.keys(stack.resource?.[type] ?? {}).map((name) => ({ mode: "managed", type, name, provider: "x", instances: [{ attributes: { id: name } }] })),
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ version: 4, resources }));
}

describe("a cluster this tool created is not taken over as adopted", () => {
  const dir = tempDir();
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const created = load(dir, { hostedCluster: false });
  const stateFile = created.names.stateLocation("cluster-myprefix-hc");
  const createdStack = synthStacks(created)["cluster-myprefix-hc"];

  test("the stack created with hostedCluster: false generates the SSH key pair and the etcd key's bytes", () => {
    expect(Object.keys(createdStack.resource.tls_private_key ?? {})).toHaveLength(1);
    expect(Object.keys(createdStack.resource.random_bytes ?? {})).toHaveLength(1);
  });

  test("with its state holding them, the adopted form (the default with infrastructure, or true) is refused naming the key, the resources and the fix", () => {
    writeState(stateFile, createdStack, ["tls_private_key", "random_bytes", "kubernetes_manifest"]);
    for (const adopt of [{}, { hostedCluster: true }]) {
      const issues = generatedKeysIssues(load(dir, adopt));
      expect(issues).toHaveLength(1);
      expect(issues[0].path).toBe("clusters[0].adopt.hostedCluster");
      expect(issues[0].message).toMatch(
        /^cluster-myprefix-hc's state holds keys Terraform generated \(random_bytes\.\S+, tls_private_key\.\S+\): this tool created that HostedCluster, so there is nothing to adopt.*output ssh_private_key, has no other copy\)\. Set clusters\[0\]\.adopt\.hostedCluster: false/,
      );
    }
    expect(generatedKeysIssues(load(dir, { hostedCluster: false }))).toEqual([]);
  });

  test("a state without generated keys (the guide's cluster imported, or nothing deployed yet) is not refused", () => {
    writeState(stateFile, createdStack, ["kubernetes_manifest", "kubernetes_secret_v1"]);
    expect(generatedKeysIssues(load(dir, {}))).toEqual([]);
    fs.rmSync(stateFile);
    expect(generatedKeysIssues(load(dir, {}))).toEqual([]);
  });
});
