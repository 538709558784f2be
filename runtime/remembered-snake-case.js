"use strict";
/**
 * cdktf's `keysToSnakeCase` (cdktf 0.21.0's `lib/util.js`; every resource's attributes, every
 * synth), the same code with `snakeCase` remembered per key.
 *
 * Reason: it is a pure function of a handful of distinct attribute names, run with three regular
 * expressions for each of ~10^5 keys of a 100-cluster synth.
 *
 * Proof: __tests__/runtime/remembered-snake-case.test.ts compares it with cdktf's own on random
 * objects; __tests__/scripts/run-bundle.test.ts synthesizes every example and a 12-cluster config
 * with it and with cdktf's own, byte for byte.
 *
 * Off switch: HCP_AZURE_FAST_RESOLVE=0 (shared with runtime/fast-token-resolver.js), and any cdktf
 * other than exactly the version that file mirrors; after an upgrade, diff cdktf's `lib/util.js`
 * against this file before raising the version.
 *
 * Installed by runtime/patch-cdktf.js (every bundle, and jest's setup).
 */
const { CDKTF_VERSION } = require("./fast-token-resolver.js");

/** Replaces cdktf's `keysToSnakeCase`; returns whether it is installed (idempotent). */
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

module.exports = { rememberSnakeCase };
