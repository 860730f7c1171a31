/**
 * Where an export goes: stdout (`-o -`), or a file that appears whole or not at all (mode 0600),
 * never over an existing one unless forced: a temp file beside it is put in place at the end.
 * A device or a pipe (`-o /dev/null`, `-o /dev/stdout`, a FIFO) is written into as output comes,
 * never replaced (a rename over /dev/null, as root, would put a plain file in its place).
 * Output arrives as a stream and is written in large pieces.
 * @module
 */
import { type FileStat, isFsError } from "../io/file-system.ts";
import { withFileLock } from "../io/lock.ts";
import { dirName } from "../core/storage/paths.ts";
import type { CliContext } from "./context.ts";
import { CliError } from "./errors.ts";

/** Bytes gathered before one write call (larger chunks, such as the HTML data blocks, pass through). */
const PIECE = 1024 * 1024;

/** `mkdir`: create missing folders on the way to the file (else a missing folder is a usage error). */
export type OutputTarget = { kind: "stdout" } | { kind: "file"; path: string; force: boolean; mkdir?: boolean };

const encoder = new TextEncoder();

function existsError(path: string): CliError {
  return new CliError("output-exists", `Cannot write ${path}: the file already exists`, "Pass --force to replace it, or -o to choose another file", 1);
}

/**
 * Fails early, before any work: when the target exists and may not be replaced, or its folder
 * is missing without `mkdir` (a typo in -o should not quietly make a tree of folders).
 */
export async function checkTarget(ctx: CliContext, target: OutputTarget): Promise<void> {
  if (target.kind !== "file") return;
  const existing = await ctx.fs.stat(target.path);
  if (existing !== null && isStream(existing)) return;
  if (!target.force && existing !== null) throw existsError(target.path);
  const folder = dirName(target.path);
  if (!target.mkdir && (await ctx.fs.stat(folder)) === null) {
    throw new CliError("bad-output", `Cannot write ${target.path}: the folder ${folder} does not exist`, "Create it first, pass --mkdir to create it, or choose another -o FILE");
  }
}

/** Neither a file nor a folder: a device or a pipe, which takes bytes rather than being replaced. */
function isStream(stat: FileStat): boolean {
  return !stat.isFile && !stat.isDirectory;
}

/**
 * Joins small chunks into pieces of up to `PIECE` bytes; large ones pass through. Text is
 * encoded straight into the piece. The pieces are made in two buffers taken in turn, never a new
 * one per piece: a piece is handed on, written while the next is made (`madeAhead`), and its
 * buffer is filled again only after that next one is handed on, when the writer is done with
 * it. A fresh megabyte a piece was a thousand new pages per gigabyte exported, each touched
 * afresh (a minor page fault, ~15 µs on the bench VM).
 */
export async function* pieces(chunks: AsyncIterable<Uint8Array | string>): AsyncIterable<Uint8Array> {
  const buffers: Uint8Array[] = [];
  let turn = 0;
  let buffer: Uint8Array | null = null;
  let size = 0;
  const take = (): Uint8Array => {
    buffers[turn] ??= new Uint8Array(PIECE);
    return buffers[turn];
  };
  const join = (): Uint8Array => {
    const out = buffer!.subarray(0, size);
    turn ^= 1;
    buffer = null;
    size = 0;
    return out;
  };
  for await (const chunk of chunks) {
    if (typeof chunk === "string") {
      // At most three bytes of UTF-8 for each UTF-16 unit.
      if (chunk.length * 3 <= PIECE) {
        if (size + chunk.length * 3 > PIECE && size > 0) yield join();
        buffer ??= take();
        size += encoder.encodeInto(chunk, buffer.subarray(size)).written;
        continue;
      }
    }
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    if (bytes.length >= PIECE) {
      // Already large: no copy.
      if (size > 0) yield join();
      yield bytes;
      continue;
    }
    if (size + bytes.length > PIECE) yield join();
    buffer ??= take();
    buffer.set(bytes, size);
    size += bytes.length;
  }
  if (size > 0) yield join();
}

/**
 * The same chunks, the next one asked for as soon as one is handed out: while a chunk is
 * written (the write runs off the main thread), the next one is made. Only one is made ahead,
 * and the chunk being written is the last one handed out, which a producer leaves as it is
 * until it has made one more (the HTML data blocks' buffers are reused no sooner).
 */
async function* madeAhead(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const source = chunks[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<Uint8Array>> | undefined = source.next();
  try {
    while (true) {
      const result: IteratorResult<Uint8Array> = await next;
      next = undefined;
      if (result.done) return;
      next = source.next();
      // A failure is thrown where the next chunk is awaited, not as an unhandled rejection.
      next.catch(() => {});
      yield result.value;
    }
  } finally {
    // Stopped early (a failed write): the producer closes what it holds.
    if (next !== undefined) {
      await next.catch(() => {});
      await source.return?.();
    }
  }
}

/**
 * Writes `chunks` to `target`; returns the bytes written.
 *
 * @example
 * ```ts
 * // await writeOutput(ctx, { kind: "file", path: "/tmp/x.md", force: false }, ["# hi\n"]);
 * ```
 */
export async function writeOutput(ctx: CliContext, target: OutputTarget, chunks: AsyncIterable<Uint8Array | string>): Promise<number> {
  let written = 0;
  if (target.kind === "stdout") {
    const decoder = new TextDecoder();
    for await (const piece of pieces(chunks)) {
      ctx.deps.stdout(decoder.decode(piece, { stream: true }));
      written += piece.length;
    }
    const rest = decoder.decode();
    if (rest) ctx.deps.stdout(rest);
    return written;
  }
  const { fs } = ctx;
  const existing = await fs.stat(target.path);
  if (existing !== null && isStream(existing)) {
    for await (const piece of pieces(chunks)) {
      await fs.append(target.path, piece);
      written += piece.length;
    }
    return written;
  }
  if (target.mkdir) await fs.mkdir(dirName(target.path), { recursive: true });
  async function* counted(): AsyncIterable<Uint8Array> {
    for await (const piece of madeAhead(pieces(chunks))) {
      written += piece.length;
      yield piece;
    }
  }
  try {
    // Whole or not at all: a temp file beside the target, put in place at the end (over the
    // target only when forced). Under the target's lock, so the temp file of a killed export is
    // swept by the next one.
    await withFileLock(fs, target.path, () => fs.writeAtomic(target.path, counted(), { exclusive: !target.force, mode: 0o600 }));
  } catch (error) {
    if (isFsError(error, "AlreadyExists")) throw existsError(target.path);
    if (isFsError(error, "PermissionDenied")) {
      throw new CliError("output-denied", `Cannot write ${target.path}: ${error.message}`, "Choose a file in a directory you may write to (-o FILE)", 3);
    }
    throw error;
  }
  return written;
}
