import { Fn, TerraformStack, Testing } from "cdktf";
import { HostedClusterSecrets, HostedClusterSecretsProps } from "../../constructs/hosted-cluster/hosted-cluster-secrets";
import { secretsProps } from "./hosted-cluster-fixtures";

function synthSecrets(overrides: Partial<HostedClusterSecretsProps> = {}) {
  const stack = new TerraformStack(Testing.app(), "s");
  const secrets = new HostedClusterSecrets(stack, "Secrets", secretsProps(overrides));
  const json = JSON.parse(Testing.synth(stack));
  const byName: Record<string, any> = Object.fromEntries(
    Object.values(json.resource.kubernetes_secret_v1 as Record<string, any>).map((s) => [s.metadata.name, s]),
  );
  return { json, byName, secrets };
}

describe("HostedClusterSecrets", () => {
  const { json, byName, secrets } = synthSecrets();

  it("makes the five secrets of the CLI in the cluster's namespace, all Opaque", () => {
    expect(Object.keys(byName).sort()).toEqual([
      "hc1-cloud-credentials",
      "hc1-etcd-encryption-key",
      "hc1-pull-secret",
      "hc1-ssh-key",
      "hc1sa-token-issuer-key",
    ]);
    for (const secret of Object.values(byName)) {
      expect(secret.metadata.namespace).toBe("clusters");
      expect(secret.type).toBe("Opaque");
    }
  });

  it("reads the pull secret at plan time into .dockerconfigjson, labelled safe to delete with the cluster", () => {
    const pull = byName["hc1-pull-secret"];
    expect(pull.data_wo).toEqual({ ".dockerconfigjson": '${sensitive(file("../../files/pull-secret.json"))}' });
    expect(pull.metadata.labels["hypershift.openshift.io/safe-to-delete-with-cluster"]).toBe("true");
  });

  it("reads the signing private key at plan time into key", () => {
    expect(byName["hc1sa-token-issuer-key"].data_wo).toEqual({ key: '${sensitive(file("../../keys/signer.private"))}' });
  });

  it("writes the pull secret and the signing key write-only, with a revision of the value, and the stack requires Terraform 1.11", () => {
    for (const [name, expression] of [
      ["hc1-pull-secret", 'sensitive(file("../../files/pull-secret.json"))'],
      ["hc1sa-token-issuer-key", 'sensitive(file("../../keys/signer.private"))'],
    ]) {
      const secret = byName[name];
      expect(secret.data).toBeUndefined();
      // The revision hashes the Secret's name and the value (writeOnlyRevision; evaluated in write-only.test.ts).
      expect(secret.data_wo_revision).toMatch(/^\$\{\(parseint\(substr\(sha256\(join\("\\n", \[/);
      expect(secret.data_wo_revision).toContain(`"${name}"`);
      expect(secret.data_wo_revision).toContain(expression);
    }
    expect(json.terraform.required_version).toBe(">= 1.11");
    // A warning while a Secret switched in place still holds its old data in state.
    const address = (name: string) =>
      `kubernetes_secret_v1.${Object.entries(json.resource.kubernetes_secret_v1).find(([, s]: [string, any]) => s.metadata.name === name)![0]}`;
    const conditions = Object.values(json.check as Record<string, any>).map((c) => c.assert[0].condition);
    expect(conditions).toEqual([address("hc1-pull-secret"), address("hc1sa-token-issuer-key")].map((a) => `\${try(length(${a}.data), 0) == 0}`));
  });

  it("fills the etcd key with 32 random bytes as binary data", () => {
    const bytes = Object.entries(json.resource.random_bytes as Record<string, any>);
    expect(bytes).toHaveLength(1);
    expect(bytes[0][1]).toEqual({ length: 32 });
    expect(byName["hc1-etcd-encryption-key"].binary_data).toEqual({ key: `\${random_bytes.${bytes[0][0]}.base64}` });
    expect(byName["hc1-etcd-encryption-key"].data).toBeUndefined();
  });

  it("gives the cloud credentials the subscription and tenant", () => {
    expect(byName["hc1-cloud-credentials"].data).toEqual({
      AZURE_SUBSCRIPTION_ID: "00000000-0000-0000-0000-000000000000",
      AZURE_TENANT_ID: "11111111-1111-1111-1111-111111111111",
    });
  });

  it("without a public key file generates an RSA 4096 key: only the public half in the secret", () => {
    const keys = Object.entries(json.resource.tls_private_key as Record<string, any>);
    expect(keys).toHaveLength(1);
    expect(keys[0][1]).toEqual({ algorithm: "RSA", rsa_bits: 4096 });
    expect(byName["hc1-ssh-key"].data).toEqual({ "id_rsa.pub": `\${tls_private_key.${keys[0][0]}.public_key_openssh}` });
    expect(secrets.generatedSshPrivateKey).toBeDefined();
  });

  it("with a public key file reads it at plan time and generates nothing", () => {
    const { json: withFile, byName: named, secrets: s } = synthSecrets({ sshPublicKey: Fn.file("../../keys/id_rsa.pub") });
    expect(named["hc1-ssh-key"].data).toEqual({ "id_rsa.pub": '${file("../../keys/id_rsa.pub")}' });
    expect(withFile.resource.tls_private_key).toBeUndefined();
    expect(s.generatedSshPrivateKey).toBeUndefined();
  });

  it("holds no literal value except the subscription and tenant IDs", () => {
    for (const secret of Object.values(byName)) {
      if (secret.metadata.name === "hc1-cloud-credentials") continue;
      for (const value of Object.values({ ...secret.data, ...secret.data_wo, ...secret.binary_data }) as string[]) expect(value).toMatch(/^\$\{.*\}$/);
    }
  });

  it("refuses a literal secret value (it would land in the synthesized JSON), naming the prop", () => {
    expect(() => synthSecrets({ pullSecret: '{"auths":{}}' })).toThrow(/pullSecret must be a Terraform expression/);
    expect(() => synthSecrets({ signingKey: "-----BEGIN RSA PRIVATE KEY-----" })).toThrow(/signingKey must be a Terraform expression/);
  });
});
