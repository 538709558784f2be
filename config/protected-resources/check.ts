import { ProtectedRecord } from "../deployed-clusters/record-format";
import { LoadedConfig } from "../load";
import { ConfigIssue } from "../rules";
import { declaredResources, protectedResourcesOf, StackJson } from "./declared";
import { DeployedProtection } from "./deployed";
import { refusalIssues, stackOf } from "./refusals";

/** What refusing or accepting the synthesized stacks leads to. */
export interface ProtectionCheck {
  /** Refusals: protected resources the config drops without a release. */
  readonly issues: readonly ConfigIssue[];
  /** The protected resources to record after this synth. */
  readonly next: ProtectedRecord;
  readonly warnings: readonly string[];
}

/**
 * Compares the protected resources the deployment holds with the synthesized stacks: a held one
 * whose address is no longer declared in its stack (nor carried over by a `moved` block) is
 * dropped, and refused unless `protection.release` names it.
 */
export function checkProtectedResources(loaded: LoadedConfig, stacks: ReadonlyMap<string, StackJson>, deployed: DeployedProtection): ProtectionCheck {
  const declared = declaredResources(stacks);
  const protectedNow = protectedResourcesOf(stacks);
  const release = loaded.config.protection.release;
  const released = new Set(release);
  const dropped = [...deployed.held.keys()].filter((id) => !declared.has(id));
  const refused = dropped.filter((id) => !released.has(id));
  const next = new Map<string, { released: boolean }>([...protectedNow].map((id) => [id, { released: false }]));
  // Released and dropped: still held until a deploy destroys them (local: until the state no longer lists them).
  for (const id of dropped) if (released.has(id)) next.set(id, { released: true });
  const warnings: string[] = [];
  release.forEach((id, index) => {
    if (protectedNow.has(id))
      warnings.push(
        `protection.release[${index}] (${id}): this config still declares it, protected: the release has no effect (a release only lets a config drop a resource; remove it).`,
      );
    else if (!deployed.held.has(id) && !declared.has(id))
      warnings.push(
        `protection.release[${index}] (${id}): the deployment holds no such protected resource (${deployed.source}): destroyed already, or a typo. Remove it from protection.release.`,
      );
  });
  for (const id of dropped.filter((d) => released.has(d)))
    warnings.push(
      `${id} is released (protection.release): the next deploy of ${stackOf(id)} destroys it. ` +
        (loaded.config.backend.type === "local"
          ? "Once it is gone from the state, remove it from protection.release."
          : `Once that deploy has run, delete its line from ${deployed.source} and remove it from protection.release.`),
    );
  if (deployed.unrecorded && loaded.config.backend.type !== "local" && deployed.source !== "the record")
    warnings.push(
      `${deployed.source} listed no protected resources (written before they were recorded): synth now records ${protectedNow.size}. A protected resource this very edit drops was not checked; compare with npm run review (help/destroy.md#when-an-edit-drops-a-protected-resource).`,
    );
  return { issues: refusalIssues(loaded, refused, deployed), next, warnings };
}
