/**
 * `safeRewrite`: replaces a session file that pi may be appending to (without our lock) with
 * new content, losing no appended byte. `safeRewriteSteps` resolves symbolic links, takes the
 * file lock and answers `rewriteSteps`' requests as IO steps (`io-steps.ts`), so the async
 * `safeRewrite` and the synchronous compat layer run the same rewrite.
 * @module
 */
import { type FileStat, type FileSystem, isFsError } from "../io/file-system.ts";
import * as io from "../io/io-steps.ts";
import { lockedSteps } from "../io/lock.ts";
import { siblingTempPath } from "../io/_temp-path.ts";
import { type RewriteDecision, type RewriteOutcome, type RewriteRequest, type RewriteSteps, rewriteSteps } from "./rewrite-steps.ts";

export type { CarriedOver, RewriteDecision, RewriteOutcome } from "./rewrite-steps.ts";

/**
 * Rewrites the file `path` names (a symbolic link is followed: the target is rewritten, the link
 * stays) under its lock. `decide` sees the bytes as they are once the lock is held and returns
 * the new content (and how to name the backup) or `keep`. Bytes others append while the rewrite
 * runs are carried over to the end of the new file verbatim, whether they land before the new
 * file takes its place or just after; the outcome counts them.
 *
 * @example Rewriting a file in upper case, with a backup
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryFileSystem } from "../io/memory.ts";
 * import { safeRewrite } from "./safe-rewrite.ts";
 *
 * const fs = new MemoryFileSystem();
 * await fs.append("/s.jsonl", new TextEncoder().encode("a\n"));
 * const outcome = await safeRewrite(fs, "/s.jsonl", (original) => ({
 *   kind: "write",
 *   bytes: new TextEncoder().encode(new TextDecoder().decode(original).toUpperCase()),
 *   detail: "upper",
 *   backupName: (n) => `/s.jsonl.bak${n === 1 ? "" : `.${n}`}`,
 * }));
 * assert.equal(outcome.written && outcome.backup, "/s.jsonl.bak");
 * assert.equal(outcome.written && outcome.carried.lines, 0);
 * ```
 */
export function safeRewrite<T>(
  fs: FileSystem,
  path: string,
  decide: (original: Uint8Array, stat: FileStat) => RewriteDecision<T>,
): Promise<RewriteOutcome<T>> {
  return io.runSteps(fs, safeRewriteSteps(path, decide));
}

/** `safeRewrite` as a step function. */
export function* safeRewriteSteps<T>(
  path: string,
  decide: (original: Uint8Array, stat: FileStat) => RewriteDecision<T>,
): io.Steps<RewriteOutcome<T>> {
  const real = yield* io.realPath(path);
  return yield* lockedSteps(real, () => rewriteIo(rewriteSteps({ path: real, temp: siblingTempPath(real).temp, old: siblingTempPath(real).temp, decide })));
}

/**
 * `safeRewrite` of a file too big to hold (see `StreamedRewriteInput`): `decide` reads the
 * original where it is, `source` up to `size`, and gives the new content as a maker of chunks;
 * the backup is copied from the original as it is written. The same lock, backup, carrying over
 * of appends and cleanup as `safeRewrite`.
 */
export function safeRewriteStreamed<T>(
  fs: FileSystem,
  path: string,
  decide: (source: string, size: number, stat: FileStat) => Promise<RewriteDecision<T>>,
): Promise<RewriteOutcome<T>> {
  // The writer is done with a chunk before it asks for the next: one buffer serves the whole copy.
  const read = (file: string, start: number, end: number) => fs.read(file, { start, end, reuseBuffer: true });
  return io.runSteps(fs, (function* () {
    const real = yield* io.realPath(path);
    return yield* lockedSteps(real, () => rewriteIo(rewriteSteps({ path: real, temp: siblingTempPath(real).temp, old: siblingTempPath(real).temp, decide, read })));
  })());
}

/** Answers the steps' requests in order over `fs`; the caller holds the lock. */
export function runRewrite<T>(fs: FileSystem, steps: RewriteSteps<T>): Promise<RewriteOutcome<T>> {
  return io.runSteps(fs, rewriteIo(steps));
}

/** The rewrite's requests as IO steps; a failed request is thrown into the steps (which clean up). */
export function* rewriteIo<T>(steps: RewriteSteps<T>): io.Steps<RewriteOutcome<T>> {
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = yield* perform(next.value);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answer);
  }
  return next.value;
}

function* perform(request: RewriteRequest): io.Steps<unknown> {
  switch (request.op) {
    case "stat":
      return yield* io.stat(request.path);
    case "read":
      return yield* io.read(request.path, request.start, request.end);
    case "create":
      try {
        // Whole or not at all, never over another file: a kill or a full disk leaves no partial backup.
        yield* io.writeAtomic(request.path, request.data, { exclusive: true, mode: request.mode });
        return true;
      } catch (error) {
        if (isFsError(error, "AlreadyExists")) return false;
        throw error;
      }
    case "write":
      return yield* io.writeAtomic(request.path, request.data, { mode: request.mode });
    case "append":
      return yield* io.append(request.path, request.data);
    case "link":
      try {
        yield* io.link(request.from, request.to);
        return true;
      } catch (error) {
        // No hard links here (some network and FAT file systems): the rewrite goes on without a
        // look at the old file after the rename.
        if (isFsError(error, "PermissionDenied") || isFsError(error, "Other")) return false;
        throw error;
      }
    case "rename":
      return yield* io.rename(request.from, request.to);
    case "wait":
      return yield* io.sleep(request.ms);
    case "await":
      return yield* io.awaiting(request.run);
    case "remove":
      try {
        return yield* io.remove(request.path);
      } catch (error) {
        if (!isFsError(error, "NotFound")) throw error;
        return undefined;
      }
  }
}
