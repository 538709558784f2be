// Runs once in each jest-light-runner worker (jest.config.js `setupFiles`), before any test file.
// The runner loads test files natively, sharing one module cache per worker (cdktf, the providers
// and zod load once per worker, not once per test file), so this does what a transform and a
// module mapper did under jest's default runner.
import Module, { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { register as registerCjs } from "tsx/cjs/api";
import { register as registerEsm } from "tsx/esm/api";

// TypeScript through tsx (esbuild transpilation; `tsc --noEmit` type-checks in npm test).
registerEsm();
registerCjs();

// cdktf's zip library (`archiver`), loaded by its index but never used here: a placeholder in the
// module cache that loads it on first use (runtime/lazy-archiver.js), as the bundles do.
const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cdktf = path.dirname(require.resolve("cdktf/package.json", { paths: [root] }));
const manifest = require.resolve("archiver/package.json", { paths: [cdktf] });
const archiver = path.join(path.dirname(manifest), require(manifest).main ?? "index.js");
if (!Module._cache[archiver]) {
  const placeholder = new Module(archiver);
  placeholder.filename = archiver;
  placeholder.loaded = true;
  placeholder.exports = require("../runtime/lazy-archiver.js");
  Module._cache[archiver] = placeholder;
}
