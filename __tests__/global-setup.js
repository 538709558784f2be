"use strict";
// jest `globalSetup`: one temporary folder for the whole run, removed by global-teardown.js
// (in memory where possible: runFolderParent below).
// Test folders (helpers.ts `tempDir`) and the output folders of cdktf's Testing.app() (one per
// app, never removed by cdktf: hundreds per run; setup.ts) are made in it, so they go with it.
// Set before jest starts its workers, which copy the environment. Not TMPDIR: tsx keeps its
// transpile cache under os.tmpdir(), which must stay the same from run to run.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/**
 * Where the run's folder goes: a memory file system (Linux's /dev/shm) when it has room, else the
 * system's temporary folder. A run makes and removes thousands of files and folders there (about
 * 50 MB at its peak); on this project's reference machine /tmp is ext4 mounted with `discard`, and
 * the same run on tmpfs spends ~5 CPU-seconds less in the kernel. Docker gives containers a 64 MB
 * /dev/shm by default, mounted noexec: it is used only with MIN_FREE free and exec allowed.
 */
const MEMORY = "/dev/shm";
const MIN_FREE = 512 * 1024 * 1024;

function runFolderParent() {
  try {
    fs.accessSync(MEMORY, fs.constants.W_OK);
    // Tests run scripts they write there (stand-in hypershift and cdktf): not on a noexec mount (Docker's /dev/shm).
    if (mountOptions(MEMORY).includes("noexec")) return os.tmpdir();
    const { bavail, bsize } = fs.statfsSync(MEMORY);
    if (bavail * bsize >= MIN_FREE) return MEMORY;
  } catch {
    // No /dev/shm (not Linux), or not writable: the system's temporary folder.
  }
  return os.tmpdir();
}

/** The options of the mount `dir` is on (/proc/mounts: the longest mount point that holds it); [] when unknown. */
function mountOptions(dir, mounts = fs.readFileSync("/proc/mounts", "utf8")) {
  let best = { point: "", options: [] };
  for (const line of mounts.split("\n")) {
    const [, point, , options] = line.split(" ");
    if (!point || !options) continue;
    const holds = dir === point || dir.startsWith(point.endsWith("/") ? point : `${point}/`);
    if (holds && point.length > best.point.length) best = { point, options: options.split(",") };
  }
  return best.options;
}

module.exports = async function globalSetup() {
  process.env.HCP_AZURE_TEST_TMPDIR = fs.mkdtempSync(path.join(runFolderParent(), "hcp-azure-tests-"));
};

module.exports.runFolderParent = runFolderParent;
module.exports.mountOptions = mountOptions;
