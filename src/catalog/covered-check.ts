/**
 * The quick check without stamps: where the store keeps a section's coverage (`Coverage`), a
 * folder whose mtime is the one it had when its records were last found to be exactly its
 * session files needs no stamp of its own loaded and no name of it split. What is left to prove
 * is what the quick check proves by stats (folder-check.ts): the records modified in the last
 * day (`HOT_MS`, found by the store's index of mtimes) against their files, and the folders
 * that changed, or are not covered, file by file. The cost is one stat per folder and per
 * recent file, not one stamp per file: a warm search of 25,000 sessions in 300 folders loads
 * 300 mtimes and a handful of stamps.
 *
 * The guarantee is the quick check's, no more and no less: new, removed and renamed sessions
 * (their folder's mtime changes) and appends to sessions active in the last day are seen; an
 * append to an older session that leaves its folder alone waits for the next full check.
 * @module
 */
import { dirName } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { type FolderListing, HOT_MS } from "./folder-check.ts";
import type { CatalogStore, Coverage, RecordStamp, SectionKey } from "./store.ts";

/** A store that keeps coverage, recent stamps and stamps by folder. */
export type CoverageStore = CatalogStore & Required<Pick<CatalogStore, "loadCoverage" | "saveCoverage" | "loadRecentStamps" | "loadStampsIn">>;

/** True when `store` can answer the quick check without stamps. */
export function keepsCoverage(store: CatalogStore | null): store is CoverageStore {
  return Boolean(store?.loadCoverage && store.saveCoverage && store.loadRecentStamps && store.loadStampsIn);
}

/** The folders of `coverage` that belong to `listing`'s scope (its project folders, or its dir). */
function inScope(listing: FolderListing): (folder: string) => boolean {
  return listing.nested ? (folder) => dirName(folder) === listing.dir : (folder) => folder === listing.dir;
}

/** A section's coverage to save: folders to put (with their mtimes) and folders to drop. */
export interface CoverageChange {
  put: Map<string, number>;
  drop: string[];
}

/**
 * The coverage that holds once every file of `listing` is found to have a current record of the
 * section and no other record lies under its scope: every folder whose mtime is known, replacing
 * what `coverage` had; covered folders of the scope no longer listed (in `was`, by default
 * `coverage`) are dropped.
 */
export function fullCoverage(listing: FolderListing, coverage: Coverage, was: Coverage = coverage): CoverageChange {
  const put = new Map<string, number>();
  for (const folder of listing.folders) {
    const mtime = listing.mtimes.get(folder);
    if (mtime !== undefined && coverage.folders.get(folder) !== mtime) put.set(folder, mtime);
  }
  const listed = new Set(listing.folders);
  const belongs = inScope(listing);
  const drop = [...was.folders.keys()].filter((folder) => belongs(folder) && !listed.has(folder));
  return { put, drop };
}

/** True when the file at `path` has `stamp`'s size and mtime. */
async function current(fs: FileSystem, path: string, stamp: RecordStamp): Promise<boolean> {
  const stat = await fs.stat(path).catch(() => null);
  return stat?.isFile === true && stat.size === stamp.size && stat.mtimeMs === stamp.mtimeMs;
}

/**
 * Whether every session file of `listing` has a current record of `section`, and no record
 * under its scope is of a file gone, by the quick check (call it only when the quick check is
 * allowed: see `quickTrust`). Covered folders of unchanged mtime are taken whole, apart from
 * their recent records; the other folders are compared file by file, their older files taken
 * on trust where their folder did not change. Gives what to add to the coverage when current,
 * "changed" when not, and "unknown" when no folder of the scope is covered: only a check of every
 * stamp can then tell that no record lies outside the folders (one directly in a nested scope's
 * dir), so coverage starts from such a check (`fullCoverage`) and no record has been added since.
 */
export async function coveredCurrent(
  fs: FileSystem,
  store: CoverageStore,
  section: SectionKey,
  listing: FolderListing,
  coverage: Coverage,
  now: number,
): Promise<CoverageChange | "changed" | "unknown"> {
  const belongs = inScope(listing);
  if (![...coverage.folders.keys()].some(belongs)) return "unknown";
  const hotSince = now - HOT_MS;
  const covered = new Set<string>();
  const uncovered: string[] = [];
  for (const folder of listing.folders) {
    const mtime = listing.mtimes.get(folder);
    if (listing.unchanged.has(folder) && mtime !== undefined && coverage.folders.get(folder) === mtime) covered.add(folder);
    else uncovered.push(folder);
  }
  // Covered folders no longer there: their records (if they had files) are of files gone.
  const listed = new Set(listing.folders);
  const gone = [...coverage.folders.keys()].filter((folder) => belongs(folder) && !listed.has(folder));
  if (gone.length > 0 && (await store.loadStampsIn(section, gone)).size > 0) return "changed";
  // Folders not covered: each file against its stamp, and no stamp without a file.
  const put = new Map<string, number>();
  if (uncovered.length > 0) {
    const stamps = await store.loadStampsIn(section, uncovered);
    let matched = 0;
    for (const folder of uncovered) {
      const trusted = listing.unchanged.has(folder);
      for (const path of listing.filesIn(folder)) {
        const stamp = stamps.get(path);
        if (!stamp) return "changed";
        matched++;
        if (!(trusted && stamp.mtimeMs < hotSince) && !(await current(fs, path, stamp))) return "changed";
      }
      const mtime = listing.mtimes.get(folder);
      if (mtime !== undefined) put.set(folder, mtime);
    }
    if (matched !== stamps.size) return "changed";
  }
  // Covered folders: only their records modified lately are stat'ed.
  for (const [path, stamp] of await store.loadRecentStamps(section, hotSince)) {
    if (covered.has(dirName(path)) && !(await current(fs, path, stamp))) return "changed";
  }
  return { put, drop: gone };
}
