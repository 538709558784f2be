// As in every synth (each bundle applies them, scripts/bundle.js): cdktf patched before its index
// loads (it makes tokens as it loads): no full stack trace per token, the fast token resolver, the
// remembered snake-cased keys (runtime/patch-cdktf.js). Output is unchanged
// (__tests__/scripts/run-bundle.test.ts compares the bundle with the sources under cdktf's own code).
// Imported first by setup.ts.
(require("../runtime/patch-cdktf.js") as { applyCdktfPatches(env: NodeJS.ProcessEnv): void }).applyCdktfPatches(process.env);
