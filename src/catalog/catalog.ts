/**
 * The catalog: per-section digests of session files, brought up to date on demand (stat every
 * file, read only what changed) and kept in a store between runs. Any trouble with the store
 * is reported once through `note` and never fails the caller: without a store, it reads files.
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import type { FileSystem } from "../io/file-system.ts";
import { type CheckMode, checkKey, type FolderListing, listThroughFolders, quickTrust } from "./folder-check.ts";
import { type CoverageChange, coveredWork, coversScope, fullCoverage, keepsCoverage } from "./covered-check.ts";
import { type CatalogOptions, CatalogView, type RefreshOptions } from "./refresh-options.ts";
import { PACED_LOAD, type RefreshRun, startRun } from "./refresh-run.ts";
import { refreshRows, type RowsRefresh } from "./refresh-rows.ts";
import { type LoadedRefreshHost, refreshLoaded } from "./refresh-loaded.ts";
import { walkRefresh } from "./refresh-walk.ts";
import { currentHeaderIds, type StampCheckHost, type UnchangedOptions, unchangedFiles } from "./stamp-checks.ts";
import type { StoredIds } from "./stamps.ts";
import { type HeaderIdIndex, headerIdIndex } from "./header-id-index.ts";
import type { CatalogRecord, CatalogStore, Coverage, FolderSnapshot, RecordStamp, SectionChanges } from "./store.ts";

/** The full-text section's name (docs-digest.ts). */
const FULL_TEXT_SECTION = "docs";
/** Full-text records saved by one catalog from which it compacts its store when closed. */
export const COMPACT_AFTER = 1000;

export { inDirs } from "./in-dirs.ts";
export { type CatalogOptions, CatalogView, type RefreshCounts, type RefreshOptions } from "./refresh-options.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

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
  /** Full-text records this catalog saved: a build of many is compacted when closed. */
  #fullTextSaved = 0;
  #noteSaveFailures: boolean;
  #clock: () => number;
  #check: CheckMode;
  #now: () => number;
  #folders: Promise<FolderSnapshot | null> | undefined;
  readonly #options: CatalogOptions;

  constructor(fs: FileSystem, options: CatalogOptions = {}) {
    this.fs = fs;
    this.#options = options;
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
   * whose mtime changed since the catalog last listed them (every folder with `check` full, its
   * files then all stat'ed by whatever uses the listing); pass it to `refresh` as `listing`.
   */
  async listFiles(dir: string, nested: boolean, check: CheckMode = this.#check): Promise<FolderListing> {
    this.#folders ??= this.#store?.loadFolders ? this.#store.loadFolders().catch(() => null) : Promise.resolve(null);
    return listThroughFolders(this.fs, await this.#folders, dir, { nested, mode: check, now: this.#now() });
  }

  /** True when `kind`'s records over `listing` are checked in full (every file stat'ed), not by the quick check. */
  checksInFull(kind: AnyKind, listing: FolderListing): boolean {
    return this.#trust([kind], listing) === undefined;
  }

  /** The quick check's test for `kinds` over `listing`, or undefined for a full check. */
  #trust(kinds: readonly AnyKind[], listing: FolderListing | undefined): ((path: string, stamp: RecordStamp) => boolean) | undefined {
    return listing && quickTrust(listing, kinds, { mode: this.#check, now: this.#now(), later: this.#options.later });
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
      if (kind.name === FULL_TEXT_SECTION) this.#fullTextSaved += changes.put.length;
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
   * the same size and mtime, and none would be dropped from `listedDirs` (with `readChanged`, once
   * a few changed files are read: stamp-checks.ts). Answered without loading the records where
   * the store can list their stamps; else false (refresh instead). `files` undefined: those of
   * `options.listing`, which then need not be made where the store keeps the section's coverage.
   */
  unchanged(kind: AnyKind, files: readonly string[] | undefined, options: UnchangedOptions = {}): Promise<boolean> {
    const store = this.#store;
    if (!store?.loadStamps || this.#loaded.has(kind.name)) return Promise.resolve(false);
    return unchangedFiles(this.#stampHost(store, kind, options.listing), kind, files, options);
  }

  /**
   * The header id `kind`'s stored record gives each file of `listing` (null: no usable header),
   * for the files whose record is current (by the quick check, else by a stat): a file missing
   * from the answer has no record, a record of other bytes, or is gone. Nothing is read; when
   * every record is current (as `unchanged` tells), the listing (and a full check) is saved.
   * Undefined without a store, or when it cannot be read.
   */
  storedHeaderIds(kind: AnyKind, listing: FolderListing, listedDirs: readonly string[]): Promise<StoredIds | undefined> {
    const store = this.#store;
    if (!store) return Promise.resolve(undefined);
    return currentHeaderIds(this.#stampHost(store, kind, listing), kind, listing, listedDirs);
  }

  /**
   * The stored header ids of `listing`'s current files through the store's index of them
   * (header-id-index.ts), or undefined where it cannot answer (then `storedHeaderIds`).
   */
  headerIdIndex(kind: AnyKind, listing: FolderListing, listedDirs: readonly string[]): Promise<HeaderIdIndex | undefined> {
    const store = this.#store;
    if (!store) return Promise.resolve(undefined);
    return headerIdIndex(this.#stampHost(store, kind, listing), kind, listing, listedDirs);
  }

  /** What stamp-checks.ts needs of this catalog to check `kind`'s stored stamps over `listing`. */
  #stampHost(store: CatalogStore, kind: AnyKind, listing: FolderListing | undefined): StampCheckHost {
    return {
      fs: this.fs,
      store,
      now: this.#now(),
      trust: this.#trust([kind], listing),
      loaded: this.#loaded.has(kind.name),
      records: () => this.#records(kind),
      saveListing: (full) => this.#saveListing([kind], listing, full),
      saveCoverage: (coverage, change) => this.#saveCoverage(kind, coverage, change),
      refreshPaths: async (paths) => (await this.refresh([kind], paths, { partial: true })).counts,
    };
  }

  /** Saves a change of `kind`'s coverage (none when another process wrote since it was loaded). */
  async #saveCoverage(kind: AnyKind, coverage: Coverage, change: CoverageChange): Promise<void> {
    if (change.put.size === 0 && change.drop.length === 0) return;
    try {
      await this.#store?.saveCoverage?.(kind, change.put, change.drop, coverage.token, change.stamps);
    } catch (error) {
      this.#saveProblem ??= (error as Error).message;
    }
  }

  /** Brings the records of `kinds` up to date for `files` and saves what changed. */
  async refresh(kinds: readonly AnyKind[], files: readonly string[], options: RefreshOptions = {}): Promise<CatalogView> {
    const covering = await this.#coverageBefore(kinds, files, options);
    const view = await this.#refresh(kinds, files, options);
    const { counts } = view;
    if (covering && counts.unreadable === 0 && this.#saveProblem === undefined) {
      // After a write every folder is put again (a new record or a removal dropped the coverage); else what differs.
      const wrote = counts.read + counts.appended + counts.touched + counts.removed > 0;
      for (const [i, kind] of kinds.entries()) {
        await this.#saveCoverage(kind, covering[i], fullCoverage(options.listing!, wrote ? { folders: new Map(), token: covering[i].token } : covering[i], covering[i]));
      }
    }
    return view;
  }

  /**
   * The coverage of `kinds` before a refresh that leaves their records exactly the files of its
   * listing (all of them, with every other record under its dir dropped): after it, every folder
   * of the listing is covered, though the refresh's own new records dropped the coverage stored.
   * Undefined for any other refresh, or a store without coverage.
   */
  async #coverageBefore(kinds: readonly AnyKind[], files: readonly string[], options: RefreshOptions): Promise<Coverage[] | undefined> {
    const { listing, listedDirs = [] } = options;
    const store = this.#store;
    if (!listing || options.partial || !keepsCoverage(store) || files !== listing.files || !coversScope(listing, listedDirs)) return undefined;
    try {
      const found = [];
      for (const kind of kinds) found.push(await store.loadCoverage(kind));
      return found;
    } catch {
      return undefined;
    }
  }

  async #refresh(kinds: readonly AnyKind[], files: readonly string[], options: RefreshOptions): Promise<CatalogView> {
    if (options.keep === false && this.#canWalk(kinds)) return new CatalogView(new Map(), await this.#walk(kinds, files, options));
    const trust = options.partial ? undefined : this.#trust(kinds, options.listing);
    const host: LoadedRefreshHost = {
      fs: this.fs,
      concurrency: this.#concurrency,
      trust,
      records: (kind) => this.#records(kind),
      recordsOf: (kind, paths, pace) => this.#recordsOf(kind, paths, pace),
      storedPaths: (kind, loaded) => this.#storedPaths(kind, loaded),
      startRun: (k, o) => this.#run(k, o),
      saveListing: () => this.#saveListing(kinds, options.listing, trust === undefined && !options.partial),
    };
    return refreshLoaded(host, kinds, files, options);
  }

  /** Starts a refresh's reads and saves (refresh-run.ts). */
  #run(kinds: readonly AnyKind[], options: RefreshOptions): RefreshRun {
    const host = {
      fs: this.fs,
      recordBatch: this.#store?.recordBatch ?? Infinity,
      clock: this.#clock,
      save: (kind: AnyKind, changes: SectionChanges) => this.#save(kind, changes),
      warn: (key: string, message: string) => this.#warn(key, message),
    };
    return startRun(host, kinds, options);
  }

  /** True when a refresh of `kinds` can hold no records (`keep: false`): the store lists stamps and loads by path. */
  #canWalk(kinds: readonly AnyKind[]): boolean {
    return Boolean(this.#store?.loadStamps && this.#store.loadPaths) && !kinds.some((kind) => this.#loaded.has(kind.name));
  }

  /** `refresh` with `keep: false` (refresh-walk.ts): the counts; no record is held. */
  #walk(kinds: readonly AnyKind[], files: readonly string[], options: RefreshOptions) {
    const host = {
      fs: this.fs,
      store: this.#store as Parameters<typeof walkRefresh>[0]["store"],
      concurrency: this.#concurrency,
      warn: (key: string, message: string) => this.#warn(key, message),
      startRun: (k: readonly AnyKind[], o: RefreshOptions) => this.#run(k, o),
      saveListing: () => this.#saveListing(kinds, options.listing, true),
    };
    return walkRefresh(host, kinds, files, options);
  }

  /**
   * Brings the listing rows (list-row.ts) of `kind`, the listing section, up to date over
   * `listing` (of `dir`; see refresh-rows.ts). Undefined where the store keeps no rows (or this
   * catalog holds the section loaded), or when the store fails: refresh instead.
   */
  async refreshRows(kind: AnyKind, listing: FolderListing, dir: string, options: RefreshOptions = {}): Promise<RowsRefresh | undefined> {
    const store = this.#store;
    if (!store?.listRows || !store.loadPaths || this.#loaded.has(kind.name)) return undefined;
    const host = {
      fs: this.fs,
      store: store as Parameters<typeof refreshRows>[0]["store"],
      concurrency: this.#concurrency,
      startRun: (k: readonly AnyKind[], o: RefreshOptions) => this.#run(k, o),
      saveListing: (full: boolean) => this.#saveListing([kind], listing, full),
    };
    const trust = this.#trust([kind], listing);
    try {
      // By coverage where the store keeps it: the records tell what changed, and no row's stamp is loaded.
      const coverage = keepsCoverage(store) && store.listRows.flags && listing.dir === dir ? await store.loadCoverage(kind) : undefined;
      // A full check too: from the records, every file stat'ed (and each folder covered after it).
      const covered = coverage && keepsCoverage(store) ? await coveredWork(this.fs, store, kind, listing, coverage, { quick: trust !== undefined, now: this.#now() }) : undefined;
      const refreshed = await refreshRows(host, kind, listing, dir, trust, options, covered);
      // Every file read and every record of a file gone dropped: each folder is covered (all of
      // them put again after a write, which may have dropped the coverage stored).
      if (covered && refreshed.counts.unreadable === 0 && this.#saveProblem === undefined) {
        const wrote = covered.changed.length > 0 || covered.gone.length > 0;
        await this.#saveCoverage(kind, coverage!, fullCoverage(listing, wrote ? { folders: new Map(), token: coverage!.token } : coverage!, coverage, covered.digests));
      }
      return refreshed;
    } catch {
      return undefined;
    }
  }

  /**
   * A catalog over the same store that holds nothing this one loaded: what a long-running server
   * uses for one request, so that the records a request loaded (every session's, for a listing)
   * go with it rather than stay for the server's life. Closing it is closing the store: only the
   * catalog that opened the store closes it.
   */
  sibling(): Catalog {
    return new Catalog(this.fs, this.#options);
  }

  /**
   * Closes the store; after a full-text build of many files (a cold `search` or `index`: minutes
   * at 25,000 sessions), first compacts it: its pages were left part empty by rows inserted out
   * of their keys' order (25,000 sessions: 9% of a 250 MB catalog, 2 to 10 s). A listing or usage
   * build alone (seconds) is not compacted.
   */
  close(): void {
    this.compactIfDue();
    this.#store?.close();
  }

  /** Compacts the store now when `close` would (for a size reported before closing); true when done. */
  compactIfDue(): boolean {
    if (this.#fullTextSaved < (this.#options.compactAfter ?? COMPACT_AFTER)) return false;
    this.#fullTextSaved = 0;
    return this.#store?.compact?.() ?? false;
  }
}
