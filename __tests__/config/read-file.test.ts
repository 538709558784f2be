import * as fs from "node:fs";
import * as path from "node:path";
import { removedClusterIssues } from "../../config/deployed-clusters";
import { LoadedConfig, validateConfig } from "../../config/load";
import { deployedProtection, LOCAL_PROTECTED_RECORD } from "../../config/protected-resources";
import { FILE_SIZE_LIMITS, readLimitedFile } from "../../config/read-file";
import { EXAMPLES, minimalConfig, tempDir } from "../helpers";

/**
 * The kinds of file the deployed-state checks read (config/deployed-clusters/, config/protected-resources/):
 * Terraform state and synth's own records, read with their limits like every other file.
 */

const SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";
const AZURERM = { type: "azurerm", resourceGroupName: "tfstate-rg", storageAccountName: "acmetfstate", containerName: "tfstate" };
const AZURERM_RECORD = "azurerm+acmetfstate+tfstate+hcp-azure%2Fdemo%2F.clusters.lock";

function load(dir: string, overrides: Record<string, unknown> = {}): LoadedConfig {
  const input = minimalConfig({
    serviceAccountSigningKey: { publicKeyFile: path.join(EXAMPLES, "keys/example-signer.public") },
    clusters: [{ name: "hc1" }],
    ...overrides,
  });
  const loaded = validateConfig(input, dir, path.join(dir, "dev.yaml"));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded;
}

/** A file of `size` bytes that takes no disk space (sparse): refused by its size before anything is read. */
function sparse(file: string, size: number): void {
  fs.writeFileSync(file, "");
  fs.truncateSync(file, size);
}

describe("read-file kinds for deployed state", () => {
  it("refuses a state file over 256 MiB and a record over 4 MiB by their size, before reading them", () => {
    const dir = tempDir();
    sparse(path.join(dir, "big.tfstate"), 256 * 1024 * 1024 + 1);
    sparse(path.join(dir, "big.clusters.lock"), 4 * 1024 * 1024 + 1);
    expect(readLimitedFile(path.join(dir, "big.tfstate"), "state")).toEqual({
      ok: false,
      code: "EFBIG",
      message: `is ${256 * 1024 * 1024 + 1} bytes; a file of this kind is at most ${FILE_SIZE_LIMITS.state} bytes`,
    });
    expect(readLimitedFile(path.join(dir, "big.clusters.lock"), "record")).toMatchObject({ ok: false, code: "EFBIG" });
  });

  it("a local state file over the limit counts as holding state (unreadable), as one that does not parse does", () => {
    const dir = tempDir();
    const states = path.join(dir, "terraform-state", SUBSCRIPTION, "demo");
    fs.mkdirSync(states, { recursive: true });
    sparse(path.join(states, "identities-hc2.tfstate"), FILE_SIZE_LIMITS.state + 1);
    const [issue] = removedClusterIssues(load(dir));
    expect(issue).toMatchObject({ path: "clusters", value: "hc2" });
    expect(issue.message).toContain("identities-hc2.tfstate: unreadable");
  });

  it("a record that is not a regular file is a config issue naming it, not a crash", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, AZURERM_RECORD));
    expect(removedClusterIssues(load(dir, { backend: AZURERM }))).toEqual([
      {
        path: path.relative(process.cwd(), path.join(dir, AZURERM_RECORD)),
        message: "is a directory; give the path of the file itself (the record of deployed cluster stacks; help/retire-cluster.md)",
      },
    ]);
    const states = path.join(dir, "terraform-state", SUBSCRIPTION, "demo");
    fs.mkdirSync(path.join(states, LOCAL_PROTECTED_RECORD), { recursive: true });
    expect(deployedProtection(load(dir))).toEqual({
      issues: [
        {
          path: path.relative(process.cwd(), path.join(states, LOCAL_PROTECTED_RECORD)),
          message: "is a directory; give the path of the file itself (synth's record of protected resources; help/destroy.md)",
        },
      ],
    });
  });
});
