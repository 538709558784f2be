// Runs once in each jest-light-runner worker (jest.config.js `setupFiles`), before any test file.
// The runner loads test files natively, sharing one module cache per worker (cdktf, the providers
// and zod load once per worker, not once per test file), so this does what a transform and a
// module mapper did under jest's default runner.
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { register as registerCjs } from "tsx/cjs/api";
import { register as registerEsm } from "tsx/esm/api";

// TypeScript through tsx (esbuild transpilation; `tsc --noEmit` type-checks in npm test).
registerEsm();
registerCjs();

// cdktf's zip library, loaded by its index but never used here: deferred as in every synth.
const require = createRequire(import.meta.url);
require("../scripts/run.js").deferArchiver(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
