"use strict";
/**
 * What every synth changes in cdktf, applied first by each bundle scripts/run.js builds (before
 * cdktf's index loads: it makes tokens as it loads) and by jest's setup. The requires are static,
 * so they reach the caller's cdktf: the bundle's own copy, or jest's.
 *
 * - No stack trace per token: cdktf records one (Error.stackTraceLimit = MAX) for every token it
 *   creates, only to quote it if that token later fails to resolve: a fifth of a 100-cluster
 *   synth. HCP_AZURE_TOKEN_STACKS=1 keeps them, for debugging such an error.
 * - The fast token resolver of cdktf-fast-resolve.js, and `keysToSnakeCase` remembering its
 *   snake-cased keys, for exactly cdktf 0.21.0; HCP_AZURE_FAST_RESOLVE=0 keeps cdktf's own.
 *
 * Output is the same either way (__tests__/scripts/cdktf-fast-resolve.test.ts, run-bundle.test.ts).
 */
const { CDKTF_VERSION, installFastResolve } = require("./cdktf-fast-resolve.js");

function skipTokenCreationStacks(env) {
  if (env.HCP_AZURE_TOKEN_STACKS === "1") return;
  require("cdktf/lib/tokens/private/stack-trace").captureStackTrace = () => [];
}

/**
 * cdktf 0.21.0's util.js `keysToSnakeCase` (every resource's attributes, every synth), the same
 * code with `snakeCase` remembered per key: a pure function of a handful of distinct attribute
 * names, run with three regular expressions for each of ~10^5 keys of a 100-cluster synth.
 * Installed with the fast resolver (same version check, same switch).
 */
function rememberSnakeCase(env) {
  if (env.HCP_AZURE_FAST_RESOLVE === "0" || require("cdktf/package.json").version !== CDKTF_VERSION) return false;
  const util = require("cdktf/lib/util");
  if (util.keysToSnakeCase.remembering) return true;
  const { Tokenization } = require("cdktf/lib/tokens/token");
  const snakeCase = util.snakeCase;
  const known = new Map();
  const snake = (key) => {
    let snaked = known.get(key);
    if (snaked === undefined) {
      snaked = snakeCase(key);
      known.set(key, snaked);
    }
    return snaked;
  };
  function keysToSnakeCase(object) {
    if (Tokenization.isResolvable(object)) {
      return object;
    }
    if (Array.isArray(object)) {
      return object.map((e) => {
        return typeof e === "object" ? keysToSnakeCase(e) : e;
      });
    }
    const keys = Object.keys(object);
    return keys.reduce((newObject, key) => {
      if (key === "tags" || key === "environment") {
        newObject[key] = object[key];
        return newObject;
      }
      let value = object[key];
      if (typeof value === "object") {
        value = keysToSnakeCase(value);
      }
      if (Array.isArray(value)) {
        value = value.map((e) => {
          return typeof e === "object" ? keysToSnakeCase(e) : e;
        });
      }
      newObject[snake(key)] = value;
      return newObject;
    }, {});
  }
  keysToSnakeCase.remembering = true;
  keysToSnakeCase.original = util.keysToSnakeCase;
  util.keysToSnakeCase = keysToSnakeCase;
  return true;
}

function applyCdktfPatches(env) {
  skipTokenCreationStacks(env);
  installFastResolve(env);
  rememberSnakeCase(env);
}

module.exports = { applyCdktfPatches, rememberSnakeCase, skipTokenCreationStacks };
