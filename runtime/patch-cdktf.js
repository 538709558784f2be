"use strict";
/**
 * Applies every runtime patch of cdktf, first thing in each bundle scripts/run.js runs (before
 * cdktf's index loads: it makes tokens as it loads; scripts/bundle.js writes the call into each
 * bundle's entry) and in jest's setup (__tests__/setup-token-stacks.ts). The requires are static,
 * so they reach the caller's cdktf: the bundle's own copy, or jest's.
 *
 * Reason, proof and off switch: each patch's file says.
 * - runtime/no-token-stack-traces.js: no stack trace per token (HCP_AZURE_TOKEN_STACKS=1 keeps them);
 * - runtime/fast-token-resolver.js: cdktf's token resolver without allocation on plain data;
 * - runtime/remembered-snake-case.js: `keysToSnakeCase` remembering snake-cased keys.
 * The last two are for exactly cdktf 0.21.0 and HCP_AZURE_FAST_RESOLVE=0 turns both off.
 * Output is the same either way (__tests__/scripts/run-bundle.test.ts).
 *
 * (runtime/lazy-archiver.js is not a patch of cdktf but a stand-in for a module it loads:
 * scripts/bundle.js and __tests__/worker-setup.mjs put it in place.)
 */
const { installFastResolve } = require("./fast-token-resolver.js");
const { skipTokenCreationStacks } = require("./no-token-stack-traces.js");
const { rememberSnakeCase } = require("./remembered-snake-case.js");

function applyCdktfPatches(env) {
  skipTokenCreationStacks(env);
  installFastResolve(env);
  rememberSnakeCase(env);
}

module.exports = { applyCdktfPatches };
