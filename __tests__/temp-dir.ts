import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * A new empty folder in the run's temporary folder, which jest's global teardown removes
 * (global-setup.js), or in the system's when jest's global setup did not run.
 */
export function tempDir(prefix = "hcp-azure-test-"): string {
  return fs.mkdtempSync(path.join(process.env.HCP_AZURE_TEST_TMPDIR ?? os.tmpdir(), prefix));
}
