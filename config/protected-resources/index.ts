/**
 * Protected means protected, whatever the edit (help/destroy.md#when-an-edit-drops-a-protected-resource).
 *
 * Terraform reads `prevent_destroy` from the configuration: a resource whose block leaves the
 * configuration loses its protection with it, and the next deploy destroys it without a word
 * (`identities.controlPlaneOperator: false`, removing `externalDns`, `oidc.issuer: shared →
 * perCluster`, renaming an aroHcp cluster...). So synth knows which protected resources the
 * deployment may hold, and refuses a config that drops one unless `protection.release` names it
 * (check.ts, refusals.ts):
 *
 * - which resources are protected comes from the synthesized stacks themselves: every resource
 *   with `lifecycle.prevent_destroy = true` (`protectedResourcesOf`, declared.ts), recorded at each synth;
 * - local backend: what the deployment holds is read from the state files
 *   (`<backend.directory>/<subscriptionId>/<prefix>/<stack>.tfstate`); the state does not say which
 *   resources were protected, so synth keeps `protected-resources.lock` beside them (written once
 *   that folder exists, or under the cdktf CLI, which is about to deploy into it; local-record.ts).
 *   Held = recorded as protected and present in its stack's state (deployed.ts).
 * - azurerm and cloud: the state is not reachable offline: the committed record of cluster stacks
 *   (config/deployed-clusters/) lists the protected resources too, as `protected:` lines. Held =
 *   listed there (synth cannot know whether a deploy destroyed one: a released line is deleted by
 *   hand after that deploy).
 */
export { stateAddresses } from "../deployed-clusters/local-state";
export { checkProtectedResources, type ProtectionCheck } from "./check";
export { protectedResourcesOf } from "./declared";
export { deployedProtection, type DeployedProtection, localNext } from "./deployed";
export { LOCAL_PROTECTED_RECORD, localProtectedRecordFile, parseLocalProtectedRecord, writeLocalProtectedRecord } from "./local-record";
