/**
 * What the catalog keeps per session file and section, and the small interface every place
 * it can be kept implements: a SQLite database (with full-text search) or a portable file.
 * @module
 */
import type { DigestState } from "../core/digest/digester.ts";
import type { DocRow } from "../core/digest/docs-digest.ts";
import type { DocBounds } from "../core/search/doc-filter.ts";
import type { ListRowStore } from "./list-row.ts";

/** How many of a file's first bytes are fingerprinted. */
export const HEAD_BYTES = 1024;
/** How many bytes before a record's end are fingerprinted. */
export const TAIL_BYTES = 1024;

/**
 * One section's digest of one file, and what identifies the bytes it was made from: size and
 * mtime (the quick check), the fingerprints of the first bytes and of the bytes just before
 * `end` (an append leaves both alone), and the header id.
 */
export interface CatalogRecord<S = unknown> {
  path: string;
  size: number;
  mtimeMs: number;
  /** Offset just past the last complete line digested. */
  end: number;
  lines: number;
  headHash: string;
  tailHash: string;
  headerId: string | null;
  state: DigestState<S>;
  /** The state including an unterminated last line, when that line changed it. */
  final?: DigestState<S>;
}

/** What tells whether a record is up to date: the size and mtime of the file it was made from. */
export type RecordStamp = Pick<CatalogRecord, "size" | "mtimeMs">;

/** A record's stamp and the session id of its file's header (null: none, or not a usable one). */
export type HeaderStamp = Pick<CatalogRecord, "size" | "mtimeMs" | "headerId">;

/**
 * A section's name and version, as stores key it, and how its states become JSON and back
 * when they are not plain JSON (a `DigestKind` is one).
 */
export interface SectionKey {
  name: string;
  version: number;
  encode?(data: unknown): unknown;
  decode?(stored: unknown): unknown;
  /** A state's data when nothing was read (a `DigestKind` has it): what a stored one is checked against. */
  initial?(): unknown;
  /** True when a store may keep its states compressed: no query of a store reads into them. */
  readonly packed?: boolean;
}

/** Search documents of one file to store: those at offsets `from` and later are replaced. */
export interface DocBatch {
  path: string;
  from: number;
  rows: DocRow[];
}

/** Changes to one section, applied all at once (one transaction, or one atomic file write). */
export interface SectionChanges {
  put: CatalogRecord[];
  remove: string[];
  docs?: DocBatch[];
}

/** A document found by the full-text index, with where to re-read it. */
export interface IndexedDoc {
  path: string;
  entryId: string | null;
  timestamp: string | null;
  role: string;
  part: string;
  line: number;
  offset: number;
  length: number;
}

/**
 * The files a search keeps hits of: those anywhere under `dirs`, or the files `paths`. A store
 * may read only their documents, or give others too (the caller keeps its scope's).
 */
export type DocScope = { dirs: readonly string[] } | { paths: readonly string[] };

/**
 * A listed folder as last seen: its mtime, when it was listed, and the names of the session
 * files in it then. While its mtime stays the same, no name was added, removed or renamed.
 */
export interface FolderRecord {
  path: string;
  mtimeMs: number;
  listedMs: number;
  names: string[];
  /** The names one a line, where the store keeps them so: compared whole, they need no splitting. */
  lines?: string;
  /** How many names, where the store can tell without them (a quick check counts the files of unchanged folders). */
  count?: number;
  /** The fingerprint of `names` in their order (`namesDigest`), where the store keeps one. */
  digest?: string;
}

/** What the quick check keeps: listed folders, and when each section was last checked in full. */
export interface FolderSnapshot {
  folders: Map<string, FolderRecord>;
  /** Section name and version (`listing@2`) → when every file of it was last stat'ed. */
  fullChecks: Map<string, number>;
  /** True where the store keeps each folder's `digest`: a folder stored without one is saved again when listed. */
  digests?: boolean;
}

/**
 * The folders whose records of a section are exactly their session files, each with the mtime
 * the folder had then: while a folder keeps that mtime (and the store no record of the section
 * was added or removed since, which drops its coverage), no file of it lacks a record and no
 * record is of a file gone. `token` tells a later save whether anyone else wrote in between.
 */
export interface Coverage {
  folders: Map<string, number>;
  token: number;
  /**
   * Where the store keeps them: for covered folders, the fingerprint of the files (names, sizes,
   * mtimes: `stampsDigest`) that the folder's records were last found current for. The store
   * forgets a folder's fingerprint as soon as a record of the section in it is written.
   */
  stamps?: Map<string, string>;
}

/**
 * What puts a record's file in attribution order (`stats`), as its effective state
 * (`recordState`) has it: whether it is a session (a header, not rejected), and its header's
 * `timestamp` and `parentSession` where they are strings.
 */
export interface StoredHead {
  path: string;
  /** Where the store keeps the record, for `loadRows`: good until the record is replaced. */
  row: number;
  /** The store's number for the file: a row `loadRows` gives holds it while it is this file's record. */
  file: number;
  session: boolean;
  created?: string;
  parentSession?: string;
  badHeader?: string;
}

/**
 * Answers made from every record of a section, kept for as long as none of those records changes
 * (sqlite-answers.ts): each section counts its changes (its generation), and an answer is kept
 * with the count it was made at.
 */
export interface AnswerStore {
  /** How many changes the section's records have had (0: none counted yet). */
  generation(section: SectionKey): number;
  /** The answer kept under `key`, if it was made at `generation`. */
  load(section: SectionKey, key: string, generation: number): string | undefined;
  /** Keeps an answer made at `generation`, unless the records changed since: then false. */
  save(section: SectionKey, key: string, generation: number, body: string): boolean;
  /**
   * The base kept for the section under `key` (`saveBase`) and the files whose records were
   * written since, now at `generation`; undefined when there is none, or more than `most` files
   * were written.
   */
  loadBase?(section: SectionKey, key: string, generation: number, most: number): AnswerBase | undefined;
  /** Keeps what an answer made at `generation` was made from, to go on from; false as `save`. */
  saveBase?(section: SectionKey, key: string, generation: number, body: Uint8Array): boolean;
  /** The store's number for a file (`StoredHead.file`), undefined when it has none. */
  fileNumber?(path: string): number | undefined;
}

/**
 * What an answer was made from, kept with it for the next one to go on from rather than read
 * every record again (`stats` after pi wrote to one session of 25,000): one per section.
 */
export interface AnswerBase {
  body: Uint8Array;
  /**
   * The files whose records were written since, by number, each once, with their paths (null:
   * forgotten), and whether a record of theirs was dropped on the way (the number may since be
   * another path's).
   */
  changed: { file: number; path: string | null; dropped: boolean }[];
}

/** The number of a record's file (`StoredHead.file`) and its effective state as stored (JSON), as `loadRows` gives them. */
export interface StoredRow {
  file: number;
  text: string;
}

/** What `index --stats` shows about a store. */
export interface StoreDescription {
  kind: string;
  location: string;
  bytes: number;
  sections: { name: string; version: number; records: number }[];
  docs?: number;
}

/** A place the catalog is kept. Every method may throw; the catalog then falls back to reading files. */
export interface CatalogStore {
  /** e.g. "sqlite (bun:sqlite)" or "file". */
  readonly kind: string;
  readonly location: string;
  /** True when the store has a full-text index (`docs` changes and `searchDocs`). */
  readonly supportsDocs: boolean;
  load(section: SectionKey): Promise<Map<string, CatalogRecord>>;
  /** The records of `paths` only, where a store can find them without loading the section. */
  loadPaths?(section: SectionKey, paths: readonly string[]): Promise<Map<string, CatalogRecord>>;
  /** Each record's size and mtime, where a store can list them without loading the records. */
  loadStamps?(section: SectionKey): Promise<Map<string, RecordStamp>>;
  /** Each record's size, mtime and header id, where a store can list them without loading the records. */
  loadHeaderIds?(section: SectionKey): Promise<Map<string, HeaderStamp>>;
  /**
   * Hands each record's size, mtime and header id to `visit`, one row at a time, where a store
   * can list them without holding them all (stamps.ts: a walk keeps a few numbers per file).
   */
  eachStamp?(section: SectionKey, visit: (path: string, size: number, mtimeMs: number, headerId: string | null) => void): Promise<void>;
  /**
   * Each record's header facts, where a store keeps them apart from the records: for a reader
   * that puts files in order first (`stats`: parents before forks), then loads their records a
   * slice at a time. Throws `SyntaxError` for a record whose state has the wrong shape.
   */
  loadHeads?(section: SectionKey): Promise<StoredHead[]>;
  /**
   * As `loadHeads`, one head at a time (in the same order), where a store can hand them so:
   * the heads of every file are never held together. Throws what `loadHeads` throws, possibly
   * after some heads went by.
   */
  eachHead?(section: SectionKey, visit: (head: StoredHead) => void): Promise<void>;
  /**
   * The effective states (`recordState`) of the records at `rows` (from `loadHeads`), by row,
   * as the stored JSON text with their files' numbers (`storedState` reads one); a row since
   * replaced or dropped is missing or holds another file (the caller compares). Cheaper than
   * `loadPaths` for files in an order of their own: no lookup by path, nothing of a record but
   * its file and state, and each state read only when its turn comes.
   */
  loadRows?(section: SectionKey, rows: readonly number[]): Promise<Map<number, StoredRow>>;
  save(section: SectionKey, changes: SectionChanges): Promise<void>;
  /**
   * Where each save is cheap (one transaction), a refresh saves changed records in batches of
   * this many files as it goes, rather than holding them all until it ends; absent, it saves once.
   */
  readonly recordBatch?: number;
  /** The folders listed and the full checks done, where a store keeps them (the quick check). */
  loadFolders?(): Promise<FolderSnapshot>;
  /** Puts `folders` (by path), drops `remove`, and sets the full checks given. */
  saveFolders?(folders: readonly FolderRecord[], remove: readonly string[], fullChecks: ReadonlyMap<string, number>): Promise<void>;
  /** The coverage of `section` (see `Coverage`), where a store keeps it: with the next three, the quick check without stamps. */
  loadCoverage?(section: SectionKey): Promise<Coverage>;
  /**
   * Puts the folders of `put` (each with its fingerprint in `stamps`, or none) and drops those
   * of `drop` in the coverage of `section`, unless another process wrote to the store since
   * `token` was read: then nothing, and false.
   */
  saveCoverage?(section: SectionKey, put: ReadonlyMap<string, number>, drop: readonly string[], token: number, stamps?: ReadonlyMap<string, string>): Promise<boolean>;
  /** The stamps of the records of `section` whose mtime is `since` or later (found by an index, not a walk). */
  loadRecentStamps?(section: SectionKey, since: number): Promise<Map<string, RecordStamp>>;
  /** The stamps of the records of `section` under `folders` (at any depth). */
  loadStampsIn?(section: SectionKey, folders: readonly string[]): Promise<Map<string, RecordStamp>>;
  /** `loadStampsIn` of one folder, each stamp by its path past the folder and its separator (no whole path made). */
  loadNamesIn?(section: SectionKey, folder: string): Promise<Map<string, RecordStamp>>;
  /** How many files the store knows under `dir` (at any depth): no fewer than the records of any section there. */
  countFilesIn?(dir: string): Promise<number>;
  /** How many records of `section`'s name the store holds (any version, anywhere): no fewer than those of the section under any dir. */
  countRecords?(section: SectionKey): Promise<number>;
  /**
   * The header ids of `section`'s records of files under `dir` (any depth) with their paths, in
   * the ids' order (SQLite's: by UTF-8 bytes) from `from`: the ids below it, highest first
   * (`down`), `from` and those above it (`up`), or only those above it (`above`). Read as
   * iterated: a caller that stops early reads a few rows of an index, not 25,000 records
   * (header-id-index.ts).
   */
  headerIdsFrom?(section: SectionKey, dir: string, from: string, direction: "down" | "up" | "above"): Iterable<[id: string, path: string]>;
  /**
   * With `headerIdsFrom`: the first of its rows from each of `ids` (plain ASCII) down and above,
   * in one read where the store can (a search prints 50 ids).
   */
  nearestHeaderIds?(section: SectionKey, dir: string, ids: readonly string[]): [below: [id: string, path: string] | undefined, above: [id: string, path: string] | undefined][];
  /**
   * The files whose stored state of `section` contains every one of `texts` (as JSON writes them)
   * or a `file:` URL: a few rows' worth where most records cannot hold them
   * (`RefreshOptions.mentioning`). Undefined when there are more than `limit` of them (none is held).
   */
  filesMentioning?(section: SectionKey, texts: readonly string[], limit: number): Promise<Set<string> | undefined>;
  /**
   * Runs `read`, whose lookups (`headerIdsFrom` many times over) touch pages scattered over the
   * store, where those pages come cheapest: through a memory map of the file (sqlite-db.ts's
   * `readMapped`). A store without one runs it as it is.
   */
  readingScattered?<T>(read: () => T): T;
  /** With `headerIdsFrom`: the files under `dir` (any depth) whose record of `section` has no header id. */
  headerlessFiles?(section: SectionKey, dir: string): string[];
  /** The listing section's rows (list-row.ts), where a store keeps them: a listing read in order without loading records. */
  readonly listRows?: ListRowStore;
  /** Answers kept beside the records they were made from, where a store keeps them. */
  readonly answers?: AnswerStore;
  /**
   * Candidate documents for an FTS5 MATCH expression, newest first, `limit` from `offset` on;
   * with `within`, those of its files at least (pages from the same `within` meet exactly); with
   * `bounds`, those in them at least (the caller's filter keeps its own).
   */
  searchDocs?(expression: string, offset: number, limit: number, within?: DocScope, bounds?: DocBounds): Promise<IndexedDoc[]>;
  /**
   * True when `searchDocs` given `within` reads the documents of its files alone: then each page
   * costs about what all of them would. May throw (the store's error).
   */
  searchesWithin?(within: DocScope): boolean;
  clear(): Promise<void>;
  describe(): Promise<StoreDescription>;
  /**
   * Gives back the room a large build left unused (free pages, pages half full), where a store
   * can: true when done. Takes seconds on a large catalog: never on a warm path.
   */
  compact?(): boolean;
  close(): void;
}

/** The effective state of a record: with its unterminated last line, if any. */
export function recordState<S>(record: CatalogRecord<S>): DigestState<S> {
  return record.final ?? record.state;
}
