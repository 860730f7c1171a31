/**
 * The catalog: per-section digests of session files, brought up to date on demand (stat every
 * file, read only what changed) and kept in a store between runs. Any trouble with the store
 * is reported once through `note` and never fails the caller: without a store, it reads files.
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import type { DocRow } from "../core/digest/docs-digest.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { type CheckMode, checkKey, type FolderListing, listThroughFolders, quickTrust } from "./folder-check.ts";
import { refreshFile, type RefreshOutcome } from "./refresh-file.ts";
import type { CatalogRecord, CatalogStore, DocBatch, FolderSnapshot, RecordStamp, SectionChanges } from "./store.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

/** How a `Catalog` keeps and reports. */
export interface CatalogOptions {
  store?: CatalogStore | null;
  /** Told once per kind of trouble (an unreadable cache, a cache that could not be saved). */
  note?: (message: string) => void;
  /**
   * Files refreshed at once; defaults to 1. The node adapter (Node and Bun) reads with blocking
   * calls, so more would only interleave the work, and it measured a higher peak memory (Bun:
   * `stats --all` cold 113 MB at 4 against 102 MB at 1, in the same time). An adapter whose reads
   * wait on I/O (Deno's) gains from a few.
   */
  concurrency?: number;
  /** False for a caller that reports a failed save itself (`saveProblem`): no note then. */
  noteSaveFailures?: boolean;
  /** Milliseconds on a monotonic clock, for when a refresh saves (`SAVE_EVERY_MS`); defaults to `performance.now`. */
  clock?: () => number;
  /** `auto` (default): the quick check where a full one is recent (see folder-check.ts); `full`: always full. */
  check?: CheckMode;
  /** The clock of the quick check, in ms; default `Date.now`. */
  now?: () => number;
}

/** What a refresh may also do. */
export interface RefreshOptions {
  /**
   * Directories listed in full (and everything under them): records of files in them that were
   * not asked for are dropped (deleted, renamed, or in a project folder that is gone).
   */
  listedDirs?: readonly string[];
  onProgress?: (done: number, total: number) => void;
  /**
   * Gets each file's records (one per kind, in order) as soon as they are known: unchanged
   * files first, then each changed file once read. Lets a picker show rows before a cold refresh ends.
   */
  onRecords?: (path: string, records: readonly CatalogRecord[]) => void;
  /**
   * Load only the stored records of the files asked for, where the store can, rather than the
   * whole section: for a refresh of a few files (e.g. the sessions a search found), or, with
   * `pauseEveryMs`, a big section loaded a slice at a time. Records of files gone from
   * `listedDirs` are still dropped.
   */
  partial?: boolean;
  /**
   * For an interactive caller: after working for this many milliseconds (reading files, or
   * loading stored records a slice at a time), give the event loop a turn (keys, timers).
   * Reads block, so without it a refresh holds everything else up until it ends.
   */
  pauseEveryMs?: number;
  /** Checked at each pause: once aborted, the refresh stops there and rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * False for a caller that takes the records through `onRecords` (or only wants the catalog
   * current): the view is empty and, where the store can list stamps and load records by path
   * (SQLite), no record is held past a slice of files, so memory does not grow with the corpus.
   */
  keep?: boolean;
  /**
   * The files' listing (`Catalog.listFiles`): lets the refresh make the quick check, taking files
   * of unchanged folders on trust, and saves the folders listed (and a full check) once done.
   */
  listing?: FolderListing;
}

/** What a refresh did, file by file (a file counts once, by the most work any section needed). */
export interface RefreshCounts {
  files: number;
  unchanged: number;
  touched: number;
  appended: number;
  read: number;
  removed: number;
  bytesRead: number;
  /** Files that were there but could not be read (e.g. no permission); they are left out. */
  unreadable: number;
  /** Why the first unreadable file could not be read. */
  firstUnreadable?: string;
}

/** The records of one refresh, by section. */
export class CatalogView {
  readonly counts: RefreshCounts;
  #maps: Map<string, Map<string, CatalogRecord>>;

  constructor(maps: Map<string, Map<string, CatalogRecord>>, counts: RefreshCounts) {
    this.#maps = maps;
    this.counts = counts;
  }

  /** The up-to-date records of `kind`'s section for the refreshed files that could be read. */
  records<S>(kind: DigestKind<S, unknown>): Map<string, CatalogRecord<S>> {
    return (this.#maps.get(kind.name) ?? new Map()) as Map<string, CatalogRecord<S>>;
  }
}

const RANK: Record<RefreshOutcome, number> = { unchanged: 0, touched: 1, appended: 2, read: 3 };
/** Stats in flight at once (cheap calls; more only queue up in the runtime's thread pool). */
const STAT_CONCURRENCY = 64;
/** Search documents are saved in batches of about this many rows, to bound memory. */
const DOC_BATCH = 20_000;

/** Stored records loaded at once by a refresh that pauses (message texts: about 1 MB, 20 ms). */
const PACED_LOAD = 100;
/**
 * A refresh also saves what it has read once this long has passed since its last save (and at
 * least ten times that save's duration): a killed `index` keeps most of its work (issue 22).
 */
const SAVE_EVERY_MS = 1000;

/**
 * What a refresh with `pauseEveryMs` calls between steps (none without): a turn of the event loop
 * once that many milliseconds have passed since the last one, and an end once `signal` is aborted.
 */
function pacer(options: Pick<RefreshOptions, "pauseEveryMs" | "signal">): (() => Promise<void>) | undefined {
  const { pauseEveryMs, signal } = options;
  if (pauseEveryMs === undefined) return undefined;
  let ranSince = performance.now();
  return async () => {
    if (performance.now() - ranSince >= pauseEveryMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      ranSince = performance.now();
    }
    signal?.throwIfAborted();
  };
}

/** A test for paths anywhere under one of `dirs` (the rule `listedDirs` follows). */
export function inDirs(dirs: readonly string[] = []): (path: string) => boolean {
  const prefixes = dirs.map((dir) => (dir.endsWith("/") ? dir : dir + "/"));
  return (path) => prefixes.some((prefix) => path.startsWith(prefix));
}

/**
 * @example Listing through the catalog
 * ```ts
 * const catalog = new Catalog(fs, { store: new FileCatalogStore(fs, "/cache") });
 * const view = await catalog.refresh([listingDigest], files);
 * view.records(listingDigest).get(files[0])?.state.header?.id;
 * ```
 */
export class Catalog {
  readonly fs: FileSystem;
  #store: CatalogStore | null;
  #note: (message: string) => void;
  #noted = new Set<string>();
  #concurrency: number;
  #loaded = new Map<string, Promise<Map<string, CatalogRecord>>>();
  #saveProblem: string | undefined;
  #noteSaveFailures: boolean;
  #clock: () => number;
  #check: CheckMode;
  #now: () => number;
  #folders: Promise<FolderSnapshot | null> | undefined;

  constructor(fs: FileSystem, options: CatalogOptions = {}) {
    this.fs = fs;
    this.#store = options.store ?? null;
    this.#note = options.note ?? (() => {});
    this.#concurrency = options.concurrency ?? 1;
    this.#noteSaveFailures = options.noteSaveFailures ?? true;
    this.#clock = options.clock ?? (() => performance.now());
    this.#check = options.check ?? "auto";
    this.#now = options.now ?? Date.now;
  }

  /**
   * The session files of `dir` (`nested`: of each project folder in it), listing only the folders
   * whose mtime changed since the catalog last listed them; pass the result to `refresh` as `listing`.
   */
  async listFiles(dir: string, nested: boolean): Promise<FolderListing> {
    this.#folders ??= this.#store?.loadFolders ? this.#store.loadFolders().catch(() => null) : Promise.resolve(null);
    return listThroughFolders(this.fs, await this.#folders, dir, { nested, mode: this.#check, now: this.#now() });
  }

  /** The quick check's test for `kinds` over `listing`, or undefined for a full check. */
  #trust(kinds: readonly AnyKind[], listing: FolderListing | undefined): ((path: string, stamp: RecordStamp) => boolean) | undefined {
    return listing && quickTrust(listing, kinds, { mode: this.#check, now: this.#now() });
  }

  /** Saves the folders `listing` listed and, when every file was stat'ed, the full check of `kinds`. */
  async #saveListing(kinds: readonly AnyKind[], listing: FolderListing | undefined, full: boolean): Promise<void> {
    if (!listing || !this.#store?.saveFolders || listing.snapshot === null) return;
    const checks = new Map(full ? kinds.map((kind) => [checkKey(kind), listing.startedMs]) : []);
    if (listing.listed.length === 0 && listing.removed.length === 0 && checks.size === 0) return;
    try {
      await this.#store.saveFolders(listing.listed, listing.removed, checks);
      for (const folder of listing.listed) listing.snapshot.folders.set(folder.path, folder);
      for (const path of listing.removed) listing.snapshot.folders.delete(path);
      for (const [key, at] of checks) listing.snapshot.fullChecks.set(key, at);
    } catch (error) {
      this.#saveProblem ??= (error as Error).message;
    }
  }

  /** Why the first save to the store failed since this catalog was made (undefined: none did). */
  get saveProblem(): string | undefined {
    return this.#saveProblem;
  }

  /** Where records are kept, or null when every run reads the files. */
  get store(): CatalogStore | null {
    return this.#store;
  }

  #warn(key: string, message: string): void {
    if (this.#noted.has(key)) return;
    this.#noted.add(key);
    this.#note(message);
  }

  #records(kind: AnyKind): Promise<Map<string, CatalogRecord>> {
    let records = this.#loaded.get(kind.name);
    if (!records) this.#loaded.set(kind.name, records = this.#load(kind));
    return records;
  }

  async #load(kind: AnyKind): Promise<Map<string, CatalogRecord>> {
    if (!this.#store) return new Map();
    try {
      return await this.#store.load(kind);
    } catch (error) {
      this.#warn("load", `The catalog at ${this.#store.location} cannot be read (${(error as Error).message}); reading the session files directly`);
      return new Map();
    }
  }

  /**
   * The records of `kind` as stored, before any refresh (a refresh reuses them): what a picker
   * can show at once while it checks the files.
   */
  stored<S>(kind: DigestKind<S, unknown>): Promise<Map<string, CatalogRecord<S>>> {
    return this.#records(kind) as Promise<Map<string, CatalogRecord<S>>>;
  }

  /**
   * The stored records of `paths` in `kind`'s section: just those where the store can (a slice
   * at a time when `pace` pauses), else all.
   */
  async #recordsOf(kind: AnyKind, paths: readonly string[], pace?: () => Promise<void>): Promise<Map<string, CatalogRecord>> {
    if (!this.#store?.loadPaths || this.#loaded.has(kind.name)) return this.#records(kind);
    const records = new Map<string, CatalogRecord>();
    const slice = pace ? PACED_LOAD : paths.length;
    for (let i = 0; i < paths.length; i += slice) {
      await pace?.();
      let some;
      try {
        some = await this.#store.loadPaths(kind, paths.slice(i, i + slice));
      } catch (error) {
        this.#warn("load", `The catalog at ${this.#store.location} cannot be read (${(error as Error).message}); reading the session files directly`);
        return new Map();
      }
      for (const [path, record] of some) records.set(path, record);
    }
    return records;
  }

  /** Every path with a record in `kind`'s section: from the stamps where the store has them. */
  async #storedPaths(kind: AnyKind, loaded: Map<string, CatalogRecord>): Promise<Iterable<string>> {
    if (!this.#store?.loadStamps || this.#loaded.has(kind.name)) return [...loaded.keys()];
    try {
      return (await this.#store.loadStamps(kind)).keys();
    } catch {
      return [...loaded.keys()];
    }
  }

  /** Starts loading the stored records of `kinds`, so that listing directories can overlap it. */
  preload(kinds: readonly AnyKind[]): void {
    for (const kind of kinds) void this.#records(kind);
  }

  async #save(kind: AnyKind, changes: SectionChanges): Promise<void> {
    if (!this.#store || (changes.put.length === 0 && changes.remove.length === 0 && !changes.docs?.length)) return;
    try {
      await this.#store.save(kind, changes);
    } catch (error) {
      this.#saveProblem ??= (error as Error).message;
      if (this.#noteSaveFailures) this.#warn("save", `The catalog at ${this.#store.location} cannot be updated (${(error as Error).message}); results are complete, the next run reads the files again`);
    }
  }

  /** Drops every record (the store's too), so the next refresh reads every file. */
  async clear(): Promise<void> {
    this.#loaded.clear();
    await this.#store?.clear();
  }

  /**
   * True when a refresh of `kind` for `files` would change nothing: every file has a record of
   * the same size and mtime, and none would be dropped from `listedDirs`. Answered without
   * loading the records where the store can list their stamps; else false (refresh instead).
   */
  async unchanged(kind: AnyKind, files: readonly string[], options: Pick<RefreshOptions, "listedDirs" | "listing"> = {}): Promise<boolean> {
    if (!this.#store?.loadStamps || this.#loaded.has(kind.name)) return false;
    const trust = this.#trust([kind], options.listing);
    const asked = new Set<string>();
    let stamps;
    try {
      stamps = await this.#store.loadStamps(kind);
      // One file at a time: the first changed one answers, and no array of thousands of stats is built.
      for (const path of files) {
        const stamp = stamps.get(path);
        if (!stamp) return false;
        if (trust?.(path, stamp)) {
          asked.add(path);
          continue;
        }
        const stat = await this.fs.stat(path);
        if (!stat?.isFile || stamp.size !== stat.size || stamp.mtimeMs !== stat.mtimeMs) return false;
        asked.add(path);
      }
    } catch {
      return false;
    }
    // Every stamp is of a file asked for (the usual case): nothing would be dropped.
    const listed = inDirs(options.listedDirs);
    const same = asked.size === stamps.size || ![...stamps.keys()].some((path) => !asked.has(path) && listed(path));
    if (same) await this.#saveListing([kind], options.listing, trust === undefined);
    return same;
  }

  /** Brings the records of `kinds` up to date for `files` and saves what changed. */
  async refresh(kinds: readonly AnyKind[], files: readonly string[], options: RefreshOptions = {}): Promise<CatalogView> {
    if (options.keep === false && this.#canWalk(kinds)) return this.#walk(kinds, files, options);
    const keep = options.keep !== false;
    const paths = [...new Set(files)];
    const trust = options.partial ? undefined : this.#trust(kinds, options.listing);
    // Stats run in the background while the stored records load (after, for the quick check: it needs the records).
    const statOf = (path: string) => this.fs.stat(path).catch(() => null);
    const statting = trust ? undefined : mapConcurrent(paths, STAT_CONCURRENCY, statOf);
    const pace = pacer(options);
    const stored = await Promise.all(kinds.map((kind) => options.partial ? this.#recordsOf(kind, paths, pace) : this.#records(kind)));
    const stats = statting ? await statting : await this.#quickStats(paths, stored, trust!, statOf);
    const run = this.#run(kinds, options);
    const { counts } = run;
    const fresh = kinds.map(() => new Map<string, CatalogRecord>());
    const seen = new Set<string>();
    // The common case first, without any await: same size and mtime as last time.
    const changed: [string, FileStat][] = [];
    for (const [i, path] of paths.entries()) {
      const stat = stats[i];
      if (!stat?.isFile) continue;
      seen.add(path);
      const records = stored.map((r) => r.get(path));
      if (records.some((r) => r === undefined || r.size !== stat.size || r.mtimeMs !== stat.mtimeMs)) {
        changed.push([path, stat]);
        continue;
      }
      if (keep) records.forEach((record, k) => fresh[k].set(path, record!));
      options.onRecords?.(path, records as CatalogRecord[]);
      counts.files++;
      counts.unchanged++;
    }
    let done = paths.length - changed.length;
    options.onProgress?.(done, paths.length);

    await mapConcurrent(changed, this.#concurrency, async ([path, stat]) => {
      await pace?.();
      const records = await run.read(path, stat, stored.map((r) => r.get(path)));
      options.onProgress?.(++done, paths.length);
      // Kept for a later refresh by this catalog, unless nothing is to be kept (`keep: false`).
      if (keep) {
        records?.forEach((record, i) => {
          stored[i].set(path, record);
          fresh[i].set(path, record);
        });
      }
    });

    const listed = inDirs(options.listedDirs);
    const asked = new Set(paths);
    for (const [i, records] of stored.entries()) {
      // A partial load holds only the files asked for: which others are stored, the stamps tell.
      const storedPaths = options.partial && options.listedDirs?.length ? await this.#storedPaths(kinds[i], records) : [...records.keys()];
      for (const path of storedPaths) {
        if (seen.has(path) || !(asked.has(path) || listed(path))) continue;
        records.delete(path);
        run.remove(i, path);
      }
    }
    await run.end();
    await this.#saveListing(kinds, options.listing, trust === undefined && !options.partial);
    return new CatalogView(new Map(kinds.map((kind, i) => [kind.name, fresh[i]])), counts);
  }

  /**
   * What one refresh's reads share: the counts, the changes not saved yet, and `read`, which
   * brings one changed file's records (`old`, by kind) up to date, queues them for saving and
   * hands them to `onRecords` (undefined: the file could not be read). Changes are saved in
   * batches (`recordBatch`, `DOC_BATCH`) and at least every `SAVE_EVERY_MS`, so that a refresh
   * cut short (Ctrl+C, kill -9) keeps what it read; `end` saves the rest.
   */
  #run(kinds: readonly AnyKind[], options: RefreshOptions) {
    const counts: RefreshCounts = { files: 0, unchanged: 0, touched: 0, appended: 0, read: 0, removed: 0, bytesRead: 0, unreadable: 0 };
    const empty = () => kinds.map((): SectionChanges => ({ put: [], remove: [], docs: [] }));
    let pending = empty();
    let pendingDocs = 0;
    const clock = this.#clock;
    let savedAt = clock();
    let saveTook = 0;
    const flush = async () => {
      // Swap first: other files keep adding changes while this batch is written.
      const batch = pending;
      pending = empty();
      pendingDocs = 0;
      const started = clock();
      for (const [i, kind] of kinds.entries()) await this.#save(kind, batch[i]);
      savedAt = clock();
      saveTook = savedAt - started;
    };
    const due = () => clock() - savedAt >= Math.max(SAVE_EVERY_MS, 10 * saveTook);
    const counter = { bytes: 0 };
    const recordBatch = this.#store?.recordBatch ?? Infinity;
    const read = async (path: string, stat: FileStat, old: readonly (CatalogRecord | undefined)[]): Promise<CatalogRecord[] | undefined> => {
      const jobs = kinds.map((kind, i) => ({ kind, record: old[i] }));
      // A long file's documents are stored while it is read, not held until its end.
      const onDocs = async (i: number, from: number, rows: DocRow[]) => {
        pending[i].docs!.push({ path, from, rows });
        await flush();
      };
      const results = await refreshFile(this.fs, path, stat, jobs, counter, onDocs).catch((error: unknown) => {
        counts.unreadable++;
        counts.firstUnreadable ??= error instanceof Error ? error.message : String(error);
        return undefined;
      });
      if (!results) return undefined;
      counts.files++;
      let outcome: RefreshOutcome = "unchanged";
      for (const [i, result] of results.entries()) {
        if (RANK[result.outcome] > RANK[outcome]) outcome = result.outcome;
        if (result.outcome === "unchanged") continue;
        pending[i].put.push(result.record);
        if (result.outcome === "read" || result.outcome === "appended") {
          const batch: DocBatch = { path, from: result.docsFrom ?? result.from, rows: result.docs ?? [] };
          pending[i].docs!.push(batch);
          pendingDocs += batch.rows.length;
        }
      }
      counts[outcome]++;
      const records = results.map((result) => result.record);
      options.onRecords?.(path, records);
      if (pendingDocs > DOC_BATCH || pending.some((changes) => changes.put.length >= recordBatch) || due()) await flush();
      return records;
    };
    const remove = (i: number, path: string) => {
      pending[i].remove.push(path);
      if (i === 0) counts.removed++;
    };
    const end = async () => {
      await flush();
      counts.bytesRead = counter.bytes;
      if (counts.unreadable > 0) {
        const files = counts.unreadable === 1 ? "1 session file" : `${counts.unreadable} session files`;
        this.#warn("unreadable", `${files} could not be read and ${counts.unreadable === 1 ? "is" : "are"} left out (${counts.firstUnreadable})`);
      }
    };
    return { counts, read, remove, end };
  }

  /** True when a refresh of `kinds` can hold no records (`keep: false`): the store lists stamps and loads by path. */
  #canWalk(kinds: readonly AnyKind[]): boolean {
    return Boolean(this.#store?.loadStamps && this.#store.loadPaths) && !kinds.some((kind) => this.#loaded.has(kind.name));
  }

  /** The stored records of `paths`, by kind, or none (every file is then read again) when the store fails. */
  async #slice(kinds: readonly AnyKind[], paths: readonly string[]): Promise<Map<string, CatalogRecord>[]> {
    try {
      const found = [];
      for (const kind of kinds) found.push(await this.#store!.loadPaths!(kind, paths));
      return found;
    } catch (error) {
      this.#warn("load", `The catalog at ${this.#store!.location} cannot be read (${(error as Error).message}); reading the session files directly`);
      return kinds.map(() => new Map());
    }
  }

  /**
   * `refresh` with `keep: false`: which files changed is decided from the stored stamps alone;
   * records are loaded a slice of files at a time (for unchanged files only when `onRecords`
   * takes them), handed on and dropped. Memory holds a path index entry and three typed-array
   * slots (size, mtime, state) per file.
   */
  async #walk(kinds: readonly AnyKind[], files: readonly string[], options: RefreshOptions): Promise<CatalogView> {
    // One index entry and a few numbers per file, in typed arrays: what a walk holds per session.
    const index = new Map<string, number>();
    for (const path of files) if (!index.has(path)) index.set(path, index.size);
    const paths = index.size === files.length ? files : [...index.keys()];
    const size = new Float64Array(paths.length);
    const mtime = new Float64Array(paths.length);
    /** 0: not a file (gone, unreadable), 1: a file to read, 2: a file whose every section is current. */
    const state = new Uint8Array(paths.length);
    await mapConcurrent(paths, STAT_CONCURRENCY, async (path, k) => {
      const stat = await this.fs.stat(path).catch(() => null);
      if (!stat?.isFile) return;
      size[k] = stat.size;
      mtime[k] = stat.mtimeMs;
      state[k] = 2;
    });
    const statOf = (k: number): FileStat => ({ size: size[k], mtimeMs: mtime[k], isFile: true, isDirectory: false, mode: 0 });
    const pace = pacer(options);
    const run = this.#run(kinds, options);
    const { counts } = run;
    const listed = inDirs(options.listedDirs);
    // Same size and mtime in every section: unchanged. Stamps of files gone: removed.
    for (const [i, kind] of kinds.entries()) {
      let stamps;
      try {
        stamps = await this.#store!.loadStamps!(kind);
      } catch (error) {
        this.#warn("load", `The catalog at ${this.#store!.location} cannot be read (${(error as Error).message}); reading the session files directly`);
        stamps = new Map();
      }
      for (const [path, stamp] of stamps) {
        const k = index.get(path);
        if (k === undefined ? listed(path) : state[k] === 0) run.remove(i, path);
        else if (k !== undefined && (stamp.size !== size[k] || stamp.mtimeMs !== mtime[k])) state[k] = 1;
      }
      // A file without a record in this section is read.
      paths.forEach((path, k) => {
        if (state[k] === 2 && !stamps.has(path)) state[k] = 1;
      });
    }
    const changed: number[] = [];
    state.forEach((s, k) => s === 1 && changed.push(k));
    let done = paths.length - changed.length;
    options.onProgress?.(done, paths.length);
    // Unchanged files: their records only for `onRecords`; one whose record no longer loads is read again.
    let unchanged = 0;
    for (let at = 0; at < paths.length; at += PACED_LOAD) {
      const slice: number[] = [];
      for (let k = at; k < Math.min(at + PACED_LOAD, paths.length); k++) if (state[k] === 2) slice.push(k);
      unchanged += slice.length;
      if (!options.onRecords || slice.length === 0) continue;
      await pace?.();
      const records = await this.#slice(kinds, slice.map((k) => paths[k]));
      for (const k of slice) {
        const found = records.map((r) => r.get(paths[k]));
        if (found.some((r) => r === undefined)) {
          changed.push(k);
          unchanged--;
          options.onProgress?.(--done, paths.length);
          continue;
        }
        options.onRecords(paths[k], found as CatalogRecord[]);
      }
    }
    counts.files += unchanged;
    counts.unchanged += unchanged;
    for (let at = 0; at < changed.length; at += PACED_LOAD) {
      const slice = changed.slice(at, at + PACED_LOAD);
      const old = await this.#slice(kinds, slice.map((k) => paths[k]));
      await mapConcurrent(slice, this.#concurrency, async (k) => {
        await pace?.();
        await run.read(paths[k], statOf(k), old.map((r) => r.get(paths[k])));
        options.onProgress?.(++done, paths.length);
      });
    }
    await run.end();
    // Every file was stat'ed: a full check, whatever the listing allowed.
    await this.#saveListing(kinds, options.listing, true);
    return new CatalogView(new Map(), counts);
  }

  /**
   * The quick check's stats: a file whose stored records (one per section, all alike) pass `trust`
   * gets its records' size and mtime without a stat; the others are stat'ed.
   */
  async #quickStats(
    paths: readonly string[],
    stored: readonly Map<string, CatalogRecord>[],
    trust: (path: string, stamp: RecordStamp) => boolean,
    statOf: (path: string) => Promise<FileStat | null>,
  ): Promise<(FileStat | null)[]> {
    const stats = new Array<FileStat | null>(paths.length).fill(null);
    const todo: number[] = [];
    for (const [i, path] of paths.entries()) {
      const first = stored[0].get(path);
      const alike = first !== undefined && stored.every((records) => {
        const r = records.get(path);
        return r !== undefined && r.size === first.size && r.mtimeMs === first.mtimeMs;
      });
      if (alike && trust(path, first)) stats[i] = { size: first.size, mtimeMs: first.mtimeMs, isFile: true, isDirectory: false, mode: 0 };
      else todo.push(i);
    }
    const found = await mapConcurrent(todo, STAT_CONCURRENCY, (i) => statOf(paths[i]));
    todo.forEach((i, k) => (stats[i] = found[k]));
    return stats;
  }

  close(): void {
    this.#store?.close();
  }
}
