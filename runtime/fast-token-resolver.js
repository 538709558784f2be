"use strict";
/**
 * cdktf's token resolver, faster: the same algorithm as cdktf 0.21.0's
 * `cdktf/lib/tokens/private/resolve.js` (`resolve`), with the same results and errors.
 *
 * Reason: cdktf resolves every element of every stack (twice: each element's JSON, then the merged
 * stack), and its resolver was most of a 100-cluster synth. It allocates two closures and a
 * context object per node and per map key, copies the key path (`prefix.concat`) per node, runs
 * three or four regular expressions per string (one of them backtracking) and allocates an
 * ArrayBuffer per number, although almost every node is plain data. This one:
 * - plain data costs no allocation: the key path is one array per walk, pushed and popped, and a
 *   context (the closures) is made only where the original hands one out (a token, a string with
 *   a token marker, an encoded number, list or map);
 * - a string without "TfToken[" (no string, list or map token marker) skips the marker regexes,
 *   and the encoded-number regex `[-|\d|.\+]+(e[-|\d|.|e|E|\+]+)` is replaced, as a test, by the
 *   equivalent `[-|\d.+]e[-|\d.eE+]` (a match of either contains a match of the other);
 *   when either finds something, the original code runs for that string;
 * - numbers and arrays are checked for the token bit patterns without allocating.
 * Where the original hands a context to a token, the context is built as the original builds it
 * (same fields, read from the same previous context, live), and its `resolve` comes back here.
 *
 * Proof: __tests__/runtime/fast-token-resolver.test.ts resolves random trees of plain data and
 * tokens both ways and compares results and error messages; __tests__/scripts/run-bundle.test.ts
 * synthesizes every example and a 12-cluster config with it and with cdktf's own, byte for byte.
 *
 * Off switch: HCP_AZURE_FAST_RESOLVE=0 keeps cdktf's own resolver. It also switches itself off for
 * any cdktf other than exactly 0.21.0, the version it mirrors (cdktf is pinned and its repository
 * archived); after an upgrade, diff that resolve.js against this file before raising the version.
 *
 * Installed by runtime/patch-cdktf.js (every bundle, and jest's setup).
 */

/** The cdktf version this file mirrors, exactly. */
const CDKTF_VERSION = "0.21.0";

/**
 * Returns the fast `resolve` over cdktf's modules (passed in: the proof test builds one beside
 * the original).
 *
 * Long (~150 lines) on purpose: a factory of small inner functions (makeContext, visit,
 * visitString, visitArray, visitObject, each under 30 lines) closing over cdktf's modules and
 * scratch buffers, laid out as resolve.js is so that the two can be diffed section by section
 * after a cdktf upgrade; hoisting them would pass the modules through every call of the hot path.
 */
function createFastResolve({ original, encoding, tokenMap, TokenMap, Token, errors, StringConcat }) {
  const f64 = new Float64Array(1);
  const u32 = new Uint32Array(f64.buffer);
  // encoding.js: DOUBLE_TOKEN_MARKER_BITS, DOUBLE_LIST_TOKEN_MARKER_BITS.
  const DOUBLE_TOKEN_MARKER_BITS = 0xfdff << 16;
  const DOUBLE_LIST_TOKEN_MARKER_BITS = 0xfbff << 16;
  /** extractTokenDouble(x, list) !== undefined, without allocating. */
  const marked = (x, bits) => {
    f64[0] = x;
    return (u32[1] & 0xffff0000) === bits;
  };
  /** Tests the same strings as encoding.js's NUMBER_TOKEN_REGEX. */
  const NUMBER_TOKEN_PAIR = /[-|\d.+]e[-|\d.eE+]/;

  /** resolve.js `makeContext()` (the token branches never append a path). */
  function makeContext(walk) {
    const top = walk.top;
    const previous = walk.previous;
    const newPrefix = walk.path.slice();
    let postProcessor;
    const context = {
      preparing: top.preparing,
      scope: top.scope,
      suppressBraces: previous?.suppressBraces,
      ignoreEscapes: previous?.ignoreEscapes,
      warnEscapes: previous?.warnEscapes,
      iteratorContext: previous?.iteratorContext,
      registerPostProcessor(pp) {
        postProcessor = pp;
      },
      resolve(x) {
        return resolve(x, { ...top, prefix: newPrefix, previousContext: context });
      },
    };
    return [
      context,
      {
        postProcess(x) {
          return postProcessor ? postProcessor.postProcess(x, context) : x;
        },
      },
    ];
  }

  const pathName = (walk) => "/" + walk.path.join("/");

  function resolve(obj, options) {
    // One walk per call: `top` stands for every node's options (the original spreads them down
    // unchanged but for prefix and previousContext); `previous` for the previous context, whose
    // fields the original copies into each plain node's context and so down to the tokens.
    const walk = { top: options, path: (options.prefix || []).slice(), previous: options.previousContext };
    return visit(walk, obj);
  }

  function visit(walk, obj) {
    if (walk.path.length > 200) throw errors.unableToResolveCircularReference(pathName(walk));
    if (typeof obj === "undefined") return undefined;
    if (obj === null) return null;
    if (typeof obj === "function") throw errors.cannotResolveFunction(pathName(walk), obj);
    if (typeof obj === "string") return visitString(walk, obj);
    if (typeof obj === "number") {
      if (obj === Token.NUMBER_MAP_TOKEN_VALUE) throw errors.encodedMapTokenInScalarNumberContext();
      if (!marked(obj, DOUBLE_TOKEN_MARKER_BITS)) return obj;
      const context = makeContext(walk)[0];
      const token = TokenMap.instance().lookupNumberToken(obj);
      return token === undefined ? obj : context.resolve(token);
    }
    if (typeof obj !== "object" || obj instanceof Date) return obj;
    if (Array.isArray(obj)) return visitArray(walk, obj);
    return visitObject(walk, obj);
  }

  function visitString(walk, obj) {
    if (!obj.includes("TfToken[") && obj !== Token.STRING_MAP_TOKEN_VALUE && obj !== Token.ANY_MAP_TOKEN_VALUE) {
      if (!NUMBER_TOKEN_PAIR.test(obj)) return obj;
    } else {
      if (encoding.TokenString.forListToken(obj).test()) throw errors.encodedListTokenInScalarStringContext();
      if (obj === Token.STRING_MAP_TOKEN_VALUE || obj === Token.ANY_MAP_TOKEN_VALUE) throw errors.encodedMapTokenInScalarStringContext();
    }
    // The original string branch, from here on.
    let str = obj;
    const context = makeContext(walk)[0];
    const tokenStr = encoding.TokenString.forString(str, !context.ignoreEscapes, context.warnEscapes);
    if (tokenStr.test()) {
      const fragments = tokenStr.split(tokenMap.lookupToken.bind(tokenMap));
      str = walk.top.resolver.resolveString(fragments, makeContext(walk)[0]);
    }
    const tokenNumberStr = encoding.TokenString.forNumbers(str);
    if (tokenNumberStr.test()) {
      const fragments = tokenNumberStr.split((id) => TokenMap.instance().lookupNumberToken(parseFloat(id)));
      str = fragments.mapTokens(makeContext(walk)[0]).join(new StringConcat());
    }
    return str;
  }

  function visitArray(walk, obj) {
    let maybeListToken = false;
    for (let i = 0; i < obj.length && !maybeListToken; i++) {
      const x = obj[i];
      maybeListToken = typeof x === "string" ? x.includes("#{TfToken[") : typeof x === "number" && marked(x, DOUBLE_LIST_TOKEN_MARKER_BITS);
    }
    if (maybeListToken) {
      if (encoding.containsStringListTokenElement(obj)) return walk.top.resolver.resolveList(obj, makeContext(walk)[0]);
      if (encoding.containsNumberListTokenElement(obj)) return walk.top.resolver.resolveNumberList(obj, makeContext(walk)[0]);
    }
    // The original maps (skipping holes) and filters out undefined. The path is pushed and popped
    // (an exception ends the walk: nothing resolves on with this path after one).
    const path = walk.path;
    const result = [];
    for (let i = 0; i < obj.length; i++) {
      if (!(i in obj)) continue;
      path.push(`${i}`);
      const value = visit(walk, obj[i]);
      path.pop();
      if (typeof value !== "undefined") result.push(value);
    }
    return result;
  }

  function visitObject(walk, obj) {
    const keys = Object.keys(obj);
    let maybeMapToken = false;
    for (let i = 0; i < keys.length && !maybeMapToken; i++) maybeMapToken = keys[i].includes("&{TfToken[");
    if (maybeMapToken && encoding.containsMapToken(obj)) return walk.top.resolver.resolveMap(obj, makeContext(walk)[0]);
    // encoding.unresolved(obj) for a non-array object without map token keys.
    if (typeof obj.resolve === "function") {
      const [context, postProcessor] = makeContext(walk);
      return walk.top.resolver.resolveToken(obj, context, postProcessor);
    }
    if (obj._children !== undefined && obj._metadata !== undefined) throw errors.constructsCannotBeResolved(pathName(walk));
    const path = walk.path;
    const result = {};
    for (const key of keys) {
      const resolvedKey = visit(walk, key);
      if (typeof resolvedKey !== "string") throw errors.mapKeyMustResolveToString(pathName(walk), key, resolvedKey);
      path.push(key);
      const value = visit(walk, obj[key]);
      path.pop();
      if (typeof value === "undefined") continue;
      result[resolvedKey] = value;
    }
    return result;
  }

  // Kept for the proof test and for debugging.
  resolve.original = original;
  return resolve;
}

/**
 * Replaces cdktf's `resolve` with the fast one when the installed cdktf is exactly
 * CDKTF_VERSION and HCP_AZURE_FAST_RESOLVE is not "0". Returns whether it is installed. The
 * requires are static: in a bundle they are the bundle's cdktf, under jest the test's.
 */
function installFastResolve(env) {
  if (env.HCP_AZURE_FAST_RESOLVE === "0") return false;
  if (require("cdktf/package.json").version !== CDKTF_VERSION) return false;
  const resolveModule = require("cdktf/lib/tokens/private/resolve");
  if (resolveModule.resolve.original) return true; // installed already
  const { TokenMap } = require("cdktf/lib/tokens/private/token-map");
  resolveModule.resolve = createFastResolve({
    original: resolveModule.resolve,
    encoding: require("cdktf/lib/tokens/private/encoding"),
    tokenMap: TokenMap.instance(),
    TokenMap,
    Token: require("cdktf/lib/tokens/token").Token,
    errors: require("cdktf/lib/errors"),
    StringConcat: require("cdktf/lib/tokens/resolvable").StringConcat,
  });
  return true;
}

module.exports = { CDKTF_VERSION, createFastResolve, installFastResolve };
