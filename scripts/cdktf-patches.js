"use strict";
/**
 * What every synth changes in cdktf, applied first by each bundle scripts/run.js builds (before
 * cdktf's index loads: it makes tokens as it loads) and by jest's setup. The requires are static,
 * so they reach the caller's cdktf: the bundle's own copy, or jest's.
 *
 * - No stack trace per token: cdktf records one (Error.stackTraceLimit = MAX) for every token it
 *   creates, only to quote it if that token later fails to resolve: a fifth of a 100-cluster
 *   synth. HCP_AZURE_TOKEN_STACKS=1 keeps them, for debugging such an error.
 * - The fast token resolver of cdktf-fast-resolve.js, for exactly cdktf 0.21.0;
 *   HCP_AZURE_FAST_RESOLVE=0 keeps cdktf's own.
 *
 * Output is the same either way (__tests__/scripts/cdktf-fast-resolve.test.ts, run-bundle.test.ts).
 */
const { installFastResolve } = require("./cdktf-fast-resolve.js");

function skipTokenCreationStacks(env) {
  if (env.HCP_AZURE_TOKEN_STACKS === "1") return;
  require("cdktf/lib/tokens/private/stack-trace").captureStackTrace = () => [];
}

function applyCdktfPatches(env) {
  skipTokenCreationStacks(env);
  installFastResolve(env);
}

module.exports = { applyCdktfPatches, skipTokenCreationStacks };
