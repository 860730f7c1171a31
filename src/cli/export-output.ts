/**
 * Where an export goes: stdout (`-o -`), or a file that is created new (mode 0600) and never
 * written over an existing one unless forced, in which case it is replaced atomically (a temp
 * file beside it, renamed over it). Output arrives as a stream and is written in large pieces.
 * @module
 */
import { siblingTempPath } from "../io/_temp-path.ts";
import { isFsError } from "../io/file-system.ts";
import { dirName } from "../core/storage/paths.ts";
import type { CliContext } from "./context.ts";
import { CliError } from "./errors.ts";

/** Bytes gathered before one write call. */
const PIECE = 4 * 1024 * 1024;

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
  if (!target.force && (await ctx.fs.stat(target.path)) !== null) throw existsError(target.path);
  const folder = dirName(target.path);
  if (!target.mkdir && (await ctx.fs.stat(folder)) === null) {
    throw new CliError("bad-output", `Cannot write ${target.path}: the folder ${folder} does not exist`, "Create it first, pass --mkdir to create it, or choose another -o FILE");
  }
}

/** Joins small chunks into pieces of about `PIECE` bytes; large ones pass through. */
async function* pieces(chunks: AsyncIterable<Uint8Array | string>): AsyncIterable<Uint8Array> {
  let parts: Uint8Array[] = [];
  let size = 0;
  const join = () => {
    const out = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    parts = [];
    size = 0;
    return out;
  };
  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    if (bytes.length >= PIECE) {
      // Already large: no copy.
      if (size > 0) yield join();
      yield bytes;
      continue;
    }
    parts.push(bytes);
    size += bytes.length;
    if (size >= PIECE) yield join();
  }
  if (size > 0 || parts.length > 0) yield join();
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
  if (target.mkdir) await fs.mkdir(dirName(target.path), { recursive: true });
  // Forced: build a temp file and rename it over the target. Otherwise create the target
  // itself exclusively, so an existing file is never touched.
  const file = target.force ? siblingTempPath(target.path).temp : target.path;
  let created = false;
  // One piece is written while the next is made; pieces are never reused, so that is safe.
  let writing: Promise<void> | undefined;
  try {
    for await (const piece of pieces(chunks)) {
      await writing;
      writing = fs.append(file, piece, created ? {} : { exclusive: true, mode: 0o600 });
      if (!created) await writing; // the exclusive create decides whether we own the file
      created = true;
      written += piece.length;
    }
    await writing;
    if (!created) await fs.append(file, new Uint8Array(0), { exclusive: true, mode: 0o600 });
    created = true;
    if (target.force) await fs.rename(file, target.path);
  } catch (error) {
    if (created) await fs.remove(file).catch(() => {});
    if (isFsError(error, "AlreadyExists")) throw existsError(target.path);
    if (isFsError(error, "PermissionDenied")) {
      throw new CliError("output-denied", `Cannot write ${target.path}: ${error.message}`, "Choose a file in a directory you may write to (-o FILE)", 3);
    }
    throw error;
  }
  return written;
}
