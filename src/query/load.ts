/**
 * Reading a session for a query: the whole file and its tree, or its line index (a page of
 * entries then costs the bytes of its lines), and a clear error when the file is not a session.
 * Never writes.
 * @module
 */
import type { ReadOptions, SessionFile } from "../core/read/read-session.ts";
import { SessionTree } from "../core/tree/session-tree.ts";
import { NotASessionError, refuseTooDeep } from "../session/errors.ts";
import type { QueryEnv } from "./env.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import { SessionIndex, sessionView, type SessionView } from "./session-index.ts";
import { readSessionFile } from "./skim-ahead.ts";

export interface LoadedSession {
  path: string;
  file: SessionFile;
  tree: SessionTree;
}

/**
 * Reads the session at `path` in full (`options.keep`: what to hold of each entry). `onRead`:
 * told the bytes of each piece read (a garbage collection hint).
 */
export async function loadSessionAt(env: QueryEnv, path: string, options?: ReadOptions, onRead?: (bytes: number) => void): Promise<LoadedSession> {
  const file = await readSessionFile(env.fs, path, options, onRead);
  refuseTooDeep(path, file.issues);
  if (file.notSession) throw new NotASessionError(path, file.issues);
  return { path, file, tree: new SessionTree(file.entries) };
}

/** Resolves a reference and reads the session it names. */
export async function loadSession(env: QueryEnv, ref: string, options?: ReadOptions, onRead?: (bytes: number) => void): Promise<LoadedSession> {
  return loadSessionAt(env, await resolveSessionRef(env, ref), options, onRead);
}

/**
 * The line index of the session at `path` (the env's kept one, else one built for the call) as
 * the file is now, or null when the file must be read whole instead: an older version (ids come
 * from migration), not a session, or gone (the full read then says so as it always has).
 * `exact` false: a quick index does (entries as the export's light pass finds them).
 */
export async function indexedSessionAt(env: QueryEnv, path: string, exact = true): Promise<SessionView | null> {
  let index: SessionIndex | null;
  if (env.sessionIndexes) index = await env.sessionIndexes.get(env.fs, path, exact);
  else {
    const stat = await env.fs.stat(path);
    index = stat?.isFile ? await SessionIndex.build(env.fs, path, stat, exact) : null;
  }
  if (index === null || !index.use().usable) return null;
  const view = await sessionView(env.fs, index);
  refuseTooDeep(path, view.issues);
  return view;
}
