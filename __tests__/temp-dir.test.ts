import { Testing } from "cdktf";
import * as os from "node:os";
import * as path from "node:path";
import { tempDir } from "./helpers";

/** A run leaves nothing in the system's temporary folder: global-setup.js, setup.ts, temp-dir.ts. */
describe("the run's temporary folder", () => {
  const root = process.env.HCP_AZURE_TEST_TMPDIR;

  it("is set by jest's global setup", () => {
    expect(root).toMatch(/hcp-azure-tests-\w+$/);
  });

  it("is in memory (/dev/shm) when it has room, else in the system's temporary folder", () => {
    const { runFolderParent } = require("./global-setup.js") as { runFolderParent(): string };
    expect(path.dirname(root!)).toBe(runFolderParent());
    expect(["/dev/shm", os.tmpdir()]).toContain(runFolderParent());
  });

  it("reads a mount's options from /proc/mounts (a noexec /dev/shm is not used)", () => {
    const { mountOptions } = require("./global-setup.js") as { mountOptions(dir: string, mounts: string): string[] };
    const mounts = ["/dev/vda / ext4 rw,relatime 0 0", "shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=65536k 0 0", "tmpfs /dev tmpfs rw 0 0"].join(
      "\n",
    );
    expect(mountOptions("/dev/shm", mounts)).toContain("noexec");
    expect(mountOptions("/dev/shmx", mounts)).toEqual(["rw"]);
    expect(mountOptions("/tmp", mounts)).toEqual(["rw", "relatime"]);
  });

  it("holds the folders tests make and the output folders of cdktf's Testing.app()", () => {
    expect(path.dirname(tempDir())).toBe(root);
    expect(path.dirname(Testing.app().outdir)).toBe(root);
    const given = path.join(tempDir(), "given");
    expect(Testing.app({ outdir: given }).outdir).toBe(given);
  });
});
