import { createHash } from "node:crypto";

/**
 * A bounded memo of a pure function of text, keyed by the SHA-256 of that text: the same content
 * is computed once while it stays among the `capacity` most recently used, whatever file it came
 * from; edited content has another hash, so nothing is ever stale. Each caller gets its own deep
 * copy (structuredClone): what one caller changes, the memo and the next caller never see.
 *
 * Used by parseOperatorBundle (operator-bundle/read.ts), a pure function of the bundle text and
 * omitKinds, and by readPublicKey (signing-key.ts), a pure function of the key file's text. Who
 * gains is any process that loads one file more than once: the test suite above all (it loads
 * the examples' four bundles and their keys hundreds of times per worker; YAML parsing was a
 * tenth of its time, the key's parse and key ID about 1 CPU-second per run), and tools that load
 * several configs in one process (`npm run diagrams`; configs of several environments that share
 * one rendered bundle or one issuer). A one-config synth computes once and pays one hash of the
 * text (microseconds for the examples' 10 KB, milliseconds for a 2 MiB render).
 */
export class ContentMemo<T> {
  private readonly results = new Map<string, T>();

  /** `capacity`: how many results are kept (the least recently used goes first). */
  public constructor(private readonly capacity: number) {}

  /** A copy of `compute()`'s result for `content`, computed only when the memo does not hold it. */
  public get(content: string, compute: () => T): T {
    const key = createHash("sha256").update(content).digest("base64");
    const result = this.results.get(key) ?? compute();
    this.results.delete(key); // re-inserted last: most recently used
    this.results.set(key, result);
    if (this.results.size > this.capacity) this.results.delete(this.results.keys().next().value as string);
    return structuredClone(result);
  }
}
