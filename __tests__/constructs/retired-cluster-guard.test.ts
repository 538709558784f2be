import { DataResource, Testing } from "cdktf";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { RetiredClusterGuard, RetiredClusterGuardProps } from "../../constructs/lifecycle/retired-cluster-guard";
import { HAVE_TERRAFORM, tempDir } from "../helpers";

const props: RetiredClusterGuardProps = { clusterName: "hc2", origin: "clusters[1].retired", stacks: ["cluster-hc2", "infra-hc2", "identities-hc2"] };

/** The guard (and, optionally, a resource standing for the cluster's real ones) as Terraform JSON. */
function synth(options: { guard: boolean }): any {
  return JSON.parse(
    Testing.synthScope((scope) => {
      new DataResource(scope, "ClusterResource", { input: { what: "a resource of the cluster" } });
      if (options.guard) new RetiredClusterGuard(scope, "RetiredClusterGuard", props);
    }),
  );
}

describe("RetiredClusterGuard", () => {
  it("is a terraform_data whose precondition reads a true local, with a message naming the key, the destroy command and the help", () => {
    const json = synth({ guard: true });
    const [local] = Object.keys(json.locals);
    expect(json.locals[local]).toBe(true);
    const guard = Object.entries(json.resource.terraform_data).find(([id]) => id.startsWith("RetiredClusterGuard"))![1] as any;
    expect(guard.lifecycle.precondition).toEqual([
      {
        condition: `\${!local.${local}}`,
        error_message:
          "Cluster hc2 is retired (clusters[1].retired: true): its stacks can only be destroyed. Destroy them with: npm run destroy -- cluster-hc2 infra-hc2 identities-hc2; " +
          "then remove the cluster from the config (help/retire-cluster.md). To keep the cluster, remove clusters[1].retired.",
      },
    ]);
  });

  it("rejects a name that is not a cluster name and an empty stack list", () => {
    expect(() => Testing.synthScope((s) => new RetiredClusterGuard(s, "G", { ...props, clusterName: "HC 2" }))).toThrow(
      'clusterName "HC 2" must be a cluster name',
    );
    expect(() => Testing.synthScope((s) => new RetiredClusterGuard(s, "G", { ...props, stacks: [] }))).toThrow("stacks must name at least one stack");
  });

  (HAVE_TERRAFORM ? it : it.skip)(
    "with Terraform itself: a deployed stack, once retired, refuses plan and apply but destroys (runs where terraform is on PATH)",
    () => {
      const dir = tempDir();
      const env = { ...process.env, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
      const tf = (...args: string[]) => spawnSync("terraform", [...args, "-input=false", "-no-color"], { cwd: dir, env, encoding: "utf8" });
      const write = (json: any) => fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify({ locals: json.locals, resource: json.resource }));
      const stateResources = () => JSON.parse(fs.readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).resources.length;
      try {
        // Only built-in terraform_data and a local: no init needed.
        write(synth({ guard: false }));
        expect(tf("apply", "-auto-approve").status).toBe(0);
        expect(stateResources()).toBe(1);

        write(synth({ guard: true }));
        const plan = tf("plan");
        expect(plan.status).not.toBe(0);
        expect(plan.stderr).toContain("Resource precondition failed");
        expect(plan.stderr.replace(/\s+/g, " ")).toContain("Cluster hc2 is retired (clusters[1].retired: true)");
        expect(tf("apply", "-auto-approve").status).not.toBe(0);
        expect(stateResources()).toBe(1);

        const destroy = tf("destroy", "-auto-approve");
        expect(destroy.stderr).not.toContain("Error");
        expect(destroy.status).toBe(0);
        expect(stateResources()).toBe(0);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
