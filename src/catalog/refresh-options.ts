/**
 * What a `Catalog` takes and gives: its options, a refresh's options and counts, and the view of
 * the records a refresh brought up to date.
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import type { CheckMode, FolderListing } from "./folder-check.ts";
import type { CatalogRecord, CatalogStore } from "./store.ts";

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
  /**
   * Given, a section whose last full check is over a minute old is checked by the quick check
   * all the same, and this is called: the caller makes a full check soon after (folder-check.ts).
   */
  later?: () => void;
  /** The clock of the quick check, in ms; default `Date.now`. */
  now?: () => number;
  /** Full-text records saved from which `close` compacts the store first; default `COMPACT_AFTER` (catalog.ts). */
  compactAfter?: number;
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
  /**
   * With `onRecords`: where the store can tell (`CatalogStore.filesMentioning`), the unchanged
   * files whose stored state of the first section does not contain every one of these texts (nor
   * a `file:` URL) are not handed on, nor loaded. Files read now are all handed on.
   */
  mentioning?: readonly string[];
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
