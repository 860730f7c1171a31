/**
 * The synchronous driver of step functions (see `io-steps.ts`): each request is answered by a
 * `SyncFileSystem` call, and a wait blocks the thread with `Atomics.wait` (no busy loop).
 * @module
 */

import { type AppendHandleRef, BEAT, type IoRequest, type Steps, sweptOn } from "./io-steps.ts";
import type { KeptFileIo } from "./lock-keeper.ts";
import { type AppendHandle, pathAppendHandle, type SyncFileSystem } from "./sync-file-system.ts";

/** How the synchronous driver waits; tests inject instant ones. */
export interface SyncStepOptions {
  sleep?: (ms: number) => void;
}

/** Runs `steps` to the end over `fs`, blocking. */
export function runStepsSync<T>(fs: SyncFileSystem, steps: Steps<T>, options: SyncStepOptions = {}): T {
  const beats = new Map<number, Beat>();
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      beatIfDue(fs, beats);
      answer = perform(fs, next.value, options, beats);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answer);
  }
  return next.value;
}

/** A heartbeat of the synchronous driver, which holds the thread: beaten between requests once due. */
interface Beat {
  path: string;
  everyMs: number;
  last: number;
}

let beatIds = 0;

function beatIfDue(fs: SyncFileSystem, beats: Map<number, Beat>): void {
  if (beats.size === 0) return;
  const now = Date.now();
  for (const beat of beats.values()) {
    if (now - beat.last < beat.everyMs) continue;
    beat.last = now;
    try {
      fs.append(beat.path, BEAT);
    } catch {
      // best effort, as the async heartbeat
    }
  }
}

function perform(fs: SyncFileSystem, request: IoRequest, options: SyncStepOptions, beats: Map<number, Beat>): unknown {
  switch (request.op) {
    case "heartbeat": {
      const id = ++beatIds;
      beats.set(id, { path: request.path, everyMs: request.everyMs, last: Date.now() });
      return id;
    }
    case "stopHeartbeat":
      beats.delete(request.id);
      return undefined;
    case "swept":
      return sweptOn(fs);
    case "stat":
      return fs.stat(request.path);
    case "read":
      return fs.read(request.path, request.start, request.end, request.into);
    case "list":
      return fs.list(request.path);
    case "append":
      return fs.append(request.path, request.data, request.options);
    case "writeAtomic":
      if (typeof request.data === "function") throw new Error("Content made as it is written needs the async runner");
      return fs.writeAtomic(request.path, request.data, request.options);
    case "await":
      throw new Error("Async work needs the async runner");
    case "rename":
      return fs.rename(request.path, request.to);
    case "remove":
      return fs.remove(request.path);
    case "mkdir":
      return fs.mkdir(request.path, { recursive: request.recursive });
    case "link":
      return fs.link(request.path, request.to);
    case "realPath":
      return fs.realPath(request.path);
    case "openAppend":
      return fs.openAppend ? fs.openAppend(request.path) : pathAppendHandle(fs, request.path);
    case "closeHandle":
      return (request.handle as AppendHandle).close();
    case "sleep":
      return (options.sleep ?? blockFor)(request.ms);
  }
}

/**
 * A kept lock's open file used between steps, for a `LockKeeper` whose locks this driver takes:
 * the handle refs its `openAppend` answers are the `SyncFileSystem`'s own `AppendHandle`s.
 */
export const syncKeptFileIo: KeptFileIo = {
  endsAt: (handle: AppendHandleRef, size: number) => (handle as AppendHandle).endsAt(size),
  append: (handle: AppendHandleRef, text: string) => (handle as AppendHandle).append(text),
};

let cell: Int32Array | undefined;

/** Blocks the thread for `ms` without spinning: a wait on a value nobody changes, with a timeout. */
export function blockFor(ms: number): void {
  cell ??= new Int32Array(new SharedArrayBuffer(4));
  if (ms > 0) Atomics.wait(cell, 0, 0, ms);
}
