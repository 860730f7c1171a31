/**
 * File work written once, run two ways. A decision that needs the disk (open a session, append a
 * line under the lock, write a new file) is a generator that yields IO requests and gets each
 * answer back; it never touches a file itself. `runSteps` answers the requests with an async
 * `FileSystem`, `runStepsSync` (in `run-sync.ts`) with a `SyncFileSystem`: the async
 * `SessionManager` and the synchronous `pi-session/compat` one are two shells over the same steps.
 *
 * Inside a step function, `yield* stat(path)` reads like `await fs.stat(path)`; a failed request
 * is thrown into the generator at that point, so `try`/`catch`/`finally` work as in async code.
 * @module
 */

import type { AppendOptions, AtomicWriteOptions, DirEntry, FileStat, FileSystem } from "./file-system.ts";
import { readBytes } from "./read-bytes.ts";

/** One thing a step function asks of the disk (or the clock). */
export type IoRequest =
  | { op: "stat"; path: string }
  | { op: "read"; path: string; start?: number; end?: number; into?: Uint8Array }
  | { op: "list"; path: string }
  | { op: "append"; path: string; data: Uint8Array; options?: AppendOptions }
  | { op: "writeAtomic"; path: string; data: StepData; options?: AtomicWriteOptions }
  | { op: "rename"; path: string; to: string }
  | { op: "remove"; path: string }
  | { op: "mkdir"; path: string; recursive?: boolean }
  | { op: "link"; path: string; to: string }
  | { op: "realPath"; path: string }
  | { op: "openAppend"; path: string }
  | { op: "closeHandle"; handle: AppendHandleRef }
  | { op: "sleep"; ms: number }
  | { op: "heartbeat"; path: string; everyMs: number }
  | { op: "stopHeartbeat"; id: number }
  | { op: "swept" }
  | { op: "await"; run: () => Promise<unknown> };

/**
 * A file's new content in a step: the bytes, or (async runner only) a maker of its chunks, called
 * once per write, for content too big to hold (a streamed rewrite of a gigabyte).
 */
export type StepData = Uint8Array | (() => AsyncIterable<Uint8Array>);

/**
 * A file kept open for appends across calls (`openAppend`), opaque to step functions: the driver
 * that opened it answers for it (`closeHandle`, and between steps a `KeptFileIo`).
 */
export interface AppendHandleRef {
  readonly path: string;
}

/** A step function: yields requests, gets their answers, returns `T`. */
export type Steps<T> = Generator<IoRequest, T, unknown>;

/** Facts about `path`, or null when nothing is there. */
export function* stat(path: string): Steps<FileStat | null> {
  return (yield { op: "stat", path }) as FileStat | null;
}

/**
 * Bytes `[start, end)` of a file (the whole file without a range); shorter at the end of the file.
 * `into`: a buffer the synchronous driver may read them into (see `SyncFileSystem.read`).
 */
export function* read(path: string, start?: number, end?: number, into?: Uint8Array): Steps<Uint8Array> {
  return (yield { op: "read", path, start, end, into }) as Uint8Array;
}

/** The entries of a directory. */
export function* list(path: string): Steps<DirEntry[]> {
  return (yield { op: "list", path }) as DirEntry[];
}

/** Appends in one write call (see `FileSystem.append`). */
export function* append(path: string, data: Uint8Array, options?: AppendOptions): Steps<void> {
  yield { op: "append", path, data, options };
}

/** Replaces a file atomically (see `FileSystem.writeAtomic`). */
export function* writeAtomic(path: string, data: StepData, options?: AtomicWriteOptions): Steps<void> {
  yield { op: "writeAtomic", path, data, options };
}

export function* rename(path: string, to: string): Steps<void> {
  yield { op: "rename", path, to };
}

/** Removes a file or an empty directory. */
export function* remove(path: string): Steps<void> {
  yield { op: "remove", path };
}

export function* mkdir(path: string, options: { recursive?: boolean } = {}): Steps<void> {
  yield { op: "mkdir", path, recursive: options.recursive };
}

/** Gives the file at `path` a second name `to` (a hard link; see `FileSystem.link`). */
export function* link(path: string, to: string): Steps<void> {
  yield { op: "link", path, to };
}

/** The absolute path `path` names, every symbolic link resolved; `NotFound` if nothing is there. */
export function* realPath(path: string): Steps<string> {
  return (yield { op: "realPath", path }) as string;
}

/**
 * Opens `path` (which must exist) for appends that need no path lookup each: a burst of appends
 * under one kept lock, whose lines go out through it between steps (`KeptFileIo`). The handle
 * outlives the steps; `closeHandle` it.
 */
export function* openAppend(path: string): Steps<AppendHandleRef> {
  return (yield { op: "openAppend", path }) as AppendHandleRef;
}

export function* closeHandle(handle: AppendHandleRef): Steps<void> {
  yield { op: "closeHandle", handle };
}

/**
 * Waits for async work that is no single file request (a streamed rewrite's decision, which
 * reads the file itself); only the async runner does this.
 */
export function* awaiting<T>(run: () => Promise<T>): Steps<T> {
  return (yield { op: "await", run }) as T;
}

/** Waits `ms` milliseconds (a lock retry). */
export function* sleep(ms: number): Steps<void> {
  yield { op: "sleep", ms };
}

/**
 * Appends a newline to `path` every `everyMs` while the steps go on (a lock's heartbeat); returns
 * its id for `stopHeartbeat`. The async driver beats on a timer; the synchronous one, which
 * holds the thread, beats between requests once one is due.
 */
export function* startHeartbeat(path: string, everyMs: number): Steps<number> {
  return (yield { op: "heartbeat", path, everyMs }) as number;
}

/** Stops a heartbeat; a beat in flight is waited for, so none lands after this. */
export function* stopHeartbeat(id: number): Steps<void> {
  yield { op: "stopHeartbeat", id };
}

/** The byte a heartbeat appends. */
export const BEAT = new Uint8Array([0x0a]);

/**
 * The files whose killed writers' leftovers this process has looked for on the disk the steps
 * run over (the lock sweeps once per file and process); the driver keeps one set per disk.
 */
export function* sweptFiles(): Steps<Set<string>> {
  return (yield { op: "swept" }) as Set<string>;
}

const sweptBy = new WeakMap<object, Set<string>>();

/** The sweep record of a disk (a `FileSystem` or a `SyncFileSystem`): drivers answer `sweptFiles` with it. */
export function sweptOn(fs: object): Set<string> {
  return sweptBy.get(fs) ?? sweptBy.set(fs, new Set()).get(fs)!;
}

/** How a driver waits; tests inject instant ones. */
export interface StepOptions {
  sleep?: (ms: number) => Promise<void>;
}

/** Runs `steps` over an async `FileSystem`. */
export async function runSteps<T>(fs: FileSystem, steps: Steps<T>, options: StepOptions = {}): Promise<T> {
  const beats = new Map<number, Heartbeat>();
  try {
    let next = steps.next();
    while (!next.done) {
      let answer: unknown;
      try {
        answer = await perform(fs, next.value, options, beats);
      } catch (error) {
        next = steps.throw(error);
        continue;
      }
      next = steps.next(answer);
    }
    return next.value;
  } finally {
    for (const beat of beats.values()) await beat.stop();
  }
}

/** A running heartbeat; `stop` waits for a beat in flight. */
export interface Heartbeat {
  stop(): Promise<void>;
}

let heartbeats = 0;

/** Appends a newline to `path` every `everyMs` until stopped (what the async driver runs for `startHeartbeat`). */
export function heartbeat(fs: FileSystem, path: string, everyMs: number): Heartbeat {
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beating.then(() => fs.append(path, BEAT).catch(() => {}));
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await beating; // a beat in flight would otherwise recreate the file after the lock is gone
    },
  };
}

async function perform(fs: FileSystem, request: IoRequest, options: StepOptions, beats: Map<number, Heartbeat>): Promise<unknown> {
  switch (request.op) {
    case "heartbeat": {
      const id = ++heartbeats;
      beats.set(id, heartbeat(fs, request.path, request.everyMs));
      return id;
    }
    case "stopHeartbeat":
      await beats.get(request.id)?.stop();
      beats.delete(request.id);
      return undefined;
    case "swept":
      return sweptOn(fs);
    case "stat":
      return await fs.stat(request.path);
    case "read":
      return await readBytes(fs, request.path, request.start, request.end);
    case "list":
      return await fs.list(request.path);
    case "append":
      return await fs.append(request.path, request.data, request.options);
    case "writeAtomic":
      return await fs.writeAtomic(request.path, typeof request.data === "function" ? request.data() : inChunks(request.data), request.options);
    case "await":
      return await request.run();
    case "rename":
      return await fs.rename(request.path, request.to);
    case "remove":
      return await fs.remove(request.path);
    case "mkdir":
      return await fs.mkdir(request.path, { recursive: request.recursive });
    case "link":
      return await fs.link(request.path, request.to);
    case "realPath":
      return await fs.realPath(request.path);
    // An async disk has no handles: a handle is its path (nothing uses it between steps).
    case "openAppend":
      return { path: request.path } satisfies AppendHandleRef;
    case "closeHandle":
      return undefined;
    case "sleep":
      return await (options.sleep ?? defaultSleep)(request.ms);
  }
}

/** Writes go out in pieces of this size, so others' appends can land between them (a rewrite's temp file). */
const WRITE_CHUNK = 1024 * 1024;

function inChunks(data: Uint8Array): Uint8Array | AsyncIterable<Uint8Array> {
  if (data.length <= WRITE_CHUNK) return data;
  return (async function* () {
    for (let at = 0; at < data.length; at += WRITE_CHUNK) yield data.subarray(at, at + WRITE_CHUNK);
  })();
}


function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
