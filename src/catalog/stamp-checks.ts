/**
 * The catalog's answers from stored stamps alone, no record loaded: whether a refresh would
 * change nothing (`unchangedFiles`: by the section's coverage where the store keeps it,
 * covered-check.ts, else stamp by stamp) and which header id each current file's record gives
 * (`currentHeaderIds`). Stamps go by row by row and are kept as a few numbers per file (stamps.ts).
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import type { FileSystem } from "../io/file-system.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { type CoverageChange, coveredWork, coversScope, fullCoverage, keepsCoverage } from "./covered-check.ts";
import type { FolderListing } from "./folder-check.ts";
import { inDirs } from "./in-dirs.ts";
import type { RefreshCounts, RefreshOptions } from "./refresh-options.ts";
import { STAT_CONCURRENCY } from "./refresh-run.ts";
import { eachStamp, FileStamps, fileIndex, PassCollector, type StampVisitor, StoredIds } from "./stamps.ts";
import type { CatalogRecord, CatalogStore, Coverage, RecordStamp } from "./store.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

/** What the checks need of the catalog, for one section and listing. */
export interface StampCheckHost {
  readonly fs: FileSystem;
  readonly store: CatalogStore;
  readonly now: number;
  /** The quick check's test, or undefined for a full check. */
  readonly trust: ((path: string, stamp: RecordStamp) => boolean) | undefined;
  /** True when the catalog holds the section's records (they, not the stored rows, are current). */
  readonly loaded: boolean;
  records(): Promise<Map<string, CatalogRecord>>;
  /** Saves the listing's folders and, with `full`, the section's full check. */
  saveListing(full: boolean): Promise<void>;
  saveCoverage(coverage: Coverage, change: CoverageChange): Promise<void>;
  /** Reads these files again and drops the records of those gone (a refresh of just them), where the catalog can. */
  refreshPaths?(paths: readonly string[]): Promise<RefreshCounts>;
}

/**
 * Changes that `unchangedFiles` reads itself (`readChanged`, through `refreshPaths`) before it
 * answers: an append to a session since the last full check made `stats --all` of 25,000
 * sessions refresh in full, every file stat'ed and every stamp loaded again (1,275 ms against
 * 351 with nothing changed, by hand under load). More than this many are left to the caller's
 * refresh, which shows its progress.
 */
export const FEW_CHANGES = 64;

/** How `unchangedFiles` checks. */
export interface UnchangedOptions extends Pick<RefreshOptions, "listedDirs" | "listing"> {
  /**
   * Read up to `FEW_CHANGES` changed files (and drop the records of files gone) before answering,
   * where the section's coverage tells them: for a caller that reads the stored records only after
   * asking, never one that read some before.
   */
  readChanged?: boolean;
}

/**
 * Catalog.unchanged(): the host's store can list stamps and holds the section's current records
 * (with `readChanged`, once the few changed files the coverage tells were read).
 */
export async function unchangedFiles(
  host: StampCheckHost,
  kind: AnyKind,
  files: readonly string[] | undefined,
  options: UnchangedOptions,
): Promise<boolean> {
  const { store, trust } = host;
  const { listing } = options;
  let coverage: Coverage | undefined;
  try {
    if (listing && keepsCoverage(store)) coverage = await store.loadCoverage(kind);
  } catch {
    coverage = undefined;
  }
  // By coverage where the store keeps it, the quick check or a full one: a full check then stats
  // each folder's files in the folder and compares them with the fingerprint the coverage keeps,
  // no stamp loaded (stamp by stamp, below, a full `search` of 25,000 sessions loaded all 25,000
  // and stat'ed each by its path).
  if (coverage && listing && files === undefined && keepsCoverage(store) && coversScope(listing, options.listedDirs)) {
    const quick = trust !== undefined;
    const few = options.readChanged && host.refreshPaths ? FEW_CHANGES : 0;
    let work;
    try {
      work = await coveredWork(host.fs, store, kind, listing, coverage, { quick, now: host.now, stopAfter: few + 1 });
    } catch {
      return false;
    }
    const changes = work.changed.length + work.gone.length;
    if (changes > few) return false;
    if (changes > 0) {
      const paths = [...work.gone];
      for (let i = 0; i < work.changed.length; i++) paths.push(work.changed.path(i));
      const counts = await host.refreshPaths!(paths).catch(() => undefined);
      if (!counts || counts.unreadable > 0) return false;
    }
    await host.saveListing(!quick);
    // Records written drop the stored coverage: every folder is put again (as after a refresh).
    await host.saveCoverage(coverage, fullCoverage(listing, changes > 0 ? { folders: new Map(), token: coverage.token } : coverage, coverage, work.digests));
    return true;
  }
  const listed = inDirs(options.listedDirs);
  // A few numbers per file (stamps.ts); a stored file not asked for in the listed dirs would be dropped.
  const index = fileIndex(files ?? listing?.files ?? []);
  const collector = new PassCollector();
  let dropped = false;
  try {
    const stamps = await FileStamps.load(store, kind, index, { other: (path) => (dropped ||= listed(path)) });
    if (dropped) return false;
    // One file at a time: the first changed one answers, and no array of thousands of stats is built.
    for (const [path, k] of index) {
      collector.item();
      if (!stamps.found[k]) return false;
      const stamp = { size: stamps.size[k], mtimeMs: stamps.mtimeMs[k] };
      if (trust?.(path, stamp)) continue;
      const stat = await host.fs.stat(path);
      if (!stat?.isFile || stamp.size !== stat.size || stamp.mtimeMs !== stat.mtimeMs) return false;
    }
  } catch {
    return false;
  } finally {
    // Emptied, not just dropped: Bun's engine kept this function's variables alive through the
    // walk that followed (a heap snapshot: the map of 25,000 paths, 3.4 MB).
    index.clear();
  }
  collector.end();
  await host.saveListing(trust === undefined);
  // Every file of the listing has its record, and no other record lies under its scope.
  if (coverage && listing && (files === undefined || files === listing.files)) await host.saveCoverage(coverage, fullCoverage(listing, coverage));
  return true;
}

/** Catalog.storedHeaderIds(). */
export async function currentHeaderIds(
  host: StampCheckHost,
  kind: AnyKind,
  listing: FolderListing,
  listedDirs: readonly string[],
): Promise<StoredIds | undefined> {
  const { store, trust } = host;
  // Loaded first, so that saving it finds whether another process wrote meanwhile.
  let coverage: Coverage | undefined;
  if (keepsCoverage(store) && !host.loaded && coversScope(listing, listedDirs)) coverage = await store.loadCoverage(kind).catch(() => undefined);
  // A few numbers and an id per file (stamps.ts), the stored rows gone through one at a time.
  const index = fileIndex(listing.files);
  const listed = inDirs(listedDirs);
  let dropped = false;
  const other = (path: string) => (dropped ||= listed(path));
  let stamps: FileStamps;
  try {
    const streamed = (store.eachStamp || store.loadHeaderIds) && !host.loaded;
    const each = streamed ? (visit: StampVisitor) => eachStamp(store, kind, visit) : async (visit: StampVisitor) => {
      for (const [path, record] of await host.records()) visit(path, record.size, record.mtimeMs, record.headerId);
    };
    stamps = await FileStamps.from(each, index, { ids: true, other });
  } catch {
    return undefined;
  }
  const current = new Uint8Array(index.size);
  const collector = new PassCollector();
  await mapConcurrent(listing.files, STAT_CONCURRENCY, async (path) => {
    collector.item();
    const k = index.get(path)!;
    if (!stamps.found[k]) return;
    const stamp = { size: stamps.size[k], mtimeMs: stamps.mtimeMs[k] };
    if (!trust?.(path, stamp)) {
      const stat = await host.fs.stat(path).catch(() => null);
      if (!stat?.isFile || stat.size !== stamp.size || stat.mtimeMs !== stamp.mtimeMs) return;
    }
    current[k] = 1;
  });
  collector.end();
  const ids = new StoredIds(index, current, stamps.headerIds!);
  if (ids.size === listing.files.length && !dropped) {
    await host.saveListing(trust === undefined);
    // Every file of the listing has its current record and no other lies under its scope: what
    // coverage says, so that the next run asks the index of ids (header-id-index.ts) instead.
    if (coverage) await host.saveCoverage(coverage, fullCoverage(listing, coverage));
  }
  return ids;
}
