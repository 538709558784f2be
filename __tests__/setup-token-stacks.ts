import * as path from "node:path";

// As in every synth (scripts/run.js): no full stack trace per cdktf token, which under jest's
// source-mapped stack traces was most of each synth. Output is unchanged. Imported first by
// setup.ts: cdktf's index makes tokens as it loads.
(require("../scripts/run.js") as { skipTokenCreationStacks(root: string, env: NodeJS.ProcessEnv): void }).skipTokenCreationStacks(
  path.resolve(__dirname, ".."),
  process.env,
);
// As in every synth: cdktf's token resolver replaced by its faster equivalent (scripts/cdktf-fast-resolve.js).
(require("../scripts/cdktf-fast-resolve.js") as { installFastResolve(env: NodeJS.ProcessEnv): boolean }).installFastResolve(process.env);
