/**
 * Reading a whole session for a query: the file, its tree, and a clear error when the
 * file is not a session. Never writes.
 * @module
 */
import { type ReadOptions, readSession, type SessionFile } from "../core/read/read-session.ts";
import { SessionTree } from "../core/tree/session-tree.ts";
import { NotASessionError, refuseTooDeep } from "../session/errors.ts";
import type { QueryEnv } from "./env.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";

export interface LoadedSession {
  path: string;
  file: SessionFile;
  tree: SessionTree;
}

/** Reads the session at `path` in full (`options.keep`: what to hold of each entry). */
export async function loadSessionAt(env: QueryEnv, path: string, options?: ReadOptions): Promise<LoadedSession> {
  const file = await readSession(env.fs.read(path, { reuseBuffer: true }), options);
  refuseTooDeep(path, file.issues);
  if (file.notSession) throw new NotASessionError(path, file.issues);
  return { path, file, tree: new SessionTree(file.entries) };
}

/** Resolves a reference and reads the session it names. */
export async function loadSession(env: QueryEnv, ref: string, options?: ReadOptions): Promise<LoadedSession> {
  return loadSessionAt(env, await resolveSessionRef(env, ref), options);
}
