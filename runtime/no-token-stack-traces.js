"use strict";
/**
 * cdktf without a stack trace per token.
 *
 * Reason: cdktf records one (Error.stackTraceLimit = MAX) for every token it creates, only to
 * quote it if that token later fails to resolve: a fifth of a 100-cluster synth.
 *
 * Proof: the trace only ever reaches an error message, never the output:
 * __tests__/scripts/run-bundle.test.ts compares the bundle (patched) with the sources, byte for byte.
 *
 * Off switch: HCP_AZURE_TOKEN_STACKS=1 keeps the traces, for debugging a token that fails to
 * resolve (help/troubleshooting.md).
 *
 * Installed by runtime/patch-cdktf.js (every bundle, and jest's setup).
 */

/** Replaces cdktf's stack trace capture, unless HCP_AZURE_TOKEN_STACKS=1. */
function skipTokenCreationStacks(env) {
  if (env.HCP_AZURE_TOKEN_STACKS === "1") return;
  require("cdktf/lib/tokens/private/stack-trace").captureStackTrace = () => [];
}

module.exports = { skipTokenCreationStacks };
