/**
 * Reading a whole session for a command: the file, its tree, and a clear error when the
 * file is not a session. Never writes.
 * @module
 */
import { readSession, type SessionFile } from "../core/read/read-session.ts";
import { SessionTree } from "../core/tree/session-tree.ts";
import { NotASessionError } from "../session/errors.ts";
import type { CliContext } from "./context.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";

export interface LoadedSession {
  path: string;
  file: SessionFile;
  tree: SessionTree;
}

/** Passes each chunk to `observe` on its way (before the next one is read over it). */
async function* observed(chunks: AsyncIterable<Uint8Array>, observe: (chunk: Uint8Array) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    observe(chunk);
    yield chunk;
  }
}

/**
 * Reads the session at `path` in full. `observe` sees the same bytes in the same pass (e.g. a
 * `SessionInfoReader`), so a command that needs both reads the file once.
 */
export async function loadSessionAt(ctx: CliContext, path: string, observe?: (chunk: Uint8Array) => void): Promise<LoadedSession> {
  const chunks = ctx.fs.read(path, { reuseBuffer: true });
  const file = await readSession(observe ? observed(chunks, observe) : chunks);
  if (file.notSession) throw new NotASessionError(path, file.issues);
  return { path, file, tree: new SessionTree(file.entries) };
}

/** Resolves a reference and reads the session it names (`observe` as for `loadSessionAt`). */
export async function loadSession(ctx: CliContext, ref: string, observe?: (chunk: Uint8Array) => void): Promise<LoadedSession> {
  return loadSessionAt(ctx, await resolveSessionRef(ctx, ref), observe);
}
