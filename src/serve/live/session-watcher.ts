/**
 * Notices sessions being created, appended to, renamed and deleted under the session
 * directories: a native watch (through the FileSystem adapter) says *where* to look soon, a
 * poll of `list` + `stat` catches whatever a watch missed or where there is none. Files are
 * only read for new bytes (a `session_info` line renames) and a new file's header.
 * @module
 */
import { HeaderScan, HEADER_SCAN_LIMIT } from "../../core/read/header-scan.ts";
import type { FileSystem, FsWatcher } from "../../io/file-system.ts";
import { type KnownFile, KnownFiles } from "./known-files.ts";

/** One change, as `/api/events` sends it. */
export interface SessionEvent {
  type: "created" | "appended" | "renamed" | "deleted";
  id: string;
  path: string;
  /** The file's size in bytes after the change (not for `deleted`). */
  size?: number;
  /** `renamed`: the new name, null when cleared. */
  name?: string | null;
}

/**
 * The id of a known file. It is kept only where its name does not give it (a name of pi's shape
 * gives it again when needed): kept for every session for the server's life, at 25,000 sessions
 * the name's slice and the id in it were two strings per session held for nothing.
 */
function knownId(path: string, known: KnownFile): string {
  return known.id ?? idFromFileName(path) ?? "";
}

export interface SessionWatcherOptions {
  fs: FileSystem;
  /** Lists every session file in scope (the same listing the catalog uses). */
  listFiles: () => Promise<string[]>;
  /** Folders to watch natively, recursively. */
  watchDirs: readonly string[];
  /** Poll period when a native watch runs / when none does. */
  pollMs?: { watched: number; unwatched: number };
  /** Timers, injectable for tests. */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Called at the first file of each full scan and every `SCAN_COLLECT_EVERY`th after: the server collects garbage there. */
  collect?: () => void;
  /**
   * Called after each full scan: the server collects in full there. A scan leaves a listing and
   * a stat of every file behind (at 25,000 sessions, every 5 s), which young collections let
   * pile up beside what the server holds.
   */
  scanned?: () => void;
}

/** Files stat'ed between two calls of `collect` in a full scan. */
const SCAN_COLLECT_EVERY = 1000;

/** The newest `session_info` name among complete JSON lines of `text`; undefined when none. */
export function lastNameIn(text: string): string | null | undefined {
  let found: string | null | undefined;
  for (const line of text.split("\n")) {
    if (!line.includes('"session_info"')) continue;
    try {
      const entry = JSON.parse(line) as { type?: unknown; name?: unknown };
      if (entry.type !== "session_info") continue;
      found = typeof entry.name === "string" && entry.name.trim() !== "" ? entry.name.trim() : null;
    } catch {
      // A torn or foreign line names nothing.
    }
  }
  return found;
}

/** `2026-03-02T09-00-00-000Z_<id>.jsonl` → `<id>`; undefined for other names. */
export function idFromFileName(path: string): string | undefined {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const match = /^[^_]+_(.+)\.jsonl$/.exec(name);
  return match?.[1];
}

/** Bytes of new tail read to look for a rename; a bigger burst is announced without looking. */
const TAIL_LIMIT = 4 * 1024 * 1024;

export class SessionWatcher {
  readonly #options: SessionWatcherOptions;
  readonly #known = new KnownFiles();
  readonly #listeners = new Set<(event: SessionEvent) => void>();
  #watchers: FsWatcher[] = [];
  #timer: unknown;
  #hinted = new Set<string | null>();
  #hintTimer: unknown;
  #work: Promise<void> = Promise.resolve();
  #closed = false;
  #started = false;
  /** Full scans done, for tests and metrics. */
  scans = 0;

  constructor(options: SessionWatcherOptions) {
    this.#options = options;
  }

  /** Calls `listener` with every change from now on; returns the function that stops it. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Takes the first snapshot (no events for what is already there), then watches and polls. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.#enqueue(() => this.#scan(false));
    for (const dir of this.#options.watchDirs) {
      const watcher = this.#options.fs.watch?.(dir, (path) => this.#hint(path));
      if (watcher) this.#watchers.push(watcher);
    }
    this.#schedulePoll();
  }

  /** Looks at every file now and reports what changed; resolves once reported. */
  refresh(): Promise<void> {
    return this.#enqueue(() => this.#scan(true));
  }

  close(): void {
    this.#closed = true;
    for (const watcher of this.#watchers) watcher.close();
    this.#watchers = [];
    const clear = this.#options.clearTimer ?? ((h) => clearTimeout(h as number));
    if (this.#timer !== undefined) clear(this.#timer);
    if (this.#hintTimer !== undefined) clear(this.#hintTimer);
    this.#listeners.clear();
  }

  #setTimer(fn: () => void, ms: number): unknown {
    return (this.#options.setTimer ?? ((f, t) => setTimeout(f, t)))(fn, ms);
  }

  #schedulePoll(): void {
    if (this.#closed) return;
    const poll = this.#options.pollMs ?? { watched: 5000, unwatched: 1000 };
    const ms = this.#watchers.length > 0 ? poll.watched : poll.unwatched;
    this.#timer = this.#setTimer(() => {
      this.#timer = undefined;
      void this.refresh().finally(() => this.#schedulePoll());
    }, ms);
  }

  /** A native watch named `path` (null: it could not say): look there shortly, once per burst. */
  #hint(path: string | null): void {
    if (this.#closed) return;
    this.#hinted.add(path !== null && path.endsWith(".jsonl") ? path : null);
    if (this.#hintTimer !== undefined) return;
    this.#hintTimer = this.#setTimer(() => {
      this.#hintTimer = undefined;
      const paths = [...this.#hinted];
      this.#hinted.clear();
      void this.#enqueue(async () => {
        if (paths.includes(null)) return this.#scan(true);
        for (const path of paths) await this.#check(path as string);
      });
    }, 25);
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    this.#work = this.#work.then(work, work).catch(() => {});
    return this.#work;
  }

  #emit(event: SessionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // One broken subscriber must not starve the others.
      }
    }
  }

  async #scan(report: boolean): Promise<void> {
    const scan = ++this.scans;
    let files: string[] | undefined = await this.#options.listFiles();
    // Each file listed is marked with the scan's number, where a set of the listed paths was
    // kept through the scan (2.6 MB at 25,000 sessions, beside the list itself).
    for (let i = 0; i < files.length; i++) {
      // Each stat leaves a few objects; 25,000 of them piled up before a collection came. The
      // files found meanwhile are packed first (a first scan finds every file).
      if (i % SCAN_COLLECT_EVERY === 0) {
        if (this.#known.unpacked > 0) this.#known.pack();
        this.#options.collect?.();
      }
      const path = files[i];
      await this.#check(path, report);
      this.#known.see(path, scan);
    }
    files = undefined;
    for (const path of this.#known.unseen(scan)) {
      const known = this.#known.get(path)!;
      this.#known.delete(path);
      if (report) this.#emit({ type: "deleted", id: knownId(path, known), path });
    }
    // What this scan found joins the packed folders, and what went leaves them.
    this.#known.pack();
    this.#options.scanned?.();
  }

  /** Compares one file with what was known of it and reports the difference. */
  async #check(path: string, report = true): Promise<void> {
    const { fs } = this.#options;
    const stat = await fs.stat(path).catch(() => null);
    const known = this.#known.get(path);
    if (stat === null || !stat.isFile) {
      if (known) {
        this.#known.delete(path);
        if (report) this.#emit({ type: "deleted", id: knownId(path, known), path });
      }
      return;
    }
    if (!known) {
      const named = idFromFileName(path);
      const id = named ?? (await this.#headerId(path));
      if (id === undefined) return; // not (yet) a session: a later look may find its header
      this.#known.set(path, named === undefined ? { size: stat.size, mtimeMs: stat.mtimeMs, id, seen: 0 } : { size: stat.size, mtimeMs: stat.mtimeMs, seen: 0 });
      if (report) this.#emit({ type: "created", id, path, size: stat.size });
      return;
    }
    if (stat.size === known.size && stat.mtimeMs === known.mtimeMs) return;
    const from = stat.size >= known.size ? known.size : 0;
    known.size = stat.size;
    known.mtimeMs = stat.mtimeMs;
    this.#known.set(path, known);
    if (!report) return;
    const id = knownId(path, known);
    this.#emit({ type: "appended", id, path, size: stat.size });
    if (stat.size - from <= TAIL_LIMIT) {
      const name = lastNameIn(await this.#text(path, from, stat.size));
      if (name !== undefined) this.#emit({ type: "renamed", id, path, size: stat.size, name });
    }
  }

  async #headerId(path: string): Promise<string | undefined> {
    const scan = new HeaderScan();
    try {
      for await (const chunk of this.#options.fs.read(path, { end: HEADER_SCAN_LIMIT + 1 })) {
        scan.push(chunk);
        if (scan.done) break;
      }
    } catch {
      return undefined;
    }
    return scan.end()?.id;
  }

  async #text(path: string, start: number, end: number): Promise<string> {
    const parts: Uint8Array[] = [];
    try {
      for await (const chunk of this.#options.fs.read(path, { start, end })) parts.push(chunk.slice());
    } catch {
      return "";
    }
    return new TextDecoder().decode(await new Blob(parts as Uint8Array<ArrayBuffer>[]).arrayBuffer());
  }
}
