import * as fs from "node:fs";

/**
 * Every file synth reads (the config, keys, bundles, secret files it checks, local state, its own
 * records) is read here, with limits: a regular file only (a directory, device, FIFO or socket is
 * refused before it is opened, so `/dev/zero` cannot exhaust memory and a FIFO cannot hang
 * synth), at most the size of its kind. Messages say what is wrong and never quote the content.
 */

/** Largest file of each kind synth reads, in bytes: generous for real files, far below memory. */
export const FILE_SIZE_LIMITS = {
  /** A config with hundreds of clusters is well under 1 MiB. */
  config: 4 * 1024 * 1024,
  /** A rendered `hypershift install render` bundle is about 1-2 MiB with its CRDs. */
  operatorBundle: 32 * 1024 * 1024,
  /** CA certificates: a full system bundle is about 250 KiB. */
  trustBundle: 4 * 1024 * 1024,
  /** PEM keys, pull secrets, credentials JSON, SSH public keys, kubeconfigs. */
  secret: 1024 * 1024,
  /** Public keys. */
  key: 64 * 1024,
  /**
   * Terraform state files of the local backend, which synth reads to see what a deployment holds
   * (config/deployed-clusters/local-state.ts). A stack of hundreds of resources is a few MiB; the
   * cap keeps the text well under V8's largest string (512 MiB) and its parse within memory.
   */
  state: 256 * 1024 * 1024,
  /** Synth's own records (`*.clusters.lock`, `protected-resources.lock`): a line per stack or protected resource, KiB for hundreds of clusters. */
  record: 4 * 1024 * 1024,
} as const;

export type FileKind = keyof typeof FILE_SIZE_LIMITS;

export type ReadResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string; readonly code?: string };

/** Reads `file` as UTF-8 text within the limits of `kind`; `missing` is the message for a file that does not exist. */
export function readLimitedFile(file: string, kind: FileKind, missing = "file not found"): ReadResult {
  const limit = FILE_SIZE_LIMITS[kind];
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? { ok: false, message: missing, code: "ENOENT" } : { ok: false, message: `cannot be read (${code})`, code };
  }
  if (stat.isDirectory()) return { ok: false, message: "is a directory; give the path of the file itself", code: "EISDIR" };
  if (!stat.isFile()) return { ok: false, message: "is not a regular file (a device, FIFO or socket); give the path of a file", code: "ENOTREG" };
  if (stat.size > limit) return { ok: false, message: `is ${stat.size} bytes; a file of this kind is at most ${limit} bytes`, code: "EFBIG" };
  let fd: number | undefined;
  try {
    // O_NONBLOCK: should the path have become a FIFO since the stat, opening it does not wait.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const again = fs.fstatSync(fd);
    if (!again.isFile()) return { ok: false, message: "is not a regular file (a device, FIFO or socket); give the path of a file", code: "ENOTREG" };
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      length += read;
      if (length > limit) return { ok: false, message: `is larger than ${limit} bytes, the most a file of this kind may be`, code: "EFBIG" };
    }
    return { ok: true, text: Buffer.concat(chunks, length).toString("utf8") };
  } catch (error) {
    return { ok: false, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`, code: (error as NodeJS.ErrnoException).code };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Whether `file` exists (any kind). */
export function fileExists(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch {
    return false;
  }
}
