"use strict";
/**
 * The build cache of scripts/run.js: each build kept by the content hash of its sources in
 * node_modules/.cache/hcp-azure/bundles/<hash>/ (the BUNDLE_CACHE_ENTRIES most recently used), shared
 * by every checkout that uses the same node_modules (`npm run review`'s git worktrees, clones with a
 * linked node_modules). A build is copied only where the dependencies it read (beyond the hashed
 * sources) have the size and time they had when it was built.
 *
 * Plain JavaScript: it runs before anything is compiled.
 */
const fs = require("node:fs");
const path = require("node:path");

const { RECORD } = require("./bundle.js");
/** Builds by sources hash, under a checkout's node_modules (a linked node_modules shares them). */
const BUNDLE_CACHE = path.join(".cache", "hcp-azure", "bundles");
/** How many builds the cache keeps (the most recently used; each is about 17 MB). */
const BUNDLE_CACHE_ENTRIES = 6;
/** In a cache entry: the signature of the dependencies the build read (dependencySignature). */
const DEPENDENCIES = ".dependencies.sha256";

/** The shared build cache of `root`: under its node_modules, when it has one. */
function of(root) {
  const modules = path.join(root, "node_modules");
  return fs.existsSync(modules) ? path.join(modules, BUNDLE_CACHE) : undefined;
}

/** Copies `from` to `to` whole (a rename), so a concurrent run never reads half a file. */
function copyWhole(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const temporary = `${to}.${process.pid}.tmp`;
  fs.copyFileSync(from, temporary);
  fs.renameSync(temporary, to);
}

/**
 * Puts the cached build of `sources` into `root`'s output folder when there is one whose recorded
 * dependencies have, in `root`, the size and time they had when it was built. Returns whether it
 * did; a cache that cannot be read is a miss.
 */
function restore(cache, sources, { outDir, dependencySignature }) {
  const entry = path.join(cache, sources);
  try {
    const record = JSON.parse(fs.readFileSync(path.join(entry, RECORD), "utf8"));
    if (fs.readFileSync(path.join(entry, DEPENDENCIES), "utf8") !== dependencySignature(record)) return false;
    for (const output of record.outputs) copyWhole(path.join(entry, output), path.join(outDir, output));
    copyWhole(path.join(entry, RECORD), path.join(outDir, RECORD));
    const now = new Date();
    fs.utimesSync(entry, now, now); // most recently used
    return true;
  } catch {
    return false;
  }
}

/** Keeps the build just made (in `outDir`, as `record` says) under its sources hash, and drops the least recently used beyond BUNDLE_CACHE_ENTRIES. Never fails the build. */
function keep(cache, sources, { outDir, dependencySignature, record }) {
  const temporary = path.join(cache, `.${sources}.${process.pid}.tmp`);
  try {
    for (const output of [...record.outputs, RECORD]) {
      fs.mkdirSync(path.dirname(path.join(temporary, output)), { recursive: true });
      fs.copyFileSync(path.join(outDir, output), path.join(temporary, output));
    }
    fs.writeFileSync(path.join(temporary, DEPENDENCIES), dependencySignature(record));
    // Another build of the same sources (other dependencies) is replaced.
    fs.rmSync(path.join(cache, sources), { recursive: true, force: true });
    fs.renameSync(temporary, path.join(cache, sources));
    const kept = fs
      .readdirSync(cache)
      .filter((name) => !name.startsWith("."))
      .map((name) => ({ name, used: fs.statSync(path.join(cache, name)).mtimeMs }))
      .sort((a, b) => b.used - a.used);
    for (const { name } of kept.slice(BUNDLE_CACHE_ENTRIES)) fs.rmSync(path.join(cache, name), { recursive: true, force: true });
  } catch {
    // A read-only node_modules, or another run keeping the same build: no cache entry.
  } finally {
    fs.rmSync(temporary, { recursive: true, force: true });
  }
}

module.exports = { of, restore, keep, BUNDLE_CACHE, BUNDLE_CACHE_ENTRIES };
