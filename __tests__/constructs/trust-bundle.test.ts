import { Testing, TerraformStack } from "cdktf";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { TrustBundle } from "../../constructs/hosted-cluster/trust-bundle";
import { terraformLiteral } from "../helpers";

const PEM = "-----BEGIN CERTIFICATE-----\nMIIB${not-a-template}%{x}\n-----END CERTIFICATE-----\n";

function synth(pem: string): any {
  const app = Testing.app();
  const stack = new TerraformStack(app, "test");
  new KubernetesProvider(stack, "kubernetes", {});
  new TrustBundle(stack, "TrustBundle", { namespace: "clusters", name: "hc1-user-ca-bundle", pem });
  return JSON.parse(Testing.synth(stack));
}

describe("TrustBundle", () => {
  it("writes the PEM under ca-bundle.crt as a literal Terraform never evaluates (the CLI's ConfigMap key)", () => {
    const configMap = Object.values(synth(PEM).resource.kubernetes_config_map_v1)[0] as any;
    expect(configMap.metadata.name).toBe("hc1-user-ca-bundle");
    expect(terraformLiteral(configMap.data["ca-bundle.crt"])).toBe(PEM);
  });

  it("refuses text without a certificate", () => {
    expect(() => synth("-----BEGIN PUBLIC KEY-----\n")).toThrow(/at least one PEM certificate/);
  });
});
