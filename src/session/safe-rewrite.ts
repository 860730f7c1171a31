/**
 * `safeRewrite`: replaces a session file that pi may be appending to (without our lock) with
 * new content, losing no appended byte. The async shell over `rewriteSteps`: it resolves
 * symbolic links, takes the file lock and answers the steps' requests with a `FileSystem`.
 * @module
 */
import { type FileStat, type FileSystem, isFsError } from "../io/file-system.ts";
import { withFileLock } from "../io/lock.ts";
import { siblingTempPath } from "../io/_temp-path.ts";
import { readBytes } from "../io/read-bytes.ts";
import { type RewriteDecision, type RewriteOutcome, type RewriteRequest, type RewriteSteps, rewriteSteps } from "./rewrite-steps.ts";

export type { CarriedOver, RewriteDecision, RewriteOutcome } from "./rewrite-steps.ts";

/** Writes new temp files in pieces of this size, so appends can land between them too. */
const WRITE_CHUNK = 1024 * 1024;

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
export async function safeRewrite<T>(
  fs: FileSystem,
  path: string,
  decide: (original: Uint8Array, stat: FileStat) => RewriteDecision<T>,
): Promise<RewriteOutcome<T>> {
  const real = await fs.realPath(path);
  return await withFileLock(fs, real, () => runRewrite(fs, rewriteSteps({ path: real, temp: siblingTempPath(real).temp, old: siblingTempPath(real).temp, decide })));
}

/** Answers the steps' requests in order; a failed request is thrown into the steps (which clean up). */
export async function runRewrite<T>(fs: FileSystem, steps: RewriteSteps<T>): Promise<RewriteOutcome<T>> {
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = await perform(fs, next.value);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answer);
  }
  return next.value;
}

async function perform(fs: FileSystem, request: RewriteRequest): Promise<unknown> {
  switch (request.op) {
    case "stat":
      return await fs.stat(request.path);
    case "read":
      return await readBytes(fs, request.path, request.start, request.end);
    case "create":
      try {
        // Whole or not at all, never over another file: a kill or a full disk leaves no partial backup.
        await fs.writeAtomic(request.path, inChunks(request.data), { exclusive: true, mode: request.mode });
        return true;
      } catch (error) {
        if (isFsError(error, "AlreadyExists")) return false;
        throw error;
      }
    case "write":
      return await fs.writeAtomic(request.path, inChunks(request.data), { mode: request.mode });
    case "append":
      return await fs.append(request.path, request.data);
    case "link":
      try {
        await fs.link(request.from, request.to);
        return true;
      } catch (error) {
        // No hard links here (some network and FAT file systems): the rewrite goes on without a
        // look at the old file after the rename.
        if (isFsError(error, "PermissionDenied") || isFsError(error, "Other")) return false;
        throw error;
      }
    case "rename":
      return await fs.rename(request.from, request.to);
    case "wait":
      return await new Promise((resolve) => setTimeout(resolve, request.ms));
    case "remove":
      try {
        return await fs.remove(request.path);
      } catch (error) {
        if (!isFsError(error, "NotFound")) throw error;
        return undefined;
      }
  }
}

async function* inChunks(data: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += WRITE_CHUNK) yield data.subarray(at, at + WRITE_CHUNK);
}

