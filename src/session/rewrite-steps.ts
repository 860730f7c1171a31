/**
 * The decisions of a safe rewrite, without IO: a generator that yields file requests and gets
 * their answers back (sans-IO), so one copy of the logic serves the async shell
 * (`safe-rewrite.ts`) and a synchronous one. The file is one that pi appends to without our lock.
 *
 * The protocol, for a file at `path` that we hold the lock of:
 * 1. name the original's inode a second time (`old`, a hard link), so it stays readable after
 *    the new file takes its place; stat and read it (waiting out a line still being written);
 * 2. ask `decide` what to do with those bytes: keep the file, or write new bytes;
 * 3. back the original up (exclusive create of the first free name) and write the new bytes to
 *    `temp` (atomically, synced);
 * 4. copy what was appended past the bytes read into `temp`, until a look finds nothing new;
 * 5. rename `temp` over `path`: from here pi's appends (which open the path each time) land in
 *    the new file;
 * 6. append to the new file what reaches the old inode after the rename (an append that opened
 *    the path before it and writes after it), looking until the old file has stayed the same for
 *    a few looks over a short grace period (when anything was appended during the rewrite; else
 *    two looks), then remove `old`. An append whose write comes later still after its open (a
 *    writer stopped between the two) is the one case that is not carried over: no portable call
 *    tells whether a process still holds the old file open. Where the file system has no hard
 *    links, step 6 is skipped, and so is an append between the last look of step 4 and the rename.
 * Appended bytes are carried over verbatim, after the new bytes: the caller's decision covers
 * the bytes it saw, and the result says how many bytes and lines were carried.
 * @module
 */
import { type FileStat, FsError } from "../io/file-system.ts";
import type { StepData } from "../io/io-steps.ts";

/** One file operation the steps need; the shell answers each as its comment says. */
export type RewriteRequest =
  /** → `FileStat | null` */
  | { op: "stat"; path: string }
  /** → `Uint8Array`, bytes [start, end) (fewer if the file is shorter) */
  | { op: "read"; path: string; start: number; end: number }
  /** Exclusive create → `true`, or `false` when the name is taken */
  | { op: "create"; path: string; data: StepData; mode: number }
  /** Atomic, synced write of a whole file → nothing */
  | { op: "write"; path: string; data: StepData; mode: number }
  /** → nothing */
  | { op: "append"; path: string; data: Uint8Array }
  /** Hard link → `true`, or `false` when the file system cannot link */
  | { op: "link"; from: string; to: string }
  /** → nothing */
  | { op: "rename"; from: string; to: string }
  /** Removal that tolerates absence → nothing */
  | { op: "remove"; path: string }
  /** Let `ms` milliseconds pass (others run meanwhile) → nothing */
  | { op: "wait"; ms: number }
  /** A streamed rewrite's decision, which reads the file → what `run` resolves to */
  | { op: "await"; run: () => Promise<unknown> };

/** The steps as a generator: yields requests, returns the outcome. */
export type RewriteSteps<T> = Generator<RewriteRequest, RewriteOutcome<T>, unknown>;

/** What the caller decided about the bytes it was shown. */
export type RewriteDecision<T> =
  | { kind: "keep"; detail: T }
  | {
    kind: "write";
    /** The whole new file, for the bytes `decide` was shown (a streamed rewrite: a maker of its chunks). */
    bytes: StepData;
    detail: T;
    /** Names to try for the backup of the original (n = 1, 2, …); none: no backup. */
    backupName?: (n: number) => string;
    /** Permission bits of the backup; defaults to the original's. */
    backupMode?: number;
  };

/** What happened. `carried` are the bytes appended by others during the rewrite, kept verbatim. */
export type RewriteOutcome<T> =
  | { written: false; detail: T }
  | { written: true; detail: T; backup?: string; carried: CarriedOver };

/** Bytes others appended while the file was rewritten, now at the end of the new file. */
export interface CarriedOver {
  /** All of them, in the order they were copied. */
  bytes: Uint8Array;
  /** How many lines they make (a last one without a newline counts). */
  lines: number;
  /** How many of the bytes reached the old file after the new one took its place. */
  lateBytes: number;
}

/** How to decide, and the scratch names beside the file. */
export interface RewriteInput<T> {
  /** The file to rewrite (a real path, not a symbolic link: a rename would replace the link). */
  path: string;
  /** Where the new file is written before it takes the file's place. */
  temp: string;
  /** A second name for the original while the rewrite runs. */
  old: string;
  /** Pure: the original's bytes (complete lines where a line was still being written) and stat. */
  decide: (original: Uint8Array, stat: FileStat) => RewriteDecision<T>;
}

/**
 * A rewrite of a file too big to hold: the original is never read into memory. `decide` reads
 * it where it is (`source`, a name of it that stays valid, up to `size`: complete lines where a
 * line was still being written) and gives the new content as a maker of chunks; `read` gives the
 * bytes of a range of a file, for the backup. Only the async shell runs it.
 */
export interface StreamedRewriteInput<T> {
  path: string;
  temp: string;
  old: string;
  decide: (source: string, size: number, stat: FileStat) => Promise<RewriteDecision<T>>;
  read: (path: string, start: number, end: number) => AsyncIterable<Uint8Array>;
}

/** Looks at most this often for bytes still arriving before the rename; then the link catches the rest. */
const MAX_COPY_ROUNDS = 1000;
/** Looks at the old file after the rename at most this often. */
const MAX_LATE_ROUNDS = 200;
/**
 * Waits between looks at the old file after the rename, when others appended during the rewrite;
 * it counts as settled once every wait of the list passed in a row with nothing new (about half a
 * second: an appender that opened the old file before the rename and is descheduled longer than
 * that before its write is not waited for). 60 ms lost a line in one of four runs of the
 * real-process test on a loaded 2-core machine; nothing portable tells who still holds the file.
 */
const LATE_WAITS_MS = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256];
/** The same when nobody appended during the rewrite: one more look after others had a turn. */
const QUIET_WAITS_MS = [0];
/** Waits at most this many looks for a torn last line to be completed before deciding. */
const MAX_TORN_ROUNDS = 20;
const NEWLINE = 0x0a;

/**
 * The steps of a safe rewrite of `input.path`; the caller holds the file's lock.
 *
 * @example Driving the steps by hand, as a shell does
 * ```ts
 * import assert from "node:assert/strict";
 * import { rewriteSteps } from "./rewrite-steps.ts";
 *
 * const steps = rewriteSteps({ path: "/s.jsonl", temp: "/.s.new", old: "/.s.old", decide: () => ({ kind: "keep", detail: "fine" }) });
 * assert.deepEqual(steps.next().value, { op: "link", from: "/s.jsonl", to: "/.s.old" });
 * assert.deepEqual(steps.next(true).value, { op: "stat", path: "/.s.old" });
 * const stat = { size: 0, mtimeMs: 0, isFile: true, isDirectory: false, mode: 0o600 };
 * assert.deepEqual(steps.next(stat).value, { op: "read", path: "/.s.old", start: 0, end: 0 });
 * assert.deepEqual(steps.next(new Uint8Array(0)).value, { op: "remove", path: "/.s.old" });
 * assert.deepEqual(steps.next(), { done: true, value: { written: false, detail: "fine" } });
 * ```
 */
export function* rewriteSteps<T>(input: RewriteInput<T> | StreamedRewriteInput<T>): RewriteSteps<T> {
  const { path, temp, old } = input;
  const linked = yield* link(path, old);
  const source = linked ? old : path;
  let wroteTemp = false;
  let keepOld = false;
  let backup: string | undefined;
  try {
    const stat = yield* statOf(source);
    if (stat === null) throw new FsError("NotFound", path, `Cannot read "${path}": no such file or directory`);
    let decision: RewriteDecision<T>;
    let original: StepData;
    let copied: number;
    if ("read" in input) {
      const size = yield* completeLines(source, stat.size);
      decision = (yield { op: "await", run: () => input.decide(source, size, stat) }) as RewriteDecision<T>;
      original = () => input.read(source, 0, size);
      copied = size;
    } else {
      let bytes = yield* read(source, 0, stat.size);
      // A line that is being appended right now may show in part: wait for the rest, a few looks.
      for (let round = 0; round < MAX_TORN_ROUNDS && bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE; round++) {
        const more = yield* readPast(source, bytes.length);
        if (more.length === 0) break;
        bytes = concat([bytes, more]);
      }
      decision = input.decide(bytes, stat);
      original = bytes;
      copied = bytes.length;
    }
    if (decision.kind === "keep") return { written: false, detail: decision.detail };
    const mode = stat.mode || 0o600;
    if (decision.backupName) backup = yield* createFirstFree(decision.backupName, original, decision.backupMode ?? mode);
    wroteTemp = true;
    yield { op: "write", path: temp, data: decision.bytes, mode };
    const carried: Uint8Array[] = [];
    for (let round = 0; round < MAX_COPY_ROUNDS; round++) {
      const more = yield* readPast(source, copied);
      if (more.length === 0) break;
      yield { op: "append", path: temp, data: more };
      carried.push(more);
      copied += more.length;
    }
    yield { op: "rename", from: temp, to: path };
    wroteTemp = false;
    let lateBytes = 0;
    const waits = carried.length > 0 ? LATE_WAITS_MS : QUIET_WAITS_MS;
    try {
      for (let round = 0, quiet = 0; linked && round < MAX_LATE_ROUNDS && quiet < waits.length; round++) {
        const more = yield* readPast(old, copied);
        if (more.length === 0) {
          yield { op: "wait", ms: waits[quiet++] };
          continue;
        }
        quiet = 0;
        yield { op: "append", path, data: more };
        carried.push(more);
        copied += more.length;
        lateBytes += more.length;
      }
    } catch (error) {
      // The new file is in place, but bytes that reached the old one may not be in it: keep them.
      keepOld = true;
      const why = error instanceof Error ? error.message : String(error);
      throw new FsError("Other", path, `Cannot carry over what was appended to "${path}" as it was rewritten (${why}); the old file is kept as "${old}" from byte ${copied}`, { cause: error });
    }
    const bytes = concat(carried);
    return { written: true, detail: decision.detail, ...(backup !== undefined && { backup }), carried: { bytes, lines: countLines(bytes), lateBytes } };
  } finally {
    // A rewrite that failed before the new file took its place leaves nothing of itself.
    if (wroteTemp) yield* removeQuietly(temp);
    if (wroteTemp && backup !== undefined) yield* removeQuietly(backup);
    if (linked && !keepOld) yield* removeQuietly(old);
  }
}

/**
 * `size`, or more when the file's last line was still being written at `size`: its end once a
 * look finds it complete (a few looks), without reading what comes before.
 */
function* completeLines(path: string, size: number): Generator<RewriteRequest, number, unknown> {
  if (size === 0) return 0;
  let last = (yield* read(path, size - 1, size))[0];
  for (let round = 0; round < MAX_TORN_ROUNDS && last !== NEWLINE; round++) {
    const more = yield* readPast(path, size);
    if (more.length === 0) break;
    size += more.length;
    last = more[more.length - 1];
  }
  return size;
}

/** Lines in `bytes`: its newlines, plus one for a last line without a newline. */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (const byte of bytes) if (byte === NEWLINE) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE ? lines + 1 : lines;
}

function* statOf(path: string): Generator<RewriteRequest, FileStat | null, unknown> {
  return (yield { op: "stat", path }) as FileStat | null;
}

function* read(path: string, start: number, end: number): Generator<RewriteRequest, Uint8Array, unknown> {
  return (yield { op: "read", path, start, end }) as Uint8Array;
}

function* link(from: string, to: string): Generator<RewriteRequest, boolean, unknown> {
  return (yield { op: "link", from, to }) as boolean;
}

/** The bytes past `offset` now, or none; a file that shrank below it was rewritten by someone else. */
function* readPast(path: string, offset: number): Generator<RewriteRequest, Uint8Array, unknown> {
  const stat = yield* statOf(path);
  if (stat === null || stat.size < offset) {
    throw new FsError("Other", path, `Cannot rewrite "${path}": it was shortened or removed while being rewritten`);
  }
  if (stat.size === offset) return new Uint8Array(0);
  return yield* read(path, offset, stat.size);
}

/**
 * Removes a scratch file; a failure to do so (a full disk can fail anything) neither hides the
 * error that led here nor fails a rewrite that succeeded: a temp name is swept later.
 */
function* removeQuietly(path: string): Generator<RewriteRequest, void, unknown> {
  try {
    yield { op: "remove", path };
  } catch {
    // Left for the next holder of the lock to sweep.
  }
}

function* createFirstFree(name: (n: number) => string, data: StepData, mode: number): Generator<RewriteRequest, string, unknown> {
  for (let n = 1; ; n++) {
    const candidate = name(n);
    if ((yield { op: "create", path: candidate, data, mode }) as boolean) return candidate;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const all = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
